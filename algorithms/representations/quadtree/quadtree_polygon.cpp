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
#include <array>
#include <bit>
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

// A boundary edge (of a walkable ring or an obstacle ring): its box, a -> b, its shape.
struct Edge {
  double x0, y0, x1, y1;
  Point a, b;
  std::uint32_t shape;  // 0: the walkable area, k: obstacle k - 1
  bool along_axis() const { return x0 == x1 || y0 == y1; }  // then the segment is its box
};

void add_edges(const PolygonShape& shape, std::uint32_t id, std::vector<Edge>& edges) {
  for (const auto& ring : shape.rings)
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Point a = ring[i], b = ring[(i + 1) % ring.size()];
      if (a == b) continue;
      edges.push_back({std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y), a, b, id});
    }
}

// An entry of the edge stack: an edge's index above five flag bits, kSlanted (the edge runs along
// no axis) and four bits the node that wrote the entry sets (see Split).
constexpr unsigned kFlagBits = 5, kSlanted = 16, kFourBits = 15;
constexpr std::size_t kMaxEdges = std::size_t(1) << (32 - kFlagBits);
// The halves of a node's split lines (through its centre), as bits: the horizontal line's left and
// right halves, the vertical line's lower and upper halves.
constexpr unsigned kLeftHalf = 1, kRightHalf = 2, kLowerHalf = 4, kUpperHalf = 8;

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

// A node (lo, hi) split at mid: its edges, stack[from, to), sorted into five blocks of the edge
// stack from `at`, each k = to - from entries long. Block q < 4 holds n[q] edges, those meeting
// child q's open square (child order of the tree), each entry's four bits the children the edge
// meets; block 4 the n[4] edges lying on a split line (they meet the node's open square but no
// child's), each entry's bits the halves of the lines the edge covers.
struct Split {
  std::size_t from, to, at, n[5];
  std::size_t block(int q) const { return at + std::size_t(q) * (to - from); }
};

// The children whose open squares slanted edge e meets, of those its box meets (bits of `met`).
unsigned children_met(const Edge& e, unsigned met, Point lo, Point mid, Point hi) {
  for (int q = 0; q < 4; ++q)
    if ((met >> q & 1) && !line_splits(e, {q & 1 ? mid.x : lo.x, q & 2 ? mid.y : lo.y}, {q & 1 ? hi.x : mid.x, q & 2 ? hi.y : mid.y}))
      met &= ~(1u << q);
  return met;
}

// One pass over the node's edges, each written to the blocks of the children it meets (or to
// block 4): O(k), no allocation but the stack's growth. An edge meets the node's open square, so
// its box reaches past lo and hi: it meets a child's box iff it reaches past mid towards it; a
// slanted one's box may meet a child its segment misses.
Split split_edges(std::vector<std::uint32_t>& stack, std::size_t& top, const std::vector<Edge>& edges, std::size_t from,
                  std::size_t to, Point lo, Point mid, Point hi) {
  Split sp{from, to, top, {0, 0, 0, 0, 0}};
  const std::size_t k = to - from;
  top += 5 * k;
  if (stack.size() < top) stack.resize(std::max(top, 2 * stack.size()));
  // The children a box reaching past mid to the left (bit 0), right (1), below (2), above (3)
  // meets: child q lies in column q & 1 and row q >> 1.
  static constexpr std::array<std::uint8_t, 16> kMet = [] {
    std::array<std::uint8_t, 16> t{};
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned q = 0; q < 4; ++q)
        if ((r >> (q & 1) & 1) && (r >> (2 + (q >> 1)) & 1)) t[r] |= std::uint8_t(1u << q);
    return t;
  }();
  std::uint32_t* const out = stack.data() + sp.at;
  for (std::size_t i = from; i < to; ++i) {
    const std::uint32_t v = stack[i] & ~kFourBits;
    const Edge& e = edges[v >> kFlagBits];
    const unsigned reach = unsigned(e.x0 < mid.x) | unsigned(e.x1 > mid.x) << 1 | unsigned(e.y0 < mid.y) << 2 | unsigned(e.y1 > mid.y) << 3;
    unsigned met = kMet[reach];
    if (v & kSlanted) met = children_met(e, met, lo, mid, hi);
    if (met == 0) {  // along a split line (x0 = x1 = mid.x, or y0 = y1 = mid.y): `reach` says which halves
      out[4 * k + sp.n[4]++] = v | reach;
      continue;
    }
    for (unsigned m = met; m != 0; m &= m - 1) {  // most edges meet one child
      const int q = std::countr_zero(m);
      out[std::size_t(q) * k + sp.n[q]++] = v | met;
    }
  }
  return sp;
}

