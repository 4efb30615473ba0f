#include "representations/visgraph/block_candidates.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace navbench {

namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Whether every point of the square [x0, x1] x [y0, y1] sees the lattice point v: the convex hull
// of v and the square meets no blocked cell's interior (row prefix counts `blocked`, W + 1 per
// row) and holds no pinch point (line prefix counts `pinch`, W + 2 per line). Exact: the hull's
// section on each grid line is bounded by lattice segments, floored and ceiled in integers.
bool hull_free(int vx, int vy, int x0, int y0, int x1, int y1, int W, const std::vector<std::uint32_t>& blocked,
               const std::vector<std::uint32_t>& pinch) {
  const int cxs[4] = {x0, x1, x0, x1}, cys[4] = {y0, y0, y1, y1};
  const int ylo = std::min(vy, y0), yhi = std::max(vy, y1);
  // The segments from v to the square's corners: on line Y, x = (vx (by - vy) + (Y - vy) (bx - vx))
  // / (by - vy), kept as q + r / den (den > 0, 0 <= r < den) and stepped from line to line by
  // additions (x is linear in Y): a division per segment per call, not per line.
  struct Seg {
    std::int64_t q = 0, r = 0, den = 1, qs = 0, rs = 0;
    int ymin = 0, ymax = -1;  // the lines it crosses (none when it lies on v's line)
  };
  Seg seg[4];
  for (int k = 0; k < 4; ++k) {
    Seg& s = seg[k];
    if (cys[k] == vy) continue;
    s.ymin = std::min(vy, cys[k]), s.ymax = std::max(vy, cys[k]);
    std::int64_t num = std::int64_t(vx) * (cys[k] - vy) + std::int64_t(ylo - vy) * (cxs[k] - vx), den = cys[k] - vy,
                 step = cxs[k] - vx;
    if (den < 0) num = -num, den = -den, step = -step;
    s.den = den, s.q = floor_div(num, den), s.r = num - s.q * den;
    s.qs = floor_div(step, den), s.rs = step - s.qs * den;
  }
  // Per line Y, taken in order from ylo: floor and ceil of the hull's least and greatest x there.
  auto section = [&](int Y, std::int64_t& fmin, std::int64_t& cmin, std::int64_t& fmax, std::int64_t& cmax) {
    fmin = cmin = std::numeric_limits<std::int64_t>::max();
    fmax = cmax = std::numeric_limits<std::int64_t>::min();
    auto add = [&](std::int64_t f, std::int64_t c) {
      fmin = std::min(fmin, f), cmin = std::min(cmin, c), fmax = std::max(fmax, f), cmax = std::max(cmax, c);
    };
    if (Y == vy) add(vx, vx);
    if (Y >= y0 && Y <= y1) add(x0, x0), add(x1, x1);
    for (Seg& s : seg) {
      if (Y >= s.ymin && Y <= s.ymax) add(s.q, s.r != 0 ? s.q + 1 : s.q);
      s.q += s.qs, s.r += s.rs;  // to line Y + 1
      if (s.r >= s.den) s.r -= s.den, ++s.q;
    }
  };
  std::int64_t pf[4], cf[4];
  section(ylo, pf[0], pf[1], pf[2], pf[3]);
  for (int Y = ylo; Y <= yhi; ++Y) {
    // pinch points on line Y within the hull's section (v is a convex corner, never a pinch)
    const std::int64_t a = std::max<std::int64_t>(pf[1], 0), b = std::min<std::int64_t>(pf[2], W);
    const std::uint32_t* pl = pinch.data() + std::size_t(Y) * std::size_t(W + 2);
    if (a <= b && pl[b + 1] != pl[a]) return false;
    if (Y == yhi) break;
    section(Y + 1, cf[0], cf[1], cf[2], cf[3]);
    // open cells (x, Y) with x + 1 > least x and x < greatest x over the band's two lines
    const std::int64_t lo = std::max<std::int64_t>(std::min(pf[0], cf[0]), 0);
    const std::int64_t hi = std::min<std::int64_t>(std::max(pf[3], cf[3]) - 1, W - 1);
    const std::uint32_t* rw = blocked.data() + std::size_t(Y) * std::size_t(W + 1);
    if (lo <= hi && rw[hi + 1] != rw[lo]) return false;
    std::copy(cf, cf + 4, pf);
  }
  return true;
}

}  // namespace

