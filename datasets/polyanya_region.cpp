#include "datasets/polyanya_region.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

#include <boost/geometry/algorithms/correct.hpp>

#include "base/text.hpp"
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
      throw base::InputError(file + ": polygons " + std::to_string(edges[it->second].polygon) + " and " + std::to_string(edges[e].polygon) +
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

std::vector<Point> open_points(const BgRing& r) {
  std::vector<Point> out;
  for (std::size_t i = 0; i + 1 < r.size(); ++i) out.push_back({r[i].x(), r[i].y()});
  return out;
}

double ring_area(const std::vector<Point>& r) {
  double a = 0;
  for (std::size_t i = 0; i < r.size(); ++i) a += r[i].x * r[(i + 1) % r.size()].y - r[(i + 1) % r.size()].x * r[i].y;
  return std::abs(a) / 2;
}

// Even-odd point in ring (p never on the ring here: callers pass the midpoint of an edge of
// another loop, and loops share no edge).
bool inside(const std::vector<Point>& r, Point p) {
  bool in = false;
  for (std::size_t i = 0, j = r.size() - 1; i < r.size(); j = i++)
    if ((r[i].y > p.y) != (r[j].y > p.y) && p.x < (r[j].x - r[i].x) * (p.y - r[i].y) / (r[j].y - r[i].y) + r[i].x) in = !in;
  return in;
}

// The polygon map whose free space is the union of the components `free` (each an outer ring
// with holes; components meet at most at points): every hole becomes an obstacle whose own holes
// are the components lying directly inside it (islands, walkable again); the walkable area is the
// one outermost component, or, when several are outermost, `box` with those as the holes of one
// more obstacle. No Boolean operation: the rings stay exactly as traced, touching only at points.
PolygonMap region_map(const BgMultiPolygon& free, const BgBox& box, const std::string& file) {
  if (free.empty()) throw base::InputError(file + ": no walkable area");
  struct Hole {
    std::vector<Point> ring;
    double area;
    std::size_t owner;
    PolygonShape shape;
  };
  std::vector<Hole> holes;
  std::vector<std::vector<Point>> outers;
  for (std::size_t c = 0; c < free.size(); ++c) {
    outers.push_back(open_points(free[c].outer()));
    for (const auto& h : free[c].inners()) {
      auto ring = open_points(h);
      const double a = ring_area(ring);
      holes.push_back({ring, a, c, PolygonShape{{ring}}});
    }
  }
  std::vector<std::size_t> top;
  for (std::size_t c = 0; c < outers.size(); ++c) {
    const Point mid{(outers[c][0].x + outers[c][1].x) / 2, (outers[c][0].y + outers[c][1].y) / 2};
    Hole* parent = nullptr;
    for (Hole& h : holes)
      if (h.owner != c && (!parent || h.area < parent->area) && inside(h.ring, mid)) parent = &h;
    if (parent) parent->shape.rings.push_back(outers[c]);
    else top.push_back(c);
  }
  PolygonMap pm;
  if (top.size() == 1) {
    pm.walkable.rings.push_back(outers[top[0]]);
  } else {
    const double x0 = box.min_corner().x() - 1, y0 = box.min_corner().y() - 1, x1 = box.max_corner().x() + 1, y1 = box.max_corner().y() + 1;
    const std::vector<Point> frame{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    pm.walkable.rings.push_back(frame);
    PolygonShape outside{{frame}};
    for (std::size_t c : top) outside.rings.push_back(outers[c]);
    pm.obstacles.push_back(std::move(outside));
  }
  for (Hole& h : holes) pm.obstacles.push_back(std::move(h.shape));
  return pm;
}

// Clockwise angle from direction u to direction v, in (0, 2 pi].
double clockwise_angle(Point u, Point v) {
  double a = std::atan2(u.y, u.x) - std::atan2(v.y, v.x);
  while (a <= 0) a += 2 * std::numbers::pi;
  while (a > 2 * std::numbers::pi) a -= 2 * std::numbers::pi;
  return a;
}

// A closed walk of vertex ids that may pass a vertex more than once (free space touching itself
// at a point, e.g. a corridor bent round until its ends meet at a corner), cut there into closed
// walks that pass each vertex once: the simple rings OGC polygons are made of.
std::vector<std::vector<int>> split_at_repeats(const std::vector<int>& walk) {
  std::vector<std::vector<int>> out;
  std::vector<int> stack;
  std::unordered_map<int, std::size_t> at;  // vertex -> its place on the stack
  for (int v : walk) {
    auto it = at.find(v);
    if (it != at.end()) {  // a loop closes at v: stack[it->second ..] is one ring
      std::vector<int> ring(stack.begin() + long(it->second), stack.end());
      for (std::size_t i = it->second + 1; i < stack.size(); ++i) at.erase(stack[i]);
      stack.resize(it->second + 1);
      if (ring.size() >= 3) out.push_back(std::move(ring));
      continue;
    }
    at[v] = stack.size();
    stack.push_back(v);
  }
  if (stack.size() >= 3) out.push_back(std::move(stack));
  return out;
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
      base::fail(file, poly_line[std::size_t(e.polygon)],
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
      throw base::InputError(file + ":" + std::to_string(4 + v) + ": vertex " + std::to_string(v) + " lists " + std::to_string(listed.size()) +
                       " polygons, but " + std::to_string(around[v].size()) + " polygons hold it (or the lists differ)");
  }
}

void check_simple_ring(const std::vector<Point>& ring, const std::string& file, long line, int index) {
  BgPolygon p;
  p.outer() = ring_of(ring);
  if (bg_self_intersects(p)) base::fail(file, line, "polygon " + std::to_string(index) + " intersects itself (the spec wants simple polygons)");
  bg::correct(p);
  std::string why;
  if (!bg_is_valid(p, why)) base::fail(file, line, "polygon " + std::to_string(index) + " is not simple: " + why);
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
    std::vector<int> walk;
    std::size_t e = start;
    do {
      used[e] = 1;
      const HalfEdge& h = edges[e];
      walk.push_back(h.from);
      const Point b = m.vertices[std::size_t(h.to)], back = m.vertices[std::size_t(h.from)];
      std::size_t next = edges.size();
      double best = 10;
      for (std::size_t c : out[std::size_t(h.to)]) {
        const Point t = m.vertices[std::size_t(edges[c].to)];
        const double a = clockwise_angle({back.x - b.x, back.y - b.y}, {t.x - b.x, t.y - b.y});
        if (a < best) best = a, next = c;
      }
      if (next == edges.size() || (used[next] && next != start))
        throw base::InputError(file + ": the mesh's boundary does not close at vertex " + std::to_string(h.to) + " (not a planar mesh)");
      e = next;
    } while (e != start);
    const std::size_t root = std::size_t(uf.find(edges[start].polygon));
    for (const auto& ids : split_at_repeats(walk)) {
      std::vector<Point> loop;
      double twice_area = 0;
      for (int v : ids) loop.push_back(m.vertices[std::size_t(v)]);
      for (std::size_t i = 0; i < loop.size(); ++i) {
        const Point& p = loop[i], &q = loop[(i + 1) % loop.size()];
        twice_area += p.x * q.y - q.x * p.y;
      }
      if (twice_area > 0) {
        if (!component[root].outer().empty())
          throw base::InputError(file + ": polygons " + std::to_string(edges[start].polygon) + " and " + std::to_string(root) +
                           " are joined but have two outer boundaries (overlapping polygons)");
        component[root].outer() = ring_of(loop);
      } else {
        holes.push_back({root, ring_of(loop)});
      }
    }
  }
  for (auto& [root, ring] : holes) component[root].inners().push_back(std::move(ring));
  BgMultiPolygon free;
  const double inf = std::numeric_limits<double>::infinity();
  BgBox box({inf, inf}, {-inf, -inf});
  for (auto& [root, poly] : component) {
    if (poly.outer().empty()) throw base::InputError(file + ": a component of polygon " + std::to_string(root) + " has no outer boundary");
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
      next = bg_sym_difference(free, p);
    } catch (const std::exception& e) {
      throw base::InputError(file + ": cannot combine its polygons (" + e.what() + ")");
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
