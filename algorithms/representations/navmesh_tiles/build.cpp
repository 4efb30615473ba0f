// navmesh-tiles (navmesh_tiles.hpp): the tiles triangulated, linked across their borders, and the graph.
#include "representations/navmesh_tiles/navmesh_tiles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace navbench {

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

}  // namespace navbench
