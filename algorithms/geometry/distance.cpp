// Distances between segments, circular arcs, points and boxes (see distance.hpp).
//
// Arc to segment: the nearest pair of an arc and a segment is either at an end of one of them
// (point-to-segment, point-to-arc), or a crossing (distance 0), or an interior pair where the
// connecting line is perpendicular to the segment and radial for the arc, so the arc point is
// c +- r n for the segment's unit normal n. Every candidate is a realised distance, so the
// smallest candidate is the distance.
#include "geometry/distance.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/exact.hpp"

namespace navbench {

using exact::orient2d;

bool make_arc(Point a, Point c, Point b, Arc& out) {
  const double ra = distance(a, c), rb = distance(b, c);
  out = Arc{a, c, b, 0.5 * (ra + rb), 0};
  if (std::abs(ra - rb) > 1e-9 * std::max(ra, rb)) return false;
  if (a == b) return true;  // a point (or a zero turn)
  out.turn = orient2d(c, a, b);
  return out.turn != 0;  // 0: a half turn (or a or b at the centre): "the shorter way" is undefined
}

// For p == c the answer is true: every direction's distance from c is r, so callers lose nothing.
bool arc_covers(const Arc& arc, Point p) {
  if (arc.turn == 0) return orient2d(arc.c, arc.a, p) == 0 &&
                            (p.x - arc.c.x) * (arc.a.x - arc.c.x) + (p.y - arc.c.y) * (arc.a.y - arc.c.y) >= 0;
  const int s1 = orient2d(arc.c, arc.a, p), s2 = orient2d(arc.c, p, arc.b);
  return arc.turn > 0 ? (s1 >= 0 && s2 >= 0) : (s1 <= 0 && s2 <= 0);
}

namespace {

// The arc covers the axis direction (dx, dy) (components -1, 0, +1), decided exactly.
bool arc_covers_axis(const Arc& arc, int dx, int dy) {
  if (arc.turn == 0) return false;  // a point: its bounds are its end points
  const int s1 = exact::cross_with_unit(arc.c, arc.a, dx, dy);   // (a - c) x d
  const int s2 = -exact::cross_with_unit(arc.c, arc.b, dx, dy);  // d x (b - c)
  return arc.turn > 0 ? (s1 >= 0 && s2 >= 0) : (s1 <= 0 && s2 <= 0);
}

bool on_segment_collinear(Point p, Point a, Point b) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}

}  // namespace

void arc_bounds(const Arc& arc, double& x0, double& y0, double& x1, double& y1) {
  x0 = std::min(arc.a.x, arc.b.x);
  x1 = std::max(arc.a.x, arc.b.x);
  y0 = std::min(arc.a.y, arc.b.y);
  y1 = std::max(arc.a.y, arc.b.y);
  if (arc_covers_axis(arc, 1, 0)) x1 = std::max(x1, arc.c.x + arc.r);
  if (arc_covers_axis(arc, -1, 0)) x0 = std::min(x0, arc.c.x - arc.r);
  if (arc_covers_axis(arc, 0, 1)) y1 = std::max(y1, arc.c.y + arc.r);
  if (arc_covers_axis(arc, 0, -1)) y0 = std::min(y0, arc.c.y - arc.r);
}

namespace {
// The squared distance from p to segment a-b: the hot part of the grid clearance test (radius_validity.cpp
// calls segment_box_distance per blocked cell near a segment), so squares and one square root at
// the end instead of std::hypot's overflow care per candidate (coordinates are map units).
double point_segment_distance2(Point p, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  auto sq = [](double x, double y) { return x * x + y * y; };
  if (len2 == 0) return sq(p.x - a.x, p.y - a.y);
  const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0);
  // Measure from the nearer end so that the rounding of t scales with the distance, not the length.
  if (t <= 0.5) return sq(p.x - a.x - t * dx, p.y - a.y - t * dy);
  return sq(p.x - b.x + (1 - t) * dx, p.y - b.y + (1 - t) * dy);
}

double point_box_distance2(Point p, double x0, double y0, double x1, double y1) {
  const Point d = point_box_offsets(p, x0, y0, x1, y1);
  return d.x * d.x + d.y * d.y;
}
}  // namespace

double point_segment_distance(Point p, Point a, Point b) { return std::sqrt(point_segment_distance2(p, a, b)); }