// The changed cells by tiles of 8 x 8 cells, each tile's changed cells' closed squares as one
// rectangle (x0, y0, x1, y1 in grid coordinates), and whether one may meet the hull of a corner
// and a block (BlockCandidates::merge_changed).
struct BlockCandidates::ChangeRects {
  std::vector<std::array<int, 4>> rects;
  ChangeRects(const std::vector<CellChange>& changed, int W) {
    constexpr int kTile = 8;
    const int tx = (W + kTile - 1) / kTile;
    std::vector<std::pair<int, std::array<int, 4>>> by_tile;
    by_tile.reserve(changed.size());
    for (const CellChange& c : changed) by_tile.push_back({(c.y / kTile) * tx + c.x / kTile, {c.x, c.y, c.x + 1, c.y + 1}});
    std::sort(by_tile.begin(), by_tile.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t k = 0; k < by_tile.size(); ++k) {
      const auto& r = by_tile[k].second;
      if (k > 0 && by_tile[k - 1].first == by_tile[k].first) {
        auto& q = rects.back();
        q = {std::min(q[0], r[0]), std::min(q[1], r[1]), std::max(q[2], r[2]), std::max(q[3], r[3])};
      } else {
        rects.push_back(r);
      }
    }
  }
  // Whether a changed cell's closed square may meet the hull H of the corner (vx, vy) and the block
  // [sx0, sx1] x [sy0, sy1]: the hull test (hull_free) reads only the cells whose closed squares
  // meet H (the cells of each band between two grid lines across H's extent there, and the four
  // cells around each lattice point of H), so when none of them changed its answer stands. Exact
  // separation of two convex polygons (the separating axis theorem): the axes, and the lines from v
  // through a corner of the block with the whole block on one side (H's edges at v); integers, so
  // no rounding.
  bool meets(std::int64_t vx, std::int64_t vy, std::int64_t sx0, std::int64_t sy0, std::int64_t sx1, std::int64_t sy1) const {
    const std::int64_t hx0 = std::min(vx, sx0), hx1 = std::max(vx, sx1), hy0 = std::min(vy, sy0), hy1 = std::max(vy, sy1);
    const std::int64_t cx[4] = {sx0, sx1, sx1, sx0}, cy[4] = {sy0, sy0, sy1, sy1};
    // The lines from v through a block corner with the whole block on one side (the hull's edges
    // at v), found once for every rectangle, when the first one meets the hull's box: per such line
    // its direction and the block's side (+1: every corner on the left or on it, -1: on the right
    // or on it).
    std::int64_t ax[4], ay[4];
    int aside[4], axes = -1;
    auto find_axes = [&] {
      axes = 0;
      for (int k = 0; k < 4; ++k) {
        const std::int64_t dx = cx[k] - vx, dy = cy[k] - vy;
        if (dx == 0 && dy == 0) continue;
        std::int64_t smin = 0, smax = 0;
        for (int j = 0; j < 4; ++j) {
          const std::int64_t a = dx * (cy[j] - vy) - dy * (cx[j] - vx);
          smin = j ? std::min(smin, a) : a, smax = j ? std::max(smax, a) : a;
        }
        if (smin >= 0 || smax <= 0) ax[axes] = dx, ay[axes] = dy, aside[axes++] = smin >= 0 ? 1 : -1;
      }
    };
    for (const auto& r : rects) {
      if (r[2] < hx0 || r[0] > hx1 || r[3] < hy0 || r[1] > hy1) continue;  // apart along an axis
      if (axes < 0) find_axes();
      const std::int64_t rx[4] = {r[0], r[2], r[2], r[0]}, ry[4] = {r[1], r[1], r[3], r[3]};
      bool apart = false;
      for (int k = 0; k < axes && !apart; ++k) {
        // apart: every rectangle corner strictly on the side away from the block
        bool all = true;
        for (int j = 0; j < 4 && all; ++j) {
          const std::int64_t c = ax[k] * (ry[j] - vy) - ay[k] * (rx[j] - vx);
          all = aside[k] > 0 ? c < 0 : c > 0;
        }
        apart = all;
      }
      if (!apart) return true;
    }
    return false;
  }
};


