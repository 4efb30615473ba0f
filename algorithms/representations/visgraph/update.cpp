// visgraph on a changing map (docs/changing-maps.md): VisGraph::update.
#include "representations/visgraph/visgraph.hpp"

#include <algorithm>
#include <array>
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

namespace {

// With block lists (B x B cells a block), a node at grid corner s swept towards the changed cells:
// which of its blocks' entries are made again (`redo`, ascending) and the directions the sweep
// must cover for them (added to `toward`: per block row, the cone from s of each run of such
// blocks grown by a cell). grown: the rectangles of the grown changed cells in the node's
// recorded rows (one row tall each; their cones are the directions A of sweep_toward_change).
// Why this is exact. Let block b have cells x0..x1 - 1 by y0..y1 - 1, Q_b = [x0 - 1, x1 + 1] x
// [y0 - 1, y1 + 1] (b grown by a cell), and cone(Q_b) the closed set of directions from s through Q_b.
// - What b's entry reads of the sweep. Its cells come from the spans of the bands of rows y0 - 1
//   to y1 (a half's first row marks the rows beside it too), whose lines lie in Q_b's rows. A band's
//   piece P covers the cells of its row whose columns, padded by one, meet the x-extent of P's
//   rays in the band (a convex set; in a half's first band it holds s): cell x of b is covered
//   when that extent meets [x - 1, x + 2), within Q_b's columns, which only rays of P through Q_b
//   (or s itself, then in Q_b) reach. So b's cells are decided by the set of P's rays in cone(Q_b)
//   and by where P's bounds cross the band: a bound in cone(Q_b) is the same ray in any sweep with
//   that set (the same lattice direction, the same doubles); a bound outside it crosses the band's
//   lines left of x0 - 1 (or right of x1 + 1), where it only widens P's cover beyond b's columns,
//   and a piece with no ray in cone(Q_b) lies wholly on one side: its padded extent ends before
//   x0 (a lattice ray's crossing of a grid line is an integer or 1/H or more from one, far more
//   than xat's rounding). The sure cells of b read P's bounds alike (margins of 1e-7: a bound at
//   x0 - 1 or beyond leaves x0 in; at x1 + 1, x1 - 1) and the cells of b's row crossed by the rays
//   into each cell of b.
// - A sweep restricted to directions D (GridFov::scan_tangent, `within`): its pieces in every band
//   are the whole sweep's cut to D, since a ray lies in a band's pieces exactly when it starts in
//   the swept quadrant and meets no blocked run's interior in an earlier band (a shadow is cut from
//   any interval alike). So if cone(Q_b) lies in D, b's entry from the restricted sweep is the
//   whole sweep's, cell for cell and mask for mask; its hull answer is decided as for any swept node.
// - Block b keeps its old entry when no grown rectangle g has its wedge (the rays from s through
//   g) meeting Q_b past g (at points farther from s than a point of g on the same ray). A ray r's
//   place in the pieces of band Y changes only if r meets the interior of a changed cell c in an
//   earlier band while still in the pieces there (the cells it met before c are the same, so it
//   is there before and after the change): r's points there lie in that band's span, so c is a
//   recorded cell, grown, and r goes through it; if r crosses Q_b in band Y, g's wedge meets Q_b
//   there, past c. So the rays of cone(Q_b) crossing b's bands keep their places, and b's cells
//   are as they were. The same holds for a cell the sure test reads (crossed, in b's band, by
//   rays into a cell of b) and for b's hull answer in the tangent quadrants: a changed cell that
//   alters it has in its closed square a point p of the hull that saw s before (if the hull was
//   free, any point it meets; if not, the point where a segment from s enters the first blocked
//   cell or pinch point that is gone), so p lies in a recorded cell next to it, a grown one, and
//   the ray from s through p goes on to b past p. Across s's axis lines the hull is tested again
//   where a changed cell meets it, as for every carried entry (BlockCandidates::merge_changed).
// So `redo` holds every block whose Q_b meets such a wedge past its rectangle (found per block
// row from the rays through the corners of boxes holding the rectangles: more blocks only cost
// time), `toward` the cone of each run of them: their entries are made from the restricted sweep,
// the others carried over. No entry appears elsewhere: the sweep's pieces near such a block did
// not change.
void blocks_toward_change(const GridFov& fov, Point s, int W, int H, int B, std::vector<std::array<int, 4>>& grown,
                          GridFov::Directions& toward, std::vector<std::uint32_t>& redo,
                          std::vector<std::array<int, 3>>& runs) {
  const int nbx = (W + B - 1) / B, nby = (H + B - 1) / B, sx = int(s.x), sy = int(s.y);
  // The grown rectangles grouped into bounding boxes of touching ones (fewer wedges; a box's
  // wedge past it holds its rectangles' wedges past them).
  std::vector<std::array<int, 4>> box;
  for (const auto& g : grown) {
    bool merged = false;
    for (auto& q : box)
      if (g[0] <= q[2] && g[2] >= q[0] && g[1] <= q[3] && g[3] >= q[1] && (g[1] >= sy) == (q[1] >= sy)) {
        q = {std::min(q[0], g[0]), std::min(q[1], g[1]), std::max(q[2], g[2]), std::max(q[3], g[3])}, merged = true;
        break;
      }
    if (!merged) box.push_back(g);
  }
  // Per box: the part of its wedge past it (the rays from s through it, from its near line on and,
  // beside s's column, from its near column on: a point of a ray past a point of the box lies
  // farther from s in both coordinates): the lines [lmin, lmax], the columns [xmin, xmax], and its
  // corners.
  constexpr double kFar = 1e9;
  struct Wedge {
    int lmin, lmax;
    double xmin, xmax;
    int cx[4], cy[4];
  };
  std::vector<Wedge> wedges;
  for (const auto& q : box) {
    const bool down = q[1] >= sy;  // the half it lies in (a grown rectangle is one row: never both)
    wedges.push_back({down ? q[1] : 0, down ? H : q[3], q[0] >= sx ? double(q[0]) : -kFar, q[2] <= sx ? double(q[2]) : kFar,
                      {q[0], q[2], q[0], q[2]}, {q[1], q[1], q[3], q[3]}});
  }
  constexpr int M = 1;  // Q_b: block b grown by M cells
  for (int by = 0; by < nby; ++by) {
    runs.clear();
    for (const Wedge& w : wedges) {
      // Q_b's lines [by B - M, (by + 1) B + M] past the box
      const int La = std::max(by * B - M, w.lmin), Lb = std::min((by + 1) * B + M, w.lmax);
      if (La > Lb) continue;
      double lo = kFar, hi = -kFar;  // the wedge's least and greatest x there
      for (int k = 0; k < 4; ++k) {
        if (w.cy[k] == sy) {  // a corner on s's line: the horizontal ray
          if (w.cx[k] >= sx) hi = kFar;
          if (w.cx[k] <= sx) lo = -kFar;
          continue;
        }
        for (const int L : {La, Lb}) {
          const double x = sx + double(w.cx[k] - sx) * double(L - sy) / double(w.cy[k] - sy);
          lo = std::min(lo, x), hi = std::max(hi, x);
        }
      }
      lo = std::max(lo, w.xmin), hi = std::min(hi, w.xmax);
      if (lo > hi) continue;
      // The blocks whose Q_b columns [bx B - M, (bx + 1) B + M] meet [lo, hi] (a little more: rounding).
      const double b0 = std::ceil((std::max(lo, -4.0 - B) - M - B - 1e-6) / B), b1 = std::floor((std::min(hi, W + 4.0) + M + 1e-6) / B);
      if (b0 <= b1 && b1 >= 0 && b0 < nbx) runs.push_back({0, std::max(int(b0), 0), std::min(int(b1), nbx - 1)});
    }
    std::sort(runs.begin(), runs.end());
    for (std::size_t k = 0; k < runs.size();) {
      int lo = runs[k][1], hi = runs[k][2];
      for (++k; k < runs.size() && runs[k][1] <= hi + 1; ++k) hi = std::max(hi, runs[k][2]);
      fov.add_cone(s, lo * B - M, by * B - M, (hi + 1) * B + M, (by + 1) * B + M, toward);
      for (int bx = lo; bx <= hi; ++bx) redo.push_back(std::uint32_t(by) * std::uint32_t(nbx) + std::uint32_t(bx));
    }
  }
}

}  // namespace

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
                                   std::vector<std::int32_t>& env_row0, std::vector<GridFov::Span>* spans,
                                   std::vector<std::uint32_t>* redo) const {
  const auto& c = corners();
  const Point at = c[k].at;
  toward.clear();
  const std::uint32_t e0 = upd_.env_off[i], e1 = upd_.env_off[i + 1];
  thread_local std::vector<std::array<int, 4>> grown;
  thread_local std::vector<std::array<int, 3>> runs;
  grown.clear();
  for (std::uint32_t e = e0; e < e1; ++e) {
    const int y = upd_.env_row0[i] + int(e - e0);
    const auto [x0, x1] = upd_.env[e];
    if (x0 > x1 || !upd_.row_hit[std::size_t(y)]) continue;
    const auto [r0, r1] = upd_.run_at[std::size_t(y)];
    for (std::uint32_t r = r0; r < r1; ++r) {
      const auto [a, b] = upd_.runs[r];
      if (b < x0 || a > x1) continue;
      fov_.add_cone(at, std::max(a, x0), y, std::min(b, x1) + 1, y + 1, toward);
      if (redo) grown.push_back({std::max<int>(a, x0), y, std::min<int>(b, x1) + 1, y + 1});
    }
  }
  if (redo) blocks_toward_change(fov_, at, map_->grid.width, map_->grid.height, block_, grown, toward, *redo, runs);
  fov_.close_cones(at, toward);
  scan_node(k, t, redo != nullptr, [&](std::uint32_t j) { return (j > k || !rescan[j]) && fov_.holds(at, c[j].at, toward); },
            joined, &toward);
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
  if (r1 >= r0) {
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
  if (spans) *spans = std::move(t.spans);  // block lists: the restricted sweep's spans, `redo` their blocks
}

// Incremental update. The result of a node's tangent sweep depends only on the cells
// of its spans (the region it may see, padded by a cell) and of its walk along its grid line, and
// on the cells next to them (GridFov::scan_tangent). So a node none of whose span cells lies
// within one cell of a changed cell sees exactly what it saw: the same nodes, along segments whose
// cells and pinch points did not change, and each such node is still a node with the same corner
// shape. A node near which cells were only blocked (without block lists) sees a subset of that
// plus new corners: its pairs are tested again instead (below). Only the other nodes (and the new
// ones) are swept again; a pair between a kept node and a swept one is taken from the sweep. With
// defer=0 the block lists carry the kept nodes' entries over (BlockCandidates); with defer=1 (the
// default) they are left owed to the queries (lists_owed()) and the nodes are swept as without
// them. The distance table is repaired (DistanceTable::update, from the old id of each corner);
// with skip=1 the skip graph and its landmarks are left owed to the queries (defer=1; finish(),
// skip_owed()), else the landmarks are computed again. The first update sweeps every node (the
// build keeps no regions: a static map pays nothing).
bool VisGraph::update(const Map& m, const std::vector<CellChange>& changed) {
  if (m.kind != MapKind::grid || &m != map_ || weighted_ || sq_) return false;  // pinch=allow: rebuilt
  const std::vector<ConvexCorner> old = corners();
  FreeSpace fs(m);
  const std::size_t n = fs.convex_corners().size();
  Params params = params_;
  if (block_setting(params, m, n) != block_) return false;  // the block lists would start anew
  const bool table = table_setting(params, n);
  const int lists = defer_ ? 0 : block_;  // lists carried over (defer=0), else owed: swept as without
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
      // are tested again instead, and its recorded rows (a superset now) stay. Otherwise it is
      // swept again only towards the changed cells (below; with block lists, also towards the
      // blocks whose entries it makes again: rescan 2, BlockCandidates carries its others).
      from_new[std::size_t(k)] = std::int32_t(i);
      if (hit_freed || (hit_blocked && lists > 0)) {
        partial[std::size_t(k)] = 1, rescan[std::size_t(k)] = 2;
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
  std::vector<std::vector<GridFov::Span>> spans(lists > 0 ? n : 0);
  std::vector<std::vector<std::uint32_t>> redo(spans.size());  // per node swept in part: its blocks made again
  ScanScratch t;
  t.want_spans = true;
  std::uint32_t swept = 0;
  GridFov::Directions toward;
  std::uint32_t partly = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    if (partial[k]) {
      ++swept, ++partly;
      sweep_toward_change(k, std::size_t(from_new[k]), old, to_new, rescan, toward, t, joined, env, env_row0,
                          lists > 0 ? &spans[k] : nullptr, lists > 0 ? &redo[k] : nullptr);
    } else if (rescan[k]) {
      ++swept;
      scan_node(k, t, lists > 0, [&](std::uint32_t j) { return j > k || !rescan[j]; }, joined);
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
      if (lists > 0) spans[k] = std::move(t.spans);
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
  if (lists > 0) blocks_ = BlockCandidates(blocks_, m.grid, c, spans, to_new, rescan, changed, redo);
  else if (block_ > 0) blocks_ = BlockCandidates(), lists_owed_.owe(lists_price(n));  // owed (defer=1)
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
