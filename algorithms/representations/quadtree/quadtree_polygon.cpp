// The quadtree subdivision of a polygon map (docs/maps.md): a node is free when its closed square meets
// no obstacle interior (and stays inside the walkable area), blocked when its interior holds no free
// point, mixed otherwise. An edge against a square and a leaf's centre against the shapes by exact
// orientation predicates (geometry/exact.hpp).
//
// The test is the classic edge-list descent of the PR quadtree of line segments (Samet, "The
// Design and Analysis of Spatial Data Structures", 1990, ch. 4): every node receives the boundary
// edges (walkable rings and obstacle rings) that pass through its open square, and passes on those
// passing through each child's. If one does, the square has blocked interior on one side of that
// edge, so it is not free: split it (or drop it at the minimum size). If none does, the open
// square lies in one face of the arrangement of all rings, and its centre, which lies on no edge,
// decides: free iff inside the walkable polygon and inside no obstacle. Both the edge lists and the
// centres' classification cost O(edge-node incidences) in all, not O(edges) a node: the build is
// output-sensitive, as the grid's is with its count pyramid.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "geometry/exact.hpp"
#include "representations/quadtree/quadtree.hpp"

namespace navbench {

namespace {
// Deepest subdivision accepted: 2^20 smallest cells along a side.
constexpr int kMaxDepth = 20;

// The rings a shape must have: an outer ring and holes of 3 points or more.
void check_rings(const PolygonShape& shape, const char* what) {
  if (shape.rings.empty() || shape.rings[0].size() < 3)
    throw std::invalid_argument(std::string("quadtree: ") + what + " polygon has no outer ring");
  for (std::size_t i = 1; i < shape.rings.size(); ++i)
    if (shape.rings[i].size() < 3) throw std::invalid_argument(std::string("quadtree: ") + what + " hole with < 3 points");
}

// A boundary edge (of a walkable ring or an obstacle ring): a -> b, its box, its shape.
struct Edge {
  Point a, b;
  double x0, y0, x1, y1;
  std::uint32_t shape;  // 0: the walkable area, k: obstacle k - 1
  bool along_axis() const { return x0 == x1 || y0 == y1; }  // then the segment is its box
};

void add_edges(const PolygonShape& shape, std::uint32_t id, std::vector<Edge>& edges) {
  for (const auto& ring : shape.rings)
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Point a = ring[i], b = ring[(i + 1) % ring.size()];
      if (a == b) continue;
      edges.push_back({a, b, std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y), id});
    }
}

// Segment against square by separating axes, exact (two convex sets are disjoint iff a line
// through an edge of one separates them: the square's sides or the segment's line; for the open
// square a weak separation suffices). An edge meeting a node's open square leaves obstacle
// interior on one side of it there: the node is not free.
bool line_splits(const Edge& e, Point lo, Point hi) {  // corners strictly on both sides of the line
  int pos = 0, neg = 0;
  for (const Point q : {lo, Point{hi.x, lo.y}, hi, Point{lo.x, hi.y}}) {
    const int o = exact::orient2d(e.a, e.b, q);
    pos += o > 0, neg += o < 0;
  }
  return pos > 0 && neg > 0;
}

bool crosses(const Edge& e, Point lo, Point hi) {  // e meets the open square (lo, hi)
  if (e.x1 <= lo.x || e.x0 >= hi.x || e.y1 <= lo.y || e.y0 >= hi.y) return false;
  return e.along_axis() || line_splits(e, lo, hi);
}

// The children of node (lo, hi), split at mid, whose open squares e meets, a bit per child (child
// order of the tree), given that e meets the node's: then its box reaches past lo on both axes,
// and it meets a child's box iff it reaches past mid towards it.
unsigned children_met(const Edge& e, Point lo, Point mid, Point hi) {
  const bool left = e.x0 < mid.x, right = e.x1 > mid.x, low = e.y0 < mid.y, high = e.y1 > mid.y;
  unsigned met = unsigned(left && low) | unsigned(right && low) << 1 | unsigned(left && high) << 2 | unsigned(right && high) << 3;
  if (e.along_axis()) return met;
  for (int q = 0; q < 4; ++q)
    if ((met >> q & 1) && !line_splits(e, {q & 1 ? mid.x : lo.x, q & 2 ? mid.y : lo.y}, {q & 1 ? hi.x : mid.x, q & 2 ? hi.y : mid.y}))
      met &= ~(1u << q);
  return met;
}

