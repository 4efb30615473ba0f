// How a path would be walked, beyond its length (docs/path-quality.md): its clearance, the least
// distance from any point of the path to an obstacle, and its turning, the sum of its absolute
// heading changes. Robot planning benchmarks score both next to length (Bench-MR, Heiden et al.
// 2021); a shortest path hugs every corner (clearance 0).
#pragma once
#include <cstdint>
#include <vector>

#include "geometry/free_space.hpp"
#include "geometry/point.hpp"
#include "geometry/radius_validity.hpp"

namespace navbench {

// Clearance queries over one map's obstacle boundaries (FreeSpace::obstacle_rings, the map's
// outside included), bucketed in square cells so a query reads only the edges near the path. A
// free path's distance to the obstacles is its distance to their boundaries; each piece's distance
// to an edge is exact (geometry/distance.hpp: 0 exactly when they touch, by exact predicates).
class PathClearance {
 public:
  explicit PathClearance(const FreeSpace& fs);
  // The least distance from the path (points, and arcs through `@` centres, docs/radius.md) to an
  // obstacle boundary; +inf for a map without obstacles (impossible: the outside is one).
  double clearance(const std::vector<PathItem>& path) const;
  double clearance(const Polyline& path) const;

 private:
  struct Edge {
    Point a, b;
  };
  // The least distance from the box [x0,x1] x [y0,y1]-bounded piece to the edges, at most `best`
  // (returned unchanged when no edge is nearer); `dist` measures the piece to one edge.
  template <class Dist>
  double nearest(double x0, double y0, double x1, double y1, double best, Dist&& dist) const;

  double cell_ = 4, ox_ = 0, oy_ = 0;
  int nx_ = 0, ny_ = 0;
  std::vector<Edge> edges_;
  std::vector<std::uint32_t> begin_, items_;  // CSR: the edges meeting each bucket
};

// Sum of the absolute heading changes along the path, in degrees: at each corner between two
// segments, the angle between their directions; an arc counts the angle it sweeps (and the
// heading changes where it meets its segments, 0 on a taut path).
double path_turn(const std::vector<PathItem>& path);
double path_turn(const Polyline& path);

}  // namespace navbench
