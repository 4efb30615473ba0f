#include "geometry/polygons.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/algorithms/is_valid.hpp>
#include <boost/geometry/algorithms/sym_difference.hpp>
#include <boost/geometry/algorithms/union.hpp>
#include <boost/geometry/algorithms/envelope.hpp>
#include <boost/geometry/algorithms/intersects.hpp>
#include <boost/geometry/index/rtree.hpp>

#include "geometry/exact.hpp"
#include "geometry/grid_rings.hpp"

// Boost.Geometry 1.74's rescale policy trips a false -Wmaybe-uninitialized (GCC) inside
// union_/difference.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace navbench {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

namespace {

void append_ring(const std::vector<Point>& in, BgPolygon::ring_type& out) {
  for (const Point& p : in) out.push_back(BgPoint(p.x, p.y));
  if (!in.empty() && !(in.front() == in.back())) out.push_back(BgPoint(in.front().x, in.front().y));
}

std::vector<Point> open_ring(const BgPolygon::ring_type& r) {
  std::vector<Point> out;
  for (const BgPoint& p : r) {
    const Point q{p.x(), p.y()};
    if (out.empty() || !(out.back() == q)) out.push_back(q);
  }
  while (out.size() > 1 && out.front() == out.back()) out.pop_back();
  return out;
}

}  // namespace

BgPolygon to_bg(const PolygonShape& shape) {
  BgPolygon poly;
  if (shape.rings.empty()) return poly;
  append_ring(shape.rings[0], poly.outer());
  for (std::size_t i = 1; i < shape.rings.size(); ++i) {
    poly.inners().emplace_back();
    append_ring(shape.rings[i], poly.inners().back());
  }
  bg::correct(poly);
  return poly;
}

PolygonShape from_bg(const BgPolygon& poly) {
  PolygonShape s;
  s.rings.push_back(open_ring(poly.outer()));
  for (const auto& h : poly.inners()) s.rings.push_back(open_ring(h));
  return s;
}

BgMultiPolygon grid_obstacle_polygons(const GridMap& grid, bool with_outside) {
  // Blocked cells on a grid padded by one cell on every side (the padding is the outside).
  const int W = grid.width + 2, H = grid.height + 2;
  std::vector<std::uint8_t> blocked(std::size_t(W) * H, 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const bool pad = x == 0 || y == 0 || x == W - 1 || y == H - 1;
      blocked[std::size_t(y) * W + x] = pad ? (with_outside ? 1 : 0) : !grid.passable(x - 1, y - 1);
    }
  // 4-connected components of blocked cells: each becomes one polygon.
  std::vector<std::int32_t> comp(blocked.size(), -1);
  std::int32_t ncomp = 0;
  std::vector<std::size_t> queue;
  for (std::size_t s = 0; s < blocked.size(); ++s) {
    if (!blocked[s] || comp[s] >= 0) continue;
    comp[s] = ncomp;
    queue.assign(1, s);
    while (!queue.empty()) {
      const std::size_t c = queue.back();
      queue.pop_back();
      const int x = int(c % W), y = int(c / W);
      const int nx[4] = {x + 1, x - 1, x, x}, ny[4] = {y, y, y + 1, y - 1};
      for (int k = 0; k < 4; ++k) {
        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= W || ny[k] >= H) continue;
        const std::size_t n = std::size_t(ny[k]) * W + nx[k];
        if (blocked[n] && comp[n] < 0) {
          comp[n] = ncomp;
          queue.push_back(n);
        }
      }
    }
    ++ncomp;
  }
  // Traced rings keep diagonal touches apart, so each ring bounds exactly one component: its outer
  // boundary (counter-clockwise) or a hole (clockwise).
  BgMultiPolygon out;
  out.resize(std::size_t(ncomp));
  std::vector<std::vector<std::vector<Point>>> holes;
  holes.resize(std::size_t(ncomp));
  for (auto& ring : trace_cell_rings(W, H, blocked)) {
    const Point a = ring[0], b = ring[1];
    const int x = int(a.x), y = int(a.y);
    int cx = x, cy = y;  // the cell on the left of the first edge
    if (b.x > a.x) cx = x, cy = y;
    else if (b.y > a.y) cx = x - 1, cy = y;
    else if (b.x < a.x) cx = x - 1, cy = y - 1;
    else cx = x, cy = y - 1;
    const std::int32_t k = comp[std::size_t(cy) * W + cx];
    for (Point& p : ring) p = {p.x - 1, p.y - 1};
    if (ring_area2(ring) > 0) append_ring(ring, out[std::size_t(k)].outer());
    else holes[std::size_t(k)].push_back(std::move(ring));
  }
  for (std::size_t k = 0; k < out.size(); ++k)
    for (const auto& h : holes[k]) {
      out[k].inners().emplace_back();
      append_ring(h, out[k].inners().back());
    }
  bg::correct(out);
  return out;
}

