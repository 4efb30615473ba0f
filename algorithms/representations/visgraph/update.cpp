// visgraph on a changing map (docs/changing-maps.md): VisGraph::update.
#include "representations/visgraph/visgraph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "representations/visgraph/internal.hpp"

namespace navbench {

// Changed cells grown by one cell, freed ones and blocked ones apart (a cell listed but now free
// counts as freed); per row, prefix counts over the rows that hold one. Scratch kept between
// updates: only the rows with a change are written, and update() clears upd_.row_hit again.
void VisGraph::count_changed_rows(const GridMap& g, const std::vector<CellChange>& changed) {
  const int W = g.width, H = g.height;
  upd_.grown.resize(std::size_t(W) * std::size_t(H), 0);
  upd_.row_hit.resize(std::size_t(H), 0);
  upd_.freed.resize(std::size_t(W + 1) * std::size_t(H));
  upd_.blocked.resize(upd_.freed.size());
  upd_.hit_rows.clear();
  upd_.runs.clear();
  upd_.run_at.resize(std::size_t(H));
  for (const CellChange& ch : changed) {
    const std::uint8_t bit = g.passable(ch.x, ch.y) ? 1 : 2;
    for (int y = std::max(ch.y - 1, 0); y <= std::min(ch.y + 1, H - 1); ++y) {
      if (!upd_.row_hit[std::size_t(y)]) upd_.row_hit[std::size_t(y)] = 1, upd_.hit_rows.push_back(y);
      for (int x = std::max(ch.x - 1, 0); x <= std::min(ch.x + 1, W - 1); ++x) upd_.grown[std::size_t(y) * W + x] |= bit;
    }
  }
  for (const int y : upd_.hit_rows) {
    std::uint32_t* pf = upd_.freed.data() + std::size_t(y) * (W + 1);
    std::uint32_t* pb = upd_.blocked.data() + std::size_t(y) * (W + 1);
    std::uint8_t* gr = upd_.grown.data() + std::size_t(y) * W;
    pf[0] = pb[0] = 0;
    upd_.run_at[std::size_t(y)].first = std::uint32_t(upd_.runs.size());
    for (int x = 0; x < W; ++x) {
      if (gr[x] && (x == 0 || !gr[x - 1])) upd_.runs.push_back({std::uint16_t(x), std::uint16_t(x)});
      if (gr[x]) upd_.runs.back().second = std::uint16_t(x);
    }
    upd_.run_at[std::size_t(y)].second = std::uint32_t(upd_.runs.size());
    for (int x = 0; x < W; ++x) pf[x + 1] = pf[x] + (gr[x] & 1), pb[x + 1] = pb[x] + (gr[x] >> 1), gr[x] = 0;
  }
}

// A node k (old id i) near a freed cell, without block lists: swept again only towards the changed
// cells, the rest of its pairs carried over. Why this is exact. Let A be the closed set of
// directions from k through the cells next to a changed cell (the grown cells: a changed cell and
// its eight neighbours) that lie in k's recorded rows (upd_.env: a superset of its sweep's spans,
// which cover every point of its two tangent quadrants that sees k, padded by a cell).
// - A pair (k, j) whose direction is not in A keeps its answer. The segment k-j lies in the
//   quadrants; if it was valid before, each of its points saw k, so a changed cell whose closed
//   square meets it touches a recorded cell, which is then a grown cell of A holding that point:
//   its direction would be in A. So no changed cell meets the segment: its cells' interiors and
//   its lattice points' pinch status (read from the four cells around each) are as they were, and
//   k and j are the same corners (a corner that appeared, vanished or changed shape has a changed
//   cell at it). If it was not valid before, the first blocked cell or pinch point from k on it was
//   next to points that saw k; valid now, that cell or one around the pinch point changed, and the
//   same holds. Tangency reads only the two corners' shapes.
// - The sweep restricted to A (GridFov::scan_tangent, `within`) reports every node the whole sweep
//   reports in A: each band's pieces are the whole sweep's cut to A (a shadow is cut out of any
//   interval alike; a run is found whenever a piece's rays cross it), and a node whose ray lies in
//   a piece is classified by that piece. Its `sure` ones are proven visible (strictly inside a
//   piece of A is strictly inside the whole sweep's); the others take the exact test, as in a build.
// So k's new pairs are its old pairs outside A and the restricted sweep's inside A (a new corner k
// sees lies in A: it has a changed cell at it, next to the points that see k on the way to it).
// Its recorded rows become the old ones joined with the restricted sweep's spans: the points that
// see k in a direction outside A are those that saw it before (the same argument on the segment
// from k), so this covers every point that sees k now. Rows only grow: the next update may sweep
// k for a change it no longer sees, never miss one. Each node decides all its pairs; a pair is
// recorded by its lower id unless the other end is not swept (the rule of the whole sweep).
void VisGraph::sweep_toward_change(std::uint32_t k, std::size_t i, const std::vector<ConvexCorner>& old,
                                   const std::vector<std::int32_t>& to_new, const std::vector<std::uint8_t>& rescan,
                                   GridFov::Directions& toward, ScanScratch& t,
                                   std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined,
                                   std::vector<std::pair<std::uint16_t, std::uint16_t>>& env,
                                   std::vector<std::int32_t>& env_row0) const {
  const auto& c = corners();
  const Point at = c[k].at;
  toward.clear();
  const std::uint32_t e0 = upd_.env_off[i], e1 = upd_.env_off[i + 1];
  for (std::uint32_t e = e0; e < e1; ++e) {
    const int y = upd_.env_row0[i] + int(e - e0);
    const auto [x0, x1] = upd_.env[e];
    if (x0 > x1 || !upd_.row_hit[std::size_t(y)]) continue;
    const auto [r0, r1] = upd_.run_at[std::size_t(y)];
    for (std::uint32_t r = r0; r < r1; ++r) {
      const auto [a, b] = upd_.runs[r];
      if (b >= x0 && a <= x1) fov_.add_cone(at, std::max(a, x0), y, std::min(b, x1) + 1, y + 1, toward);
    }
  }
  fov_.close_cones(at, toward);
  scan_node(k, t, false, [&](std::uint32_t j) { return (j > k || !rescan[j]) && fov_.holds(at, c[j].at, toward); }, joined,
            &toward);
  for (std::uint32_t e = upd_.adj_off[i]; e < upd_.adj_off[i + 1]; ++e) {
    const std::uint32_t o = upd_.adj[e];
    if (fov_.holds(at, old[o].at, toward)) continue;  // decided by the sweep
    const std::int32_t j = to_new[o];
    if (j < 0) throw std::logic_error("visgraph update: a partner vanished away from the changed cells");
    if (std::uint32_t(j) > k || !rescan[std::size_t(j)]) joined.push_back({k, std::uint32_t(j)});
  }
  // The recorded rows: the old ones joined with the new spans.
  int r0 = e1 > e0 ? upd_.env_row0[i] : map_->grid.height, r1 = e1 > e0 ? upd_.env_row0[i] + int(e1 - e0) - 1 : -1;
  for (const GridFov::Span& sp : t.spans) r0 = std::min(r0, sp.row), r1 = std::max(r1, sp.row);
  env_row0[k] = r1 >= r0 ? r0 : 0;
  const std::size_t base = env.size();
  if (r1 < r0) return;
  env.resize(base + std::size_t(r1 - r0 + 1), {std::uint16_t(1), std::uint16_t(0)});
  auto join = [&](int row, int a, int b) {
    if (a > b) return;
    auto& [x0, x1] = env[base + std::size_t(row - r0)];
    if (x0 > x1) x0 = std::uint16_t(a), x1 = std::uint16_t(b);
    else x0 = std::min<std::uint16_t>(x0, std::uint16_t(a)), x1 = std::max<std::uint16_t>(x1, std::uint16_t(b));
  };
  if (e1 > e0) std::copy(upd_.env.begin() + e0, upd_.env.begin() + e1, env.begin() + std::ptrdiff_t(base) + (upd_.env_row0[i] - r0));
  for (const GridFov::Span& sp : t.spans) join(sp.row, sp.x0, sp.x1);
}

// Incremental update. The result of a node's tangent sweep depends only on the cells
// of its spans (the region it may see, padded by a cell) and of its walk along its grid line, and
// on the cells next to them (GridFov::scan_tangent). So a node none of whose span cells lies
// within one cell of a changed cell sees exactly what it saw: the same nodes, along segments whose
// cells and pinch points did not change, and each such node is still a node with the same corner
// shape. A node near which cells were only blocked (without block lists) sees a subset of that
// plus new corners: its pairs are tested again instead (below). Only the other nodes (and the new
// ones) are swept again; a pair between a kept node and a swept one is taken from the sweep. The
// block lists carry the kept nodes' entries over (BlockCandidates); the distance table is repaired
// (DistanceTable::update, from the old id of each corner); what else is derived from the whole
// graph (the skip graph, landmarks) is computed again. The first update sweeps every node (the
// build keeps no regions: a static map pays nothing).
bool VisGraph::update(const Map& m, const std::vector<CellChange>& changed) {
  if (m.kind != MapKind::grid || &m != map_ || weighted_ || sq_) return false;  // pinch=allow: rebuilt
  const std::vector<ConvexCorner> old = corners();
  FreeSpace fs(m);
  const std::size_t n = fs.convex_corners().size();
  Params params = params_;
  if (block_setting(params, m, n) != block_) return false;  // the block lists would start anew
  const bool table = table_setting(params, n);
  fs_ = std::move(fs);
  const auto& c = corners();
  grid_tables(m.grid, &old, &changed);
  const int W = m.grid.width, H = m.grid.height;

  // Old node -> new node: the same grid corner with the same corner shape.
  std::vector<std::int32_t> to_new(old.size(), -1), from_new(n, -1);
  std::vector<std::uint8_t> rescan(n, 1), shrunk(n, 0), partial(n, 0);
  if (upd_.tracked) {
    count_changed_rows(m.grid, changed);
    const auto& row_hit = upd_.row_hit;
    const auto& freed = upd_.freed;
    const auto& blocked = upd_.blocked;
    for (std::size_t i = 0; i < old.size(); ++i) {
      const std::int32_t k = fov_.node_at(int(old[i].at.x), int(old[i].at.y));
      if (k < 0 || !(c[std::size_t(k)].before == old[i].before) || !(c[std::size_t(k)].after == old[i].after)) continue;
      to_new[i] = k;
      bool hit_freed = false, hit_blocked = false;
      for (std::uint32_t e = upd_.env_off[i]; e < upd_.env_off[i + 1] && !hit_freed; ++e) {
        const int y = upd_.env_row0[i] + int(e - upd_.env_off[i]);
        const auto [x0, x1] = upd_.env[e];
        if (x0 > x1 || !row_hit[std::size_t(y)]) continue;
        const std::size_t r = std::size_t(y) * (W + 1);
        hit_freed = freed[r + x1 + 1] != freed[r + x0];
        hit_blocked = hit_blocked || blocked[r + x1 + 1] != blocked[r + x0];
      }
      // Only blocked cells near its view (and no block lists, whose spans would go stale): the
      // node sees a subset of what it saw, plus new corners, whose own sweeps find it. Its pairs
      // are tested again instead, and its recorded rows (a superset now) stay.
      // Without block lists, a node near a freed cell is swept again only towards the changed
      // cells (below); with them, whole (its block entries are made from every span).
      from_new[std::size_t(k)] = std::int32_t(i);
      if (hit_freed || (hit_blocked && block_ > 0)) {
        partial[std::size_t(k)] = block_ == 0;
        continue;
      }
      rescan[std::size_t(k)] = 0;
      shrunk[std::size_t(k)] = hit_blocked;
    }
  }

  std::vector<std::pair<std::uint32_t, std::uint32_t>> joined;
  std::vector<std::uint32_t> env_off(n + 1, 0);
  std::vector<std::int32_t> env_row0(n, 0);
  std::vector<std::pair<std::uint16_t, std::uint16_t>> env;
  std::vector<std::vector<GridFov::Span>> spans(block_ > 0 ? n : 0);
  ScanScratch t;
  t.want_spans = true;
  std::uint32_t swept = 0;
  GridFov::Directions toward;
  std::uint32_t partly = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    if (partial[k]) {
      ++swept, ++partly;
      sweep_toward_change(k, std::size_t(from_new[k]), old, to_new, rescan, toward, t, joined, env, env_row0);
    } else if (rescan[k]) {
      ++swept;
      scan_node(k, t, block_ > 0, [&](std::uint32_t j) { return j > k || !rescan[j]; }, joined);
      // The node's rows: per row the least and greatest column its spans cover.
      int r0 = H, r1 = -1;
      for (const GridFov::Span& sp : t.spans) r0 = std::min(r0, sp.row), r1 = std::max(r1, sp.row);
      env_row0[k] = r1 >= r0 ? r0 : 0;
      const std::size_t base = env.size();
      if (r1 >= r0) env.resize(base + std::size_t(r1 - r0 + 1), {std::uint16_t(1), std::uint16_t(0)});
      for (const GridFov::Span& sp : t.spans) {
        auto& [x0, x1] = env[base + std::size_t(sp.row - r0)];
        if (x0 > x1) x0 = std::uint16_t(sp.x0), x1 = std::uint16_t(sp.x1);
        else x0 = std::min<std::uint16_t>(x0, std::uint16_t(sp.x0)), x1 = std::max<std::uint16_t>(x1, std::uint16_t(sp.x1));
      }
      if (block_ > 0) spans[k] = std::move(t.spans);
    } else {
      const std::size_t i = std::size_t(from_new[k]);
      for (std::uint32_t e = upd_.adj_off[i]; e < upd_.adj_off[i + 1]; ++e) {
        const std::int32_t j = to_new[upd_.adj[e]];
        // An unchanged view's partners are kept places (their corners lie in it); with blocked
        // cells near the view a partner may be gone, or its segment blocked now. The segment
        // lies in both views: it changed only if neither view is unchanged.
        if (j < 0 && !shrunk[k]) throw std::logic_error("visgraph update: a kept node's partner vanished");
        if (j < 0 || rescan[std::size_t(j)] || std::uint32_t(j) < k) continue;
        if (shrunk[k] && shrunk[std::size_t(j)] && !fs_.segment_valid(c[k].at, c[std::size_t(j)].at)) continue;
        joined.push_back({k, std::uint32_t(j)});
      }
      env_row0[k] = upd_.env_row0[i];
      env.insert(env.end(), upd_.env.begin() + upd_.env_off[i], upd_.env.begin() + upd_.env_off[i + 1]);
    }
    env_off[k + 1] = std::uint32_t(env.size());
  }
  if (upd_.tracked)
    for (const int y : upd_.hit_rows) upd_.row_hit[std::size_t(y)] = 0;
  // The pairs per node, both ways (what the next update keeps).
  std::vector<std::uint32_t> adj_off(n + 1, 0), adj(2 * joined.size());
  for (auto [i, j] : joined) ++adj_off[i + 1], ++adj_off[j + 1];
  for (std::size_t i = 0; i < n; ++i) adj_off[i + 1] += adj_off[i];
  std::vector<std::uint32_t> fill(adj_off.begin(), adj_off.end() - 1);
  for (auto [i, j] : joined) adj[fill[i]++] = j, adj[fill[j]++] = i;
  upd_.adj_off = std::move(adj_off), upd_.adj = std::move(adj);
  upd_.env_off = std::move(env_off), upd_.env_row0 = std::move(env_row0), upd_.env = std::move(env);
  if (block_ > 0) blocks_ = BlockCandidates(blocks_, m.grid, c, spans, to_new, rescan, changed);
  upd_.tracked = true;
  upd_.swept = swept;
  upd_.partly = partly;
  std::vector<std::int32_t> old_of_new(n, -1);  // the same grid corner with the same shape
  for (std::size_t i = 0; i < old.size(); ++i)
    if (to_new[i] >= 0) old_of_new[std::size_t(to_new[i])] = std::int32_t(i);
  finish(params, table, joined, &old_of_new);
  return true;
}

}  // namespace navbench
