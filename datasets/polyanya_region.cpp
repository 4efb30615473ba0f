#include "datasets/polyanya_region.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

#include <boost/geometry/algorithms/convert.hpp>
#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/algorithms/intersects.hpp>
#include <boost/geometry/algorithms/is_valid.hpp>
#include <boost/geometry/algorithms/sym_difference.hpp>

#include "datasets/text_lines.hpp"
#include "geometry/polygons.hpp"
#include "representations/union_find.hpp"

namespace navbench {

namespace bg = boost::geometry;
using BgRing = BgPolygon::ring_type;

namespace {

std::uint64_t edge_key(int a, int b) { return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b); }

// Edge k of polygon i runs from vertex k-1 to vertex k (the edge neighbours[k] is across in
// version 2); the polygon lies on its left.
struct HalfEdge {
  int from, to, polygon, k;
};

std::vector<HalfEdge> half_edges(const PolyanyaMesh& m) {
  std::vector<HalfEdge> out;
  for (std::size_t i = 0; i < m.polygons.size(); ++i) {
    const auto& v = m.polygons[i];
    for (std::size_t k = 0; k < v.size(); ++k) out.push_back({v[(k + v.size() - 1) % v.size()], v[k], int(i), int(k)});
  }
  return out;
}

std::unordered_map<std::uint64_t, std::size_t> edge_index(const std::vector<HalfEdge>& edges, const std::string& file) {
  std::unordered_map<std::uint64_t, std::size_t> at;
  at.reserve(edges.size() * 2);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    auto [it, fresh] = at.emplace(edge_key(edges[e].from, edges[e].to), e);
    if (!fresh)
      throw InputError(file + ": polygons " + std::to_string(edges[it->second].polygon) + " and " + std::to_string(edges[e].polygon) +
                       " overlap (both run along the edge from vertex " + std::to_string(edges[e].from) + " to " + std::to_string(edges[e].to) + ")");
  }
  return at;
}

BgRing ring_of(const std::vector<Point>& pts) {
  BgRing r;
  for (const Point& p : pts) r.push_back({p.x, p.y});
  if (!pts.empty()) r.push_back({pts.front().x, pts.front().y});
  return r;
}

// The polygon map whose free space is `free` inside `box`: walkable = the box, obstacles = the
// box minus `free` (Boost.Geometry difference; valid polygons, touching at points where free
// sectors meet).
PolygonMap region_map(const BgMultiPolygon& free, const BgBox& box, const std::string& file) {
  if (free.empty()) throw InputError(file + ": no walkable area");
  BgPolygon frame;
  bg::convert(box, frame);
  bg::correct(frame);
  BgMultiPolygon obstacles;
  try {
    bg::difference(frame, free, obstacles);
  } catch (const std::exception& e) {
    throw InputError(file + ": cannot compute the obstacles around the walkable area (" + e.what() + ")");
  }
  PolygonMap pm;
  pm.walkable = from_bg(frame);
  for (const BgPolygon& o : obstacles) pm.obstacles.push_back(from_bg(o));
  return pm;
}

// Clockwise angle from direction u to direction v, in (0, 2 pi].
double clockwise_angle(Point u, Point v) {
  double a = std::atan2(u.y, u.x) - std::atan2(v.y, v.x);
  while (a <= 0) a += 2 * std::numbers::pi;
  while (a > 2 * std::numbers::pi) a -= 2 * std::numbers::pi;
  return a;
}

}  // namespace

void check_mesh_topology(const PolyanyaMesh& m, const std::string& file, const std::vector<long>& poly_line) {
  const auto edges = half_edges(m);
  const auto at = edge_index(edges, file);
  for (const HalfEdge& e : edges) {
    const auto twin = at.find(edge_key(e.to, e.from));
    const int across = twin == at.end() ? -1 : edges[twin->second].polygon;
    const int listed = m.neighbours[std::size_t(e.polygon)][std::size_t(e.k)];
    if (listed != across)
      text::fail(file, poly_line[std::size_t(e.polygon)],
                 "polygon " + std::to_string(e.polygon) + ": neighbour " + std::to_string(e.k) + " is " + std::to_string(listed) +
                     ", but across the edge from vertex " + std::to_string(e.from) + " to " + std::to_string(e.to) + " lies " +
                     (across < 0 ? std::string("no polygon (-1)") : "polygon " + std::to_string(across)) + " (version 2: edge v[i-1]-v[i])");
  }
  // Each vertex lists exactly the polygons holding it.
  std::vector<std::vector<int>> around(m.vertices.size());
  for (std::size_t i = 0; i < m.polygons.size(); ++i)
    for (int v : m.polygons[i]) around[std::size_t(v)].push_back(int(i));
  for (std::size_t v = 0; v < m.vertices.size(); ++v) {
    std::vector<int> listed;
    for (int p : m.vertex_polygons[v])
      if (p >= 0) listed.push_back(p);
    std::sort(listed.begin(), listed.end());
    std::sort(around[v].begin(), around[v].end());
    if (listed != around[v])
      throw InputError(file + ":" + std::to_string(4 + v) + ": vertex " + std::to_string(v) + " lists " + std::to_string(listed.size()) +
                       " polygons, but " + std::to_string(around[v].size()) + " polygons hold it (or the lists differ)");
  }
}

