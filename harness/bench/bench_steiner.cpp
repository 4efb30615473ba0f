// The Steiner-point reference optimum (geometry/steiner_reference.hpp) on the default job's
// weighted maps, and the choice of its density m (docs/terrain.md's rule: doubling m moves the mean cost by less
// than 0.1 %).
//   steiner/<map>/m:M/uniform:U/side:S/refine:R/landmarks:L   SteinerOptions (U = 0: uniform sides
//                         as dense as weight borders); built at m and at 2m, the same queries on both; counters:
//                         build_ms, points, pieces, memory_mb (at m), median_ms, mean_ms (per query
//                         at m, each with the octile optimum as its upper bound, as the pipeline will
//                         pass it; thread CPU time), mean_cost, mean_cost_2m, change_pct =
//                         100 (mean_cost_2m / mean_cost - 1), median_ms_2m, mean_ms_2m.
// Maps: wc3/icecrown and wc3/golemsinthemist with --terrain S=2,W=5 (24 scenario queries spread over
// the file, as the default job picks them), the generated rooms-32-512 (scripts/default-maps) with
// an inflation layer and a regions layer made in memory (navbench generate costs --seed 1), 48
// queries spread over its scenario. Missing files: the benchmark skips with a message.
//   build/navbench_bench --benchmark_filter=steiner/
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datasets/movingai.hpp"
#include "datasets/terrain.hpp"
#include "geometry/path_cost.hpp"
#include "geometry/steiner_reference.hpp"
#include "harness/run/prepared_map.hpp"

