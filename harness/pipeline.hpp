// The path of one query, as one straight pipeline (DESIGN.md):
//   locate -> search (shared A*) -> polyline -> smooth -> validate -> row
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "harness/registry.hpp"
#include "harness/results.hpp"

namespace navbench {

struct QueryInput {
  Point start, goal;
  ResultRow identity;              // map, collection, scen_index, bucket, sx..gy, convention, octile_optimal
  std::optional<double> optimal;   // exact optimum (visgraph), when known
};

// Runs one query on one built representation and returns one row per smoothing mode.
std::vector<ResultRow> run_query(const QueryInput& in, AnyRepresentation& rep, const std::string& rep_text,
                                 const Heuristic& h, const std::vector<std::string>& smoothings,
                                 const FreeSpace& fs, bool keep_paths);

// The exact Euclidean shortest path length (SPEC §2) from the visibility graph `vis`;
// nullopt when a point is not free or the goal is unreachable.
std::optional<double> exact_optimum(AnyRepresentation& vis, const FreeSpace& fs, Point s, Point g);

}  // namespace navbench
