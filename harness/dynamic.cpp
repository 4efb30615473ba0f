#include "harness/dynamic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "datasets/dynamic.hpp"
#include "geometry/free_space.hpp"
#include "harness/pipeline.hpp"
#include "harness/results.hpp"

namespace fs = std::filesystem;

namespace navbench {

const char* const kUpdatesHeader = "map,representation,epoch,patches,cells_changed,update_us,rebuild_us";

namespace {

using Clock = std::chrono::steady_clock;
double update_us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }


// One representation kept up to date through the scenario.
struct Live {
  RepresentationSpec spec;
  const RepresentationEntry* entry = nullptr;
  Params params;
  std::unique_ptr<AnyRepresentation> rep;
};

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

int run_dynamic(const RunConfig& cfg) {
  // Every scenario (and its patch file) is read and checked before the first query runs.
  std::vector<DynamicScenario> scens;
  for (const auto& p : cfg.dynamic) scens.push_back(load_dynamic_scenario(p));
  for (const auto& spec : cfg.reps)
    if (!find_representation(spec.name)) throw std::invalid_argument("unknown representation '" + spec.name + "'");

  if (auto dir = fs::path(cfg.out).parent_path(); !dir.empty()) fs::create_directories(dir);
  {
    std::ofstream meta(cfg.out + ".meta.json", std::ios::trunc);
    if (!meta) throw std::runtime_error(cfg.out + ".meta.json: cannot write");
    meta << run_metadata(cfg.argv, cfg.select.seed, config_json(cfg)).dump(2) << '\n';
  }
  ResultWriter writer(cfg.out, cfg.unit.paths, /*epoch=*/true);
  std::ofstream updates(cfg.out + ".updates.csv", std::ios::binary | std::ios::trunc);
  if (!updates) throw std::runtime_error(cfg.out + ".updates.csv: cannot write");
  updates << kUpdatesHeader << '\n';

  std::vector<std::string> admissible;  // heuristics under which grid8 must equal the octile cost
  for (const auto& h : cfg.unit.heuristics)
    if (h.weight <= 1.0 && h.metric != Metric::manhattan) admissible.push_back(h.text);
  const double off = cfg.select.convention == "center" ? 0.5 : 0.0;
  long mismatches = 0, checked = 0;

  for (const DynamicScenario& d : scens) {
    GridMap g;
    g.width = d.width;
    g.height = d.height;
    g.cells.assign(std::size_t(d.width) * std::size_t(d.height), 1);  // SPEC §7: the map starts all free
    Map map = make_grid_map(std::move(g), d.name, fs::absolute(d.path).parent_path().filename().string());
    map.path = d.path;
    const MapContext ctx{map.name, map.collection, cfg.select.convention};

    std::vector<Live> live;
    for (const auto& spec : cfg.reps) {
      Live l;
      l.spec = spec;
      l.entry = find_representation(spec.name);
      l.params = Params::parse(spec.params);
      const auto t0 = Clock::now();
      try {
        l.rep = l.entry->build(map, l.params);
      } catch (const UnsupportedMap& u) {
        std::cerr << "navbench: skipping " << spec.text << " on " << map.name << ": " << u.what() << '\n';
        continue;
      }
      BuildRow b;
      b.build_ms = update_us_since(t0) / 1000.0;
      l.rep->prepare();  // search memory, untimed (registry.hpp)
      b.map = map.name;
      b.representation = spec.text;
      b.params = l.params.canonical();
      const BuildStats st = l.rep->stats();
      b.vertices = st.vertices;
      b.edges = st.edges;
      b.memory_bytes = st.memory_bytes;
      writer.write(b);
      live.push_back(std::move(l));
    }
    if (!cfg.quiet)
      std::cerr << "navbench: " << map.name << " (" << map.collection << "): dynamic, " << d.commands.size() << " commands\n";

    // The exact optimum's graph (pipeline.cpp), kept up to date like the representations.
    std::unique_ptr<AnyRepresentation> optimum;
    if (cfg.optimum) optimum = build_optimum_graph(map);
    long qindex = 0;
    std::size_t i = 0;
    const std::size_t n = d.commands.size();
    std::vector<CellChange> changed;
    while (i < n) {
      // 1. One update: the P commands up to the next query, applied together (SPEC §7).
      changed.clear();
      long patches = 0, epoch = 0;
      while (i < n && d.commands[i].kind == DynamicCommand::place) {
        const DynamicCommand& c = d.commands[i++];
        apply_patch(map.grid, d.patches[std::size_t(c.id)], c.x, c.y, changed);
        ++patches;
        epoch = c.epoch;
      }
      if (patches > 0) {
        for (Live& l : live) {
          auto t0 = Clock::now();
          double update_us = 0;
          if (!l.rep->update(map, changed)) {
            update_us = update_us_since(t0);  // the attempt, then a build as the baseline's
            l.rep.reset();  // free the old build first: peak memory stays one build (untimed, as the baseline's free)
            t0 = Clock::now();
            l.rep = l.entry->build(map, l.params);
          }
          update_us += update_us_since(t0);
          l.rep->prepare();  // search memory, untimed: the update's and the rebuild's times leave it out alike
          std::string rebuild;
          if (cfg.rebuild_baseline) {
            t0 = Clock::now();
            auto fresh = l.entry->build(map, l.params);
            rebuild = fixed3(update_us_since(t0));
          }
          updates << csv_field(map.name) << ',' << csv_field(l.spec.text) << ',' << epoch << ',' << patches << ','
                  << changed.size() << ',' << fixed3(update_us) << ',' << rebuild << '\n';
        }
        updates.flush();
        if (!updates) throw std::runtime_error(cfg.out + ".updates.csv: write failed");
        if (optimum && !optimum->update(map, changed)) optimum = build_optimum_graph(map);
      }

      // 2. The queries of this map state.
      const std::size_t qbegin = i;
      while (i < n && d.commands[i].kind == DynamicCommand::query) ++i;
      if (qbegin == i) continue;
      FreeSpace free(map);  // the free space of this epoch: validity and the optimum
      std::vector<QueryInput> queries;
      std::vector<const DynamicCommand*> lines;
      for (std::size_t k = qbegin; k < i; ++k) {
        const DynamicCommand& c = d.commands[k];
        QueryInput qi;
        qi.start = {c.sx + off, c.sy + off};
        qi.goal = {c.gx + off, c.gy + off};
        qi.scen_index = qindex++;
        qi.sx = c.sx, qi.sy = c.sy, qi.gx = c.gx, qi.gy = c.gy;
        // A negative cost is the competition's "no path" (-1): the column stays empty.
        if (c.costs[std::size_t(d.octile)] >= 0) qi.octile_optimal = c.costs[std::size_t(d.octile)];
        queries.push_back(qi);
        lines.push_back(&c);
      }
      if (optimum)
        for (auto& qi : queries) qi.optimal = exact_optimum(*optimum, free, qi.start, qi.goal);
      for (Live& l : live) {
        const bool check = cfg.checkopt && l.spec.name == "grid8";
        for (const auto& h : cfg.unit.heuristics) {
          const bool admissible_h = std::find(admissible.begin(), admissible.end(), h.text) != admissible.end();
          for (std::size_t k = 0; k < queries.size(); ++k) {
            auto rows = run_query(ctx, queries[k], *l.rep, l.spec.text, h, cfg.unit.smoothings, free, cfg.unit.paths);
            const DynamicCommand& c = *lines[k];
            for (auto& r : rows) {
              r.epoch = c.epoch;
              if (check && admissible_h && r.smoothing == cfg.unit.smoothings.front()) {
                ++checked;
                const double want = c.costs[std::size_t(d.octile)];
                const bool bad = want < 0 ? r.status != Status::no_path  // the file says unreachable
                                          : !r.raw_length || std::abs(*r.raw_length - want) >
                                                                 printed_tolerance(c.cost_text[std::size_t(d.octile)], want);
                if (bad) {
                  ++mismatches;
                  std::cerr << "navbench: checkopt: " << map.name << " query " << r.scen_index << " (line " << c.line
                            << "): grid8 " << (r.raw_length ? format_number(*r.raw_length) : std::string(to_string(r.status)))
                            << " != scenario " << c.cost_text[std::size_t(d.octile)] << '\n';
                }
              }
              writer.write(r);
            }
          }
        }
      }
      writer.flush();
    }
  }
  writer.flush();
  if (cfg.checkopt) {
    std::cerr << "navbench: checkopt: " << checked << " grid8 queries checked, " << mismatches << " mismatches\n";
    if (mismatches > 0) return 3;
  }
  return 0;
}

}  // namespace navbench
