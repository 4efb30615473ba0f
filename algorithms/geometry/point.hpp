// Plain 2D points and polylines in map units (a grid cell is 1 x 1), shared by every layer.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace navbench {

// The cost of what cannot be reached.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct Point {
  double x = 0, y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

inline double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

// The cross product of two vectors: > 0 when b turns counter-clockwise from a.
inline double cross(Point a, Point b) { return a.x * b.y - a.y * b.x; }

using Polyline = std::vector<Point>;

inline double polyline_length(const Polyline& p) {
  double len = 0;
  for (std::size_t i = 1; i < p.size(); ++i) len += distance(p[i - 1], p[i]);
  return len;
}

// One item of a path with arcs (docs/radius.md `points`): a point, or (arc_centre) the centre of the arc
// from the point before it to the point after it, the shorter way.
struct PathItem {
  Point p;
  bool arc_centre = false;
};

// Merges every run of equal consecutive points into one (SPEC §1: a path holds no repeated point, no
// zero-length segment). The length is unchanged; a path from a point to itself becomes that point.
inline void merge_repeated_points(Polyline& p) { p.erase(std::unique(p.begin(), p.end()), p.end()); }

}  // namespace navbench