double BlockCandidates::sure_share() const {
  std::size_t n = 0;
  for (std::uint32_t e : ids_) n += (e & kSure) != 0;
  return ids_.empty() ? 0.0 : double(n) / double(ids_.size());
}

double BlockCandidates::mask_share() const {
  std::size_t n = 0;
  for (std::uint16_t m : masks_) n += m != 0;
  return masks_.empty() ? 0.0 : double(n) / double(masks_.size());
}

BlockCandidates::BlockCandidates(const GridMap& grid, const std::vector<ConvexCorner>& nodes, int block,
                                 const std::vector<std::vector<GridFov::Span>>& node_spans)
    : W(grid.width), H(grid.height), B(std::max(block, 1)) {
  build(nullptr, grid, nodes, node_spans, {}, {}, {}, {});
}

BlockCandidates::BlockCandidates(const BlockCandidates& old, const GridMap& grid, const std::vector<ConvexCorner>& nodes,
                                 const std::vector<std::vector<GridFov::Span>>& node_spans,
                                 const std::vector<std::int32_t>& old_to_new, const std::vector<std::uint8_t>& swept,
                                 const std::vector<CellChange>& changed, const std::vector<std::vector<std::uint32_t>>& redo)
    : W(grid.width), H(grid.height), B(old.B) {
  build(&old, grid, nodes, node_spans, old_to_new, swept, changed, redo);
}

// What build() reads for every node: the prefix counts of the hull test, and per node its blocks
// and its entries.
struct BlockCandidates::Builder {
  const int W, H, B, nbx;
  const GridMap& grid;
  const std::vector<ConvexCorner>& nodes;
  const std::vector<std::vector<GridFov::Span>>& node_spans;
  const std::vector<std::uint16_t>& free_mask;
  const std::size_t nblocks;
  const bool with_masks;
  std::vector<std::uint32_t> blocked, pinch;  // prefix counts: blocked cells per row, pinch points per grid line
  std::vector<std::uint16_t> maybe, mask;     // per block: the node's cell marks being gathered

