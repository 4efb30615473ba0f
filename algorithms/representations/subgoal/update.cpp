// SubgoalGraph::update(): the subgoal graph brought up to date after cells changed (docs/changing-maps.md).
#include "representations/subgoal/subgoal.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "representations/subgoal/internal.hpp"

namespace navbench {

using namespace subgoal_detail;

// Incremental update (docs/changing-maps.md). A cell's subgoal status reads its 3x3 block and its clearances
// its row and column; a clearance scan (GetDirectHReachable) reads the cells of its Extent boxes
// (see scan()). So with D = the changed cells grown by one cell, the cells outside D keep their
// subgoal status, the rows and columns without a cell of D keep their clearances, and a scan none
// of whose boxes meets D reads the same values and reports the same subgoals (by cell; vertex ids
// are renumbered in row-major order, as a fresh build numbers them). Only the subgoals and the
// cells (reach=1) whose boxes meet D, and those whose role changed (in D), are scanned again. In
// open areas a scan reads up to the walls, so there a change meets most cells' boxes (a new
// obstacle's corners are direct-h-reachable from most of the area): local only where walls bound
// the scans. Recomputed whole, as they depend on the whole map or graph: the free-space components
// (a change may split or join components anywhere), the CSR graph from the kept and new lists (an
// edge's shape is walked only when its source's scan did not report it, see EdgeShape), and ch=1's
// hierarchy. The N-level contraction (levels >= 2; its greedy order by degree is global, Uras &
// Koenig 2014, and it costs as much as in a build) is left owed: the queries search the simple
// graph until the rule of owed_search() (query.cpp) derives it. The all-pairs table (table=1) is repaired
// (DistanceTable::update, from the old id of each subgoal). The first update scans everything (the
// build keeps no extents: a static map pays nothing) and tracks from then on.
// D: the changed cells grown by one (inside the map), sorted; its bounding box; and a summed-area
// table over the box, so that whether a scan from a cell with extent e read a cell of D is four
// reads per quadrant.
struct SubgoalGraph::ChangeRegion {
  std::vector<std::uint8_t> in_d;  // per padded cell
  std::vector<Cell> dcells;
  int rx0, rx1 = -1, ry0, ry1 = -1;
  int rw = 0, rh = 0;
  std::vector<std::uint32_t> sat;

