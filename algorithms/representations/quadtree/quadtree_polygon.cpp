// The quadtree subdivision of a polygon map (docs/maps.md): a node is free when its closed square meets
// no obstacle interior (and stays inside the walkable area), blocked when its interior holds no free
// point, mixed otherwise. The polygons by Boost.Geometry; an edge against a square and a leaf's
// centre against the shapes by exact orientation predicates (geometry/exact.hpp).
//
// The test is the classic edge-list descent: every node receives the boundary edges (walkable rings
// and obstacle rings) that touch its closed square, and passes on those touching each child. If an
// edge passes through the open square, the square has blocked interior on one side of that edge, so
// it is not free: split it (or drop it at the minimum size). If none does, the open square lies in
// one face of the arrangement of all rings, and its centre, which lies on no edge, decides: free iff
// inside the walkable polygon and inside no obstacle.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <boost/geometry/geometries/segment.hpp>
#include <boost/geometry/index/rtree.hpp>

#include "geometry/exact.hpp"
#include "representations/quadtree/quadtree.hpp"

namespace navbench {

namespace {
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using BPoint = bg::model::d2::point_xy<double>;
using BSegment = bg::model::segment<BPoint>;
using BBox = bg::model::box<BPoint>;
using BPolygon = bg::model::polygon<BPoint>;

// Deepest subdivision accepted: 2^20 smallest cells along a side.
constexpr int kMaxDepth = 20;

BPolygon to_polygon(const PolygonShape& shape, const char* what) {
  if (shape.rings.empty() || shape.rings[0].size() < 3)
    throw std::invalid_argument(std::string("quadtree: ") + what + " polygon has no outer ring");
  BPolygon poly;
  auto fill = [](auto& ring, const std::vector<Point>& pts) {
    for (const Point& p : pts) ring.push_back(BPoint(p.x, p.y));
    ring.push_back(BPoint(pts.front().x, pts.front().y));  // Boost.Geometry rings are closed
  };
  fill(poly.outer(), shape.rings[0]);
  for (std::size_t i = 1; i < shape.rings.size(); ++i) {
    if (shape.rings[i].size() < 3) throw std::invalid_argument(std::string("quadtree: ") + what + " hole with < 3 points");
    poly.inners().emplace_back();
    fill(poly.inners().back(), shape.rings[i]);
  }
  bg::correct(poly);  // orientation and closure as the polygon type expects
  return poly;
}

void add_edges(const PolygonShape& shape, std::vector<BSegment>& edges) {
  for (const auto& ring : shape.rings)
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Point a = ring[i], b = ring[(i + 1) % ring.size()];
      if (a == b) continue;
      edges.emplace_back(BPoint(a.x, a.y), BPoint(b.x, b.y));
    }
}
// Segment against square by separating axes, exact (two convex sets are disjoint iff a line
// through an edge of one separates them: the square's sides or the segment's line; for the open
// square a weak separation suffices). `touches`: the segment meets the closed square; `crosses`:
// it meets the open square, so the square has obstacle interior on one side of it.
void corner_sides(const BSegment& e, const Point& lo, const Point& hi, int& pos, int& neg) {
  const Point a{e.first.x(), e.first.y()}, b{e.second.x(), e.second.y()};
  pos = neg = 0;
  for (const Point q : {lo, Point{hi.x, lo.y}, hi, Point{lo.x, hi.y}}) {
    const int o = exact::orient2d(a, b, q);
    pos += o > 0, neg += o < 0;
  }
}

bool touches(const BSegment& e, const Point& lo, const Point& hi) {
  const double x0 = std::min(e.first.x(), e.second.x()), x1 = std::max(e.first.x(), e.second.x());
  const double y0 = std::min(e.first.y(), e.second.y()), y1 = std::max(e.first.y(), e.second.y());
  if (x1 < lo.x || x0 > hi.x || y1 < lo.y || y0 > hi.y) return false;
  if (x0 == x1 || y0 == y1) return true;  // along an axis: the segment is its box
  int pos, neg;
  corner_sides(e, lo, hi, pos, neg);
  return pos < 4 && neg < 4;  // no corner on the line and all on one side: apart
}

bool crosses(const BSegment& e, const Point& lo, const Point& hi) {
  const double x0 = std::min(e.first.x(), e.second.x()), x1 = std::max(e.first.x(), e.second.x());
  const double y0 = std::min(e.first.y(), e.second.y()), y1 = std::max(e.first.y(), e.second.y());
  if (x1 <= lo.x || x0 >= hi.x || y1 <= lo.y || y0 >= hi.y) return false;
  if (x0 == x1 || y0 == y1) return true;  // along an axis: the segment is its box
  int pos, neg;
  corner_sides(e, lo, hi, pos, neg);
  return pos > 0 && neg > 0;  // corners strictly on both sides of the line
}
}  // namespace

