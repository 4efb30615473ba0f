#include "smoothing/smoothing.hpp"

#include <stdexcept>

#include "smoothing/los.hpp"

namespace navbench {

namespace {

// Twice the signed area of (a, b, c): > 0 when c is counter-clockwise of the ray a->b in the
// numeric (x, y) frame, 0 when collinear. Exact for the small dyadic coordinates of grid maps.
inline double orient(Point a, Point b, Point c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// Side of the portal line l->r on which the segment p-q lies: the sign of the sum of its ends'
// orientations (= twice the midpoint's, without rounding the midpoint). 0: on the line.
inline int side_of(Point l, Point r, Point p, Point q) {
  const double s = orient(l, r, p) + orient(l, r, q);
  return (s > 0) - (s < 0);
}

inline void push_distinct(Polyline& path, Point p) {
  if (path.empty() || !(path.back() == p)) path.push_back(p);
}

}  // namespace

Polyline los_smooth(const Polyline& raw, VisibleFn visible) { return los_smooth_with(raw, visible); }

// The funnel algorithm (Lee & Preparata, "Euclidean shortest paths in the presence of rectilinear
// barriers", Networks 1984; here in the "simple stupid funnel" form of M. Mononen, 2010, used by
// Recast/Detour). The funnel is the wedge from the apex between the rays to its current right point
// R and left point L. Each portal's right (left) end narrows the wedge when it lies on or inside the
// right (left) ray; if it crosses over the other ray, that other ray's point is a corner of the
// shortest path: it becomes the apex and the scan restarts from the portal after it. Internally the
// left end of a portal is counter-clockwise of the walking direction in the numeric (x, y) frame.
//
// Degenerate corridors: zero portals give the straight segment; a zero-length portal pins the
// funnel to a ray; an apex equal to R or L (fans around a shared portal end, start or goal on a
// portal end) leaves that side unconstrained; collinear ends (start on a portal, collinear portals)
// give orientation 0, which narrows without crossing. A crossing needs a strictly positive
// orientation, so the new apex is a point set after the old one and the scan always advances.
Polyline funnel_path(Point start, Point goal, const Corridor& corridor) {
  const std::size_t m = corridor.size();
  // Portals 1..m re-oriented into the internal convention; 0 and m+1 are start and goal.
  std::vector<Portal> P(m + 2);
  P[0] = {start, start};
  P[m + 1] = {goal, goal};
  // Orientation from geometry: the previous portal (or the start) lies before portal k, the next
  // one (or the goal) after it; internally "before" is on the clockwise side of left->right.
  std::vector<signed char> flip(m, 0);  // +1 keep, -1 swap, 0 undecided
  int keep = 0, swap = 0;
  for (std::size_t k = 0; k < m; ++k) {
    const Portal& c = corridor[k];
    const Portal before = k == 0 ? Portal{start, start} : corridor[k - 1];
    const Portal after = k + 1 == m ? Portal{goal, goal} : corridor[k + 1];
    int s = -side_of(c.left, c.right, before.left, before.right);
    if (s == 0) s = side_of(c.left, c.right, after.left, after.right);
    flip[k] = static_cast<signed char>(s);
    keep += s > 0;
    swap += s < 0;
  }
  const bool swap_undecided = swap > keep;  // undecided portals follow the corridor's evident handedness
  for (std::size_t k = 0; k < m; ++k) {
    const Portal& c = corridor[k];
    const bool sw = flip[k] < 0 || (flip[k] == 0 && swap_undecided);
    P[k + 1] = sw ? Portal{c.right, c.left} : c;
  }

  Polyline path;
  path.push_back(start);
  Point apex = start, L = start, R = start;
  std::size_t ai = 0, li = 0, ri = 0;
  for (std::size_t i = 1; i < P.size(); ++i) {
    const Point l = P[i].left, r = P[i].right;
    // Right end: narrows when on or counter-clockwise of the ray apex->R.
    if (orient(apex, R, r) >= 0) {
      if (apex == R || orient(apex, L, r) <= 0) {
        R = r;
        ri = i;
      } else {  // r crosses over the left ray: L is a corner of the path
        apex = L;
        ai = li;
        push_distinct(path, apex);
        L = R = apex;
        li = ri = ai;
        i = ai;
        continue;
      }
    }
    // Left end: narrows when on or clockwise of the ray apex->L.
    if (orient(apex, L, l) <= 0) {
      if (apex == L || orient(apex, R, l) >= 0) {
        L = l;
        li = i;
      } else {  // l crosses over the right ray: R is a corner of the path
        apex = R;
        ai = ri;
        push_distinct(path, apex);
        L = R = apex;
        li = ri = ai;
        i = ai;
        continue;
      }
    }
  }
  if (path.size() < 2 || !(path.back() == goal)) path.push_back(goal);
  return path;
}

const std::vector<SmootherInfo>& smoothers() {
  static const std::vector<SmootherInfo> list = {
      {"none", "the representation's raw polyline, unchanged"},
      {"los",
       "line-of-sight string pulling with the exact validity test (greedy shortcuts between path points, "
       "galloping search, repeated to a fixpoint); any representation"},
      {"funnel",
       "funnel algorithm (Lee & Preparata 1984; Mononen's simple stupid funnel): shortest path through the "
       "corridor of convex cells; representations with a corridor only"},
  };
  return list;
}

Smoothing parse_smoothing(const std::string& name) {
  if (name == "none") return Smoothing::none;
  if (name == "los") return Smoothing::los;
  if (name == "funnel") return Smoothing::funnel;
  throw std::invalid_argument("unknown smoothing '" + name + "' (none, los, funnel)");
}

SmoothingResult smooth(Smoothing mode, const Polyline& raw, const std::optional<Corridor>& corridor,
                       VisibleFn visible) {
  switch (mode) {
    case Smoothing::none:
      return {SmoothingStatus::ok, raw};
    case Smoothing::los:
      return {SmoothingStatus::ok, los_smooth(raw, visible)};
    case Smoothing::funnel:
      if (!corridor) return {SmoothingStatus::not_applicable, {}};
      if (raw.size() < 2) return {SmoothingStatus::ok, raw};
      return {SmoothingStatus::ok, funnel_path(raw.front(), raw.back(), *corridor)};
  }
  throw std::invalid_argument("unknown smoothing mode");
}

SmoothingResult smooth(const std::string& name, const Polyline& raw, const std::optional<Corridor>& corridor,
                       VisibleFn visible) {
  return smooth(parse_smoothing(name), raw, corridor, visible);
}

}  // namespace navbench