namespace {

using namespace navbench;

struct WeightedCase {
  Map map;
  std::vector<std::pair<Point, Point>> queries;
  std::vector<double> octile;  // octile_optimal_cost per query
};

// Queries floor(i M / n), i < n, of a scenario, centre convention, with their octile optimum: the
// default job's pick and reference, by the pipeline's own AgentMap (the oracle service's grid8).
void add_queries(WeightedCase& c, const Scenario& sc, long n) {
  PreparedMap pm;
  pm.map = c.map;
  pm.scen = sc;
  pm.has_scen = true;
  pm.selection.limit = n;
  const AgentMap am(pm, Agent{}, {.optimum = false});  // the octile costs only
  for (const QueryInput& q : am.queries())
    if (q.octile_optimal_cost) {  // (a goal the weights cut off: the pipeline answers no_path)
      c.queries.push_back({q.start, q.goal});
      c.octile.push_back(*q.octile_optimal_cost);
    }
}

// The weighted map of a case name, loaded once; nullptr (with why) when its files are absent.
const WeightedCase* weighted_case(const std::string& name, std::string& why) {
  static std::map<std::string, std::unique_ptr<WeightedCase>> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second.get();
  auto c = std::make_unique<WeightedCase>();
  if (name == "icecrown" || name == "golemsinthemist") {
    const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/movingai/wc3/" + name + ".map";
    if (!std::filesystem::exists(path)) return why = path + " not found (needs ../shared/datasets)", nullptr;
    c->map = load_terrain_map(path, parse_terrain("S=2,W=5"));
    add_queries(*c, load_scenario(path + ".scen"), 24);
  } else {
    const std::string path = std::string(NAVBENCH_SOURCE_DIR) + "/results/maps/generated512/rooms-32-512.map";
    if (!std::filesystem::exists(path)) return why = path + " not found (run scripts/default-maps build/navbench)", nullptr;
    c->map = load_movingai_map(path);
    CostLayerOptions o;
    o.kind = name == "rooms-inflation" ? "inflation" : "regions";
    o.seed = 1;
    const std::vector<double> w = generate_cost_layer(c->map.grid, o);
    c->map.grid.weights.assign(w.size(), 1.0);
    for (std::size_t i = 0; i < w.size(); ++i)
      if (std::isfinite(w[i]) && c->map.grid.cells[i]) c->map.grid.weights[i] = w[i];
      else c->map.grid.cells[i] = 0;
    c->map.terrain = name;
    add_queries(*c, load_scenario(path + ".scen"), 48);
  }
  return (cache[name] = std::move(c)).get();
}

// This thread's CPU time in ms: the machine is shared (2 cores, several jobs), so query and build
// times are CPU time, not wall clock.
double cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

struct Run {
  double build_ms = 0, median_ms = 0, mean_ms = 0, mean_cost = 0, expansions = 0;
  std::size_t points = 0, pieces = 0, memory = 0, answered = 0;
};

Run run(const WeightedCase& c, SteinerOptions o) {
  Run r;
  const double t0 = cpu_ms();
  const SteinerReference ref(c.map.grid, o);
  r.build_ms = cpu_ms() - t0;
  r.points = ref.points(), r.pieces = ref.pieces(), r.memory = ref.memory_bytes();
  SteinerReference::Workspace ws;
  std::vector<double> times;
  for (std::size_t i = 0; i < c.queries.size(); ++i) {
    const double q0 = cpu_ms();
    const auto p = ref.shortest(c.queries[i].first, c.queries[i].second, ws, c.octile[i]);
    times.push_back(cpu_ms() - q0);
    if (!p) continue;  // cannot happen below the octile bound; counted by `answered`
    r.mean_cost += p->cost;
    r.expansions += double(p->expansions);
    ++r.answered;
  }
  r.mean_cost /= double(std::max<std::size_t>(1, r.answered));
  r.expansions /= double(std::max<std::size_t>(1, r.answered));
  r.median_ms = median(times);
  for (double t : times) r.mean_ms += t / double(times.size());
  return r;
}

void steiner(benchmark::State& state, const char* name) {
  std::string why;
  const WeightedCase* c = weighted_case(name, why);
  if (!c) return state.SkipWithError(why.c_str());
  // Arguments: m, uniform_steps (0: as dense as the weight borders, m rounded up to even),
  // max_side, refine.
  SteinerOptions o;
  o.m = int(state.range(0));
  o.max_side = int(state.range(2));
  o.refine = state.range(3) != 0;
  o.landmarks = int(state.range(4));
  const auto at = [&](int m) {
    SteinerOptions x = o;
    x.m = m;
    x.uniform_steps = state.range(1) ? int(state.range(1)) : std::max(2, m + m % 2);
    return x;
  };
  Run a, b;
  for (auto _ : state) {
    a = run(*c, at(o.m));
    b = run(*c, at(2 * o.m));
  }
  state.counters["queries"] = double(c->queries.size());
  state.counters["answered"] = double(a.answered);
  state.counters["build_ms"] = a.build_ms;
  state.counters["points"] = double(a.points);
  state.counters["pieces"] = double(a.pieces);
  state.counters["memory_mb"] = double(a.memory) / (1 << 20);
  state.counters["median_ms"] = a.median_ms;
  state.counters["mean_ms"] = a.mean_ms;
  state.counters["expansions"] = a.expansions;
  state.counters["mean_cost"] = a.mean_cost;
  state.counters["mean_cost_2m"] = b.mean_cost;
  state.counters["change_pct"] = 100 * (b.mean_cost / a.mean_cost - 1);
  state.counters["median_ms_2m"] = b.median_ms;
  state.counters["mean_ms_2m"] = b.mean_ms;
}

const bool registered = [] {
  for (const char* name : {"icecrown", "golemsinthemist", "rooms-inflation", "rooms-regions"})
    benchmark::RegisterBenchmark((std::string("steiner/") + name).c_str(), steiner, name)
        ->ArgNames({"m", "uniform", "side", "refine", "landmarks"})
        ->Args({2, 6, 8, 1, 4})   // the defaults
        ->Args({2, 4, 8, 1, 4})   // 4 steps on sides of one weight
        ->Args({2, 2, 8, 1, 4})   // ends and midpoints alone on sides of one weight
        ->Args({4, 4, 8, 1, 4})   // m = 4 against 8
        ->Args({2, 2, 8, 0, 4})   // the graph alone, without the refinement
        ->Args({4, 2, 8, 0, 4})
        ->Args({2, 2, 4, 1, 4})   // pieces' sides
        ->Args({2, 2, 16, 1, 4})
        ->Args({2, 2, 8, 1, 0})   // landmarks
        ->Args({2, 2, 8, 1, 8})
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
