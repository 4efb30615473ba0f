#include "harness/run/dynamic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "datasets/dynamic.hpp"
#include "geometry/free_space.hpp"
#include "harness/results/results.hpp"
#include "harness/run/checkopt.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/timed_build.hpp"
#include "search/outside_planner.hpp"
#include "base/timing.hpp"
#include "base/text.hpp"

namespace fs = std::filesystem;

namespace navbench {
namespace {

// One representation kept up to date through the scenario.
struct Live {
  RepresentationSpec spec;
  std::unique_ptr<AnyRepresentation> rep;  // null while its build on this map state has died
  std::string failed;                      // then why (BuildFailed): the state's queries are error rows
};

// What one scenario's run writes to and checks.
struct DynamicOutput {
  ResultWriter& writer;
  std::ofstream& updates;
  OptimalityCheck& check;
};

// Builds every representation on the starting map (a build row each); skips the unsupported ones.
// One whose build died (an entry's preprocessing) stays, without a build, to be tried again on the
// next map state; its queries meanwhile are error rows.
std::vector<Live> build_all(const RunConfig& cfg, const Map& map, ResultWriter& writer) {
  std::vector<Live> live;
  for (const auto& spec : cfg.reps) {
    TimedBuild b = build_timed(map, spec);
    if (!b.rep && b.failed) {
      std::cerr << "navbench: " << spec.text << " failed on " << map.name << ": " << b.unsupported << '\n';
      live.push_back({spec, nullptr, b.unsupported});
      continue;
    }
    if (!b.rep) {
      std::cerr << "navbench: skipping " << spec.text << " on " << map.name << ": " << b.unsupported << '\n';
      writer.write(UnrunRow{.map = map.name, .collection = map.collection, .representation = spec.text,
                            .convention = cfg.select.convention, .reason = b.capped ? "cap" : "kind", .message = b.unsupported});
      continue;
    }
    writer.write(b.row);
    live.push_back({spec, std::move(b.rep), {}});
  }
  return live;
}

// A fresh build of l on the changed map (the timed build; a map the representation cannot take
// now fails the run with one line, a build that dies leaves l without one). Returns its build row.
BuildRow rebuild(const Map& map, Live& l) {
  TimedBuild b = build_timed(map, l.spec);
  l.failed = b.failed ? b.unsupported : std::string();
  if (!b.rep && !b.failed) throw std::runtime_error(l.spec.text + " cannot be rebuilt on " + map.name + ": " + b.unsupported);
  l.rep = std::move(b.rep);
  return b.row;
}

// Brings every representation up to date after `changed` (in place, else by a rebuild, which is
// then what the update costs): one updates.csv row each.
void update_all(const RunConfig& cfg, const Map& map, const std::vector<CellChange>& changed, long epoch, long patches,
                std::vector<Live>& live, std::ofstream& updates) {
  for (Live& l : live) {
    auto t0 = base::Clock::now();
    double update_us = 0;
    if (l.rep && l.rep->update(map, changed)) {
      update_us = base::us_since(t0);
      l.rep->prepare();  // search memory, untimed: the update's and the rebuild's times leave it out alike
    } else {
      update_us = base::us_since(t0);  // the attempt, then a build as the baseline's
      l.rep.reset();  // free the old build first: peak memory stays one build (untimed, as the baseline's free)
      update_us += rebuild(map, l).build_ms * 1000.0;
    }
    std::optional<double> rebuild_us;
    if (cfg.rebuild_baseline) rebuild_us = build_timed(map, l.spec).row.build_ms * 1000.0;
    updates << format_update_row({map.name, l.spec.text, epoch, patches, changed.size(), update_us, rebuild_us}) << '\n';
  }
  updates.flush();
}

// The queries of one map state: every representation answers each, judged on this state's free space.
void answer_epoch(const RunConfig& cfg, const DynamicScenario& d, const Map& map, const std::vector<const DynamicCommand*>& lines,
                  long& qindex, std::vector<Live>& live, ChangingOptimum* optimum, DynamicOutput& out) {
  const double off = cfg.select.convention == "center" ? 0.5 : 0.0;
  const MapContext mc = map_context(map, cfg.select.convention);
  const AgentSpace space(map, Agent{});  // the point agent on this epoch's free space: validity and the optimum
  const CostModel cost(map);
  std::vector<QueryInput> queries;
  for (const DynamicCommand* c : lines) {
    QueryInput qi;
    qi.start = {c->sx + off, c->sy + off};
    qi.goal = {c->gx + off, c->gy + off};
    qi.scen_index = qindex++;
    qi.sx = c->sx, qi.sy = c->sy, qi.gx = c->gx, qi.gy = c->gy;
    // A negative cost is the competition's "no path" (-1): the column stays empty.
    if (c->costs[std::size_t(d.octile)] >= 0) qi.octile_optimal = c->costs[std::size_t(d.octile)];
    if (optimum) qi.optimal = (*optimum)(space.free(), qi.start, qi.goal);
    queries.push_back(qi);
  }
  // --repetitions: each query's times are the medians of its runs, as on a static map (run.cpp). A
  // planner from outside is told the queries ahead, its repetitions among them, to answer in batches.
  const int reps = std::max(1, cfg.unit.repetitions);
  const auto ends = asked(queries, 0, queries.size(), reps);
  for (Live& l : live)
    for (SearchMode sm : l.spec.searches.empty() ? cfg.unit.searches : l.spec.searches)  // a sweep entry's own searches
      for (const auto& h : cfg.unit.heuristics) {
        if (auto* ahead = dynamic_cast<AnswersAhead*>(l.rep.get())) ahead->expect_queries(ends, nullptr);
        const QueryContext ctx{.map = mc, .space = space, .cost = cost, .rep_text = l.spec.text, .heuristic = h,
                               .smoothings = cfg.unit.smoothings, .rep = l.rep.get(), .search = sm, .caps = l.spec.caps(),
                               .keep_paths = cfg.unit.paths};
        for (std::size_t k = 0; k < queries.size(); ++k) {
          const DynamicCommand& c = *lines[k];
          std::vector<ResultRow> rows;
          if (l.rep) {
            rows = run_query(ctx, queries[k]);
            repeat_for_medians(ctx, queries[k], reps, rows);
          } else {
            rows = rows_for_every_smoothing(identity_row(ctx, queries[k]), ctx.smoothings, Status::error, l.failed);
          }
          for (auto& r : rows) {
            r.epoch = c.epoch;
            if (out.check.applies(l.spec, r)) {
              const double want = c.costs[std::size_t(d.octile)];
              const std::string& want_text = c.cost_text[std::size_t(d.octile)];
              const bool match = want < 0 ? r.status == Status::no_path  // the file says unreachable
                                          : r.raw_length && std::abs(*r.raw_length - want) <= printed_tolerance(want_text, want);
              out.check.record(match,
                               map.name + " query " + std::to_string(r.scen_index) + " (line " + std::to_string(c.line) + "): " + l.spec.text,
                               r.raw_length ? format_number(*r.raw_length) : std::string(to_string(r.status)), want_text);
            }
            out.writer.write(r);
          }
        }
      }
  out.writer.flush();
}

// One scenario: the map starts all free; each run of P commands is one update, each run of Q
// commands the queries of that map state (docs/changing-maps.md).
void run_scenario(const RunConfig& cfg, const DynamicScenario& d, DynamicOutput& out) {
  GridMap g;
  g.width = d.width;
  g.height = d.height;
  g.cells.assign(std::size_t(d.width) * std::size_t(d.height), 1);
  Map map = make_grid_map(std::move(g), d.name, fs::absolute(d.path).parent_path().filename().string());
  map.path = d.path;
  std::vector<Live> live = build_all(cfg, map, out.writer);
  if (!cfg.quiet) std::cerr << "navbench: " << map.name << " (" << map.collection << "): dynamic, " << d.commands.size() << " commands\n";
  // The exact optimum's graph (run/pipeline.cpp), kept up to date like the representations.
  std::optional<ChangingOptimum> optimum;
  if (cfg.optimum) optimum.emplace(map);
  long qindex = 0;
  std::size_t i = 0;
  const std::size_t n = d.commands.size();
  std::vector<CellChange> changed;
  while (i < n) {
    changed.clear();
    long patches = 0, epoch = 0;
    for (; i < n && d.commands[i].kind == DynamicCommand::place; ++i, ++patches) {
      const DynamicCommand& c = d.commands[i];
      apply_patch(map.grid, d.patches[std::size_t(c.id)], c.x, c.y, changed);
      epoch = c.epoch;
    }
    if (patches > 0) {
      update_all(cfg, map, changed, epoch, patches, live, out.updates);
      if (!out.updates) throw std::runtime_error(cfg.out + ".updates.csv: write failed");
      if (optimum) optimum->update(map, changed);
    }
    std::vector<const DynamicCommand*> lines;
    for (; i < n && d.commands[i].kind == DynamicCommand::query; ++i) lines.push_back(&d.commands[i]);
    if (!lines.empty()) answer_epoch(cfg, d, map, lines, qindex, live, optimum ? &*optimum : nullptr, out);
  }
}

// The scenarios' commands, into the run's result files.
int answer_scenarios(const RunConfig& cfg, const std::vector<DynamicScenario>& scens) {
  write_run_metadata(cfg);
  ResultWriter writer(cfg.out, cfg.unit.paths, {.epoch = true, .entry = cfg.entry_columns || any_outside_planner(cfg.reps)});
  std::ofstream updates(cfg.out + ".updates.csv", std::ios::binary | std::ios::trunc);
  if (!updates) throw std::runtime_error(cfg.out + ".updates.csv: cannot write");
  updates << updates_header() << '\n';
  OptimalityCheck check(cfg.checkopt, cfg.unit.heuristics, cfg.unit.smoothings.front());
  DynamicOutput out{writer, updates, check};
  for (const DynamicScenario& d : scens) run_scenario(cfg, d, out);
  writer.flush();
  return check.finish();
}

}  // namespace

int run_dynamic(const RunConfig& cfg) {
  // Every scenario (and its patch file) is read and checked before the first query runs.
  std::vector<DynamicScenario> scens;
  for (const auto& p : cfg.dynamic) scens.push_back(load_dynamic_scenario(p));
  // A refusal for the input from here on removes what the run wrote (docs/results.md#result-files).
  return removing_on_refusal(result_files(cfg.out), [&] { return answer_scenarios(cfg, scens); });
}

}  // namespace navbench