// p and q lie strictly on different sides of e's line (along an axis: by comparing coordinates).
bool separates(const Edge& e, Point p, Point q) {
  if (e.x0 == e.x1) return (p.x < e.x0 && q.x > e.x0) || (p.x > e.x0 && q.x < e.x0);
  if (e.y0 == e.y1) return (p.y < e.y0 && q.y > e.y0) || (p.y > e.y0 && q.y < e.y0);
  return exact::orient2d(e.a, e.b, p) * exact::orient2d(e.a, e.b, q) < 0;
}

// Whether points that lie on no edge are free: inside the walkable polygon and inside no obstacle
// (even-odd per shape, exact orientations). The first point casts a ray to its right against
// every edge; every later one walks from the previous point, toggling the shapes whose edges the
// step crosses, of the edges the caller names (a superset of those the step can cross).
class FaceWalk {
 public:
  FaceWalk(const std::vector<Edge>& edges, std::size_t shapes) : edges_(edges), inside_(shapes, 0) {}

  bool free(Point q, const std::uint32_t* near, std::size_t n) {
    if (!last_) {  // the ray to the right, half-open in y
      for (const Edge& e : edges_) {
        if ((e.a.y > q.y) == (e.b.y > q.y)) continue;
        if ((e.b.y > e.a.y) != (exact::orient2d(e.a, e.b, q) > 0)) continue;
        toggle(e.shape);
      }
    } else {
      // The segment last -> q crosses edge a-b where a and b lie on strictly different sides of
      // its line, a point on the line counted on the left (a symbolic shift of the segment, the
      // same for both edges at a vertex), and last and q strictly on different sides of the
      // edge's line (neither lies on an edge).
      const Point p = *last_;
      const double x0 = std::min(p.x, q.x), x1 = std::max(p.x, q.x), y0 = std::min(p.y, q.y), y1 = std::max(p.y, q.y);
      for (std::size_t i = 0; i < n; ++i) {
        const Edge& e = edges_[near[i]];
        if (e.x1 < x0 || e.x0 > x1 || e.y1 < y0 || e.y0 > y1 || !separates(e, p, q)) continue;
        if ((exact::orient2d(p, q, e.a) >= 0) == (exact::orient2d(p, q, e.b) >= 0)) continue;
        toggle(e.shape);
      }
    }
    last_ = q;
    return inside_[0] != 0 && obstacles_holding_ == 0;  // shape 0: the walkable area
  }

 private:
  void toggle(std::uint32_t shape) {
    inside_[shape] ^= 1;
    if (shape > 0) obstacles_holding_ += inside_[shape] ? 1 : -1;
  }
  const std::vector<Edge>& edges_;
  std::vector<std::uint8_t> inside_;  // per shape: the last point lies in it
  long obstacles_holding_ = 0;        // obstacles the last point lies in
  std::optional<Point> last_;
};
}  // namespace