  bool hit(int x, int y, const Extent& e) const {
    for (int q = 0; q < 4; ++q) {
      const int x0 = std::max(q & 1 ? x : x - e.x[q], rx0), x1 = std::min(q & 1 ? x + e.x[q] : x, rx1);
      const int y0 = std::max(q & 2 ? y : y - e.y[q], ry0), y1 = std::min(q & 2 ? y + e.y[q] : y, ry1);
      if (x0 > x1 || y0 > y1) continue;
      const std::size_t a = std::size_t(y0 - ry0), b = std::size_t(y1 - ry0 + 1), l = std::size_t(x0 - rx0), r = std::size_t(x1 - rx0 + 1);
      if (sat[b * (rw + 1) + r] + sat[a * (rw + 1) + l] != sat[a * (rw + 1) + r] + sat[b * (rw + 1) + l]) return true;
    }
    return false;
  }
};

bool SubgoalGraph::update(const Map& m, const std::vector<CellChange>& changed) {
  if (m.kind != MapKind::grid || m.grid.width != w_ || m.grid.height != h_) return false;
  const std::size_t cells = free_.size();
  // D: the changed cells grown by one (inside the map), sorted; its bounding box.
  ChangeRegion d;
  d.in_d.assign(cells, 0);
  d.rx0 = w_, d.ry0 = h_;
  for (const CellChange& ch : changed) {
    if (ch.x < 0 || ch.y < 0 || ch.x >= w_ || ch.y >= h_) continue;
    free_[cell(ch.x, ch.y)] = m.grid.passable(ch.x, ch.y) ? 1 : 0;
    for (int y = std::max(ch.y - 1, 0); y <= std::min(ch.y + 1, h_ - 1); ++y)
      for (int x = std::max(ch.x - 1, 0); x <= std::min(ch.x + 1, w_ - 1); ++x)
        if (!d.in_d[cell(x, y)]) {
          d.in_d[cell(x, y)] = 1, d.dcells.push_back(cell(x, y));
          d.rx0 = std::min(d.rx0, x), d.rx1 = std::max(d.rx1, x), d.ry0 = std::min(d.ry0, y), d.ry1 = std::max(d.ry1, y);
        }
  }
  std::sort(d.dcells.begin(), d.dcells.end());

  std::vector<std::int32_t> old_of_new, new_of_old;  // vertex ids across the renumbering (-1: none)
  renumber_subgoals(d, old_of_new, new_of_old);
  update_clearances(d);
  label_components();

  // Whether a scan from c with extent e read a cell of D: a summed-area table over D's box.
  d.rw = std::max(d.rx1 - d.rx0 + 1, 0), d.rh = std::max(d.ry1 - d.ry0 + 1, 0);
  const int rw = d.rw, rh = d.rh;
  std::vector<std::uint32_t>& sat = d.sat;
  sat.assign(std::size_t(rw + 1) * std::size_t(rh + 1), 0);
  for (int y = 0; y < rh; ++y)
    for (int x = 0; x < rw; ++x)
      sat[std::size_t(y + 1) * (rw + 1) + std::size_t(x + 1)] = sat[std::size_t(y) * (rw + 1) + std::size_t(x + 1)] +
                                                              sat[std::size_t(y + 1) * (rw + 1) + std::size_t(x)] -
                                                              sat[std::size_t(y) * (rw + 1) + std::size_t(x)] +
                                                              d.in_d[cell(d.rx0 + x, d.ry0 + y)];
  std::size_t rescanned = rescan_subgoals(d, old_of_new);
  rescanned += rescan_reach(d, new_of_old);
  upd_.tracked = true;
  upd_.rescanned = rescanned;

  // The simple subgoal graph in the build's order (per subgoal its scan's subgoals), then the rest.
  const std::size_t n = cell_of_.size();
  std::vector<CsrGraph::WeightedEdge> edges;
  edges.reserve(upd_.scan_to.size());
  for (Vertex u = 0; u < Vertex(n); ++u)
    for (std::uint32_t i = upd_.scan_off[u]; i < upd_.scan_off[u + 1]; ++i) {
      const Cell t = upd_.scan_to[i];
      if (vertex_[t] < 0) throw std::logic_error("subgoal update: a kept subgoal's partner vanished");
      const Vertex v = Vertex(vertex_[t]);
      if (u < v) edges.push_back({u, v, octile(cell_of_[u], t)});
      else if (v < u) edges.push_back({v, u, octile(cell_of_[u], t)});
    }
  local_.clear(), rank_.clear(), by_rank_.clear(), via_.clear();
  finish(std::move(edges), &old_of_new);
  id_ = next_build_id();  // the per-thread query scratch is sized and cached per build
  return true;
}

// Subgoals: the old ones outside D and those in D now, merged in cell order (= row-major).
void SubgoalGraph::renumber_subgoals(const ChangeRegion& d, std::vector<std::int32_t>& old_of_new,
                                     std::vector<std::int32_t>& new_of_old) {
  const std::vector<std::uint8_t>& in_d = d.in_d;
  const std::vector<Cell>& dcells = d.dcells;
  const std::vector<Cell> old_cell_of = std::move(cell_of_);
  const std::size_t old_n = old_cell_of.size();
  for (Cell c : old_cell_of) vertex_[c] = -1;
  cell_of_.clear();
  cell_of_.reserve(old_n + dcells.size());
  old_of_new.reserve(old_n + dcells.size());  // new vertex -> old vertex (same cell) or -1
  new_of_old.assign(old_n, -1);
  {
    std::size_t i = 0, k = 0;
    while (i < old_n || k < dcells.size()) {
      if (k == dcells.size() || (i < old_n && old_cell_of[i] < dcells[k])) {
        const Cell c = old_cell_of[i];
        if (!in_d[c]) new_of_old[i] = std::int32_t(cell_of_.size()), old_of_new.push_back(std::int32_t(i)), cell_of_.push_back(c);
        ++i;
      } else {
        const Cell c = dcells[k++];
        if (!free(c) || !corner(c)) continue;
        const bool was = i < old_n && old_cell_of[i] == c;
        if (was) new_of_old[i] = std::int32_t(cell_of_.size()), ++i;
        old_of_new.push_back(was ? std::int32_t(i - 1) : -1);
        cell_of_.push_back(c);
      }
    }
  }
  const std::size_t n = cell_of_.size();
  pos_.resize(n);
  for (Vertex v = 0; v < Vertex(n); ++v) vertex_[cell_of_[v]] = std::int32_t(v), pos_[v] = centre(cell_of_[v]);
  set_subgoal_bits();
}

// Clearances of the rows and columns that hold a cell of D.
void SubgoalGraph::update_clearances(const ChangeRegion& d) {
  std::vector<std::uint8_t> row(std::size_t(h_), 0), col(std::size_t(w_), 0);
  for (Cell c : d.dcells) row[std::size_t(cy(c))] = 1, col[std::size_t(cx(c))] = 1;
  std::vector<int> rows, cols;
  for (int y = 0; y < h_; ++y)
    if (row[std::size_t(y)]) rows.push_back(y);
  for (int x = 0; x < w_; ++x)
    if (col[std::size_t(x)]) cols.push_back(x);
  fill_clearances(rows, true);
  fill_clearances(cols, false);
}

// Per subgoal its scan's subgoals (by cell): kept, or scanned again. Returns the scans run.
std::size_t SubgoalGraph::rescan_subgoals(const ChangeRegion& d, const std::vector<std::int32_t>& old_of_new) {
  const std::size_t n = cell_of_.size();
  std::size_t rescanned = 0;
  std::vector<std::uint32_t> off(n + 1, 0);
  std::vector<Cell> to;
  std::vector<Extent> ext(n);
  to.reserve(upd_.scan_to.size());
  for (Vertex v = 0; v < Vertex(n); ++v) {
    const std::int32_t o = old_of_new[v];
    if (upd_.tracked && o >= 0 && !d.hit(cx(cell_of_[v]), cy(cell_of_[v]), upd_.sg_ext[std::size_t(o)])) {
      to.insert(to.end(), upd_.scan_to.begin() + upd_.scan_off[std::size_t(o)], upd_.scan_to.begin() + upd_.scan_off[std::size_t(o) + 1]);
      ext[v] = upd_.sg_ext[std::size_t(o)];
    } else {
      ++rescanned;
      scan<true>(cell_of_[v], [&](Cell t) { to.push_back(t); }, &ext[v]);
    }
    off[v + 1] = std::uint32_t(to.size());
  }
  upd_.scan_off = std::move(off), upd_.scan_to = std::move(to), upd_.sg_ext = std::move(ext);
  return rescanned;
}

// reach=1: per free non-subgoal cell its list; a cell outside D kept its role. Returns the scans run.
// From the second update on, a list that would have to be scanned again is dropped instead (kStale),
// and stays dropped: a query from that cell scans it (reach(), query.cpp), as with reach=0, in the
// thread that answers and in that query's time. An update in an open area meets most cells' scans
// (a new obstacle's corners are direct-h-reachable from much of the area: on arena2 20 to 75 % of
// the cells, 70 % of an update's instructions), while a query needs two cells' lists. The first
// update scans every cell (the build keeps no extents), so the lists stay where no change reaches.
std::size_t SubgoalGraph::rescan_reach(const ChangeRegion& d, const std::vector<std::int32_t>& new_of_old) {
  if (reach_at_.empty()) return 0;
  const std::size_t cells = free_.size();
  std::size_t rescanned = 0;
  const std::vector<std::uint32_t> old_at = std::move(reach_at_);
  const std::vector<std::uint16_t> old_data = std::move(reach_data_);
  reach_at_.assign(cells, kNone);
  reach_data_.clear();
  reach_data_.reserve(old_data.size());
  if (!upd_.tracked) upd_.cell_ext.assign(cells, Extent{});
  std::vector<Vertex> ids;
  std::uint32_t prev = kNone;
  std::size_t stale = 0;
  for (Cell c = 0; c < Cell(cells); ++c) {
    if (!free(c) || vertex_[c] >= 0) continue;
    ids.clear();
    if (upd_.tracked && (old_at[c] == kStale || d.in_d[c] || d.hit(cx(c), cy(c), upd_.cell_ext[c]))) {
      reach_at_[c] = kStale, ++stale;
      continue;
    }
    if (upd_.tracked) {
      for_packed(old_data.data() + old_at[c], [&](Vertex o) {
        const std::int32_t v = new_of_old[o];  // read by the scan, so outside D: still a subgoal
        if (v < 0) throw std::logic_error("subgoal update: a kept cell's subgoal vanished");
        ids.push_back(Vertex(v));
      });
    } else {
      ++rescanned;
      scan<true>(c, [&](Cell t) { ids.push_back(Vertex(vertex_[t])); }, &upd_.cell_ext[c]);
    }
    put_reach(c, ids, prev);
  }
  reach_data_.shrink_to_fit();
  upd_.stale = stale;
  return rescanned;
}

}  // namespace navbench
