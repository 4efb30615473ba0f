// The one Google Benchmark fixture for every representation and variant: maps
// and scenarios are loaded once and cached, a representation is built through the registry from
// its `--rep` text ("visgraph:alt=8"), and queries are timed as the pipeline times them
// (harness/run/pipeline.cpp: locate = both points checked free + attach; search = shared A* +
// polyline + corridor). Adding a representation's benchmark is one line in harness/bench/benchmarks.cpp.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "datasets/movingai.hpp"
#include "geometry/map.hpp"
#include "harness/registry/registry.hpp"

namespace navbench::bench {

// A Moving AI map and its scenario, from ../shared/datasets/movingai (rel: "dao/den520d").
struct MapData {
  Map map;
  Scenario scenario;
};
// Cached per process; nullptr when the file is absent (the benchmark then skips).
const MapData* map_data(const std::string& rel);

// The scenario queries: `limit` spread evenly over the file (0: all of them, every bucket either
// way), in the centre (x + 0.5) or corner (x) convention of docs/results.md#query-status.
std::vector<std::pair<Point, Point>> scenario_queries(const MapData& d, const std::string& convention,
                                                      std::size_t limit);

struct QueryCase {
  std::string rep;                 // --rep text: "grid8", "visgraph:alt=8"
  std::string map;                 // "dao/den520d"
  std::string convention = "center";
  std::size_t limit = 0;           // 0: every scenario query
  std::string heuristic = "euclidean";
};

// Builds one representation from its --rep text (one spec: "name" or "name:k=v,..."); throws
// std::out_of_range for an empty text and UnsupportedMap as the representation does.
std::unique_ptr<Planner> build_rep(const std::string& text, const Map& m);

// build/<rep>/<map>: one build per iteration; counters vertices, edges, memory_kb.
void register_build(const std::string& rep, const std::string& map);
// query/<rep>/<map>[/corner][/N][/heuristic]: the median per-query time (median_us, best of 3
// rounds over all queries, wall clock), its locate and search parts (medians), mean expansions, the build
// time and memory of that build (build_ms, memory_kb); the timed loop runs the queries round-robin
// (expansions_per_s). Returns the benchmark so a caller may set its unit or repetitions.
void register_query(const QueryCase& c);
// update/<rep>/<scenario>: a changing-map scenario's updates against rebuilds (bench_dynamic.cpp).
void register_update(const std::string& rep, const std::string& scenario);
// recast_vs/<map>/<rep>/<astar_funnel|detour>: recast beside navmesh:merge=1 (bench_recast.cpp).
void register_recast_vs(const std::string& rel, const std::string& rep, bool detour);
// subgoal_vs/<label>: every scenario query of one map, the subgoal graphs against grid8 (bench_subgoal.cpp).
void register_subgoal_vs(const std::string& label, const std::string& rel, const std::string& rep);

}  // namespace navbench::bench
