// grid8 A* per query on real Dragon Age maps (issue target: >= 8M expansions per second).
// Runs the scenario queries round-robin; the counter `expansions_per_s` is the search rate.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "datasets/movingai.hpp"
#include "harness/registry.hpp"

namespace {

using namespace navbench;

void grid_astar(benchmark::State& state, const char* rel, const char* rep_name) {
  const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/" + rel;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("map not found (needs ../shared/datasets)");
    return;
  }
  Map m = load_movingai_map(path);
  Scenario sc = load_scenario(path + ".scen");
  Params p;
  auto rep = find_representation(rep_name)->build(m, p);
  const Heuristic h = parse_heuristic("octile");
  std::vector<Query> queries;
  for (const auto& l : sc.lines) {
    Query q;
    q.start = {l.sx + 0.5, l.sy + 0.5};
    q.goal = {l.gx + 0.5, l.gy + 0.5};
    if (rep->locate(q)) queries.push_back(q);
  }
  // One iteration = every scenario query once, so the figure covers all buckets, short and long.
  std::size_t expansions = 0;
  for (auto _ : state) {
    for (const Query& q0 : queries) {
      Query q = q0;
      SearchStats st;
      benchmark::DoNotOptimize(rep->search(q, h, st));
      expansions += st.expansions;
    }
  }
  const double n = double(state.iterations()) * double(queries.size());
  state.counters["expansions_per_s"] = benchmark::Counter(double(expansions), benchmark::Counter::kIsRate);
  state.counters["expansions_per_query"] = double(expansions) / n;
  state.counters["us_per_query"] = benchmark::Counter(n, benchmark::Counter::kIsRate | benchmark::Counter::kInvert) ;
}

BENCHMARK_CAPTURE(grid_astar, grid8_den520d, "movingai/dao/den520d.map", "grid8")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(grid_astar, grid8_brc202d, "movingai/dao/brc202d.map", "grid8")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(grid_astar, grid4_den520d, "movingai/dao/den520d.map", "grid4")->Unit(benchmark::kMillisecond);

}  // namespace
