#include "harness/bench/bench_fixture.hpp"

#include <benchmark/benchmark.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

#include "geometry/free_space.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/timed_build.hpp"
#include "base/timing.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

namespace navbench::bench {
namespace {

// A warm heap for every benchmark of this binary. glibc serves blocks above its mmap threshold
// (128 KiB at first, raised as such blocks are freed) from fresh pages and hands a large free heap
// top back to the kernel, so a build's big arrays may fault in their pages anew on every build, and
// how often depends on what ran before in the process (docs/measurements.md: the quadtree's arena2
// rebuild alone in a process and after other benchmarks).
// With the thresholds fixed high, memory freed by one build serves the next, as in a long-running
// program, and a benchmark's figures no longer depend on its neighbours. NAVBENCH_BENCH_COLD_HEAP=1
// keeps glibc's defaults.
const bool warm_heap = [] {
  if (const char* cold = std::getenv("NAVBENCH_BENCH_COLD_HEAP"); cold && *cold && *cold != '0') return false;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's maximum on 64-bit
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return true;
}();


double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

std::string stem(const std::string& rel) { return std::filesystem::path(rel).filename().string(); }

struct Timed {
  double locate_us = 0, search_us = 0;
  std::size_t expansions = 0;
};

// One query exactly as harness/run/pipeline.cpp times it (without the row and smoothing stages).
Timed run_one(const Planner& rep, const FreeSpace& fs, Point s, Point g, const Heuristic& h) {
  Timed t;
  Query q;
  q.start = s;
  q.goal = g;
  const Request r{.search = SearchMode::astar, .heuristic = &h};
  const auto t0 = base::Clock::now();
  const bool ok = fs.point_free(s) && fs.point_free(g) && !rep.locate(q, r);
  const auto t1 = base::Clock::now();
  t.locate_us = base::us_between(t0, t1);
  if (!ok) return t;
  Outcome o = rep.plan(q, r);
  while (o.more) rep.next_piece(q, r, o);  // a path in pieces (SPEC §15), whole
  benchmark::DoNotOptimize(o.path.data());
  t.search_us = base::us_between(t1, base::Clock::now());
  t.expansions = o.stats.expansions;
  return t;
}

void build_bench(benchmark::State& state, std::string rep, std::string rel) {
  const MapData* d = map_data(rel);
  if (!d) return state.SkipWithError("map not found (needs ../shared/datasets)");
  BuildStats st;
  try {
    build_rep(rep, d->map);  // a map the variant refuses (e.g. a table over its memory budget) skips
  } catch (const std::exception& e) {
    return state.SkipWithError(e.what());
  }
  for (auto _ : state) {
    auto r = build_rep(rep, d->map);
    st = r->figures().stats;
    benchmark::DoNotOptimize(r);
  }
  state.counters["vertices"] = double(st.vertices);
  state.counters["edges"] = double(st.edges);
  state.counters["memory_kb"] = double(st.memory_bytes) / 1024.0;
}

void query_bench(benchmark::State& state, QueryCase c) {
  const MapData* d = map_data(c.map);
  if (!d) return state.SkipWithError("map not found (needs ../shared/datasets)");
  // The timed build of `navbench run` (harness/run/timed_build.hpp): its build_ms, prepared.
  TimedBuild built;
  try {
    built = build_timed(d->map, parse_rep_option(c.rep).at(0));
  } catch (const std::exception& e) {
    return state.SkipWithError(e.what());
  }
  if (!built.rep) return state.SkipWithError(built.unsupported.c_str());
  const Planner* rep = built.rep.get();
  const double build_ms = built.row.build_ms;
  const FreeSpace fs(d->map);
  const Heuristic h = parse_heuristic(c.heuristic);
  const auto queries = scenario_queries(*d, c.convention, c.limit);
  // Three rounds over all the queries, each query once per round as `navbench run` does (not three
  // times in a row, which would time it with warm caches); per query the best round (drops
  // scheduler noise on a shared machine), then medians.
  std::vector<Timed> best(queries.size());
  std::vector<double> total(queries.size(), 1e300);
  for (int r = 0; r < 3; ++r)
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const Timed t = run_one(*rep, fs, queries[i].first, queries[i].second, h);
      if (t.locate_us + t.search_us < total[i]) total[i] = t.locate_us + t.search_us, best[i] = t;
    }
  std::vector<double> locate, search;
  std::size_t expansions = 0;
  double search_sum = 0;
  for (const Timed& t : best) {
    locate.push_back(t.locate_us);
    search.push_back(t.search_us);
    expansions += t.expansions;
    search_sum += t.search_us;
  }
  const BuildStats bs = rep->figures().stats;
  state.counters["median_us"] = median(total);
  state.counters["locate_us"] = median(locate);
  state.counters["search_us"] = median(search);
  state.counters["expansions_per_query"] = double(expansions) / double(std::max<std::size_t>(1, queries.size()));
  state.counters["queries"] = double(queries.size());
  // The search rate alone (expansions per second of search time), as Warthog reports it.
  state.counters["search_expansions_per_us"] = search_sum > 0 ? double(expansions) / search_sum : 0.0;
  state.counters["build_ms"] = build_ms;
  state.counters["memory_kb"] = double(bs.memory_bytes) / 1024.0;
  // The timed loop: every query once per iteration, round-robin over the file's buckets.
  std::size_t done = 0, exp_loop = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : queries) exp_loop += run_one(*rep, fs, s, g, h).expansions;
    done += queries.size();
  }
  state.counters["us_per_query"] = benchmark::Counter(double(done), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["expansions_per_s"] = benchmark::Counter(double(exp_loop), benchmark::Counter::kIsRate);
}

}  // namespace