void QuadTree::subdivide_polygon(const PolygonMap& pm, double min_size) {
  check_rings(pm.walkable, "walkable");
  std::vector<Edge> edges;
  add_edges(pm.walkable, 0, edges);
  for (std::size_t k = 0; k < pm.obstacles.size(); ++k) {
    check_rings(pm.obstacles[k], "obstacle");
    add_edges(pm.obstacles[k], std::uint32_t(k + 1), edges);
  }

  // Root: a square with power-of-two side (in map units) at the low corner of the walkable area
  // (the box of its outer ring).
  Point lo = pm.walkable.rings[0][0], hi = lo;
  for (const Point& p : pm.walkable.rings[0])
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
  if (!(extent > 0) || !std::isfinite(extent)) throw std::invalid_argument("quadtree: walkable area has no extent");
  double L = std::exp2(std::ceil(std::log2(extent)));
  while (L < extent) L *= 2;
  // Depth: the smallest cell side L / 2^D is the last one that is still >= min.
  const double levels = std::floor(std::log2(L / min_size));
  if (levels > kMaxDepth)
    throw std::invalid_argument("quadtree: min=" + std::to_string(min_size) + " is too small for this map (over 2^" +
                                std::to_string(kMaxDepth) + " cells a side)");
  const int depth = std::max(0, int(levels));
  side_ = std::int32_t(1) << depth;
  unit_ = L / side_;
  origin_ = lo;

  // The edge stack (the PR quadtree's edge lists): a node's edges, those meeting its open square,
  // are a range of it. A node sorts its range into its four children's (an edge meeting a child's
  // open square meets its parent's), appended after everything, and drops them when done. The
  // descent costs O(edge-node incidences). The stack's entries past `top` are scratch (it only
  // grows: no clearing of what is dropped).
  std::vector<std::uint32_t> stack;
  for (std::uint32_t e = 0; e < edges.size(); ++e)
    if (crosses(edges[e], world(0, 0), world(side_, side_))) stack.push_back(e);
  std::size_t top = stack.size();
  // A node whose open square meets no edge lies in one face of the arrangement of all rings, and
  // its centre, on no edge, decides. The centres are classified in Z order, each by a walk from the
  // previous one; both lie in the open square of the scope, the innermost node of the descent
  // holding both, so only the scope's edges can cross the step. A node is the scope of at most
  // three steps (into its children 1..3): the walks too cost O(incidences).
  FaceWalk faces(edges, pm.obstacles.size() + 1);
  std::size_t scope_begin = 0, scope_end = 0, classified = 0;
  tree_.clear();
  cells_.clear();
  // Node (x, y, s) with edges stack[from, to): none -> free or blocked by its centre; else mixed:
  // split, or dropped at the minimum size.
  auto node = [&](auto&& self, std::int32_t x, std::int32_t y, std::int32_t s, std::size_t from, std::size_t to) -> std::int32_t {
    if (from == to) {
      const Point lo = world(x, y), hi = world(x + s, y + s);
      ++classified;
      if (!faces.free({0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y)}, stack.data() + scope_begin, scope_end - scope_begin)) return kBlocked;
      cells_.push_back({x, y, x + s, y + s});
      return -std::int32_t(cells_.size()) - 1;
    }
    if (s == 1) return kBlocked;  // at the minimum size and still touching an obstacle
    const std::int32_t h = s / 2;
    const Point lo = world(x, y), mid = world(x + h, y + h), hi = world(x + s, y + s);
    // Child q's edges: stack[at + q k, at + q k + n[q]), k the node's count: one pass, and each
    // entry written to all four blocks, kept where the child's bit is set.
    const std::size_t at = top, k = to - from;
    std::size_t n[4] = {0, 0, 0, 0};
    top += 4 * k;
    if (stack.size() < top) stack.resize(std::max(top, 2 * stack.size()));
    for (std::size_t i = from; i < to; ++i) {
      const std::uint32_t e = stack[i];
      const unsigned met = children_met(edges[e], lo, mid, hi);
      for (int q = 0; q < 4; ++q) {
        stack[at + std::size_t(q) * k + n[q]] = e;
        n[q] += met >> q & 1;
      }
    }
    const std::size_t classified_before = classified, b = tree_.size();
    tree_.resize(b + 4);
    for (int q = 0; q < 4; ++q) {
      if (classified != classified_before) scope_begin = from, scope_end = to;  // the last centre lies in this node
      const std::size_t first = at + std::size_t(q) * k;
      const std::int32_t child = self(self, x + (q & 1 ? h : 0), y + (q & 2 ? h : 0), h, first, first + n[q]);
      tree_[b + std::size_t(q)] = child;
    }
    top = at;
    if (std::all_of(tree_.begin() + std::ptrdiff_t(b), tree_.end(), [](std::int32_t c) { return c == kBlocked; })) {
      tree_.resize(b);  // nothing free below: forget the node
      return kBlocked;
    }
    return std::int32_t(b);
  };
  root_ = node(node, 0, 0, side_, 0, top);
}

}  // namespace navbench
