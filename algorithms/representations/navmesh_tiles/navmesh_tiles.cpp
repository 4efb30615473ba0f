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

static_assert(Representation<NavMeshTiles>);  // its declared features: make_entry checks them

NavMeshTiles::NavMeshTiles(const Map& map, Params& params)
    : T_(params.integer(param(kParams, "tile"))), merge_(params.flag(param(kParams, "merge"))) {
  params.finish("navmesh-tiles");
  if (map.kind != MapKind::grid) throw UnsupportedMap("navmesh-tiles needs a grid map");
  price_on(map);  // docs/terrain.md: weight borders are constraints in every tile, segments cost their integral
  W_ = map.grid.width, H_ = map.grid.height;
  ntx_ = (W_ + T_ - 1) / T_, nty_ = (H_ + T_ - 1) / T_;
  col_tile_.resize(std::size_t(W_));
  for (int x = 0; x < W_; ++x) col_tile_[std::size_t(x)] = x / T_;
  const int tiles = ntx_ * nty_;
  tile_cells_.resize(std::size_t(tiles));
  border_.resize(std::size_t(tiles));
  std::vector<std::uint32_t> dirty;
  for (int t = 0; t < tiles; ++t) triangulate_tile(map.grid, t, dirty);
  for (int t = 0; t < tiles; ++t) link_tiles(t, 1, nullptr), link_tiles(t, 2, nullptr);  // each shared border once
  // The graph in one piece: two portals of one (convex) cell see each other.
  std::vector<CsrGraph::WeightedEdge> edges;
  for (const Cell& t : cells_)
    for (std::size_t i = 0; i < t.portals.size(); ++i)
      for (std::size_t j = i + 1; j < t.portals.size(); ++j) {
        const Vertex a = t.portals[i], b = t.portals[j];
        edges.push_back({a, b, cost(portals_[a].mid, portals_[b].mid)});
      }
  graph_ = CsrGraph(portals_.size(), std::move(edges));
  flatten_labels();
  building_ = false;
}

// Tile `tile` triangulated from the map's cells (with merge=1, its triangles merged into convex
// cells): new cells (slots of removed ones first), their labels (one per region of the tile), the portals inside the tile, and the border edges the neighbours link to. New cells go
// to `dirty`.
void NavMeshTiles::triangulate_tile(const GridMap& g, int tile, std::vector<std::uint32_t>& dirty) {
  const int tx = tile % ntx_, ty = tile / ntx_;
  const int x0 = tx * T_, y0 = ty * T_, x1 = std::min(W_, x0 + T_), y1 = std::min(H_, y0 + T_);
  triangulate_grid_tile(g, x0, y0, x1, y1, scratch_);
  const auto& P = scratch_.points;
  const auto& corner = scratch_.corners;
  const auto& nb = scratch_.neighbors;
  const std::size_t n = corner.size();
  ConvexCells m;
  if (merge_) {
    m = merge_convex(corner, nb, P);
  } else {  // one cell per triangle
    m.cell_of.resize(n);
    m.begin.resize(n + 1);
    m.verts.resize(3 * n);
    for (std::uint32_t t = 0; t < n; ++t) {
      m.cell_of[t] = std::int32_t(t), m.begin[t] = 3 * t;
      for (int i = 0; i < 3; ++i) m.verts[3 * t + i] = corner[t][i];
    }
    m.begin[n] = std::uint32_t(3 * n);
  }
  const std::size_t nc = m.begin.empty() ? 0 : m.begin.size() - 1;
  auto& ids = tile_cells_[std::size_t(tile)];
  ids.clear();
  for (std::size_t k = 0; k < nc; ++k) {
    std::uint32_t id;
    if (!free_cells_.empty()) id = free_cells_.back(), free_cells_.pop_back();
    else id = std::uint32_t(cells_.size()), cells_.emplace_back(), corners_.emplace_back();
    Cell& c = cells_[id];
    auto& corners = corners_[id].c;
    corners.clear();
    for (std::uint32_t i = m.begin[k]; i < m.begin[k + 1]; ++i) corners.push_back(P[m.verts[i]]);
    c.tile = tile;
    c.label = -1;
    c.portals.clear();
    ids.push_back(id);
    dirty.push_back(id);
  }
  // Labels: one per region of triangles connected across shared edges inside the tile.
  seen_.assign(n, 0);
  std::vector<std::uint32_t> stack;
  for (std::size_t k = 0; k < n; ++k) {
    if (seen_[k]) continue;
    const std::int32_t l = labels_.add();
    seen_[k] = 1;
    stack.assign(1, std::uint32_t(k));
    while (!stack.empty()) {
      const std::uint32_t u = stack.back();
      stack.pop_back();
      cells_[ids[std::size_t(m.cell_of[u])]].label = l;
      for (std::int32_t v : nb[u])
        if (v >= 0 && !seen_[std::size_t(v)]) seen_[std::size_t(v)] = 1, stack.push_back(std::uint32_t(v));
    }
  }
  auto& border = border_[std::size_t(tile)];
  for (auto& side : border) side.clear();
  for (std::size_t k = 0; k < n; ++k)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = nb[k][i];
      const Point a = P[corner[k][(i + 1) % 3]], b = P[corner[k][(i + 2) % 3]];  // from inside k: a right, b left
      if (u > std::int32_t(k)) {
        if (m.cell_of[k] != m.cell_of[std::size_t(u)]) new_portal(ids[std::size_t(m.cell_of[k])], ids[std::size_t(m.cell_of[std::size_t(u)])], a, b);
      } else if (u < 0) {
        int side = -1;
        if (a.y == y0 && b.y == y0 && y0 > 0) side = 0;
        else if (a.x == x1 && b.x == x1 && x1 < W_) side = 1;
        else if (a.y == y1 && b.y == y1 && y1 < H_) side = 2;
        else if (a.x == x0 && b.x == x0 && x0 > 0) side = 3;
        if (side < 0) continue;  // an obstacle edge or the map's border
        const double ua = side % 2 == 0 ? a.x : a.y, ub = side % 2 == 0 ? b.x : b.y;
        border[std::size_t(side)].push_back({std::min(ua, ub), std::max(ua, ub), ids[std::size_t(m.cell_of[k])], a, b});
      }
    }
  for (auto& side : border)
    std::sort(side.begin(), side.end(), [](const BorderEdge& p, const BorderEdge& q) { return p.lo < q.lo; });
}

