#include "geometry/polygons.hpp"

#include <stdexcept>
#include <string>

#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/algorithms/is_valid.hpp>
#include <boost/geometry/algorithms/union.hpp>

#include "geometry/grid_rings.hpp"

// Boost.Geometry 1.74's rescale policy trips a false -Wmaybe-uninitialized (GCC) inside
// union_/difference.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace navbench {

namespace bg = boost::geometry;

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

BgMultiPolygon polygon_free_space(const PolygonMap& pm) {
  auto checked = [](const PolygonShape& s, const std::string& what) {
    if (s.rings.empty() || s.rings[0].size() < 3) throw std::invalid_argument(what + " has fewer than 3 points");
    BgPolygon p = to_bg(s);
    std::string reason;
    if (!bg::is_valid(p, reason)) throw std::invalid_argument(what + " is not a valid polygon: " + reason);
    return p;
  };
  BgMultiPolygon walkable{checked(pm.walkable, "walkable area")};
  // Union of the obstacles, pairwise in a balanced tree (cascaded union) so no step grows large.
  std::vector<BgMultiPolygon> parts;
  for (std::size_t i = 0; i < pm.obstacles.size(); ++i)
    parts.push_back(BgMultiPolygon{checked(pm.obstacles[i], "obstacle " + std::to_string(i + 1))});
  try {
    while (parts.size() > 1) {
      std::vector<BgMultiPolygon> next((parts.size() + 1) / 2);
      for (std::size_t i = 0; i + 1 < parts.size(); i += 2) bg::union_(parts[i], parts[i + 1], next[i / 2]);
      if (parts.size() % 2) next.back() = std::move(parts.back());
      parts = std::move(next);
    }
    if (parts.empty()) return walkable;
    BgMultiPolygon free;
    bg::difference(walkable, parts[0], free);
    bg::correct(free);
    return free;
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("polygon map: overlay of the obstacles failed: ") + e.what());
  }
}

}  // namespace navbench
