// Recast/Detour beside navmesh (docs/recast.md): on den520d, brc202d and Aurora, for `recast`
// (defaults), `recast:max_error=0`, `recast:cs=0.5` and `navmesh:merge=1`:
//   recast_vs/<map>/<rep>/astar_funnel  locate + shared A* + polyline + corridor + funnel, per query
//   recast_vs/<map>/<rep>/detour        Detour's own query (findNearestPoly, findPath, findStraightPath)
// over 500 scenario queries (centre convention) spread over the buckets. Counters: median_us (of the
// answered queries, best of the iterations' medians), answered (share of the queries with a path),
// build_ms (one build before timing), memory_kb (BuildStats::memory_bytes: for recast the dtNavMesh
// tiles plus navbench's graph), dtnavmesh_kb (the dtNavMesh tiles' data alone: what a game keeps).
// Skips cleanly when ../shared/datasets is absent. The rows are registered in
// harness/bench/benchmarks.cpp:
//   build/navbench_bench --benchmark_filter=recast_vs
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "harness/bench/bench_fixture.hpp"
#include "representations/recast/detour_mesh.hpp"
#include "representations/recast/recast.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "smoothing/smoothing.hpp"

namespace navbench::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double>& v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void recast_vs(benchmark::State& state, const std::string& rel, const std::string& rep_text, bool detour) {
  const MapData* d = map_data(rel);
  if (!d) return state.SkipWithError("map not found (needs ../shared/datasets/movingai)");
  const auto b0 = Clock::now();
  auto rep = build_rep(rep_text, d->map);
  rep->prepare();
  const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - b0).count();
  double dt_kb = 0;
  if (parse_rep_option(rep_text).at(0).caps().own_search) {  // recast (Detour's query): the dtNavMesh alone, from the same parameters
    Params p = Params::parse(rep_text.find(':') == std::string::npos ? "" : rep_text.substr(rep_text.find(':') + 1));
    dt_kb = double(DetourMesh(d->map, recast_config(p)).data_bytes()) / 1024.0;
  }
  const auto queries = scenario_queries(*d, "center", 500);
  const Heuristic h = parse_heuristic("euclidean");
  double best = 1e300;
  std::size_t answered = 0;
  for (auto _ : state) {
    std::vector<double> us;
    answered = 0;
    for (const auto& [s, g] : queries) {
      const auto t0 = Clock::now();
      bool ok = false;
      Query q;
      q.start = s, q.goal = g;
      const Request r{.search = detour ? SearchMode::detour : SearchMode::astar, .heuristic = &h};
      if (!rep->locate(q, r)) {
        const Outcome o = rep->plan(q, r);
        if (detour) {  // Detour's findStraightPath: its path is final
          ok = o.status == PlanStatus::found;
          benchmark::DoNotOptimize(o.path.data());
        } else if (o.status == PlanStatus::found && o.corridor) {
          Polyline p = funnel_path(s, g, *o.corridor);
          benchmark::DoNotOptimize(p.data());
          ok = true;
        }
      }
      const double t = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      if (ok) us.push_back(t), ++answered;
    }
    best = std::min(best, median(us));
  }
  state.counters["median_us"] = best;
  state.counters["answered"] = double(answered) / double(std::max<std::size_t>(1, queries.size()));
  state.counters["build_ms"] = build_ms;
  state.counters["memory_kb"] = double(rep->figures().stats.memory_bytes) / 1024.0;
  if (dt_kb > 0) state.counters["dtnavmesh_kb"] = dt_kb;
}

}  // namespace

void register_recast_vs(const std::string& rel, const std::string& rep, bool detour) {
  const std::string map = rel.substr(rel.find('/') + 1);
  benchmark::RegisterBenchmark(("recast_vs/" + map + "/" + rep + (detour ? "/detour" : "/astar_funnel")).c_str(),
                               [rel, rep, detour](benchmark::State& s) { recast_vs(s, rel, rep, detour); })
      ->Iterations(3)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace navbench::bench