  Builder(BlockCandidates& bc, const GridMap& g, const std::vector<ConvexCorner>& n,
          const std::vector<std::vector<GridFov::Span>>& spans)
      : W(bc.W), H(bc.H), B(bc.B), nbx(bc.nbx_), grid(g), nodes(n), node_spans(spans), free_mask(bc.free_mask_),
        nblocks(std::size_t(bc.nbx_) * std::size_t(bc.nby_)), with_masks(B <= 4) {
    // Prefix counts for the hull test: blocked cells per row, pinch points per grid line.
    blocked.assign(std::size_t(H) * std::size_t(W + 1), 0), pinch.assign(std::size_t(H + 1) * std::size_t(W + 2), 0);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) blocked[std::size_t(y) * (W + 1) + x + 1] = blocked[std::size_t(y) * (W + 1) + x] + !free_cell(x, y);
    for (int y = 0; y <= H; ++y)
      for (int x = 0; x <= W; ++x) {
        const bool a = free_cell(x - 1, y - 1), b = free_cell(x, y - 1), c = free_cell(x - 1, y), d = free_cell(x, y);
        const bool p = (a && d && !b && !c) || (b && c && !a && !d);
        pinch[std::size_t(y) * (W + 2) + x + 1] = pinch[std::size_t(y) * (W + 2) + x] + p;
      }
    bc.free_mask_.assign(with_masks ? nblocks : 0, 0);
    if (with_masks)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
          if (free_cell(x, y)) bc.free_mask_[std::size_t(y / B) * std::size_t(nbx) + std::size_t(x / B)] |= std::uint16_t(1u << ((y % B) * B + x % B));
    maybe.assign(with_masks ? nblocks : 0, 0), mask.assign(with_masks ? nblocks : 0, 0);
  }
  bool free_cell(int x, int y) const { return x >= 0 && y >= 0 && x < W && y < H && grid.passable(x, y); }
  bool hull(std::uint32_t i, std::size_t b) const {
    const int bx = int(b % std::size_t(nbx)), by = int(b / std::size_t(nbx));
    const int x0 = bx * B, y0 = by * B, x1 = std::min(x0 + B, W), y1 = std::min(y0 + B, H);
    return hull_free(int(nodes[i].at.x), int(nodes[i].at.y), x0, y0, x1, y1, W, blocked, pinch);
  }
  // The cells of block b (in the map), as mask bits (B <= 4).
  std::uint16_t block_cells(std::size_t b) const {
    const int x0 = int(b % std::size_t(nbx)) * B, y0 = int(b / std::size_t(nbx)) * B;
    const int w = std::min(B, W - x0), h = std::min(B, H - y0);
    std::uint16_t m = 0;
    for (int y = 0; y < h; ++y) m |= std::uint16_t(((1u << w) - 1) << (y * B));
    return m;
  }
  // Whether block b holds a blocked cell.
  bool any_blocked(std::size_t b) const {
    if (with_masks) return free_mask[b] != block_cells(b);
    const int x0 = int(b % std::size_t(nbx)) * B, y0 = int(b / std::size_t(nbx)) * B, x1 = std::min(x0 + B, W);
    for (int y = y0; y < std::min(y0 + B, H); ++y)
      if (blocked[std::size_t(y) * (W + 1) + std::size_t(x1)] != blocked[std::size_t(y) * (W + 1) + std::size_t(x0)]) return true;
    return false;
  }
  // Whether block b lies in one of node i's two closed tangent quadrants, (qx, -qy) and (-qx, qy)
  // for its blocked cell's quadrant (qx, qy): the region its sweep covers (GridFov::scan_tangent).
  bool in_quadrant(std::uint32_t i, std::size_t b) const {
    const ConvexCorner& k = nodes[i];
    const int qx = k.before.x + k.after.x > 2 * k.at.x ? 1 : -1, qy = k.before.y + k.after.y > 2 * k.at.y ? 1 : -1;
    const int vx = int(k.at.x), vy = int(k.at.y);
    const int x0 = int(b % std::size_t(nbx)) * B, y0 = int(b / std::size_t(nbx)) * B;
    const int x1 = std::min(x0 + B, W), y1 = std::min(y0 + B, H);
    const bool xpos = x0 >= vx, xneg = x1 <= vx, ypos = y0 >= vy, yneg = y1 <= vy;
    return ((qx > 0 ? xpos : xneg) && (qy > 0 ? yneg : ypos)) || ((qx > 0 ? xneg : xpos) && (qy > 0 ? ypos : yneg));
  }
  // Whether every point of block b sees node i (hull), after two exact shortcuts: a blocked cell
  // in the block lies in the hull; and in a tangent quadrant, where the node's region holds every
  // point that sees it, a cell of the block outside the region (not in `seen`, the region's cells
  // of the block) sees nothing of it.
  bool sure_of(std::uint32_t i, std::size_t b, std::uint16_t seen) const {
    if (any_blocked(b)) return false;
    if (with_masks && (seen & block_cells(b)) != block_cells(b) && in_quadrant(i, b)) return false;
    return hull(i, b);
  }
  // A node's blocks: those its spans touch, each once, ascending: per block row the column
  // intervals its spans cover, sorted and merged (a few per span, where sorting the blocks
  // themselves cost more than the sweep).
  void blocks_of(std::uint32_t i, std::vector<std::uint32_t>& out) {
    out.clear();
    runs.clear();
    // A half's first row also covers the rows beside it: a point on the grid line where the sweep
    // starts lies in that row but is looked up in the row on the line's other side.
    for (const GridFov::Span& s : node_spans[i]) {
      if (s.walk || s.sure) continue;  // walk: cells the scan read, not a region
      const int d = s.first ? 1 : 0;
      for (int by = std::max(s.row - d, 0) / B; by <= std::min(s.row + d, H - 1) / B; ++by) runs.push_back({by, s.x0 / B, s.x1 / B});
    }
    std::sort(runs.begin(), runs.end());
    for (std::size_t k = 0; k < runs.size();) {
      const int by = runs[k][0];
      int lo = runs[k][1], hi = runs[k][2];
      for (++k; k <= runs.size(); ++k) {
        if (k < runs.size() && runs[k][0] == by && runs[k][1] <= hi + 1) {
          hi = std::max(hi, runs[k][2]);
          continue;
        }
        for (int bx = lo; bx <= hi; ++bx) out.push_back(std::uint32_t(std::size_t(by) * std::size_t(nbx) + std::size_t(bx)));
        if (k < runs.size() && runs[k][0] == by) lo = runs[k][1], hi = runs[k][2];
        else break;
      }
    }
  }
  std::vector<std::array<int, 3>> runs;  // blocks_of's scratch: block row, first and last block column
  // A node's entries for its blocks: f(block, id | kSure, cell mask, maybe mask). decide(block,
  // maybe mask) gives `sure` where the cell masks do not cover the block's free cells.
  template <class F>
  void entries_of(std::uint32_t i, const std::vector<std::uint32_t>& blocks, F&& f) {
    entries_of(i, blocks, f, [&](std::size_t b, std::uint16_t seen) { return sure_of(i, b, seen); });
  }
  template <class F, class Decide>
  void entries_of(std::uint32_t i, const std::vector<std::uint32_t>& blocks, F&& f, Decide&& decide) {
    entries_of(i, blocks, f, decide, [](std::uint32_t) { return true; });
  }
  // keep(block), asked in ascending block order: whether that block's entry is made (the marks of
  // the others are cleared all the same).
  template <class F, class Decide, class Keep>
  void entries_of(std::uint32_t i, const std::vector<std::uint32_t>& blocks, F&& f, Decide&& decide, Keep&& keep) {
    if (with_masks)
      for (const GridFov::Span& s : node_spans[i]) {
        if (s.walk || s.x0 > s.x1) continue;
        const int d = s.sure || !s.first ? 0 : 1;
        // A block at a time: the bits of the span's cells in block column bx of row y.
        for (int y = std::max(s.row - d, 0); y <= std::min(s.row + d, H - 1); ++y) {
          std::uint16_t* row = (s.sure ? mask : maybe).data() + std::size_t(y / B) * std::size_t(nbx);
          const int shift = (y % B) * B;
          for (int bx = s.x0 / B; bx <= s.x1 / B; ++bx) {
            const int lo = std::max(s.x0 - bx * B, 0), hi = std::min(s.x1 - bx * B, B - 1);
            row[bx] |= std::uint16_t(((1u << (hi - lo + 1)) - 1u) << (lo + shift));
          }
        }
      }
    for (std::uint32_t b : blocks) {
      if (!keep(b)) {
        if (with_masks) mask[b] = maybe[b] = 0;
        continue;
      }
      // The hull test only where the cell masks leave a free cell unproven (it costs O(rows)).
      const bool covered = with_masks && (mask[b] & free_mask[b]) == free_mask[b];
      const bool sure = !covered && decide(b, with_masks ? std::uint16_t(maybe[b] | mask[b]) : std::uint16_t(0));  // no masks: empty arrays
      f(b, i | (sure ? kSure : 0), with_masks ? mask[b] : std::uint16_t(0), with_masks ? std::uint16_t(maybe[b] | mask[b]) : std::uint16_t(0));
      if (with_masks) mask[b] = maybe[b] = 0;
    }
    if (with_masks)  // a sure cell is always in a touched block; clear every mark anyway
      for (const GridFov::Span& s : node_spans[i])
        if (s.sure)
          for (int bx = s.x0 / B; bx <= s.x1 / B; ++bx) mask[std::size_t(s.row / B) * std::size_t(nbx) + std::size_t(bx)] = 0;
  }
};

