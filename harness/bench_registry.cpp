// Build and query of every registered representation on real maps (issue 8): one benchmark per
// (representation, map) for the build, and one for the queries (locate + search + polyline), with
// the median per-query time as a counter (the issues' targets are medians).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "datasets/movingai.hpp"
#include "harness/registry.hpp"

namespace {

using namespace navbench;

const char* kMaps[] = {"dao/den520d.map", "dao/brc202d.map"};

struct Loaded {
  Map map;
  std::vector<Query> queries;  // up to 500 scenario queries spread over all buckets, cell centres
};

const Loaded* load(const std::string& rel) {
  static std::map<std::string, Loaded> cache;
  auto it = cache.find(rel);
  if (it != cache.end()) return &it->second;
  const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/movingai/" + rel;
  if (!std::filesystem::exists(path)) return nullptr;
  Loaded l;
  l.map = load_movingai_map(path);
  Scenario s = load_scenario(path + ".scen");
  const std::size_t n = std::min<std::size_t>(500, s.lines.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& line = s.lines[i * s.lines.size() / n];
    Query q;
    q.start = {line.sx + 0.5, line.sy + 0.5};
    q.goal = {line.gx + 0.5, line.gy + 0.5};
    l.queries.push_back(q);
  }
  return &(cache[rel] = std::move(l));
}

void build(benchmark::State& state, const RepresentationEntry* e, std::string rel) {
  const Loaded* l = load(rel);
  if (!l) return state.SkipWithError("map not found (needs ../shared/datasets)");
  std::size_t bytes = 0;
  for (auto _ : state) {
    Params p;
    auto rep = e->build(l->map, p);
    bytes = rep->stats().memory_bytes;
    benchmark::DoNotOptimize(rep);
  }
  state.counters["memory_bytes"] = double(bytes);
}

void query(benchmark::State& state, const RepresentationEntry* e, std::string rel) {
  const Loaded* l = load(rel);
  if (!l) return state.SkipWithError("map not found (needs ../shared/datasets)");
  Params p;
  auto rep = e->build(l->map, p);
  const Heuristic h = parse_heuristic("euclidean");
  std::vector<double> us(l->queries.size());
  std::size_t expansions = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < l->queries.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      Query q = l->queries[i];
      if (rep->locate(q)) {
        SearchStats st;
        if (!(q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component)) {
          benchmark::DoNotOptimize(rep->search(q, h, st));
          benchmark::DoNotOptimize(rep->polyline(q));
        }
        expansions += st.expansions;
      }
      us[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
  }
  std::nth_element(us.begin(), us.begin() + long(us.size() / 2), us.end());
  state.counters["median_us"] = us[us.size() / 2];
  state.counters["queries"] = double(l->queries.size());
  state.counters["expansions_per_s"] = benchmark::Counter(double(expansions), benchmark::Counter::kIsRate);
}

const bool registered = [] {
  for (const auto& e : representations())
    for (const char* m : kMaps) {
      const std::string stem = std::filesystem::path(m).stem().string();
      benchmark::RegisterBenchmark(("build/" + e.name + "/" + stem).c_str(), build, &e, std::string(m))
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("query/" + e.name + "/" + stem).c_str(), query, &e, std::string(m))
          ->Unit(benchmark::kMillisecond);
    }
  return true;
}();

}  // namespace
