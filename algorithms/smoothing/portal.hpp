// What the two funnels (smoothing.cpp: a point; funnel_radius.cpp: a disc) share about portals.
#pragma once
#include "geometry/point.hpp"

namespace navbench::smoothing_detail {

// Side of the portal line l->r on which the segment p-q lies: the sign of the sum of its ends'
// orientations (twice the midpoint's, in one cross product). 0: on the line.
inline int side_of(Point l, Point r, Point p, Point q) {
  const double dx = r.x - l.x, dy = r.y - l.y;
  const double wx = (p.x - l.x) + (q.x - l.x), wy = (p.y - l.y) + (q.y - l.y);
  const double s = dx * wy - dy * wx;
  return (s > 0) - (s < 0);
}

}  // namespace navbench::smoothing_detail