const MapData* map_data(const std::string& rel) {
  static std::map<std::string, std::unique_ptr<MapData>> cache;
  if (auto it = cache.find(rel); it != cache.end()) return it->second.get();
  const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/movingai/" + rel + ".map";
  std::unique_ptr<MapData> d;
  if (std::filesystem::exists(path) && std::filesystem::exists(path + ".scen")) {
    d = std::make_unique<MapData>();
    d->map = load_movingai_map(path);
    d->scenario = load_scenario(path + ".scen");
  }
  return (cache[rel] = std::move(d)).get();
}

std::vector<std::pair<Point, Point>> scenario_queries(const MapData& d, const std::string& convention,
                                                      std::size_t limit) {
  const auto& lines = d.scenario.lines;
  const std::size_t m = lines.size(), n = limit ? std::min(limit, m) : m;
  const double off = convention == "corner" ? 0.0 : 0.5;
  std::vector<std::pair<Point, Point>> out;
  for (std::size_t i = 0; i < n; ++i) {
    const ScenarioLine& l = lines[i * m / n];
    out.push_back({{l.sx + off, l.sy + off}, {l.gx + off, l.gy + off}});
  }
  return out;
}

namespace {
// A name registered twice (a variant listed in two groups) runs once.
bool first_time(const std::string& name) {
  static std::vector<std::string> seen;
  if (std::find(seen.begin(), seen.end(), name) != seen.end()) return false;
  seen.push_back(name);
  return true;
}

}  // namespace

void register_build(const std::string& rep, const std::string& map) {
  if (!first_time("build/" + rep + "/" + stem(map))) return;
  benchmark::RegisterBenchmark(("build/" + rep + "/" + stem(map)).c_str(), build_bench, rep, map)
      ->Unit(benchmark::kMillisecond);
}

void register_query(const QueryCase& c) {
  std::string name = "query/" + c.rep + "/" + stem(c.map);
  if (c.convention != "center") name += "/" + c.convention;
  if (c.limit) (name += '/') += std::to_string(c.limit);  // (not "/" + string&&: GCC 12's -Wrestrict false positive, bug 105651)
  if (c.heuristic != "euclidean") name += "/" + c.heuristic;
  if (!first_time(name)) return;
  benchmark::RegisterBenchmark(name.c_str(), query_bench, c)->Unit(benchmark::kMillisecond)->Iterations(1);
}

std::unique_ptr<Planner> build_rep(const std::string& text, const Map& m) {
  const auto specs = parse_rep_option(text);
  Params p = Params::parse(specs.at(0).params);
  return specs.at(0).entry->build(m, p);
}

}  // namespace navbench::bench