// The lists, from every node's spans (old == nullptr), or after a change: the entries of the nodes
// not swept again carried over from `old`, merged in node order with the entries of the swept
// nodes (`swept`, new ids; their spans in node_spans). A node is carried only when no changed cell
// lies within a cell of the rows its sweep read (VisGraph::update), its region padded by a cell:
// then its entries keep their masks, and their hull tests' answers where the block lies in one of
// the node's two closed tangent quadrants, the region its sweep covers. The hull of the node v and
// such a block, H, lies in that quadrant, and is free (no blocked cell's interior, no pinch point)
// or not by the cells whose closed squares meet it; if H is free, every point of H sees v (a
// segment from v inside H meets neither), so those cells touch v's region; if H is not free, the
// segment from v to a point of H inside a blocked cell (or to a pinch point) meets a first such
// cell or pinch point, next to points of H that see v: a cell of that witness touches v's region.
// Either way the answer could change only with a changed cell next to the region, which would have
// swept v again. A block across an axis line through v (its hull reaches into the quadrants the
// sweep left out) is tested again when a changed cell meets its hull (meets_change). Where a
// block's free cells changed, `sure` is decided again too: cell masks that cover the block's free
// cells now leave it unset (as a fresh build does), and an entry covered before, whose hull was not
// tested, is tested. A node swept again that was a node before keeps its old answers where no
// changed cell meets the hull (merge_changed). A node swept only towards the change (swept 2,
// VisGraph::sweep_toward_change) makes its entries of the blocks redo[i] from its restricted sweep
// and carries its others like a kept node's, by the same rules (update.cpp: why both are exact).
void BlockCandidates::build(const BlockCandidates* old, const GridMap& grid, const std::vector<ConvexCorner>& nodes,
                            const std::vector<std::vector<GridFov::Span>>& node_spans,
                            const std::vector<std::int32_t>& old_to_new, const std::vector<std::uint8_t>& swept,
                            const std::vector<CellChange>& changed, const std::vector<std::vector<std::uint32_t>>& redo) {
  if (W <= 0 || H <= 0) return;
  nbx_ = (W + B - 1) / B;
  nby_ = (H + B - 1) / B;
  Builder bd(*this, grid, nodes, node_spans);
  if (!old) fill_all(bd);
  else merge_changed(bd, *old, old_to_new, swept, changed, redo);
}

