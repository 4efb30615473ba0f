// cpd, the compressed path database (docs/cpd.md): what its table costs and how fast it answers.
//   cpd_first_move/<map>        the first move of every scenario query: both points attached and one
//                               lookup (median_first_move_us), beside the whole path by first moves
//                               (median_path_us); ns_per_lookup over a million random same-component
//                               pairs; the table's runs, MB and its share of the uncompressed table
//   cpd_rows/<map>/<N>          N rows built alone (seeded sources), for a map too large to build
//                               whole (Aurora: 493,772 free cells): CPU ms and runs per row, and the
//                               whole table projected from them (projected_build_s on one thread,
//                               projected_MB)
// The builds at 1 and 2 threads are build/cpd/<map> (every registered representation, benchmarks.cpp)
// and build/cpd:threads=2/<map> (below). For example:
//   build/navbench_bench --benchmark_filter='cpd_|build/cpd' --benchmark_repetitions=3
// A table may come from a cache folder (NAVBENCH_CPD_CACHE=DIR: cpd's cache=DIR) so that
// cpd_first_move does not build it again; the build benchmarks never read one.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/timing.hpp"
#include "harness/bench/bench_fixture.hpp"
#include "representations/cpd/cpd.hpp"

namespace {

using namespace navbench;

double median(std::vector<double>& v) {
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

std::unique_ptr<CompressedPathDatabase> build_cpd(const Map& m) {
  const char* cache = std::getenv("NAVBENCH_CPD_CACHE");
  Params p = Params::parse(cache && *cache ? std::string("max_cells=1000000,cache=") + cache : "max_cells=1000000");
  return std::make_unique<CompressedPathDatabase>(m, p);
}

void first_move(benchmark::State& state, const char* rel) {
  const bench::MapData* d = bench::map_data(rel);
  if (!d) return state.SkipWithError("map not found (needs ../shared/datasets)");
  const auto cpd = build_cpd(d->map);
  const cpd::NodeOrder& order = cpd->order();
  // A million pairs of ranks in one component, drawn before the timed loop.
  std::mt19937_64 rng(1);
  std::vector<std::pair<Vertex, Vertex>> pairs;
  while (pairs.size() < 1'000'000) {
    const std::uint64_t a = rng() % order.size();
    const std::uint64_t b = rng() % order.size();
    const Vertex s = order.cell_of[a], t = order.cell_of[b];
    if (s != t && cpd->reachable(s, t)) pairs.push_back({s, t});
  }
  const auto queries = bench::scenario_queries(*d, "center", 0);
  std::vector<double> first_us, path_us;
  std::vector<Vertex> path;
  double lookup_ns = 0;
  for (auto _ : state) {
    first_us.clear();
    path_us.clear();
    for (const auto& [s, g] : queries) {
      const auto t0 = base::Clock::now();
      const std::optional<Attachment> a = cpd->attach(s), b = cpd->attach(g);
      if (!a || !b || a->cell == b->cell) continue;
      const Vertex from = Vertex(a->cell), to = Vertex(b->cell);
      if (!cpd->reachable(from, to)) continue;
      benchmark::DoNotOptimize(cpd->first_move(from, to));
      const auto t1 = base::Clock::now();
      benchmark::DoNotOptimize(cpd->walk(from, to, path));
      const auto t2 = base::Clock::now();
      first_us.push_back(base::us_between(t0, t1));
      path_us.push_back(base::us_between(t0, t2));
    }
    const std::clock_t c0 = std::clock();
    unsigned sum = 0;
    for (const auto& [s, t] : pairs) sum += cpd->first_move(s, t);
    benchmark::DoNotOptimize(sum);
    lookup_ns = 1e9 * double(std::clock() - c0) / CLOCKS_PER_SEC / double(pairs.size());
  }
  if (first_us.empty()) return;
  state.counters["median_first_move_us"] = median(first_us);
  state.counters["median_path_us"] = median(path_us);
  state.counters["ns_per_lookup"] = lookup_ns;
  state.counters["free_cells"] = double(order.size());
  state.counters["runs"] = double(cpd->table().runs());
  state.counters["table_MB"] = double(cpd->table().memory_bytes()) / 1e6;
  state.counters["uncompressed_MB"] = double(cpd->uncompressed_bytes()) / 1e6;
  state.counters["from_cache"] = cpd->from_cache();
}

void rows(benchmark::State& state, const char* rel, int n) {
  const bench::MapData* d = bench::map_data(rel);
  if (!d) return state.SkipWithError("map not found (needs ../shared/datasets)");
  const GridGraph g(d->map.grid, true);
  const cpd::NodeOrder order = cpd::make_order(d->map.grid, g, cpd::Order::hilbert);
  cpd::RowBuilder builder(g, order);
  std::mt19937_64 rng(7);
  std::vector<std::uint32_t> sources;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t r = rng() % order.size();
    sources.push_back(std::uint32_t(r));
  }
  std::vector<cpd::FirstMoveTable::Entry> out;
  double cpu_ms = 0, runs = 0;
  for (auto _ : state) {
    runs = 0;
    const std::clock_t c0 = std::clock();  // CPU time: the projection is of CPU work, as on one thread
    for (std::uint32_t s : sources) {
      out.clear();
      runs += double(builder.build(s, out));
    }
    cpu_ms = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
  }
  const double cells = double(order.size());
  state.counters["free_cells"] = cells;
  state.counters["ms_per_row"] = cpu_ms / n;
  state.counters["runs_per_row"] = runs / n;
  state.counters["projected_build_s"] = cells * cpu_ms / n / 1e3;
  state.counters["projected_MB"] = (cells * runs / n * 4 + (cells + 1) * 8) / 1e6;
}

const bool registered = [] {
  for (const char* m : {"dao/den520d", "dao/brc202d"}) {
    benchmark::RegisterBenchmark((std::string("cpd_first_move/") + m).c_str(), first_move, m)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    bench::register_build("cpd:threads=2", m);
  }
  for (const char* m : {"dao/den520d", "dao/brc202d", "sc1/Aurora"})
    benchmark::RegisterBenchmark((std::string("cpd_rows/") + m + "/200").c_str(), rows, m, 200)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  return true;
}();

}  // namespace
