// Subgoal graphs (levels 1, 2, 16; 16 is the default) against grid8: every scenario query of den520d, brc202d and Aurora,
// octile heuristic, timed one by one. Counters: median_us = locate + search (the figure compared
// with Warthog's JPS+ `nanos`, which times its search), median_poly_us adds the polyline,
// expansions_per_query, memory_MB (BuildStats::memory_bytes) and build_s. Compare contenders in one run, interleaved:
//   build/navbench_bench --benchmark_filter=subgoal_vs --benchmark_repetitions=5
//                        --benchmark_enable_random_interleaving=true
#include <string>
#include <memory>
#include <vector>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "base/timing.hpp"
#include "datasets/movingai.hpp"
#include "harness/bench/bench_fixture.hpp"
#include "harness/registry/registry.hpp"
#include "representations/grid/grid.hpp"
#include "representations/subgoal/subgoal.hpp"
#include "search/graph_planner.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

namespace {

using namespace navbench;

// The built graph planner of the representation types compared here (none: not one of them).
template <class R>
const R* as(const Planner& p) {
  const auto* g = dynamic_cast<const GraphPlanner<R>*>(&p);
  return g ? &g->representation() : nullptr;
}

// One query timed as the figure compared with JPS+ (locate + search, no polyline) and with its polyline.
template <class R>
bool time_query(const R& r, SearchWorkspace& ws, Query& q, const Heuristic& h, SearchStats& st, std::vector<double>& us,
                std::vector<double>& poly_us) {
  const auto t0 = base::Clock::now();
  auto s = [&] {
    if constexpr (HasRoleAttach<R>) return r.attach_start(q.start);
    else return r.attach(q.start);
  }();
  auto g = [&] {
    if constexpr (HasRoleAttach<R>) return r.attach_goal(q.goal);
    else return r.attach(q.goal);
  }();
  if (!s || !g) return false;
  q.s = std::move(*s), q.g = std::move(*g);
  q.direct = r.direct(q);
  benchmark::DoNotOptimize(astar(r, q, h, ws, st));
  const auto t1 = base::Clock::now();
  benchmark::DoNotOptimize(r.polyline(q));
  const auto t2 = base::Clock::now();
  us.push_back(base::us_between(t0, t1));
  poly_us.push_back(base::us_between(t0, t2));
  return true;
}

void subgoal_vs(benchmark::State& state, const char* rel, const char* rep_text) {
  const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/movingai/" + rel;
  if (!std::filesystem::exists(path)) return state.SkipWithError("map not found (needs ../shared/datasets)");
  const Map m = load_movingai_map(path);
  const Scenario sc = load_scenario(path + ".scen");
  const RepresentationSpec spec = parse_rep_option(rep_text).at(0);
  Params p = Params::parse(spec.params);
  const auto b0 = base::Clock::now();
  auto rep = spec.entry->build(m, p);
  rep->prepare();
  const double build_s = base::s_since(b0);
  const SubgoalGraph* sg = as<SubgoalGraph>(*rep);
  const Grid8* g8 = as<Grid8>(*rep);
  if (!sg && !g8) return state.SkipWithError("subgoal_vs compares subgoal graphs and grid8");
  SearchWorkspace ws;
  const Heuristic h = parse_heuristic("octile");
  std::vector<double> us, poly_us;
  std::size_t expansions = 0, queries = 0, start_links = 0, goal_links = 0;
  for (auto _ : state) {
    for (const auto& l : sc.lines) {
      Query q;
      q.start = {l.sx + 0.5, l.sy + 0.5};
      q.goal = {l.gx + 0.5, l.gy + 0.5};
      SearchStats st;
      if (!(sg ? time_query(*sg, ws, q, h, st, us, poly_us) : time_query(*g8, ws, q, h, st, us, poly_us))) continue;
      expansions += st.expansions;
      start_links += q.s.links.size(), goal_links += q.g.links.size();
      ++queries;
    }
  }
  if (us.empty()) return;
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  state.counters["median_us"] = median(us);
  state.counters["median_poly_us"] = median(poly_us);
  state.counters["expansions_per_query"] = double(expansions) / double(queries);
  state.counters["start_links"] = double(start_links) / double(queries);  // per query, attach's links
  state.counters["goal_links"] = double(goal_links) / double(queries);
  const BuildStats bs = rep->figures().stats;
  state.counters["vertices"] = double(bs.vertices);
  state.counters["edges"] = double(bs.edges);
  state.counters["memory_MB"] = double(bs.memory_bytes) / 1e6;  // the build's own bytes
  state.counters["build_s"] = build_s;
}

}  // namespace

namespace navbench::bench {
void register_subgoal_vs(const std::string& label, const std::string& rel, const std::string& rep) {
  static std::vector<std::unique_ptr<std::string>> texts;
  texts.push_back(std::make_unique<std::string>(rel));
  const char* m = texts.back()->c_str();
  texts.push_back(std::make_unique<std::string>(rep));
  const char* r = texts.back()->c_str();
  benchmark::RegisterBenchmark(("subgoal_vs/" + label).c_str(), subgoal_vs, m, r)->Unit(benchmark::kMillisecond);
}
}  // namespace navbench::bench