// p and q lie strictly on different sides of e's line (along an axis: by comparing coordinates).
bool separates(const Edge& e, Point p, Point q) {
  if (e.x0 == e.x1) return (p.x < e.x0 && q.x > e.x0) || (p.x > e.x0 && q.x < e.x0);
  if (e.y0 == e.y1) return (p.y < e.y0 && q.y > e.y0) || (p.y > e.y0 && q.y < e.y0);
  return exact::orient2d(e.a, e.b, p) * exact::orient2d(e.a, e.b, q) < 0;
}

// Where the walk's last point was (to go back to it): its place in the log of toggles.
struct WalkMark {
  std::size_t log = 0;
  Point at;
};

// The edges a step of the walk may cross: it goes from a point in the open square of child
// `from_child` of a node to one in child `to_child`'s (split: the node's blocks; null before the
// first point). After `rewind`, the step starts from `mark` instead of the last point.
struct WalkScope {
  const Split* split = nullptr;
  int from_child = 0, to_child = 0;
  bool rewind = false;
  WalkMark mark;
};

// Whether points that lie on no edge are free: inside the walkable polygon and inside no obstacle
// (even-odd per shape, exact orientations). The first point casts a ray to its right against
// every edge; every later one walks from the previous point, toggling the shapes whose edges the
// step crosses, of those its scope names: a superset of the edges the step can cross.
class FaceWalk {
 public:
  FaceWalk(const std::vector<Edge>& edges, const std::vector<std::uint32_t>& stack, std::size_t shapes)
      : edges_(edges), stack_(stack), inside_(shapes, 0) {}

  bool free(Point q, const WalkScope& scope) {
    if (!scope.split) {
      ray(q);
    } else {
      if (scope.rewind) {  // undo the toggles since the mark (each entry of the log at most once)
        for (; log_.size() > scope.mark.log; log_.pop_back()) flip(log_.back());
        last_ = scope.mark.at;
      }
      step(q, scope);
    }
    last_ = q;
    ++points_;
    return inside_[0] != 0 && obstacles_holding_ == 0;  // shape 0: the walkable area
  }
  std::size_t points() const { return points_; }  // points classified so far
  WalkMark mark() const { return {log_.size(), last_}; }

 private:
  void ray(Point q) {  // to the right, half-open in y
    for (const Edge& e : edges_) {
      if ((e.a.y > q.y) == (e.b.y > q.y)) continue;
      if ((e.b.y > e.a.y) != (exact::orient2d(e.a, e.b, q) > 0)) continue;
      toggle(e.shape);
    }
  }
  void step(Point q, const WalkScope& scope);
  void toggle(std::uint32_t shape) {
    flip(shape);
    log_.push_back(shape);
  }
  void flip(std::uint32_t shape) {
    inside_[shape] ^= 1;
    if (shape > 0) obstacles_holding_ += inside_[shape] ? 1 : -1;
  }
  const std::vector<Edge>& edges_;
  const std::vector<std::uint32_t>& stack_;
  std::vector<std::uint8_t> inside_;  // per shape: the last point lies in it
  long obstacles_holding_ = 0;        // obstacles the last point lies in
  Point last_;
  std::size_t points_ = 0;
  std::vector<std::uint32_t> log_;  // the shapes toggled, in order
};