void QuadTree::subdivide_polygon(const PolygonMap& pm, double min_size) {
  const BPolygon walkable = to_polygon(pm.walkable, "walkable");
  std::vector<BPolygon> obstacles;
  std::vector<BSegment> edges;
  std::vector<std::uint32_t> edge_shape;  // 0: the walkable area, k: obstacle k - 1
  add_edges(pm.walkable, edges);
  edge_shape.resize(edges.size(), 0);
  for (const auto& o : pm.obstacles) {
    obstacles.push_back(to_polygon(o, "obstacle"));
    add_edges(o, edges);
    edge_shape.resize(edges.size(), std::uint32_t(obstacles.size()));
  }

  // Root: a square with power-of-two side (in map units) at the low corner of the walkable area.
  const BBox env = bg::return_envelope<BBox>(walkable);
  const double extent = std::max(env.max_corner().x() - env.min_corner().x(), env.max_corner().y() - env.min_corner().y());
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
  origin_ = {env.min_corner().x(), env.min_corner().y()};

  // A leaf's centre lies on no ring edge: free iff inside the walkable polygon and inside no
  // obstacle (even-odd per shape, exact orientation). The first centre casts a ray to its right;
  // every later one walks from the previous centre, toggling the shapes whose edges the short
  // segment between them crosses (the leaves come in Z order, so that segment is short), the edges
  // found in an rtree: O(log n + the edges near the step) a leaf instead of every ring's every edge.
  std::vector<std::pair<BBox, std::uint32_t>> boxes;
  boxes.reserve(edges.size());
  double xmax = env.max_corner().x();
  for (std::uint32_t e = 0; e < edges.size(); ++e) {
    const BPoint &a = edges[e].first, &b = edges[e].second;
    boxes.push_back({BBox(BPoint(std::min(a.x(), b.x()), std::min(a.y(), b.y())), BPoint(std::max(a.x(), b.x()), std::max(a.y(), b.y()))), e});
    xmax = std::max(xmax, std::max(a.x(), b.x()));
  }
  const bgi::rtree<std::pair<BBox, std::uint32_t>, bgi::rstar<16>> edge_tree(boxes.begin(), boxes.end());
  std::vector<std::uint8_t> inside(obstacles.size() + 1, 0);  // per shape: the last centre lies in it
  long obstacles_holding = 0;  // obstacles the last centre lies in
  std::optional<Point> last;
  auto toggle = [&](std::uint32_t shape) {
    inside[shape] ^= 1;
    if (shape > 0) obstacles_holding += inside[shape] ? 1 : -1;
  };
  auto point_free = [&](const BPoint& c) {
    const Point q{c.x(), c.y()};
    auto point = [&](std::uint32_t e) { return std::pair{Point{edges[e].first.x(), edges[e].first.y()}, Point{edges[e].second.x(), edges[e].second.y()}}; };
    if (!last) {  // the ray to the right, half-open in y
      for (auto it = edge_tree.qbegin(bgi::intersects(BBox(c, BPoint(xmax + 1, c.y())))); it != edge_tree.qend(); ++it) {
        const auto [a, b] = point(it->second);
        if ((a.y > q.y) == (b.y > q.y)) continue;
        if ((b.y > a.y) != (exact::orient2d(a, b, q) > 0)) continue;
        toggle(edge_shape[it->second]);
      }
    } else if (!(*last == q)) {
      // The segment last -> q crosses edge a-b where a and b lie on strictly different sides of its
      // line, a point on the line counted on the left (a symbolic shift of the segment, the same for
      // both edges at a vertex), and last and q strictly on different sides of the edge's line
      // (neither lies on an edge).
      const Point p0 = *last;
      const BBox step(BPoint(std::min(p0.x, q.x), std::min(p0.y, q.y)), BPoint(std::max(p0.x, q.x), std::max(p0.y, q.y)));
      for (auto it = edge_tree.qbegin(bgi::intersects(step)); it != edge_tree.qend(); ++it) {
        const auto [a, b] = point(it->second);
        if ((exact::orient2d(p0, q, a) >= 0) == (exact::orient2d(p0, q, b) >= 0)) continue;
        if (exact::orient2d(a, b, p0) * exact::orient2d(a, b, q) >= 0) continue;
        toggle(edge_shape[it->second]);
      }
    }
    last = q;
    return inside[0] != 0 && obstacles_holding == 0;  // shape 0: the walkable area
  };
  tree_.clear();
  cells_.clear();
  std::vector<std::uint32_t> all(edges.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  auto node = [&](auto&& self, std::int32_t x, std::int32_t y, std::int32_t s,
                  const std::vector<std::uint32_t>& candidates) -> std::int32_t {
    const Point lo = world(x, y), hi = world(x + s, y + s);
    std::vector<std::uint32_t> touching;
    touching.reserve(candidates.size());
    for (std::uint32_t e : candidates)
      if (touches(edges[e], lo, hi)) touching.push_back(e);
    bool mixed = false;
    for (std::uint32_t e : touching)
      if (crosses(edges[e], lo, hi)) {
        mixed = true;
        break;
      }
    if (!mixed) {
      if (!point_free(BPoint(0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y)))) return kBlocked;
      cells_.push_back({x, y, x + s, y + s});
      return -std::int32_t(cells_.size()) - 1;
    }
    if (s == 1) return kBlocked;  // at the minimum size and still touching an obstacle
    const std::int32_t h = s / 2;
    const std::size_t b = tree_.size();
    tree_.resize(b + 4);
    const std::int32_t c0 = self(self, x, y, h, touching), c1 = self(self, x + h, y, h, touching);
    const std::int32_t c2 = self(self, x, y + h, h, touching), c3 = self(self, x + h, y + h, h, touching);
    if (c0 == kBlocked && c1 == kBlocked && c2 == kBlocked && c3 == kBlocked) {
      tree_.resize(b);
      return kBlocked;
    }
    tree_[b] = c0, tree_[b + 1] = c1, tree_[b + 2] = c2, tree_[b + 3] = c3;
    return std::int32_t(b);
  };
  root_ = node(node, 0, 0, side_, all);
}

}  // namespace navbench
