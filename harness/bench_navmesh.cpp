// navmesh / navmesh-vertices on real maps (issue targets: whole build < 20 ms on den520d and brc202d,
// < 200 ms on Aurora; median navmesh query (attach + search) < 20 us on den520d).
// Build benchmarks construct the representation from the loaded map (triangulation, domain marking,
// graph); query benchmarks run the scenario queries round-robin and also report the median time
// of one query (attach both points + shared A*) as the counter `median_us`.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>

#include "datasets/movingai.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "search/astar.hpp"
#include "search/heuristic.hpp"

namespace {

using namespace navbench;

bool load(benchmark::State& state, const char* rel, Map& m) {
  const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/" + rel;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("map not found (needs ../shared/datasets)");
    return false;
  }
  m = load_movingai_map(path);
  return true;
}

template <class R>
void navmesh_build(benchmark::State& state, const char* rel, const char* params) {
  Map m;
  if (!load(state, rel, m)) return;
  BuildStats st;
  for (auto _ : state) {
    Params p = Params::parse(params);
    R rep(m, p);
    st = rep.stats();
    benchmark::DoNotOptimize(st);
  }
  state.counters["vertices"] = double(st.vertices);
  state.counters["edges"] = double(st.edges);
  state.counters["memory_kb"] = double(st.memory_bytes) / 1024.0;
}

// One query as the pipeline runs it: locate both points, then the shared A*.
template <class R>
double run_query(const R& rep, Point s, Point g, const Heuristic& h, SearchWorkspace& ws, SearchStats& st) {
  Query q;
  q.start = s;
  q.goal = g;
  auto a = rep.attach(s);
  auto b = rep.attach(g);
  if (!a || !b) return -1;
  q.s = std::move(*a);
  q.g = std::move(*b);
  q.direct = rep.direct(q);
  if (q.s.component != q.g.component) return SearchWorkspace::kInf;
  return astar(rep, q, h, ws, st);
}

template <class R>
void navmesh_query(benchmark::State& state, const char* rel, const char* params) {
  Map m;
  if (!load(state, rel, m)) return;
  const Scenario sc = load_scenario(std::string(NAVBENCH_SHARED_DATASETS) + "/" + rel + ".scen");
  Params p = Params::parse(params);
  const R rep(m, p);
  const Heuristic h = parse_heuristic("euclidean");
  SearchWorkspace ws;
  std::vector<std::pair<Point, Point>> queries;
  for (const auto& l : sc.lines) queries.push_back({{l.sx + 0.5, l.sy + 0.5}, {l.gx + 0.5, l.gy + 0.5}});
  // Median of single-query times: wall clock (best of 3 runs per query, to drop scheduler noise)
  // and the thread's CPU time (unaffected by other processes on a shared machine).
  auto cpu_now = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) / 1e3;
  };
  std::vector<double> us, cpu_us;
  std::size_t expansions = 0;
  for (const auto& [s, g] : queries) {
    double best = 1e300, best_cpu = 1e300;
    for (int r = 0; r < 3; ++r) {
      SearchStats st;
      const double c0 = cpu_now();
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(run_query(rep, s, g, h, ws, st));
      const auto t1 = std::chrono::steady_clock::now();
      best_cpu = std::min(best_cpu, cpu_now() - c0);
      best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count());
      if (r == 0) expansions += st.expansions;
    }
    us.push_back(best);
    cpu_us.push_back(best_cpu);
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  state.counters["median_us"] = median(us);
  state.counters["median_cpu_us"] = median(cpu_us);
  state.counters["expansions_per_query"] = double(expansions) / double(queries.size());
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [s, g] = queries[i++ % queries.size()];
    SearchStats st;
    benchmark::DoNotOptimize(run_query(rep, s, g, h, ws, st));
  }
}

// BENCHMARK_CAPTURE needs plain function names.
void build_navmesh(benchmark::State& s, const char* rel, const char* p) { navmesh_build<NavMesh>(s, rel, p); }
void build_navmesh_vertices(benchmark::State& s, const char* rel, const char* p) { navmesh_build<NavMeshVertices>(s, rel, p); }
void query_navmesh(benchmark::State& s, const char* rel, const char* p) { navmesh_query<NavMesh>(s, rel, p); }
void query_navmesh_vertices(benchmark::State& s, const char* rel, const char* p) { navmesh_query<NavMeshVertices>(s, rel, p); }

BENCHMARK_CAPTURE(build_navmesh, navmesh_den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh, navmesh_brc202d, "movingai/dao/brc202d.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh, navmesh_aurora, "movingai/sc1/Aurora.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh, navmesh_merge_den520d, "movingai/dao/den520d.map", "merge=1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh, navmesh_merge_aurora, "movingai/sc1/Aurora.map", "merge=1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh_vertices, navmesh_vertices_den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh_vertices, navmesh_vertices_brc202d, "movingai/dao/brc202d.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_navmesh_vertices, navmesh_vertices_aurora, "movingai/sc1/Aurora.map", "")->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(query_navmesh, navmesh_den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_navmesh, navmesh_merge_den520d, "movingai/dao/den520d.map", "merge=1")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_navmesh, navmesh_brc202d, "movingai/dao/brc202d.map", "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_navmesh_vertices, navmesh_vertices_den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMicrosecond);

}  // namespace