// The step last_ -> q crosses edge a-b where a and b lie on strictly different sides of its line,
// a point on the line counted on the left (a symbolic shift of the segment, the same for both
// edges at a vertex), and last_ and q strictly on different sides of the edge's line (neither
// lies on an edge). An edge it crosses meets the open square of the child holding last_ or of the
// one holding q, or (when the two share a side) lies along the split line on that side: their
// blocks (an edge in both counted once). Between diagonal children the segment may pass through
// a third: then every edge of the node.
void FaceWalk::step(Point q, const WalkScope& scope) {
  const Point p = last_;
  const double x0 = std::min(p.x, q.x), x1 = std::max(p.x, q.x), y0 = std::min(p.y, q.y), y1 = std::max(p.y, q.y);
  auto test = [&](std::uint32_t v) {
    const Edge& e = edges_[v >> kFlagBits];
    if (e.x1 < x0 || e.x0 > x1 || e.y1 < y0 || e.y0 > y1) return;
    // separates(e, p, q), for an edge along an axis within the step's box: strictly inside it
    if (v & kSlanted ? !separates(e, p, q) : e.x0 == e.x1 ? !(x0 < e.x0 && e.x0 < x1) : !(y0 < e.y0 && e.y0 < y1)) return;
    if ((exact::orient2d(p, q, e.a) >= 0) == (exact::orient2d(p, q, e.b) >= 0)) return;
    toggle(e.shape);
  };
  const Split& sp = *scope.split;
  const std::uint32_t* const st = stack_.data();
  const int c1 = scope.from_child, c2 = scope.to_child;
  if ((c1 ^ c2) == 3) {
    for (std::size_t i = sp.from; i < sp.to; ++i) test(st[i]);
    return;
  }
  const std::uint32_t *b1 = st + sp.block(c1), *b2 = st + sp.block(c2), *on = st + sp.block(4);
  for (std::size_t i = 0; i < sp.n[c1]; ++i) test(b1[i]);
  for (std::size_t i = 0; i < sp.n[c2]; ++i)
    if (!(b2[i] >> c1 & 1)) test(b2[i]);
  // The side they share: on the vertical line (children 0-1 below, 2-3 above) or the horizontal
  // one (0-2 left, 1-3 right).
  const unsigned half = (c1 ^ c2) == 1 ? (c1 < 2 ? kLowerHalf : kUpperHalf) : (c1 & 1 ? kRightHalf : kLeftHalf);
  for (std::size_t i = 0; i < sp.n[4]; ++i)
    if (on[i] & half) test(on[i]);
}

// The scope of the walk into child q of a node split as sp, the walk's point lying in its child
// `last`. From child 1 into child 2 (diagonal) the walk goes back to child 0's last point if it
// has one (beside child 2), undoing the toggles since.
WalkScope walk_scope(const Split& sp, int last, int q, const std::optional<WalkMark>& after_first) {
  if (last == 1 && q == 2 && after_first) return {&sp, 0, 2, true, *after_first};
  return {&sp, last, q, false, {}};
}
}  // namespace