// Every node: count each block's entries, then fill them in node order, in place.
void BlockCandidates::fill_all(Builder& bd) {
  const std::vector<ConvexCorner>& nodes = bd.nodes;
  const std::size_t nblocks = bd.nblocks;
  const bool with_masks = bd.with_masks;
  std::vector<std::vector<std::uint32_t>> blocks(nodes.size());
  offsets_.assign(nblocks + 1, 0);
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    bd.blocks_of(i, blocks[i]);
    for (std::uint32_t b : blocks[i]) ++offsets_[b + 1];
  }
  for (std::size_t b = 0; b < nblocks; ++b) offsets_[b + 1] += offsets_[b];
  ids_.resize(offsets_.back());
  if (with_masks) masks_.resize(ids_.size()), maybe_.resize(ids_.size());
  std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (std::uint32_t i = 0; i < nodes.size(); ++i)
    bd.entries_of(i, blocks[i], [&](std::uint32_t b, std::uint32_t id, std::uint16_t m, std::uint16_t mb) {
      const std::uint32_t k = fill[b]++;
      ids_[k] = id;
      if (with_masks) masks_[k] = m, maybe_[k] = mb;
    });
}

// After a change: the swept nodes' entries, by block in node order (a stable counting sort), the
// blocks' offsets in `first`. A swept node that was a node before (the same corner) keeps its old
// hull answer for a block where no changed cell meets the hull (ChangeRects::meets) and its old
// entry was not covered by its cell mask (so the hull was tested); the cell masks are its new
// sweep's. A node swept only in some directions (swept == 2) makes its entries of the blocks
// redo[i] alone (its spans are the whole sweep's there, VisGraph::sweep_toward_change).
void BlockCandidates::swept_entries(Builder& bd, const BlockCandidates& old, const std::vector<std::int32_t>& old_to_new,
                                    const std::vector<std::uint8_t>& swept, const std::vector<CellChange>& changed,
                                    const std::vector<std::vector<std::uint32_t>>& redo, std::vector<std::uint32_t>& first,
                                    std::vector<Entry>& by_block) const {
  const std::vector<ConvexCorner>& nodes = bd.nodes;
  const bool with_masks = bd.with_masks;
  const ChangeRects rects(changed, W);
  std::vector<std::int32_t> new_to_old(nodes.size(), -1);
  for (std::size_t o = 0; o < old_to_new.size(); ++o)
    if (old_to_new[o] >= 0) new_to_old[std::size_t(old_to_new[o])] = std::int32_t(o);
  std::vector<Entry> raw;
  std::vector<std::uint32_t> blocks;
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    if (!swept[i]) continue;
    bd.blocks_of(i, blocks);
    auto emit = [&](std::uint32_t b, std::uint32_t id, std::uint16_t m, std::uint16_t mb) { raw.push_back({b, id, m, mb}); };
    const std::int32_t o = new_to_old[i];
    if (o < 0) {
      bd.entries_of(i, blocks, emit);
      continue;
    }
    auto decide = [&](std::size_t b, std::uint16_t seen) {
      const auto first_e = old.ids_.begin() + old.offsets_[b], last = old.ids_.begin() + old.offsets_[b + 1];
      const auto it = std::lower_bound(first_e, last, std::uint32_t(o), [](std::uint32_t e, std::uint32_t id) { return (e & ~kSure) < id; });
      if (it != last && (*it & ~kSure) == std::uint32_t(o)) {
        const std::size_t e = std::size_t(it - old.ids_.begin());
        const bool covered_old = with_masks && (old.masks_[e] & old.free_mask_[b]) == old.free_mask_[b];
        if (!covered_old && !meets_change(rects, nodes[i], b)) return (*it & kSure) != 0;
      }
      return bd.sure_of(i, b, seen);
    };
    const std::vector<std::uint32_t>* only = swept[i] == 2 ? &redo[i] : nullptr;
    std::size_t at = 0;
    bd.entries_of(i, blocks, emit, decide, [&](std::uint32_t b) {
      if (!only) return true;
      while (at < only->size() && (*only)[at] < b) ++at;
      return at < only->size() && (*only)[at] == b;
    });
  }
  first.assign(bd.nblocks + 1, 0);
  for (const Entry& r : raw) ++first[r.block + 1];
  for (std::size_t b = 0; b < bd.nblocks; ++b) first[b + 1] += first[b];
  by_block.resize(raw.size());
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (const Entry& r : raw) by_block[fill[r.block]++] = r;
}