// Portals across tile a's border `side` (0 bottom, 1 right, 2 top, 3 left): every stretch where a
// border edge of a meets one of the tile across, free on both sides (a positive overlap: edges that
// only touch at a point meet at a pinch, which no path crosses).
void NavMeshTiles::link_tiles(int a, int side, std::vector<std::uint32_t>* dirty) {
  const int b = across(a, side);
  if (b < 0) return;
  const auto& A = border_[std::size_t(a)][std::size_t(side)];
  const auto& B = border_[std::size_t(b)][std::size_t((side + 2) % 4)];
  const bool horizontal = side % 2 == 0;
  std::size_t i = 0, j = 0;
  while (i < A.size() && j < B.size()) {
    const double lo = std::max(A[i].lo, B[j].lo), hi = std::min(A[i].hi, B[j].hi);
    if (hi > lo) {
      const Point r = A[i].right, l = A[i].left;
      const double line = horizontal ? r.y : r.x;
      auto at = [&](double u) { return horizontal ? Point{u, line} : Point{line, u}; };
      const bool r_low = horizontal ? r.x < l.x : r.y < l.y;  // keep the edge's right/left ends
      new_portal(A[i].cell, B[j].cell, at(r_low ? lo : hi), at(r_low ? hi : lo));
      if (dirty) dirty->push_back(A[i].cell), dirty->push_back(B[j].cell);
    }
    if (A[i].hi < B[j].hi) ++i;
    else ++j;
  }
}

Vertex NavMeshTiles::new_portal(std::uint32_t from, std::uint32_t to, Point right, Point left) {
  Vertex v;
  if (building_) {
    v = Vertex(portals_.size());
    portals_.emplace_back(), ends_.emplace_back();
  } else {
    v = graph_.add_vertex();
    if (v >= portals_.size()) portals_.resize(std::size_t(v) + 1), ends_.resize(std::size_t(v) + 1);
  }
  portals_[v] = {std::int32_t(from), std::int32_t(to), {(right.x + left.x) / 2, (right.y + left.y) / 2}};
  ends_[v] = {right, left};
  cells_[from].portals.push_back(v);
  cells_[to].portals.push_back(v);
  labels_.unite(cells_[from].label, cells_[to].label);
  return v;
}