void QuadTree::subdivide_polygon(const PolygonMap& pm, double min_size) {
  check_rings(pm.walkable, "walkable");
  std::vector<Edge> edges;
  add_edges(pm.walkable, 0, edges);
  for (std::size_t k = 0; k < pm.obstacles.size(); ++k) {
    check_rings(pm.obstacles[k], "obstacle");
    add_edges(pm.obstacles[k], std::uint32_t(k + 1), edges);
  }

  // The box the free space lies in: the walkable outer ring's, or, where an obstacle's outer ring
  // is that same ring (the frame a reader draws around several free components,
  // datasets/polyanya_region.cpp), the box of that obstacle's holes: nothing outside them is free.
  auto box_of = [](const std::vector<Point>& ring, Point& lo, Point& hi) {
    for (const Point& p : ring) lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  };
  Point lo = pm.walkable.rings[0][0], hi = lo;
  box_of(pm.walkable.rings[0], lo, hi);
  for (const PolygonShape& o : pm.obstacles)
    if (o.rings.size() > 1 && o.rings[0] == pm.walkable.rings[0]) {
      lo = o.rings[1][0], hi = lo;
      for (std::size_t i = 1; i < o.rings.size(); ++i) box_of(o.rings[i], lo, hi);
      break;
    }
  const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
  if (!(extent > 0) || !std::isfinite(extent)) throw std::invalid_argument("quadtree: walkable area has no extent");
  // Root: a square with power-of-two side L (in map units) covering that box. Placed on the lattice
  // of multiples of L (anchored at the coordinates' origin) where a square of side L or 2L there
  // covers the box, so that every node of side s sits at a multiple of s, as the grid's nodes do
  // (root at (0, 0)): the same free space then gives the same leaves whether it came as a grid or
  // as polygons, whatever the polygons' extent (Polyanya's meshes of grid maps stop at the last
  // free cell; an unaligned root cut Aurora's free space into 19 % more cells). Else at the box's
  // low corner.
  double L = std::exp2(std::ceil(std::log2(extent)));
  while (L < extent) L *= 2;
  Point origin = lo;
  for (const double side : {L, 2 * L}) {
    const Point o{std::floor(lo.x / side) * side, std::floor(lo.y / side) * side};
    if (o.x + side >= hi.x && o.y + side >= hi.y && std::floor(std::log2(side / min_size)) <= kMaxDepth) {
      origin = o, L = side;
      break;
    }
  }
  // Depth: the smallest cell side L / 2^D is the last one that is still >= min.
  const double levels = std::floor(std::log2(L / min_size));
  if (levels > kMaxDepth)
    throw std::invalid_argument("quadtree: min=" + std::to_string(min_size) + " is too small for this map (over 2^" +
                                std::to_string(kMaxDepth) + " cells a side)");
  const int depth = std::max(0, int(levels));
  side_ = std::int32_t(1) << depth;
  unit_ = L / side_;
  origin_ = origin;

  // The edge stack (the PR quadtree's edge lists): a node's edges, those meeting its open square,
  // are a range of it. A node sorts its range into its children's blocks (an edge meeting a
  // child's open square meets its parent's), appended after everything, and drops them when
  // done. The descent costs O(edge-node incidences). The stack's entries past `top` are scratch
  // (it only grows: no clearing of what is dropped).
  if (edges.size() >= kMaxEdges) throw std::invalid_argument("quadtree: over 2^27 polygon edges");
  std::vector<std::uint32_t> stack;
  for (std::uint32_t e = 0; e < edges.size(); ++e)
    if (crosses(edges[e], world(0, 0), world(side_, side_))) stack.push_back(e << kFlagBits | (edges[e].along_axis() ? 0 : kSlanted));
  std::size_t top = stack.size();
  // A node whose open square meets no edge lies in one face of the arrangement of all rings, and
  // its centre, on no edge, decides. The centres are classified in Z order, each by a walk from the
  // previous one (or from an earlier one, see walk_scope); both lie in the open squares of two
  // children of the scope, the innermost node of the descent holding both, so only the edges of
  // those children's blocks (and of the split line between them) can cross the step. A node is
  // the scope of at most three steps (into its children 1..3): the walks too cost O(incidences).
  FaceWalk faces(edges, stack, pm.obstacles.size() + 1);
  WalkScope scope;
  tree_.clear();
  cells_.clear();
  // Node (x, y, s) meeting no edge: free or blocked by its centre.
  auto leaf = [&](std::int32_t x, std::int32_t y, std::int32_t s) -> std::int32_t {
    const Point lo = world(x, y), hi = world(x + s, y + s);
    if (!faces.free({0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y)}, scope)) return kBlocked;
    cells_.push_back({x, y, x + s, y + s});
    return -std::int32_t(cells_.size()) - 1;
  };
  // Node (x, y, s) with edges stack[from, to): none -> a leaf; else mixed: split, or dropped at
  // the minimum size.
  auto node = [&](auto&& self, std::int32_t x, std::int32_t y, std::int32_t s, std::size_t from, std::size_t to) -> std::int32_t {
    if (from == to) return leaf(x, y, s);
    if (s == 1) return kBlocked;  // at the minimum size and still touching an obstacle
    const std::int32_t h = s / 2;
    const Split sp = split_edges(stack, top, edges, from, to, world(x, y), world(x + h, y + h), world(x + s, y + s));
    const std::size_t b = tree_.size();
    tree_.resize(b + 4);
    int last = -1;                          // the child holding the walk's point, if any
    std::optional<WalkMark> after_first;    // the walk after child 0, if it classified a point
    for (int q = 0; q < 4; ++q) {
      if (last >= 0) scope = walk_scope(sp, last, q, after_first);  // else an ancestor's stands
      const std::size_t before = faces.points();
      const std::int32_t cx = x + (q & 1 ? h : 0), cy = y + (q & 2 ? h : 0);  // (no call for a leaf)
      const std::int32_t child = sp.n[q] == 0 ? leaf(cx, cy, h) : self(self, cx, cy, h, sp.block(q), sp.block(q) + sp.n[q]);
      tree_[b + std::size_t(q)] = child;
      if (faces.points() != before) {
        last = q;
        if (q == 0) after_first = faces.mark();
      }
    }
    top = sp.at;
    if (std::all_of(tree_.begin() + std::ptrdiff_t(b), tree_.end(), [](std::int32_t c) { return c == kBlocked; })) {
      tree_.resize(b);  // nothing free below: forget the node
      return kBlocked;
    }
    return std::int32_t(b);
  };
  root_ = node(node, 0, 0, side_, 0, top);
}

}  // namespace navbench
