// The exact Euclidean shortest path on a grid map under the squeeze rule `allow` (SPEC §11: a path
// may pass through a pinch point, as in Uras & Koenig's any-angle library and Central64). A taut
// shortest path bends only at convex obstacle corners, and with squeezing a pinch point is where
// two of them meet; so the visibility graph over FreeSpace::convex_corners() plus the pinch points,
// its edges tested by the exact validity test with squeezing (FreeSpace built with squeeze = true)
// and kept only where tangent at a convex corner (Lozano-Perez & Wesley, CACM 1979; the rule of
// visgraph.cpp), is exact. visgraph's default build keeps the rule `forbid` (its integer field-of-view
// sweep and line-of-sight walk, visgraph/grid_fov.*, grid_los.hpp, hold that rule); visgraph:pinch=allow
// searches this graph with the shared A* (visgraph.hpp).
#pragma once
#include <optional>
#include <vector>

#include "geometry/free_space.hpp"

namespace navbench {

class SqueezeOptimum {
 public:
  // `fs` must be a grid map's free space built with squeeze = true, and outlive this.
  explicit SqueezeOptimum(const FreeSpace& fs);
  // The exact optimum between two points; nullopt when a point is not free or they are not connected.
  std::optional<double> length(Point s, Point g) const;
  std::size_t nodes() const { return at_.size(); }
  // The graph, for visgraph's pinch=allow build (visgraph.hpp): node positions (the convex corners
  // in FreeSpace::convex_corners() order, then the pinch points), each node's (neighbour, length).
  const std::vector<Point>& points() const { return at_; }
  const std::vector<std::vector<std::pair<std::size_t, double>>>& adjacency() const { return adj_; }
  // The node's line to `other` is useful: tangent at a convex corner; any line at a pinch point.
  bool taut(std::size_t node, Point other) const;
  std::size_t memory_bytes() const;

 private:
  const FreeSpace* fs_;
  std::vector<Point> at_;
  std::vector<std::size_t> corner_;  // index into convex_corners(), or npos for a pinch point
  std::vector<std::vector<std::pair<std::size_t, double>>> adj_;
};

}  // namespace navbench
