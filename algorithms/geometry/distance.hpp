// Euclidean distances between the pieces of a disc agent's path (segments, circular arcs) and the
// pieces of obstacles (points, segments, axis-parallel boxes), for the validity test of docs/radius.md.
// Intersections are decided with exact orientation predicates; the distances themselves carry the
// rounding of a few floating-point operations (far below the 1e-9 tolerance of docs/radius.md).
#pragma once
#include <cmath>

#include "geometry/point.hpp"

namespace navbench {

// A circular arc from a to b along the circle centred at c, the shorter way (docs/radius.md `@cx cy`):
// counter-clockwise when orient2d(c, a, b) > 0, clockwise when < 0. Its radius is taken as the
// mean of |a - c| and |b - c|.
struct Arc {
  Point a, c, b;
  double r = 0;
  int turn = 0;  // +1 counter-clockwise, -1 clockwise, 0 degenerate (a == b: one point)
};

// Builds the arc a -(c)-> b. Returns false for what docs/radius.md rules out: end points at different
// distances from the centre (beyond 1e-9 x r) or a half turn (a and b exactly opposite, so "the
// shorter way" is undefined).
bool make_arc(Point a, Point c, Point b, Arc& out);

// The direction from the centre to p lies in the arc's closed angular range (true for p == c,
// whose distance to every arc point is r).
bool arc_covers(const Arc& arc, Point p);

// Axis-parallel bounding box of the arc's points.
void arc_bounds(const Arc& arc, double& x0, double& y0, double& x1, double& y1);

// How far p lies outside the closed axis-parallel box [x0, x1] x [y0, y1] along x and along y (0
// within the box's extent on that axis).
inline Point point_box_offsets(Point p, double x0, double y0, double x1, double y1) {
  return {p.x < x0 ? x0 - p.x : p.x > x1 ? p.x - x1 : 0.0, p.y < y0 ? y0 - p.y : p.y > y1 ? p.y - y1 : 0.0};
}
// Distance from p to the box (0 inside): the offsets, then one hypot.
inline double point_box_distance(Point p, double x0, double y0, double x1, double y1) {
  const Point d = point_box_offsets(p, x0, y0, x1, y1);
  return std::hypot(d.x, d.y);
}

double point_segment_distance(Point p, Point a, Point b);
// 0 when the segments meet (exact test).
double segment_segment_distance(Point a, Point b, Point c, Point d);
// Segment a-b to the closed box [x0, x1] x [y0, y1]: 0 when they meet (exact separating-axis
// test), else the smallest of the end points' distances to the box and the box corners'
// distances to the segment (two disjoint convex polygons are nearest at a vertex of one of them).
double segment_box_distance(Point a, Point b, double x0, double y0, double x1, double y1);

double point_arc_distance(Point p, const Arc& arc);
double arc_segment_distance(const Arc& arc, Point s, Point t);
// Arc to the closed box: 0 when an end point is inside, else the nearest of its four edges.
double arc_box_distance(const Arc& arc, double x0, double y0, double x1, double y1);

}  // namespace navbench
