// navmesh-tiles on a changing map (docs/changing-maps.md): the changed tiles triangulated again.
#include "representations/navmesh_tiles/navmesh_tiles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace navbench {

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

}  // namespace navbench
