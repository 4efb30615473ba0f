// A map read and checked, with its selected queries and, per agent radius, what every
// representation of it shares (free space, clearance, the shrunk maps, the exact optimum).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datasets/movingai.hpp"
#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "geometry/tangent_graph.hpp"
#include "harness/run/description.hpp"
#include "harness/run/pipeline.hpp"

namespace navbench {

// A map read and checked, with its queries (built on first use).
struct PreparedMap {
  Map map;
  Scenario scen;
  bool has_scen = false;
  QuerySelection selection;
  std::unique_ptr<FreeSpace> free;
  std::vector<QueryInput> queries;
  bool optimum_done = false;
  bool same_free_cells = true;  // a weighted map's free cells are the plain map's (docs/terrain.md)
  int threads = 1;              // --threads: the reference optimum_cost's queries in parallel too
  // The agent (docs/radius.md): set before build_queries; everything below is per (map, radius).
  std::optional<double> radius;            // a run with --radius / "radii" (rows get `radius`)
  std::unique_ptr<RadiusValidity> rv;      // R > 1e-9: the exact validity test
  std::unique_ptr<TangentGraph> tangent;   // R > 1e-9: the exact optimum, built once, for every representation
  double tangent_build_ms = 0;
  std::unique_ptr<Map> eroded, eroded_cell;  // R > 1e-9: the map shrunk by R (grids: erode=centre, erode=cell; polygons: the shrunk free space, centre holding every clear point, cell inside)

  double R() const { return radius.value_or(0.0); }
  bool disc() const { return R() > kRadiusTolerance; }
  RadiusContext radius_context() const { return {R(), rv.get()}; }
  void build_queries();    // free space + selected queries (random ones drawn here)
  // Fills QueryInput::optimal from the visibility graph (tangent graph for R > 0), once; on a
  // weighted map also QueryInput::optimal_cost from the Steiner-point reference (compute_reference_costs).
  void compute_optimum();
  void compute_reference_costs();  // weighted maps: QueryInput::optimal_cost (docs/terrain.md)
  void compute_octile_costs();  // weighted maps: fills QueryInput::octile_optimal_cost (build_queries calls it)
  // The map a representation builds on: the eroded map for R > 0 ("centre" or "cell" on grid maps,
  // the shrunk free space on polygon maps; geometry/erosion.hpp), else the map.
  const Map& build_map(Erode erode);
  void release() {
    queries.clear();
    queries.shrink_to_fit();
    tangent.reset();
    rv.reset();
    eroded.reset();
    eroded_cell.reset();
    free.reset();
    optimum_done = false;
  }
};

// Reads and checks a map and its scenario (InputError on bad files); nothing heavy yet.
PreparedMap prepare_map(const std::string& path, const QuerySelection& sel);

// The bound the reference optimum's search takes (docs/terrain.md): the octile reference, which its
// graph always matches or beats, plus rounding; +inf without one.
double reference_bound(const std::optional<double>& octile_optimal_cost);

// Files the --map arguments name: each file itself, each directory searched (recursively, sorted)
// for *.map and *.wkt. Throws InputError for a path that does not exist or a directory with no maps.
std::vector<std::string> expand_map_paths(const std::vector<std::string>& maps);

}  // namespace navbench
