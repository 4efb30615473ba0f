// What a registered representation can do, declared next to its factory (harness/registry/):
// the harness asks these questions, never which representation it holds.
#pragma once
#include <string>

namespace navbench {

// How a representation meets an agent of radius R > 0 (docs/radius.md).
enum class RadiusSupport {
  shrunk_map,    // builds on the map shrunk by R (erode=centre|cell), or on the map itself (erode=none: R only in the smoother)
  tangent_graph  // the exact disc: builds the tangent graph of the obstacles grown by R
};

struct Capabilities {
  RadiusSupport radius = RadiusSupport::shrunk_map;
  bool grid_only = false;        // needs a grid map (a polygon map is skipped with a note)
  bool grid8_optimal = false;    // raw paths are shortest 8-connected grid paths: --checkopt compares them with the scenario
  bool exact = false;            // raw paths are the exact Euclidean shortest paths: it can serve as the optimum's reference
  bool point_vertices = false;   // every vertex is a point of the plane a path passes through
  bool weights = false;          // answers on weighted (terrain) maps
  bool weights_in_place = false; // its update() also follows new cell weights (the viewer's brush); else a weight change rebuilds it
  // Read off the type by make_entry (the optional concepts of representation.hpp):
  bool corridor = false;          // has a corridor of convex cells (the funnel smoother)
  bool update_in_place = false;   // updates itself after map changes; otherwise the harness rebuilds it
  bool update_approximate = false;  // an update may leave another structure than a fresh build's
  bool segment_edges = false;       // every edge is the straight segment between its vertices' points: Theta* applies
};

// "corridor,update,..." for `navbench list`.
inline std::string describe(const Capabilities& c) {
  std::string s;
  auto add = [&](bool on, const char* what) {
    if (on) s += (s.empty() ? "" : ",") + std::string(what);
  };
  add(c.radius == RadiusSupport::tangent_graph, "radius=tangent-graph");
  add(c.radius == RadiusSupport::shrunk_map, "radius=shrunk-map");
  add(c.grid_only, "grid-only");
  add(c.grid8_optimal, "grid8-optimal");
  add(c.exact, "exact");
  add(c.point_vertices, "point-vertices");
  add(c.segment_edges, "segment-edges");
  add(c.weights, c.weights_in_place ? "weights=update" : "weights");
  add(c.corridor, "corridor");
  add(c.update_in_place, c.update_approximate ? "update=approximate" : "update=exact");
  return s;
}

}  // namespace navbench