Map grid_to_polygon_map(const Map& gm) {
  if (gm.kind != MapKind::grid) throw std::invalid_argument("grid_to_polygon_map needs a grid map");
  Map m;
  m.name = gm.name;
  m.collection = gm.collection;
  m.path = gm.path;
  m.kind = MapKind::polygon;
  const double W = gm.grid.width, H = gm.grid.height;
  m.polygons.walkable.rings.push_back({{0, 0}, {W, 0}, {W, H}, {0, H}});
  for (const BgPolygon& p : grid_obstacle_polygons(gm.grid, false)) m.polygons.obstacles.push_back(from_bg(p));
  m.min = {0, 0};
  m.max = {W, H};
  return m;
}

namespace {

// Ray parity of q against rings (every ring's edges in one rtree of boxes): which polygon of
// `polys` holds q strictly inside (q on none of their edges), -1 when none. Exact orientation.
struct RingIndex {
  struct Edge {
    Point a, b;
    std::uint32_t poly;
  };
  std::vector<Edge> edges;
  bgi::rtree<std::pair<BgBox, std::uint32_t>, bgi::rstar<16>> tree;
  double xmax = 0;

  explicit RingIndex(const BgMultiPolygon& polys) {
    std::vector<std::pair<BgBox, std::uint32_t>> boxes;
    auto ring = [&](const BgPolygon::ring_type& r, std::uint32_t k) {
      for (std::size_t i = 0; i + 1 < r.size(); ++i) {
        const Point a{r[i].x(), r[i].y()}, b{r[i + 1].x(), r[i + 1].y()};
        boxes.push_back({BgBox(BgPoint(std::min(a.x, b.x), std::min(a.y, b.y)), BgPoint(std::max(a.x, b.x), std::max(a.y, b.y))),
                         std::uint32_t(edges.size())});
        edges.push_back({a, b, k});
        xmax = std::max(xmax, std::max(a.x, b.x));
      }
    };
    for (std::uint32_t k = 0; k < polys.size(); ++k) {
      ring(polys[k].outer(), k);
      for (const auto& h : polys[k].inners()) ring(h, k);
    }
    tree = decltype(tree)(boxes.begin(), boxes.end());
  }
  bool near_an_edge(const BgBox& box) const { return tree.qbegin(bgi::intersects(box)) != tree.qend(); }
  std::int32_t holder(Point q) const {
    std::vector<std::pair<std::uint32_t, int>> parity;
    for (auto it = tree.qbegin(bgi::intersects(BgBox(BgPoint(q.x, q.y), BgPoint(xmax + 1, q.y)))); it != tree.qend(); ++it) {
      const Edge& e = edges[it->second];
      if ((e.a.y > q.y) == (e.b.y > q.y)) continue;
      if ((e.b.y > e.a.y) != (exact::orient2d(e.a, e.b, q) > 0)) continue;
      auto f = std::find_if(parity.begin(), parity.end(), [&](const auto& x) { return x.first == e.poly; });
      if (f == parity.end()) parity.push_back({e.poly, 1});
      else f->second ^= 1;
    }
    for (const auto& [k, odd] : parity)
      if (odd) return std::int32_t(k);
    return -1;
  }
};

}  // namespace

