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
#include "harness/run/pipeline.hpp"
#include "datasets/text_lines.hpp"

namespace fs = std::filesystem;

namespace navbench {
namespace {

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

// One representation kept up to date through the scenario.
struct Live {
  RepresentationSpec spec;
  Params params;
  std::unique_ptr<AnyRepresentation> rep;
};

// What one scenario's run writes to and checks.
struct DynamicOutput {
  ResultWriter& writer;
  std::ofstream& updates;
  OptimalityCheck& check;
};

// Builds every representation on the starting map (a build row each); skips the unsupported ones.
std::vector<Live> build_all(const RunConfig& cfg, const Map& map, ResultWriter& writer) {
  std::vector<Live> live;
  for (const auto& spec : cfg.reps) {
    Live l{spec, Params::parse(spec.params), nullptr};
    const auto t0 = Clock::now();
    try {
      l.rep = spec.entry->build(map, l.params);
    } catch (const UnsupportedMap& u) {
      std::cerr << "navbench: skipping " << spec.text << " on " << map.name << ": " << u.what() << '\n';
      continue;
    }
    const double ms = us_since(t0) / 1000.0;
    l.rep->prepare();  // search memory, untimed (search/any_representation.hpp)
    writer.write(make_build_row(map.name, spec, l.params.canonical(), *l.rep, ms));
    live.push_back(std::move(l));
  }
  return live;
}

// Brings every representation up to date after `changed` (in place, else by a rebuild, which is
// then what the update costs): one updates.csv row each.
void update_all(const RunConfig& cfg, const Map& map, const std::vector<CellChange>& changed, long epoch, long patches,
                std::vector<Live>& live, std::ofstream& updates) {
  for (Live& l : live) {
    auto t0 = Clock::now();
    double update_us = 0;
    if (!l.rep->update(map, changed)) {
      update_us = us_since(t0);  // the attempt, then a build as the baseline's
      l.rep.reset();  // free the old build first: peak memory stays one build (untimed, as the baseline's free)
      t0 = Clock::now();
      l.rep = l.spec.entry->build(map, l.params);
    }
    update_us += us_since(t0);
    l.rep->prepare();  // search memory, untimed: the update's and the rebuild's times leave it out alike
    std::optional<double> rebuild;
    if (cfg.rebuild_baseline) {
      t0 = Clock::now();
      auto fresh = l.spec.entry->build(map, l.params);
      rebuild = us_since(t0);
    }
    updates << format_update_row({map.name, l.spec.text, epoch, patches, changed.size(), update_us, rebuild}) << '\n';
  }
  updates.flush();
}

// The queries of one map state: every representation answers each, judged on this state's free space.
void answer_epoch(const RunConfig& cfg, const DynamicScenario& d, const Map& map, const std::vector<const DynamicCommand*>& lines,
                  long& qindex, std::vector<Live>& live, AnyRepresentation* optimum, DynamicOutput& out) {
  const double off = cfg.select.convention == "center" ? 0.5 : 0.0;
  const MapContext ctx = map_context(map, cfg.select.convention);
  FreeSpace free(map);  // the free space of this epoch: validity and the optimum
  std::vector<QueryInput> queries;
  for (const DynamicCommand* c : lines) {
    QueryInput qi;
    qi.start = {c->sx + off, c->sy + off};
    qi.goal = {c->gx + off, c->gy + off};
    qi.scen_index = qindex++;
    qi.sx = c->sx, qi.sy = c->sy, qi.gx = c->gx, qi.gy = c->gy;
    // A negative cost is the competition's "no path" (-1): the column stays empty.
    if (c->costs[std::size_t(d.octile)] >= 0) qi.octile_optimal = c->costs[std::size_t(d.octile)];
    if (optimum) qi.optimal = exact_optimum(*optimum, free, qi.start, qi.goal);
    queries.push_back(qi);
  }
  for (Live& l : live)
    for (SearchMode sm : cfg.unit.searches)
      for (const auto& h : cfg.unit.heuristics)
        for (std::size_t k = 0; k < queries.size(); ++k) {
          const DynamicCommand& c = *lines[k];
          for (auto& r : run_query(ctx, queries[k], *l.rep, l.spec.text, h, cfg.unit.smoothings, free, cfg.unit.paths, nullptr, nullptr, sm,
                                   l.spec.caps())) {
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
  std::unique_ptr<AnyRepresentation> optimum;
  if (cfg.optimum) optimum = build_optimum_graph(map);
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
      if (optimum && !optimum->update(map, changed)) optimum = build_optimum_graph(map);
    }
    std::vector<const DynamicCommand*> lines;
    for (; i < n && d.commands[i].kind == DynamicCommand::query; ++i) lines.push_back(&d.commands[i]);
    if (!lines.empty()) answer_epoch(cfg, d, map, lines, qindex, live, optimum.get(), out);
  }
}

}  // namespace

int run_dynamic(const RunConfig& cfg) {
  // Every scenario (and its patch file) is read and checked before the first query runs.
  std::vector<DynamicScenario> scens;
  for (const auto& p : cfg.dynamic) scens.push_back(load_dynamic_scenario(p));
  write_run_metadata(cfg);
  ResultWriter writer(cfg.out, cfg.unit.paths, {.epoch = true});
  std::ofstream updates(cfg.out + ".updates.csv", std::ios::binary | std::ios::trunc);
  if (!updates) throw std::runtime_error(cfg.out + ".updates.csv: cannot write");
  updates << updates_header() << '\n';
  OptimalityCheck check(cfg.checkopt, cfg.unit.heuristics, cfg.unit.smoothings.front());
  DynamicOutput out{writer, updates, check};
  for (const DynamicScenario& d : scens) run_scenario(cfg, d, out);
  writer.flush();
  return check.finish();
}

}  // namespace navbench
