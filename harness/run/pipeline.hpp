// The path of one query, as one straight pipeline (docs/architecture.md#one-query):
//   locate -> search (shared A*) -> polyline -> smooth -> validate -> row
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/description.hpp"

namespace navbench {

// What the rows of one map share (kept once per map, not per query: a million-query scenario
// stays small in memory).
struct MapContext {
  std::string map, collection, convention;
  // A weighted map (docs/terrain.md): where its weights came from (the column `terrain`) and its
  // least cell weight, by which the heuristic is scaled so that it stays admissible.
  bool weighted = false;
  std::string terrain = {};
  double least_weight = 1;
};
// The context of a map's rows.
MapContext map_context(const Map& m, const std::string& convention);

// One query of a scenario: its points and the identity columns of its rows.
struct QueryInput {
  Point start, goal;
  long scen_index = 0;
  int bucket = 0;
  double sx = 0, sy = 0, gx = 0, gy = 0;   // as in the scenario file
  std::optional<double> octile_optimal;    // the scenario's optimum (grid maps)
  std::optional<double> optimal;           // exact optimum (visgraph), when known
  std::optional<double> octile_optimal_cost;  // weighted maps: the least cost of an 8-connected path (docs/terrain.md)
  std::optional<double> optimal_cost;         // weighted maps: the Steiner-point reference optimum (docs/terrain.md)
};

// The agent of a run given --radius / "radii" (docs/radius.md). R <= 1e-9 is the point agent of docs/maps.md
// (every answer as without a radius; rows only gain the column `radius`). For R > 1e-9 the query
// points must keep clearance R, validity is RadiusValidity::path_valid_radius and the smoothers
// test segments for clearance R.
struct RadiusContext {
  double R = 0;
  const RadiusValidity* rv = nullptr;  // required when R > 1e-9
  bool disc() const { return R > kRadiusTolerance; }
};

// The columns a query's rows share whatever happens to it (map, query, configuration).
ResultRow identity_row(const MapContext& ctx, const QueryInput& in, const std::string& rep_text, const Heuristic& h,
                       SearchMode search, const RadiusContext* radius);
// One row per smoothing mode, each a copy of `row` with that status and message.
std::vector<ResultRow> rows_for_every_smoothing(const ResultRow& row, const std::vector<std::string>& smoothings,
                                                Status status, const std::string& message);
// Why a representation without the capability weights answers not_applicable on a weighted map.
std::string no_terrain_message(const std::string& rep_text);

// Runs one query on one built representation and returns one row per smoothing mode.
// `search`: A*, or Theta* / Lazy Theta* where the representation's edges are segments (its
// capability segment_edges; elsewhere the rows are not_applicable). On a weighted map (fs.map()'s
// grid has weights) a representation without the capability weights answers not_applicable.
// With `ws`, the search uses that workspace and `rep` is only read (one workspace per thread).
// `radius`: the run's agent (nullptr: a run without --radius, rows without the column).
std::vector<ResultRow> run_query(const MapContext& ctx, const QueryInput& in, AnyRepresentation& rep,
                                 const std::string& rep_text,
                                 const Heuristic& h, const std::vector<std::string>& smoothings,
                                 const FreeSpace& fs, bool keep_paths, SearchWorkspace* ws = nullptr,
                                 const RadiusContext* radius = nullptr, SearchMode search = SearchMode::astar,
                                 const Capabilities& caps = {});

// The exact Euclidean shortest path length (docs/validity.md) from the visibility graph `vis`;
// nullopt when a point is not free or the goal is unreachable.
std::optional<double> exact_optimum(AnyRepresentation& vis, const FreeSpace& fs, Point s, Point g);

// The graph `exact_optimum` searches: the registry's exact entry (caps.exact) in its reference
// variant, the cheapest exact one to build (the visibility graph without block lists, skip edges
// or landmarks: docs/measurements.md), which matters as the optimum is computed
// once per map and the query count per map is small. nullptr when no exact entry is registered.
std::unique_ptr<AnyRepresentation> build_optimum_graph(const Map& map);

}  // namespace navbench
