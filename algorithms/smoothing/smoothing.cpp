#include "smoothing/smoothing.hpp"
#include "smoothing/portal.hpp"

#include <stdexcept>

#include "geometry/path_cost.hpp"
#include "smoothing/los.hpp"

namespace navbench {

using smoothing_detail::side_of;

namespace {

// Twice the signed area of (a, b, c): > 0 when c is counter-clockwise of the ray a->b in the
// numeric (x, y) frame, 0 when collinear. Exact for the small dyadic coordinates of grid maps.
inline double orient(Point a, Point b, Point c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

}  // namespace

Polyline los_smooth(const Polyline& raw, VisibleFn visible) { return los_smooth_with(raw, visible); }
Polyline los_smooth_costed(const Polyline& raw, VisibleFn visible, const GridMap& weighted) {
  return los_smooth_costed_with(raw, visible, [&](Point a, Point b) { return segment_cost(weighted, a, b); });
}

// The funnel algorithm (D.T. Lee and F.P. Preparata, "Euclidean shortest paths in the presence of
// rectilinear barriers", Networks 14, 1984; as string pulling over navmesh portals: M. Mononen's
// "simple stupid funnel", Recast/Detour 2010). The funnel is the apex (the last corner of the path
// so far) with two concave chains: the shortest paths from the apex to the current left and right
// portal ends. Each new portal end is added to its chain: chain points it makes redundant are
// popped; if the chain empties and the new end lies strictly across the other chain's first
// segment, the apex walks along the other chain (each step is a corner of the path). The chains
// live in one array with the apex in the middle (a deque), so every point is pushed and popped at
// most once: O(n), unlike the rescanning SSF loop. At the goal, the path is the corners so far plus
// the left chain after adding the goal.
//
// Internally a portal's left end is counter-clockwise of the walking direction in the numeric
// (x, y) frame; portals are re-oriented on the fly from their neighbours (see funnel_path in the
// header). Degenerate corridors: zero portals give the straight segment; an end equal to the apex
// (fans around a shared portal end, start or goal on a portal end) empties its chain, leaving that
// side unconstrained; a zero-length portal pins both chains to one point, which the next portal
// turns into a corner; collinear ends (start on a portal, collinear portals) give orientation 0:
// they replace the chain point without crossing. Crossing needs a strictly nonzero orientation.
namespace {

class Funnel {
 public:
  // max_points: how many ends each side may receive (portals + goal).
  Funnel(Point start, std::size_t max_points, Polyline& path) : path_(path) {
    // A per-thread buffer that only grows: no allocation and no clearing per query.
    thread_local std::vector<Point> storage;
    if (storage.size() < 2 * max_points + 3) storage.resize(2 * max_points + 3);
    buf_ = storage.data();
    a_ = lo_ = hi_ = max_points + 1;
    buf_[a_] = start;
    path_.reserve(16);
    path_.push_back(start);
  }

  // Adds a new left end: pops the left chain while p does not lie strictly counter-clockwise of
  // its last segment; an empty chain lets p cross the right chain, moving the apex along it.
  void add_left(Point p) {
    if (lo_ < a_ && buf_[lo_] == p) return;
    while (lo_ < a_ && orient(buf_[lo_ + 1], buf_[lo_], p) <= 0) ++lo_;  // buf_[a_] is the apex
    if (lo_ == a_) {
      while (hi_ > a_ && orient(buf_[a_], buf_[a_ + 1], p) < 0) {  // p right of apex->r1: r1 is a corner
        ++a_;
        lo_ = a_;
        path_.push_back(buf_[a_]);
      }
      if (p == buf_[a_]) return;  // an end at the apex: this side is unconstrained
    }
    buf_[--lo_] = p;
  }

  // Mirror image of add_left.
  void add_right(Point p) {
    if (hi_ > a_ && buf_[hi_] == p) return;
    while (hi_ > a_ && orient(buf_[hi_ - 1], buf_[hi_], p) >= 0) --hi_;
    if (hi_ == a_) {
      while (lo_ < a_ && orient(buf_[a_], buf_[a_ - 1], p) > 0) {  // p left of apex->l1: l1 is a corner
        --a_;
        hi_ = a_;
        path_.push_back(buf_[a_]);
      }
      if (p == buf_[a_]) return;
    }
    buf_[++hi_] = p;
  }