// Drops tile `tile`'s cells and every portal they have; cells of other tiles that lose a portal go
// to `dirty` (their portals' rows change).
void NavMeshTiles::remove_tile(int tile, std::vector<std::uint32_t>& dirty) {
  for (std::uint32_t id : tile_cells_[std::size_t(tile)]) {
    Cell& t = cells_[id];
    for (Vertex v : t.portals) {
      PortalRec& p = portals_[v];
      if (p.from < 0) continue;  // gone with the other cell of this tile
      const std::uint32_t other = std::uint32_t(p.from == std::int32_t(id) ? p.to : p.from);
      if (cells_[other].tile != tile) {
        auto& op = cells_[other].portals;
        op.erase(std::find(op.begin(), op.end(), v));
        dirty.push_back(other);
      }
      p.from = p.to = -1;
      graph_.remove_vertex(v);
    }
    t.portals.clear();
    t.tile = -1;
    free_cells_.push_back(id);
  }
  tile_cells_[std::size_t(tile)].clear();
  for (auto& side : border_[std::size_t(tile)]) side.clear();
}

// The rows of every portal of a dirty cell: the other portals of its two cells.
void NavMeshTiles::set_rows(const std::vector<std::uint32_t>& dirty) {
  ++pass_;
  stamp_.resize(portals_.size(), 0);
  std::vector<Vertex> to;
  std::vector<double> w;
  for (std::uint32_t d : dirty) {
    if (cells_[d].tile < 0) continue;
    for (Vertex v : cells_[d].portals) {
      if (stamp_[v] == pass_) continue;
      stamp_[v] = pass_;
      to.clear();
      w.clear();
      for (std::int32_t c : {portals_[v].from, portals_[v].to})
        for (Vertex u : cells_[std::size_t(c)].portals)
          if (u != v) to.push_back(u), w.push_back(cost(portals_[v].mid, portals_[u].mid));
      graph_.set_out_edges(v, to.data(), w.data(), to.size());
    }
  }
}

bool NavMeshTiles::update(const Map& map, const std::vector<CellChange>& changed) {
  if (map.kind != MapKind::grid || map.grid.width != W_ || map.grid.height != H_) return false;
  // The tiles holding changed cells, each once (touched_ is all zero between updates).
  std::vector<int>& tiles = tiles_;
  tiles.clear();
  touched_.resize(tile_cells_.size(), 0);
  auto untouch = [&] {
    for (int t : tiles) touched_[std::size_t(t)] = 0;
  };
  for (const CellChange& c : changed) {
    if (c.x < 0 || c.y < 0 || c.x >= W_ || c.y >= H_) {  // not this map's cell: rebuild
      untouch();
      return false;
    }
    const int t = tile_of(c.x, c.y);
    if (!touched_[std::size_t(t)]) touched_[std::size_t(t)] = 1, tiles.push_back(t);
  }
  // More than half of the tiles (and more than 64): a fresh build is cheaper (it lays the graph out in one piece, with
  // no rows to edit; the Aurora switch's first update places the whole map).
  if (tiles.size() > 64 && 2 * tiles.size() > tile_cells_.size()) {
    untouch();
    return false;
  }
  std::vector<std::uint32_t>& dirty = dirty_;
  dirty.clear();
  for (int t : tiles) remove_tile(t, dirty);
  for (int t : tiles) triangulate_tile(map.grid, t, dirty);
  for (int t : tiles)
    for (int side = 0; side < 4; ++side) {
      const int b = across(t, side);
      if (b >= 0 && touched_[std::size_t(b)] && b < t) continue;  // b links this border
      link_tiles(t, side, &dirty);
    }
  untouch();
  set_rows(dirty);
  flatten_labels();
  return true;
}

// Every label points at its root. Updates add labels and never free them, so when they outnumber
// the live cells four times the live cells are relabelled by root (0 .. roots-1) and the rest go.
void NavMeshTiles::flatten_labels() {
  std::size_t live = 0;
  for (const auto& t : tile_cells_) live += t.size();
  if (labels_.size() > 4 * live + 1024) {
    std::vector<std::int32_t> id(labels_.size(), -1);
    std::int32_t next = 0;
    for (Cell& c : cells_) {
      if (c.tile < 0) continue;
      std::int32_t& r = id[std::size_t(labels_.find(c.label))];
      if (r < 0) r = next++;
      c.label = r;
    }
    labels_.reset(std::size_t(next));
    return;
  }
  labels_.flatten();
}

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

std::vector<Segment> NavMeshTiles::structure() const {
  std::vector<Segment> out;
  for (std::size_t id = 0; id < cells_.size(); ++id) {
    if (cells_[id].tile < 0) continue;
    const auto& c = corners_[id].c;
    for (std::size_t i = 0; i < c.size(); ++i) out.push_back({c[i], c[(i + 1) % c.size()]});
  }
  return out;
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