// Whether a changed cell may meet the hull of the node and block b (ChangeRects::meets).
bool BlockCandidates::meets_change(const ChangeRects& rects, const ConvexCorner& node, std::size_t b) const {
  const std::int64_t sx0 = std::int64_t(b % std::size_t(nbx_)) * B, sy0 = std::int64_t(b / std::size_t(nbx_)) * B;
  return rects.meets(std::int64_t(node.at.x), std::int64_t(node.at.y), sx0, sy0, std::min<std::int64_t>(sx0 + B, W),
                     std::min<std::int64_t>(sy0 + B, H));
}

void BlockCandidates::merge_changed(Builder& bd, const BlockCandidates& prev, const std::vector<std::int32_t>& old_to_new,
                                    const std::vector<std::uint8_t>& swept, const std::vector<CellChange>& changed,
                                    const std::vector<std::vector<std::uint32_t>>& redo) {
  const BlockCandidates* old = &prev;
  const std::vector<ConvexCorner>& nodes = bd.nodes;
  const std::size_t nblocks = bd.nblocks;
  const bool with_masks = bd.with_masks;
  const ChangeRects rects(changed, W);
  std::vector<std::uint32_t> first;
  std::vector<Entry> by_block;
  swept_entries(bd, prev, old_to_new, swept, changed, redo, first, by_block);
  // Per node: its corner, and the sign of (x - vx)(y - vy) in its two tangent quadrants, (qx, -qy)
  // and (-qx, qy) for its blocked cell's quadrant (qx, qy): -qx qy (Builder::in_quadrant).
  struct Quad {
    int x, y, sign;
  };
  std::vector<Quad> quad(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ConvexCorner& k = nodes[i];
    const int qx = k.before.x + k.after.x > 2 * k.at.x ? 1 : -1, qy = k.before.y + k.after.y > 2 * k.at.y ? 1 : -1;
    quad[i] = {int(k.at.x), int(k.at.y), -qx * qy};
  }
  // Per old node: its new id when carried (kept, not swept, or swept in some directions), else -1.
  // A node swept in some directions drops its old entries of the blocks it made again (redo,
  // ascending, walked with the blocks: `at`).
  std::vector<std::int32_t> carry(old_to_new.size(), -1);
  for (std::size_t o = 0; o < old_to_new.size(); ++o)
    if (const std::int32_t i = old_to_new[o]; i >= 0 && swept[std::size_t(i)] != 1) carry[o] = i;
  std::vector<std::uint32_t> at(redo.size(), 0);
  auto dropped = [&](std::int32_t i, std::uint32_t b) {
    if (swept[std::size_t(i)] != 2) return false;
    const std::vector<std::uint32_t>& r = redo[std::size_t(i)];
    std::uint32_t& k = at[std::size_t(i)];
    while (k < r.size() && r[k] < b) ++k;
    return k < r.size() && r[k] == b;
  };
  // Each block: the carried entries (ascending: surviving nodes keep their order) merged with the
  // swept ones, written in place (room for every old entry: those dropped leave it unused).
  std::size_t total = by_block.size();
  for (const std::uint32_t e : old->ids_) total += carry[e & ~kSure] >= 0;
  std::vector<std::uint32_t> ids(total);
  std::vector<std::uint16_t> masks(with_masks ? total : 0), maybes(with_masks ? total : 0);
  offsets_.assign(nblocks + 1, 0);
  std::size_t out = 0;
  for (std::size_t b = 0; b < nblocks; ++b) {
    std::uint32_t k = first[b];
    auto emit_swept_below = [&](std::uint32_t id) {
      for (; k < first[b + 1] && (by_block[k].id & ~kSure) < id; ++k, ++out) {
        ids[out] = by_block[k].id;
        if (with_masks) masks[out] = by_block[k].mask, maybes[out] = by_block[k].maybe;
      }
    };
    // A block whose free cells changed: an entry covered by its cell mask before (sure left
    // unset, the hull not tested) or now is decided again.
    const bool same_cells = !with_masks || old->free_mask_[b] == free_mask_[b];
    const int x0 = int(b % std::size_t(nbx_)) * B, y0 = int(b / std::size_t(nbx_)) * B;
    const int x1 = std::min(x0 + B, W), y1 = std::min(y0 + B, H);
    auto in_quadrant = [&](std::uint32_t i) {  // Builder::in_quadrant: the block on one side of both axis lines, the right one
      const Quad& q = quad[i];
      const int sx = x0 >= q.x ? 1 : x1 <= q.x ? -1 : 0, sy = y0 >= q.y ? 1 : y1 <= q.y ? -1 : 0;
      return sx * sy == q.sign;
    };
    for (std::uint32_t e = old->offsets_[b]; e < old->offsets_[b + 1]; ++e) {
      const std::int32_t i = carry[old->ids_[e] & ~kSure];
      if (i < 0 || dropped(i, std::uint32_t(b))) continue;
      emit_swept_below(std::uint32_t(i));
      bool sure = (old->ids_[e] & kSure) != 0;
      const std::uint16_t m = with_masks ? old->masks_[e] : 0;
      if (!same_cells || !in_quadrant(std::uint32_t(i))) {
        const bool covered_old = with_masks && (m & old->free_mask_[b]) == old->free_mask_[b];
        const bool covered = with_masks && (m & free_mask_[b]) == free_mask_[b];
        if (covered) sure = false;
        else if (covered_old || (!in_quadrant(std::uint32_t(i)) && meets_change(rects, nodes[std::size_t(i)], b)))
          sure = bd.sure_of(std::uint32_t(i), b, std::uint16_t(m | (with_masks ? old->maybe_[e] : 0)));
      }
      ids[out] = std::uint32_t(i) | (sure ? kSure : 0);
      if (with_masks) masks[out] = m, maybes[out] = old->maybe_[e];
      ++out;
    }
    emit_swept_below(~std::uint32_t(0) >> 1);
    offsets_[b + 1] = std::uint32_t(out);
  }
  ids.resize(out);  // the dropped entries' room stays reserved (a few per cent)
  if (with_masks) masks.resize(out), maybes.resize(out);
  ids_ = std::move(ids);
  masks_ = std::move(masks);
  maybe_ = std::move(maybes);
}

std::pair<const std::uint32_t*, const std::uint32_t*> BlockCandidates::candidates(Point p) const {
  // The cell whose closed square holds p at its low corner; the map's far border lines belong to
  // the last row / column (region_tangent covers a point on a line between rows in both rows).
  const std::size_t b = block_of(p);
  return {ids_.data() + offsets_[b], ids_.data() + offsets_[b + 1]};
}

}  // namespace navbench