void check_simple_ring(const std::vector<Point>& ring, const std::string& file, long line, int index) {
  BgPolygon p;
  p.outer() = ring_of(ring);
  if (bg::intersects(p)) text::fail(file, line, "polygon " + std::to_string(index) + " intersects itself (the spec wants simple polygons)");
  bg::correct(p);
  std::string why;
  if (!bg::is_valid(p, why)) text::fail(file, line, "polygon " + std::to_string(index) + " is not simple: " + why);
}

PolygonMap mesh_polygon_map(const PolyanyaMesh& m, const std::string& file) {
  const auto edges = half_edges(m);
  const auto at = edge_index(edges, file);
  UnionFind uf(m.polygons.size());
  std::vector<std::size_t> boundary;                          // half-edges without a twin
  std::vector<std::vector<std::size_t>> out(m.vertices.size());  // boundary half-edges leaving a vertex
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const auto twin = at.find(edge_key(edges[e].to, edges[e].from));
    if (twin != at.end()) {
      uf.unite(edges[e].polygon, edges[twin->second].polygon);
    } else {
      boundary.push_back(e);
      out[std::size_t(edges[e].from)].push_back(e);
    }
  }
  // Trace the boundary loops (free space on the left). Where several boundary edges leave a vertex
  // (free sectors meeting at a point), take the first one clockwise from the way back: each loop
  // then stays on its own sector, and the point stays a pinch point between them.
  std::vector<char> used(edges.size(), 0);
  std::unordered_map<std::size_t, BgPolygon> component;  // root polygon -> its polygon with holes
  std::vector<std::pair<std::size_t, BgRing>> holes;
  for (std::size_t start : boundary) {
    if (used[start]) continue;
    std::vector<Point> loop;
    std::size_t e = start;
    do {
      used[e] = 1;
      const HalfEdge& h = edges[e];
      loop.push_back(m.vertices[std::size_t(h.from)]);
      const Point b = m.vertices[std::size_t(h.to)], back = m.vertices[std::size_t(h.from)];
      std::size_t next = edges.size();
      double best = 10;
      for (std::size_t c : out[std::size_t(h.to)]) {
        const Point t = m.vertices[std::size_t(edges[c].to)];
        const double a = clockwise_angle({back.x - b.x, back.y - b.y}, {t.x - b.x, t.y - b.y});
        if (a < best) best = a, next = c;
      }
      if (next == edges.size() || (used[next] && next != start))
        throw InputError(file + ": the mesh's boundary does not close at vertex " + std::to_string(h.to) + " (not a planar mesh)");
      e = next;
    } while (e != start);
    double twice_area = 0;
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const Point& p = loop[i], &q = loop[(i + 1) % loop.size()];
      twice_area += p.x * q.y - q.x * p.y;
    }
    const std::size_t root = std::size_t(uf.find(edges[start].polygon));
    if (twice_area > 0) {
      if (!component[root].outer().empty())
        throw InputError(file + ": polygons " + std::to_string(edges[start].polygon) + " and " + std::to_string(root) + " are joined but have two outer boundaries (overlapping polygons)");
      component[root].outer() = ring_of(loop);
    } else {
      holes.push_back({root, ring_of(loop)});
    }
  }
  for (auto& [root, ring] : holes) component[root].inners().push_back(std::move(ring));
  BgMultiPolygon free;
  const double inf = std::numeric_limits<double>::infinity();
  BgBox box({inf, inf}, {-inf, -inf});
  for (auto& [root, poly] : component) {
    if (poly.outer().empty()) throw InputError(file + ": a component of polygon " + std::to_string(root) + " has no outer boundary");
    bg::correct(poly);
    free.push_back(std::move(poly));
  }
  for (const auto& poly : m.polygons)
    for (int v : poly) {
      const Point p = m.vertices[std::size_t(v)];
      box.min_corner() = {std::min(box.min_corner().x(), p.x), std::min(box.min_corner().y(), p.y)};
      box.max_corner() = {std::max(box.max_corner().x(), p.x), std::max(box.max_corner().y(), p.y)};
    }
  return region_map(free, box, file);
}

PolygonMap poly_polygon_map(const std::vector<std::vector<Point>>& polygons, const std::string& file) {
  // The spec's traversable area: the symmetric difference of all polygons.
  BgMultiPolygon free;
  const double inf = std::numeric_limits<double>::infinity();
  BgBox box({inf, inf}, {-inf, -inf});
  for (const auto& ring : polygons) {
    BgPolygon p;
    p.outer() = ring_of(ring);
    bg::correct(p);
    BgMultiPolygon next;
    try {
      bg::sym_difference(free, p, next);
    } catch (const std::exception& e) {
      throw InputError(file + ": cannot combine its polygons (" + e.what() + ")");
    }
    free = std::move(next);
    for (const Point& q : ring) {
      box.min_corner() = {std::min(box.min_corner().x(), q.x), std::min(box.min_corner().y(), q.y)};
      box.max_corner() = {std::max(box.max_corner().x(), q.x), std::max(box.max_corner().y(), q.y)};
    }
  }
  return region_map(free, box, file);
}

}  // namespace navbench