double segment_segment_distance(Point a, Point b, Point c, Point d) {
  const int o1 = orient2d(a, b, c), o2 = orient2d(a, b, d), o3 = orient2d(c, d, a), o4 = orient2d(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 0;
  if ((o1 == 0 && on_segment_collinear(c, a, b)) || (o2 == 0 && on_segment_collinear(d, a, b)) ||
      (o3 == 0 && on_segment_collinear(a, c, d)) || (o4 == 0 && on_segment_collinear(b, c, d)))
    return 0;
  return std::min(std::min(point_segment_distance(a, c, d), point_segment_distance(b, c, d)),
                  std::min(point_segment_distance(c, a, b), point_segment_distance(d, a, b)));
}

double segment_box_distance(Point a, Point b, double x0, double y0, double x1, double y1) {
  const Point k[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  // Separating axes of a segment and a box: x, y and the segment's normal.
  const bool overlap_x = std::min(a.x, b.x) <= x1 && std::max(a.x, b.x) >= x0;
  const bool overlap_y = std::min(a.y, b.y) <= y1 && std::max(a.y, b.y) >= y0;
  if (overlap_x && overlap_y) {
    int pos = 0, neg = 0;
    for (const Point& q : k) {
      const int o = orient2d(a, b, q);
      pos += o > 0;
      neg += o < 0;
    }
    if (pos < 4 && neg < 4) return 0;
  }
  double best = std::min(point_box_distance2(a, x0, y0, x1, y1), point_box_distance2(b, x0, y0, x1, y1));
  for (const Point& q : k) best = std::min(best, point_segment_distance2(q, a, b));
  return std::sqrt(best);
}

double point_arc_distance(Point p, const Arc& arc) {
  if (arc.turn == 0) return distance(p, arc.a);
  // Along the circle the distance to p grows with the angle from p's direction: the nearest arc
  // point is p's own direction when the arc covers it, else the nearer end.
  if (arc_covers(arc, p)) return std::abs(distance(p, arc.c) - arc.r);
  return std::min(distance(p, arc.a), distance(p, arc.b));
}

double arc_segment_distance(const Arc& arc, Point s, Point t) {
  if (arc.turn == 0) return point_segment_distance(arc.a, s, t);
  double best = std::min(std::min(point_segment_distance(arc.a, s, t), point_segment_distance(arc.b, s, t)),
                         std::min(point_arc_distance(s, arc), point_arc_distance(t, arc)));
  const double dx = t.x - s.x, dy = t.y - s.y, len2 = dx * dx + dy * dy;
  if (len2 == 0 || best == 0) return best;
  const double len = std::sqrt(len2), nx = -dy / len, ny = dx / len;
  // Interior pairs: the arc point c +- r n, its foot on the segment.
  for (int sg = -1; sg <= 1; sg += 2) {
    const Point p{arc.c.x + sg * arc.r * nx, arc.c.y + sg * arc.r * ny};
    if (!arc_covers(arc, p)) continue;
    const double u = ((p.x - s.x) * dx + (p.y - s.y) * dy) / len2;
    if (u < 0 || u > 1) continue;
    best = std::min(best, std::abs((p.x - s.x) * nx + (p.y - s.y) * ny));
  }
  // Crossings: the segment's points on the circle, |s + u d - c| = r, inside the arc's range.
  const double fx = s.x - arc.c.x, fy = s.y - arc.c.y;
  const double B = 2 * (fx * dx + fy * dy), C = fx * fx + fy * fy - arc.r * arc.r;
  const double disc = B * B - 4 * len2 * C;
  if (disc >= 0) {
    const double sq = std::sqrt(disc);
    double u[2];
    if (B == 0) {
      u[0] = sq / (2 * len2);
      u[1] = -u[0];
    } else {
      const double q = -0.5 * (B + std::copysign(sq, B));  // the stable pair of roots
      u[0] = q / len2;
      u[1] = q != 0 ? C / q : u[0];
    }
    for (double ui : u)
      if (ui >= 0 && ui <= 1 && arc_covers(arc, {s.x + ui * dx, s.y + ui * dy})) return 0;
  }
  return best;
}

double arc_box_distance(const Arc& arc, double x0, double y0, double x1, double y1) {
  // The arc is connected: if it meets the box, an end lies inside or it crosses an edge.
  if (point_box_distance(arc.a, x0, y0, x1, y1) == 0 || point_box_distance(arc.b, x0, y0, x1, y1) == 0) return 0;
  const Point k[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  double best = arc_segment_distance(arc, k[0], k[1]);
  for (int i = 1; i < 4 && best > 0; ++i) best = std::min(best, arc_segment_distance(arc, k[i], k[(i + 1) % 4]));
  return best;
}

}  // namespace navbench