  // Adds the goal and appends the rest of the path: the left chain from the apex to the goal.
  void finish(Point goal) {
    add_left(goal);
    for (std::size_t k = a_; k-- > lo_;) path_.push_back(buf_[k]);
    if (path_.size() < 2 || !(path_.back() == goal)) path_.push_back(goal);
  }

 private:
  Polyline& path_;
  Point* buf_;  // left chain buf_[lo_ .. a_-1] (l1 = buf_[a_-1]), apex buf_[a_], right chain buf_[a_+1 .. hi_]
  std::size_t a_, lo_, hi_;
};

}  // namespace

Polyline funnel_path(Point start, Point goal, const Corridor& corridor) {
  const std::size_t m = corridor.size();
  Polyline path;
  Funnel f(start, m + 1, path);
  Point b0 = start, b1 = start;  // the ends of the previous portal (the start before the first)
  for (std::size_t k = 0; k < m; ++k) {
    const Portal& c = corridor[k];
    // Orientation from geometry: the previous portal lies before portal k (internally on the
    // clockwise side of left->right), the next one (or the goal) after it. A portal on one line
    // with both neighbours keeps its labels.
    int s = -side_of(c.left, c.right, b0, b1);
    if (s == 0) {
      const Portal after = k + 1 == m ? Portal{goal, goal} : corridor[k + 1];
      s = side_of(c.left, c.right, after.left, after.right);
    }
    b0 = c.left;
    b1 = c.right;
    const bool swap = s < 0;
    f.add_left(swap ? c.right : c.left);
    f.add_right(swap ? c.left : c.right);
  }
  f.finish(goal);
  return path;
}

const std::vector<SmootherInfo>& smoothers() {
  static const std::vector<SmootherInfo> list = {
      {"none", "the representation's raw polyline, unchanged"},
      {"los", "line-of-sight string pulling with the exact validity test (galloping shortcuts to a fixpoint); any "
              "representation"},
      {"funnel", "funnel algorithm (Lee & Preparata 1984): shortest path through the corridor of convex cells; "
                 "representations with a corridor, searched by A*",
       true},  // needs_corridor
  };
  return list;
}

Smoothing parse_smoothing(const std::string& name) {
  if (name == "none") return Smoothing::none;
  if (name == "los") return Smoothing::los;
  if (name == "funnel") return Smoothing::funnel;
  throw std::invalid_argument("unknown smoothing '" + name + "' (none, los, funnel)");
}

namespace {
SmoothingResult smooth_path(Smoothing mode, const Polyline& raw, const std::optional<Corridor>& corridor,
                            VisibleFn visible, const GridMap* weighted) {
  switch (mode) {
    case Smoothing::none:
      return {SmoothingStatus::ok, raw};
    case Smoothing::los:
      if (weighted) return {SmoothingStatus::ok, los_smooth_costed(raw, visible, *weighted)};
      return {SmoothingStatus::ok, los_smooth(raw, visible)};
    case Smoothing::funnel:
      if (!corridor) return {SmoothingStatus::not_applicable, {}};
      if (raw.size() < 2) return {SmoothingStatus::ok, raw};
      return {SmoothingStatus::ok, funnel_path(raw.front(), raw.back(), *corridor)};
  }
  throw std::invalid_argument("unknown smoothing mode");
}
}  // namespace

// Every smoother's path passes here: a funnel corner on the start or goal, or a shortcut of los
// between two visits of one point, would repeat a point (SPEC §1), so runs of equal points are merged.
SmoothingResult smooth(Smoothing mode, const Polyline& raw, const std::optional<Corridor>& corridor,
                       VisibleFn visible, const GridMap* weighted) {
  SmoothingResult r = smooth_path(mode, raw, corridor, visible, weighted);
  merge_repeated_points(r.path);
  return r;
}

SmoothingResult smooth(const std::string& name, const Polyline& raw, const std::optional<Corridor>& corridor,
                       VisibleFn visible, const GridMap* weighted) {
  return smooth(parse_smoothing(name), raw, corridor, visible, weighted);
}

}  // namespace navbench
