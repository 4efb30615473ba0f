// What a representation can do, declared once on its type (`static constexpr Capabilities
// kCapabilities`, docs/adding-a-representation.md): the harness asks these questions, never which
// representation it holds. make_entry (search/make_entry.hpp) holds every registered
// type's declaration against what the type provides at compile time, as Boost.Graph's concept
// checks hold each graph model (test/grid_graph_cc.cpp): a declared feature the type lacks (a typo
// in update()'s signature) or a provided one it does not declare is a compile error.
#pragma once
#include <cstddef>
#include <string>

namespace navbench {

// How a representation meets an agent of radius R > 0 (docs/radius.md).
enum class RadiusSupport {
  shrunk_map,    // builds on the map shrunk by R (erode=centre|cell), or on the map itself (erode=none: R only in the smoother)
  tangent_graph, // the exact disc: builds the tangent graph of the obstacles grown by R
  own_erosion    // erodes the map itself (recast: Recast's walkableRadius): built on the map with its parameter radius=R
};

struct Capabilities {
  RadiusSupport radius = RadiusSupport::shrunk_map;
  bool grid_only = false;        // needs a grid map (a polygon map is skipped with a note)
  bool mesh_only = false;        // needs a map read from a navigation mesh file (.mesh): others are skipped with a note
  bool grid8_optimal = false;    // raw paths are shortest 8-connected grid paths: --checkopt compares them with the scenario
  bool exact = false;            // raw paths are the exact Euclidean shortest paths: it can serve as the optimum's reference
  bool point_vertices = false;   // every vertex is a point of the plane a path passes through
  bool weights = false;          // answers on weighted (terrain) maps
  bool weights_in_place = false; // its update() also follows new cell weights (the viewer's brush); else a weight change rebuilds it
  // Checked against the type's members (the optional concepts of representation.hpp):
  bool corridor = false;          // has a corridor of convex cells (the funnel smoother): corridor()
  bool update_in_place = false;   // updates itself after map changes (update()); otherwise the harness rebuilds it
  bool update_approximate = false;  // an update may leave another structure than a fresh build's (needs update_in_place)
  // An update may leave part of its structure owed, derived later by a query by a rule the type
  // states (subgoal's N-level contraction, visgraph's skip graph and block lists,
  // docs/changing-maps.md): until then its drawing and counts differ from a fresh build's, its
  // answers do not (needs update_in_place, and derive_owed() to do it at once: HasOwedWork).
  bool update_deferred = false;
  bool segment_edges = false;       // every edge is the straight segment between its vertices' points: Theta* applies (needs point_vertices)
  // Its free space differs from the map's (Recast's voxels and simplified contours): its paths may be
  // invalid (the `valid` column says so) and may cross where the map has no free space. A promise.
  bool approximate_space = false;
  // It may miss a path that exists (a sampling roadmap, a voxel mesh that drops small regions): such a
  // query is `no_path` with a message saying why (miss_reason()), counted unsolved, never an error;
  // the batteries hold it to the least number of paths they state per map (docs/testing.md#floors).
  bool may_miss = false;
  bool own_search = false;          // a search of its own (Detour's query): --search detour; own_search()
  bool table_search = false;        // may answer a query from an all-pairs table without a search: table_search()
  // A planner from outside (SPEC §10, harness/gppc): it runs in a child process that times its own
  // build and queries; its build rows carry the column group `entry`. A promise.
  bool outside = false;
  // It plans for a point agent only: at R > 0 its rows are not_applicable (a query invalid for the
  // agent stays invalid_query). A promise.
  bool point_only = false;
  // It may hand its path out in pieces, first moves first (SPEC §15: Outcome::more and next_piece();
  // a graph representation by first_piece()/next_piece(), representation.hpp's HasPieces). The
  // harness times every planner alike, piece by piece; a planner that gives pieces without declaring
  // this is a logic error (the pipeline throws).
  bool pieces = false;
};

// A floor of the test batteries (docs/testing.md#floors), declared on a representation type that may
// miss a path (capability may_miss) beside its capabilities (`static constexpr std::array kFloors`):
// in the battery `battery` (its test suite's name: "Conformance", "UpdateBattery", "ThetaBattery",
// "WeightsBattery", "SmoothingMapsData", "RadiusBattery", "OwnSearch"), its variant with the
// parameters `variant` ("" for its defaults; the batteries' variants: tests/support/battery.cpp) on
// the map `map` ("*": every map of the battery) finds at least `least` of the queries that have a
// path; or, with `skip`, that map (with "*": the battery's cases) is skipped for it with that reason.
struct Floor {
  const char* battery;
  const char* variant;
  const char* map;
  std::size_t least;
  const char* skip = "";
};

// "corridor,update,..." for `navbench list`.
inline std::string describe(const Capabilities& c) {
  std::string s;
  auto add = [&](bool on, const char* what) {
    if (on) s += (s.empty() ? "" : ",") + std::string(what);
  };
  add(c.radius == RadiusSupport::tangent_graph, "radius=tangent-graph");
  add(c.radius == RadiusSupport::shrunk_map, "radius=shrunk-map");
  add(c.radius == RadiusSupport::own_erosion, "radius=own-erosion");
  add(c.grid_only, "grid-only");
  add(c.mesh_only, "mesh-only");
  add(c.grid8_optimal, "grid8-optimal");
  add(c.exact, "exact");
  add(c.point_vertices, "point-vertices");
  add(c.segment_edges, "segment-edges");
  add(c.weights, c.weights_in_place ? "weights=update" : "weights");
  add(c.corridor, "corridor");
  add(c.approximate_space, "approximate-space");
  add(c.may_miss, "may-miss");
  add(c.own_search, "own-search");
  add(c.update_in_place, c.update_approximate ? "update=approximate" : "update=exact");
  add(c.table_search, "table-search");
  add(c.outside, "outside");
  add(c.point_only, "point-only");
  add(c.pieces, "pieces");
  return s;
}

}  // namespace navbench