BgMultiPolygon polygon_free_space(const PolygonMap& pm) {
  auto checked = [](const PolygonShape& s, const std::string& what) {
    if (s.rings.empty() || s.rings[0].size() < 3) throw std::invalid_argument(what + " has fewer than 3 points");
    BgPolygon p = to_bg(s);
    std::string reason;
    if (!bg::is_valid(p, reason)) throw std::invalid_argument(what + " is not a valid polygon: " + reason);
    return p;
  };
  BgMultiPolygon walkable{checked(pm.walkable, "walkable area")};
  std::vector<BgPolygon> obstacles;
  std::vector<BgBox> boxes;
  for (std::size_t i = 0; i < pm.obstacles.size(); ++i) {
    obstacles.push_back(checked(pm.obstacles[i], "obstacle " + std::to_string(i + 1)));
    boxes.push_back(bg::return_envelope<BgBox>(obstacles.back()));
  }
  // Obstacles are united by clusters of those that meet (boxes from an rtree, then Boost.Geometry's
  // intersects): Boost.Geometry's overlay tests every ring that crosses nothing against the whole
  // other geometry, so one cascaded union of all obstacles is quadratic in them (6 s for 8,300
  // disjoint obstacles, docs/measurements.md). A united piece that touches nothing (below) becomes
  // a hole of the free polygon holding one of its points, without an overlay; the other pieces are
  // taken from the walkable area by the overlay, whose rings then meet few rings of the other side.
  const RingIndex walkable_edges(walkable);
  std::vector<std::pair<BgBox, std::uint32_t>> values;
  for (std::uint32_t i = 0; i < boxes.size(); ++i) values.push_back({boxes[i], i});
  const bgi::rtree<std::pair<BgBox, std::uint32_t>, bgi::rstar<16>> obstacle_tree(values.begin(), values.end());
  std::vector<std::uint32_t> up(obstacles.size());
  for (std::uint32_t i = 0; i < up.size(); ++i) up[i] = i;
  auto root = [&](std::uint32_t i) {
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
  };
  for (std::uint32_t i = 0; i < obstacles.size(); ++i)
    for (auto it = obstacle_tree.qbegin(bgi::intersects(boxes[i])); it != obstacle_tree.qend(); ++it)
      if (it->second > i && root(it->second) != root(i) && bg::intersects(obstacles[i], obstacles[it->second]))
        up[root(it->second)] = root(i);
  std::vector<std::vector<std::uint32_t>> clusters(obstacles.size());
  for (std::uint32_t i = 0; i < obstacles.size(); ++i) clusters[root(i)].push_back(i);
  BgMultiPolygon overlaid, apart;
  std::vector<BgPolygon> pieces;  // the clusters' unions
  try {
    for (const auto& members : clusters) {
      if (members.empty()) continue;
      // Union of the cluster, pairwise in a balanced tree (cascaded union) so no step grows large.
      std::vector<BgMultiPolygon> parts;
      for (std::uint32_t i : members) parts.push_back(BgMultiPolygon{obstacles[i]});
      while (parts.size() > 1) {
        std::vector<BgMultiPolygon> next((parts.size() + 1) / 2);
        for (std::size_t i = 0; i + 1 < parts.size(); i += 2) bg::union_(parts[i], parts[i + 1], next[i / 2]);
        if (parts.size() % 2) next.back() = std::move(parts.back());
        parts = std::move(next);
      }
      for (auto& piece : parts[0]) pieces.push_back(std::move(piece));
    }
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("polygon map: overlay of the obstacles failed: ") + e.what());
  }
  // Apart: no island inside it and its box meets no other piece's box (so no other piece lies in
  // an island it encloses with others) and no edge of the walkable area.
  std::vector<std::pair<BgBox, std::uint32_t>> piece_boxes;
  for (std::uint32_t k = 0; k < pieces.size(); ++k) piece_boxes.push_back({bg::return_envelope<BgBox>(pieces[k]), k});
  const bgi::rtree<std::pair<BgBox, std::uint32_t>, bgi::rstar<16>> piece_tree(piece_boxes.begin(), piece_boxes.end());
  for (std::uint32_t k = 0; k < pieces.size(); ++k) {
    const BgBox& box = piece_boxes[k].first;
    bool alone = pieces[k].inners().empty() && !walkable_edges.near_an_edge(box);
    for (auto it = piece_tree.qbegin(bgi::intersects(box)); alone && it != piece_tree.qend(); ++it) alone = it->second == k;
    (alone ? apart : overlaid).push_back(std::move(pieces[k]));
  }
  BgMultiPolygon free;
  try {
    if (overlaid.empty()) {
      free = walkable;
    } else {
      bg::difference(walkable, overlaid, free);
      bg::correct(free);
    }
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("polygon map: overlay of the obstacles failed: ") + e.what());
  }
  if (apart.empty()) return free;
  const RingIndex free_rings(free);
  for (const BgPolygon& piece : apart) {
    const auto& outer = piece.outer();
    const std::int32_t k = free_rings.holder({outer[0].x(), outer[0].y()});
    if (k < 0) continue;  // in a hole of the walkable area, or outside it
    auto& hole = free[std::size_t(k)].inners().emplace_back(outer.begin(), outer.end());
    std::reverse(hole.begin(), hole.end());  // an outer ring turns the other way from a hole
  }
  return free;
}

bool bg_is_valid(const BgPolygon& p, std::string& why) { return bg::is_valid(p, why); }

bool bg_self_intersects(const BgPolygon& p) { return bg::intersects(p); }

BgMultiPolygon bg_sym_difference(const BgMultiPolygon& a, const BgPolygon& b) {
  BgMultiPolygon out;
  bg::sym_difference(a, b, out);
  return out;
}

}  // namespace navbench
