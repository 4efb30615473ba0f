// The quadtree on a changing grid map (docs/changing-maps.md): QuadTree::update and its steps.
#include "representations/quadtree/quadtree.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <numeric>
#include <stdexcept>

#include "representations/quadtree/internal.hpp"

namespace navbench {

using quadtree_detail::merge_rects;

// An old subtree of side s goes: its groups are freed, the cells of its leaves are marked
// removed, with the area of their leaves that went (a cell whose leaves all went needs no search).
void QuadTree::release(std::int32_t v, std::int64_t s) {
  if (v == kBlocked) return;
  if (v <= -2) {
    ++upd_.released_leaves;
    const auto c = std::uint32_t(-std::int64_t(v) - 2);
    if (!upd_.cell_mark[c]) {
      upd_.cell_mark[c] = 1;
      upd_.removed.push_back(c);
      upd_.gone_area[c] = 0;
    }
    upd_.gone_area[c] += std::uint64_t(s * s);
    return;
  }
  for (int q = 0; q < 4; ++q) release(tree_[std::size_t(v) + q], s / 2);
  free_groups_.push_back(v);
}

void QuadTree::clear_dirty_below(std::int32_t x, std::int32_t y, std::int32_t s) {
  const std::int32_t h = s / 2;
  if (h == 0) return;
  for (int q = 0; q < 4; ++q) {
    const std::int32_t cx = x + (q & 1 ? h : 0), cy = y + (q & 2 ? h : 0);
    if (take_dirty(cx, cy, h)) clear_dirty_below(cx, cy, h);
  }
}

// Node (x, y, s) holds a changed cell (its dirty bit, taken by the caller). A node that was split
// and still is keeps its clean children; any other node is subdivided again from scratch.
void QuadTree::walk(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s) {
  const std::int32_t old = slot(i);
  const std::int64_t f = free_count(x, y, s);
  const bool split = f > 0 && f < std::int64_t(s) * s && s > 1 && s / 2 >= min_size_;
  if (old >= 0 && split) {
    const std::int32_t h = s / 2;
    for (int q = 0; q < 4; ++q) {
      const std::int32_t cx = x + (q & 1 ? h : 0), cy = y + (q & 2 ? h : 0);
      if (take_dirty(cx, cy, h)) walk(old + q, cx, cy, h);
    }
    const std::size_t g = std::size_t(old);
    if (tree_[g] == kBlocked && tree_[g + 1] == kBlocked && tree_[g + 2] == kBlocked && tree_[g + 3] == kBlocked) {
      free_groups_.push_back(old);  // nothing free below: forget the node (the build's rule)
      slot(i) = kBlocked;
    }
    return;
  }
  release(old, s);
  make_node(i, x, y, s);
  clear_dirty_below(x, y, s);
}

void QuadTree::paint(const Rect& r, std::int32_t id) {
  // (a cell lies inside the map: its leaves are free)
  auto at = [&](std::int32_t x, std::int32_t y) { return std::size_t(y) * std::size_t(width_) + std::size_t(x); };
  std::fill_n(upd_.owner.begin() + std::ptrdiff_t(at(r.x0, r.y0)), r.x1 - r.x0, id);
  if (r.y1 - 1 > r.y0) std::fill_n(upd_.owner.begin() + std::ptrdiff_t(at(r.x0, r.y1 - 1)), r.x1 - r.x0, id);
  for (std::int32_t y = r.y0 + 1; y < r.y1 - 1; ++y) upd_.owner[at(r.x0, y)] = upd_.owner[at(r.x1 - 1, y)] = id;
}

Vertex QuadTree::add_portal(const PortalRec& p) {
  Vertex v;
  if (!graph_.free_ids.empty()) {
    v = graph_.free_ids.back();
    graph_.free_ids.pop_back();
  } else {
    v = Vertex(graph_.portals.size());
    if (v == QuadTreeGraph::null_vertex()) throw std::invalid_argument("quadtree: too many portals");
    graph_.portals.emplace_back();
    graph_.mid.emplace_back();
  }
  graph_.portals[v] = p;
  graph_.mid[v] = midpoint(p);
  graph_.cell_portals[p.a].push_back(v);
  graph_.cell_portals[p.b].push_back(v);
  return v;
}

bool QuadTree::update(const Map& map, const std::vector<CellChange>& changed) {
  if (pyr_.empty() || map.kind != MapKind::grid || map.grid.width != width_ || map.grid.height != height_) return false;
  // A large change (the base map placed on the empty one) is cheaper to build afresh.
  if (changed.size() * 4 > std::size_t(width_) * std::size_t(height_)) return false;
  if (update_pyramid(map.grid, changed) == 0) return true;
  begin_update();
  const std::size_t new_leaves = walk_dirty();
  take_apart_removed(new_leaves);
  drop_removed_cells();
  make_new_cells();
  link_new_cells();
  label_new_cells();
  upd_.removed.clear();
  pending_.clear();
  return true;
}

// 1. Our copy of the cells and the count pyramid; every node holding a cell that really changed
// is marked dirty. A patch changes cells in runs, so the deltas of consecutive cells under one
// node are summed first: a level's entry is written (and marked) when the run leaves its node
// (mostly level 1 only). Returns the number of cells that really changed.
std::size_t QuadTree::update_pyramid(const GridMap& g, const std::vector<CellChange>& changed) {
  const std::size_t levels = pyr_.size();
  if (upd_.dirty.empty()) {
    upd_.dirty.resize(levels);
    for (std::size_t k = 0; k < levels; ++k) upd_.dirty[k].assign((std::size_t(side_ >> k) * std::size_t(side_ >> k) + 63) / 64, 0);
  }
  std::size_t touched = 0;
  std::array<std::size_t, 32> node;  // per level: the node whose delta is being summed
  std::array<std::int64_t, 32> sum{};
  node.fill(SIZE_MAX);
  // Raw pointers and sizes in locals: the byte writes to free_ may alias anything, so members and
  // vector data would be read again after each.
  std::array<std::uint32_t*, 32> pyr;
  std::array<std::uint64_t*, 32> dirty;
  for (std::size_t k = 0; k < levels; ++k) pyr[k] = pyr_[k].data(), dirty[k] = upd_.dirty[k].data();
  std::uint8_t* const fr = free_.data();
  const std::uint8_t* const cells = g.cells.data();
  const std::size_t width = std::size_t(width_), side = std::size_t(side_);
  auto flush = [&](std::size_t k) {  // writes level k's sum and hands it on to the parent's
    pyr[k][node[k]] += std::uint32_t(sum[k]);
    if (k + 1 < levels) sum[k + 1] += sum[k];
    sum[k] = 0;
  };
  auto mark = [&](std::size_t k, std::size_t i) { dirty[k][i >> 6] |= std::uint64_t(1) << (i & 63); };  // a dirty bit
  for (const CellChange& c : changed) {
    const std::size_t x = std::size_t(c.x), y = std::size_t(c.y), at = y * width + x;
    const std::uint8_t now = cells[at] != 0;  // the map's value: a cell may be listed twice
    if (fr[at] == now) continue;
    fr[at] = now;
    for (std::size_t k = 1; k < levels; ++k) {  // bottom up; the node's ancestors stay when it stays
      const std::size_t i = (y >> k) * (side >> k) + (x >> k);
      if (i == node[k]) break;
      if (node[k] != SIZE_MAX) flush(k);
      node[k] = i;
      mark(k, i);
    }
    sum[1] += now ? 1 : -1;
    mark(0, y * side + x);
    ++touched;
  }
  for (std::size_t k = 1; k < levels; ++k)
    if (node[k] != SIZE_MAX) flush(k);
  return touched;
}

// The owners (made by the first update) and the scratch of one update.
void QuadTree::begin_update() {
  if (upd_.owner.empty()) {  // the first update: the owner of every grid cell
    upd_.owner.assign(std::size_t(width_) * std::size_t(height_), -1);
    for (std::uint32_t c = 0; c < cells_.size(); ++c)
      if (!dead(c)) paint(cells_[c], std::int32_t(c));
  }
  upd_.cell_mark.assign(cells_.size(), 0);  // 1 removed, 3 new
  upd_.removed.clear();
  upd_.released_leaves = 0;
  pending_.clear();
}

// 2. The tree: new leaves go to pending_, the cells of dropped leaves to upd_.removed. Returns the
// number of new leaves.
std::size_t QuadTree::walk_dirty() {
  if (upd_.gone_area.size() < cells_.size()) upd_.gone_area.resize(cells_.size());
  take_dirty(0, 0, side_);
  walk(kRootSlot, 0, 0, side_);
  const std::size_t new_leaves = pending_.size();
  leaves_ = leaves_ + new_leaves - upd_.released_leaves;
  upd_.released_leaves = 0;
  return new_leaves;
}

// 3. A merged cell that lost a leaf is taken apart: its other leaves are merged again (they join
// pending_ after the new_leaves new ones).
void QuadTree::take_apart_removed(std::size_t new_leaves) {
  for (const std::uint32_t d : upd_.removed) {
    const Rect& r = cells_[d];
    if (upd_.gone_area[d] == std::uint64_t(r.x1 - r.x0) * std::uint64_t(r.y1 - r.y0)) continue;  // no leaf left
    const std::int32_t id = -std::int32_t(d) - 2;
    visit_leaves(kRootSlot, 0, 0, side_, cells_[d], [&](std::int64_t i, std::int32_t v, const Rect& n) {
      if (v == id) pending_.push_back({n, i});
    });
  }
  for (std::size_t k = new_leaves; k < pending_.size(); ++k) slot(pending_[k].slot) = kPending;
}

// 4. The removed cells' portals go (from their other cells' lists too).
void QuadTree::drop_removed_cells() {
  constexpr std::uint32_t kDeadPortal = QuadTreePortal::kNone;
  for (const std::uint32_t d : upd_.removed) {
    for (const Vertex v : graph_.cell_portals[d]) {
      PortalRec& p = graph_.portals[v];
      if (p.a == kDeadPortal) continue;  // both cells removed: already gone
      const std::uint32_t other = p.a == d ? p.b : p.a;
      if (upd_.cell_mark[other] != 1) {
        auto& l = graph_.cell_portals[other];
        *std::find(l.begin(), l.end(), v) = l.back();  // order within a list is free
        l.pop_back();
      }
      p.a = p.b = kDeadPortal;
      graph_.free_ids.push_back(v);
    }
    graph_.cell_portals[d].clear();  // its ring keeps its id in upd_.owner: step 6 checks an owner's box
    cells_[d] = Rect{0, 0, 0, 0};
    free_cells_.push_back(d);
  }
}

// 5. Merge the pending leaves (the build's merge, on this set only) into new cells (upd_.fresh).
void QuadTree::make_new_cells() {
  std::vector<Rect>& rects = upd_.rects;
  rects.resize(pending_.size());
  for (std::size_t k = 0; k < pending_.size(); ++k) rects[k] = pending_[k].r;
  std::vector<std::uint32_t>& leaf_cell = upd_.leaf_cell;
  leaf_cell.resize(rects.size());
  std::iota(leaf_cell.begin(), leaf_cell.end(), 0u);
  if (merge_) merge_rects(rects, leaf_cell, aspect_, std::bit_width(unsigned(side_)), [](const Rect&, const Rect&) { return true; });
  std::vector<std::uint32_t>& fresh = upd_.fresh;
  fresh.resize(rects.size());
  for (std::size_t k = 0; k < rects.size(); ++k) {
    std::uint32_t c;
    if (!free_cells_.empty()) {
      c = free_cells_.back();
      free_cells_.pop_back();
    } else {
      c = std::uint32_t(cells_.size());
      cells_.emplace_back();
      graph_.cell_portals.emplace_back();
      upd_.cell_mark.push_back(0);
    }
    cells_[c] = rects[k];
    upd_.cell_mark[c] = 3;
    fresh[k] = c;
  }
  for (std::size_t k = 0; k < pending_.size(); ++k) slot(pending_[k].slot) = -std::int32_t(fresh[leaf_cell[k]]) - 2;
  for (const std::uint32_t c : fresh) paint(cells_[c], std::int32_t(c));
}

// 6. Portals of the new cells: the owners of the grid cells just outside each side (a cell
// meets a straight strip in one run, so the scan jumps from a neighbour to its far side: one read
// per neighbour and per uncovered grid cell). A portal between two new
// cells is made from the lower id.
void QuadTree::link_new_cells() {
  for (const std::uint32_t c : upd_.fresh) {
    const Rect r = cells_[c];
    for (int side = 0; side < 4; ++side) {
      const bool vertical = side < 2, high = side % 2 == 0;  // 0 +x, 1 -x, 2 +y, 3 -y
      const std::int32_t line = vertical ? (high ? r.x1 : r.x0) : (high ? r.y1 : r.y0);
      const std::int32_t out = high ? line : line - 1;  // the row or column just outside
      if (out < 0 || out >= (vertical ? width_ : height_)) continue;
      const std::int32_t from = vertical ? r.y0 : r.x0, to = vertical ? r.y1 : r.x1;
      for (std::int32_t k = from; k < to;) {
        const std::int32_t n = vertical ? upd_.owner[std::size_t(k) * std::size_t(width_) + std::size_t(out)]
                                        : upd_.owner[std::size_t(out) * std::size_t(width_) + std::size_t(k)];
        if (n < 0) {
          ++k;
          continue;
        }
        const auto u = std::uint32_t(n);
        const Rect& o = cells_[u];
        const std::int32_t ox = vertical ? out : k, oy = vertical ? k : out;
        if (ox < o.x0 || ox >= o.x1 || oy < o.y0 || oy >= o.y1) {  // a removed cell's stale id: not covered
          ++k;
          continue;
        }
        k = vertical ? o.y1 : o.x1;  // the strip is u's up to u's far side
        if (upd_.cell_mark[u] == 3 && u < c) continue;  // made from u's side
        const std::int32_t lo = vertical ? std::max(r.y0, o.y0) : std::max(r.x0, o.x0);
        const std::int32_t hi = vertical ? std::min(r.y1, o.y1) : std::min(r.x1, o.x1);
        if (hi <= lo) continue;
        add_portal({high ? c : u, high ? u : c, line, lo, hi, vertical});
      }
    }
  }
}

// 7. Component labels (representations/union_find.hpp): a new cell takes its neighbours' labels, united.
void QuadTree::label_new_cells() {
  if (comp_.size() < cells_.size()) comp_.resize(cells_.size(), -1);
  for (const std::uint32_t c : upd_.fresh) comp_[c] = -1;
  for (const std::uint32_t c : upd_.fresh) {
    std::int32_t root = -1;
    for (const Vertex v : graph_.cell_portals[c]) {
      const std::uint32_t n = graph_.portals[v].a == c ? graph_.portals[v].b : graph_.portals[v].a;
      if (comp_[n] < 0) continue;  // a new cell not labelled yet: it unites with c when its turn comes
      root = root < 0 ? labels_.find(comp_[n]) : labels_.unite(comp_[n], root);
    }
    if (root < 0) root = labels_.add();
    comp_[c] = root;
  }
  labels_.flatten();
}

}  // namespace navbench
