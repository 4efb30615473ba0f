// quadtree on real maps (issue 5 targets: build — subdivision, merge, neighbours, graph — under
// 10 ms on den520d and brc202d; median query time below grid8's on the same queries).
// Build benchmarks construct the representation from the loaded map. Query benchmarks take 300
// scenario queries spread evenly over the file (as `--limit 300`), and report the median time of
// one query (attach both points + shared A*, best of 3 runs) as the counter `median_us`; the same
// queries are timed on grid8 by query_grid8_* for the comparison. The timed loop runs them round-robin.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "datasets/movingai.hpp"
#include "representations/grid/grid.hpp"
#include "representations/quadtree/quadtree.hpp"
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

void build_quadtree(benchmark::State& state, const char* rel, const char* params) {
  Map m;
  if (!load(state, rel, m)) return;
  BuildStats st;
  std::size_t leaves = 0, cells = 0;
  for (auto _ : state) {
    Params p = Params::parse(params);
    QuadTree rep(m, p);
    st = rep.stats();
    leaves = rep.quadtree_leaves();
    cells = rep.cell_count();
    benchmark::DoNotOptimize(st);
  }
  state.counters["leaves"] = double(leaves);
  state.counters["cells"] = double(cells);
  state.counters["vertices"] = double(st.vertices);
  state.counters["edges"] = double(st.edges);
  state.counters["memory_kb"] = double(st.memory_bytes) / 1024.0;
}

// One query as the pipeline runs it: locate both points, then the shared A* (different
// components answer at once, as the pipeline does).
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
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component) return SearchWorkspace::kInf;
  return astar(rep, q, h, ws, st);
}

template <class R>
void query(benchmark::State& state, const char* rel, const char* params) {
  Map m;
  if (!load(state, rel, m)) return;
  const Scenario sc = load_scenario(std::string(NAVBENCH_SHARED_DATASETS) + "/" + rel + ".scen");
  Params p = Params::parse(params);
  const R rep(m, p);
  const Heuristic h = parse_heuristic("euclidean");
  SearchWorkspace ws;
  constexpr std::size_t kQueries = 300;
  std::vector<std::pair<Point, Point>> queries;
  const std::size_t n = std::min(kQueries, sc.lines.size());
  for (std::size_t i = 0; i < n; ++i) {
    const ScenarioLine& l = sc.lines[i * sc.lines.size() / n];
    queries.push_back({{l.sx + 0.5, l.sy + 0.5}, {l.gx + 0.5, l.gy + 0.5}});
  }
  std::vector<double> us;
  std::size_t expansions = 0;
  for (const auto& [s, g] : queries) {
    double best = 1e300;
    for (int r = 0; r < 3; ++r) {
      SearchStats st;
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(run_query(rep, s, g, h, ws, st));
      const auto t1 = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count());
      if (r == 0) expansions += st.expansions;
    }
    us.push_back(best);
  }
  std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
  state.counters["median_us"] = us[us.size() / 2];
  state.counters["expansions_per_query"] = double(expansions) / double(queries.size());
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [s, g] = queries[i++ % queries.size()];
    SearchStats st;
    benchmark::DoNotOptimize(run_query(rep, s, g, h, ws, st));
  }
}

// BENCHMARK_CAPTURE needs plain function names.
void query_quadtree(benchmark::State& s, const char* rel, const char* p) { query<QuadTree>(s, rel, p); }
void query_grid8_same(benchmark::State& s, const char* rel, const char* p) { query<Grid8>(s, rel, p); }

BENCHMARK_CAPTURE(build_quadtree, den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_quadtree, brc202d, "movingai/dao/brc202d.map", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_quadtree, den520d_nomerge, "movingai/dao/den520d.map", "merge=0")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_quadtree, aurora, "movingai/sc1/Aurora.map", "")->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(query_quadtree, den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_grid8_same, den520d, "movingai/dao/den520d.map", "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_quadtree, brc202d, "movingai/dao/brc202d.map", "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_grid8_same, brc202d, "movingai/dao/brc202d.map", "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query_quadtree, den520d_nomerge, "movingai/dao/den520d.map", "merge=0")->Unit(benchmark::kMicrosecond);

}  // namespace
