// navmesh-tiles' queries (navmesh_tiles.hpp): locating and attaching a point, the corridor, inspection.
#include "representations/navmesh_tiles/navmesh_tiles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace navbench {

namespace {
inline double dist(Point a, Point b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); }

// The closed convex polygon c (counter-clockwise) holds p and the points just after p on the way
// to q: the cell a walk from p toward q starts in (exact orientations).
template <class Corners>
bool holds_toward(const Corners& c, Point p, Point q) {
  double x0 = c[0].x, x1 = x0, y0 = c[0].y, y1 = y0;
  for (const Point& k : c) x0 = std::min(x0, k.x), x1 = std::max(x1, k.x), y0 = std::min(y0, k.y), y1 = std::max(y1, k.y);
  if (p.x < x0 || p.x > x1 || p.y < y0 || p.y > y1) return false;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Point a = c[i], b = c[(i + 1) % c.size()];
    const int o = FreeSpaceTriangulation::orientation(a, b, p);
    if (o < 0 || (o == 0 && FreeSpaceTriangulation::orientation(a, b, q) < 0)) return false;
  }
  return true;
}
}  // namespace

std::int32_t NavMeshTiles::locate(Point p) const {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < 0 || p.y < 0 || p.x > W_ || p.y > H_) return -1;
  const int fx = std::min(int(std::floor(p.x)), W_ - 1), fy = std::min(int(std::floor(p.y)), H_ - 1);
  const bool on_x = p.x == fx && fx > 0, on_y = p.y == fy && fy > 0;  // on a grid line: two cells hold p
  // The cells whose closed square holds p, in FreeSpace's order (cell (x, y), then (x, y - 1)): a
  // pinch point goes to the side it belongs to.
  int cells[4][2], n = 0;
  cells[n][0] = fx, cells[n++][1] = fy;
  if (on_y) cells[n][0] = fx, cells[n++][1] = fy - 1;
  if (on_x) cells[n][0] = fx - 1, cells[n++][1] = fy;
  if (on_x && on_y) cells[n][0] = fx - 1, cells[n++][1] = fy - 1;
  for (int k = 0; k < n; ++k) {
    const Point q{cells[k][0] + 0.5, cells[k][1] + 0.5};  // toward the cell's inside
    for (std::uint32_t id : tile_cells_[std::size_t(tile_of(cells[k][0], cells[k][1]))])
      if (holds_toward(corners_[id].c, p, q)) return std::int32_t(id);
  }
  return -1;
}

std::optional<Attachment> NavMeshTiles::attach(Point p) const {
  const std::int32_t t = locate(p);
  if (t < 0) return std::nullopt;
  const Cell& cell = cells_[std::size_t(t)];
  Attachment a;
  a.cell = t;
  a.component = labels_.root(cell.label);
  a.links.reserve(cell.portals.size());
  for (Vertex v : cell.portals) a.links.push_back({v, cost(p, portals_[v].mid)});
  return a;
}

std::optional<Corridor> NavMeshTiles::corridor(const Query& q) const {
  return corridor_through_portals(q, portals_.size(), [&](Vertex v) {
    const PortalRec& p = portals_[v];
    if (p.from < 0) throw std::logic_error("navmesh-tiles corridor: path through a removed portal");
    return PortalSides{p.from, p.to, ends_[v].right, ends_[v].left};
  });
}

BuildStats NavMeshTiles::stats() const {
  BuildStats s;
  s.vertices = graph_.num_live_vertices();
  s.edges = graph_.num_edges();
  std::size_t bytes = graph_.memory_bytes() + cells_.capacity() * sizeof(Cell) + portals_.capacity() * sizeof(PortalRec) +
                      corners_.capacity() * sizeof(Corners) + ends_.capacity() * sizeof(PortalEnds) +
                      free_cells_.capacity() * 4 + labels_.memory_bytes() + stamp_.capacity() * 4 +
                      col_tile_.capacity() * 4 + touched_.capacity() + (tiles_.capacity() + dirty_.capacity()) * 4;
  for (const Cell& t : cells_)
    if (t.portals.capacity() > t.portals.static_capacity) bytes += t.portals.capacity() * sizeof(Vertex);
  for (const Corners& t : corners_)
    if (t.c.capacity() > t.c.static_capacity) bytes += t.c.capacity() * sizeof(Point);
  for (const auto& v : tile_cells_) bytes += sizeof(v) + v.capacity() * 4;
  for (const auto& b : border_)
    for (const auto& side : b) bytes += sizeof(side) + side.capacity() * sizeof(BorderEdge);
  s.memory_bytes = bytes;
  return s;
}

void NavMeshTiles::structure(const SegmentSink& emit) const {
  for (std::size_t id = 0; id < cells_.size(); ++id) {
    if (cells_[id].tile < 0) continue;
    const auto& c = corners_[id].c;
    for (std::size_t i = 0; i < c.size(); ++i) emit({c[i], c[(i + 1) % c.size()]});
  }
}

std::vector<std::vector<Point>> NavMeshTiles::cells() const {
  std::vector<std::vector<Point>> out;
  for (std::size_t id = 0; id < cells_.size(); ++id)
    if (cells_[id].tile >= 0) out.emplace_back(corners_[id].c.begin(), corners_[id].c.end());
  return out;
}

std::vector<PortalSides> NavMeshTiles::portal_sides() const {
  std::vector<PortalSides> out;
  for (std::size_t v = 0; v < portals_.size(); ++v)
    if (portals_[v].from >= 0) out.push_back({portals_[v].from, portals_[v].to, ends_[v].right, ends_[v].left});
  return out;
}

std::vector<std::array<Point, 2>> NavMeshTiles::portal_segments() const {
  std::vector<std::array<Point, 2>> out;
  for (std::size_t v = 0; v < portals_.size(); ++v)
    if (portals_[v].from >= 0) out.push_back({ends_[v].right, ends_[v].left});
  return out;
}

}  // namespace navbench
