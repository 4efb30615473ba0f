// The quadtree subdivision of a polygon map (docs/maps.md): a node is free when its closed square meets
// no obstacle interior (and stays inside the walkable area), blocked when its interior holds no free
// point, mixed otherwise. Geometry by Boost.Geometry.
//
// The test is the classic edge-list descent: every node receives the boundary edges (walkable rings
// and obstacle rings) that touch its closed square, and passes on those touching each child. If an
// edge passes through the open square, the square has blocked interior on one side of that edge, so
// it is not free: split it (or drop it at the minimum size). If none does, the open square lies in
// one face of the arrangement of all rings, and its centre, which lies on no edge, decides: free iff
// inside the walkable polygon and inside no obstacle.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/linestring.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <boost/geometry/geometries/segment.hpp>

#include "representations/quadtree/quadtree.hpp"

namespace navbench {

namespace {
namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BSegment = bg::model::segment<BPoint>;
using BBox = bg::model::box<BPoint>;
using BPolygon = bg::model::polygon<BPoint>;
using BLine = bg::model::linestring<BPoint>;

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
}  // namespace

void QuadTree::subdivide_polygon(const PolygonMap& pm, double min_size) {
  const BPolygon walkable = to_polygon(pm.walkable, "walkable");
  std::vector<BPolygon> obstacles;
  std::vector<BBox> obstacle_boxes;
  std::vector<BSegment> edges;
  add_edges(pm.walkable, edges);
  for (const auto& o : pm.obstacles) {
    obstacles.push_back(to_polygon(o, "obstacle"));
    obstacle_boxes.push_back(bg::return_envelope<BBox>(obstacles.back()));
    add_edges(o, edges);
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

  auto point_free = [&](const BPoint& c) {
    if (!bg::within(c, walkable)) return false;
    for (std::size_t i = 0; i < obstacles.size(); ++i)
      if (bg::covered_by(c, obstacle_boxes[i]) && bg::within(c, obstacles[i])) return false;
    return true;
  };
  // The segment passes through the open square: its interior meets the square's interior.
  const auto through_interior = bg::de9im::mask("T********");
  auto crosses = [&](const BSegment& e, const BPolygon& square) {
    BLine line{e.first, e.second};
    return bg::relate(line, square, through_interior);
  };

  tree_.clear();
  cells_.clear();
  std::vector<std::uint32_t> all(edges.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  auto node = [&](auto&& self, std::int32_t x, std::int32_t y, std::int32_t s,
                  const std::vector<std::uint32_t>& candidates) -> std::int32_t {
    const Point lo = world(x, y), hi = world(x + s, y + s);
    const BBox box(BPoint(lo.x, lo.y), BPoint(hi.x, hi.y));
    std::vector<std::uint32_t> touching;
    for (std::uint32_t e : candidates)
      if (bg::intersects(edges[e], box)) touching.push_back(e);
    bool mixed = false;
    if (!touching.empty()) {
      BPolygon square;
      bg::convert(box, square);
      for (std::uint32_t e : touching)
        if (crosses(edges[e], square)) {
          mixed = true;
          break;
        }
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
