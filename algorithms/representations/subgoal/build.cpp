// The subgoal graph's build (subgoal.hpp): subgoals, clearances, reach lists, edges, components.
#include "representations/subgoal/subgoal.hpp"
#include "representations/subgoal/internal.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace navbench {

static_assert(Representation<SubgoalGraph>);

using namespace subgoal_detail;

double SubgoalGraph::octile(Cell a, Cell b) const { return octile_d(double(cx(a) - cx(b)), double(cy(a) - cy(b))); }

void SubgoalGraph::set_subgoal_bits() {
  subgoal_bits_.assign((vertex_.size() + 63) / 64, 0);
  for (Cell c : cell_of_) subgoal_bits_[c >> 6] |= std::uint64_t(1) << (c & 63);
}

std::uint64_t SubgoalGraph::next_build_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

SubgoalGraph::SubgoalGraph(const Map& map, Params& params) : id_(next_build_id()) {
  if (map.kind != MapKind::grid) throw UnsupportedMap("subgoal needs a grid map");
  const GridMap& g = map.grid;
  if (g.width > 65000 || g.height > 65000 || std::size_t(g.width + 2) * std::size_t(g.height + 2) >= (std::size_t(1) << 31))
    throw DeclaredCap("subgoal: map too large (clearances are 16-bit, cell indices 31-bit)");
  w_ = g.width, h_ = g.height, pw_ = w_ + 2;
  const std::size_t cells = std::size_t(pw_) * (h_ + 2);
  free_.assign(cells, 0);
  for (int y = 0; y < h_; ++y)
    for (int x = 0; x < w_; ++x) free_[cell(x, y)] = g.passable(x, y) ? 1 : 0;

  // Subgoals: a free cell s with a blocked diagonal neighbour t whose two cells next to both s and t
  // are free (the convex corner of an obstacle, Uras et al. 2013 Definition 1).
  vertex_.assign(cells, -1);
  for (int y = 0; y < h_; ++y)
    for (int x = 0; x < w_; ++x) {
      const Cell c = cell(x, y);
      if (free(c) && corner(c)) {
        vertex_[c] = std::int32_t(cell_of_.size());
        cell_of_.push_back(c);
        pos_.push_back(centre(c));
      }
    }
  set_subgoal_bits();

  // table=1: every subgoal-to-subgoal distance of the simple subgoal graph, with predecessors
  // (representations/distance_table.hpp, subgoals^2 * 6 bytes), and the query answered from it
  // without a search (table_search()): the least start link + table distance + goal link. Default
  // on up to 1,024 subgoals (6 MiB; faster queries than levels=16 there: docs/measurements.md) unless
  // levels, alt or active is named (they ask for the search the table replaces). The table is over
  // the simple subgoal graph, so table=1 takes levels=1; a search still runs for heuristics the
  // table does not stand for (inadmissible ones: weight > 1, manhattan, and octile or Chebyshev towards
  // a goal off the half-integer lattice: search/astar.hpp, admissible_for).
  const bool search_named =
      params.given(param(kParams, "levels")) || params.given(param(kParams, "alt")) || params.given(param(kParams, "active"));
  // ch=1 (ch.cpp): the contraction hierarchy and its bidirectional query instead of the table or
  // the N-level graph's A*.
  ch_ = params.flag(param(kParams, "ch"));
  // labels=1: hub labels over the simple subgoal graph (hub_labels.hpp), each query answered from
  // them without a search (labels_search()); named only.
  labels_on_ = params.flag(param(kParams, "labels"));
  // labels_mb: the labels' size is known only once made; the build stops above it (read with
  // labels=1 only, or when named, so other build rows keep their params).
  if (labels_on_ || params.given(param(kParams, "labels_mb"))) labels_mb_ = params.integer(param(kParams, "labels_mb"));
  // defer: read only when given (it matters only on a changing map), so static build rows keep
  // their params.
  if (params.given(param(kParams, "defer"))) defer_ = params.flag(param(kParams, "defer"));
  const bool table = params.flag(param(kParams, "table"), cell_of_.size() <= 1024 && !search_named && !ch_ && !labels_on_);
  // Default levels=16 (N-level): the fastest exact search on den520d, brc202d and Aurora (against
  // levels=1 and 2: docs/measurements.md, harness/bench/bench_subgoal.cpp); levels=1 gives the simple
  // subgoal graph.
  levels_ = params.integer(param(kParams, "levels"), table || ch_ || labels_on_ ? 1 : 16);
  if (table && levels_ > 1) throw std::invalid_argument("subgoal: table=1 is over the simple subgoal graph; it takes levels=1");
  if (ch_ && (table || levels_ > 1)) throw std::invalid_argument("subgoal: ch=1 contracts every subgoal; it takes neither table=1 nor levels");
  if (labels_on_ && (table || ch_ || levels_ > 1))
    throw std::invalid_argument("subgoal: labels=1 is over the simple subgoal graph; it takes neither table=1, ch=1 nor levels");
  // reach=1: every free cell keeps the list of its direct-h-reachable subgoals, so a query point
  // joins the graph by a table read instead of the clearance scan (precomputed per cell, as JPS+
  // precomputes its jump distances per cell; Harabor & Grastien 2014), packed (put_reach). Default
  // on maps of up to 2^20 cells (packed: about a third of plain 32-bit lists, and queries a little
  // faster than with the scan: docs/measurements.md); off above. With labels=1 up to 2^18 cells:
  // on Aurora (786,432 cells, a median 46 subgoals seen per query cell) the lists take 45 MB and the
  // queries were no faster with them (the locate step's 4 us saved went in the labels' cache misses);
  // on brc202d and den520d they save 0.4 to 0.8 us of 5 to 6 (docs/measurements.md).
  const bool small = std::int64_t(map.grid.width) * map.grid.height <= (labels_on_ ? (1 << 18) : (1 << 20));
  const bool reach_table = params.flag(param(kParams, "reach"), small);
  // alt=K: K landmarks (ALT, Goldberg & Harrelson 2005) on the simple subgoal graph, both bounds
  // (its distances are symmetric): default 16 (0 with the table): fewer expansions and faster
  // queries than the octile heuristic alone, for K x 8 bytes per subgoal; alt=8 and alt=32 were
  // slower (docs/measurements.md). With labels=1 the landmarks bound the links before the labels
  // are read (labels_search()): default 16 there too (Aurora, per query best of 3 runs, median:
  // 76.0 us against 93.2 us without, 79.8 with 8, 83.6 with 32).
  alt_ = params.integer(param(kParams, "alt"), table || ch_ ? 0 : 16);
  // active=M: each query evaluates only the M landmarks of largest bound at its start (Landmarks::
  // active()); default 4: faster queries than with all 16 (more expansions, each cheaper:
  // docs/measurements.md); 0: all.
  active_ = params.integer(param(kParams, "active"));
  params.finish("subgoal");
  table_on_ = table;

  clear_.assign(cells, {0, 0, 0, 0});
  std::vector<int> lines(std::size_t(std::max(w_, h_)));
  std::iota(lines.begin(), lines.end(), 0);
  fill_clearances(std::span(lines.data(), std::size_t(h_)), true);
  fill_clearances(std::span(lines.data(), std::size_t(w_)), false);
  label_components();

  if (reach_table) {
    reach_at_.assign(cells, kNone);
    std::vector<Vertex> ids;
    std::uint32_t prev = kNone;
    for (Cell c = 0; c < Cell(cells); ++c)
      if (free(c) && vertex_[c] < 0) {
        ids.clear();
        direct_h_reachable(c, [&](Cell t) { ids.push_back(Vertex(vertex_[t])); });
        put_reach(c, ids, prev);
      }
    reach_data_.shrink_to_fit();
  }

  // The simple subgoal graph: every subgoal to its direct-h-reachable subgoals, octile weights.
  std::vector<CsrGraph::WeightedEdge> edges;
  for (Vertex u = 0; u < Vertex(cell_of_.size()); ++u)
    direct_h_reachable(cell_of_[u], [&](Cell t) {
      const Vertex v = Vertex(vertex_[t]);
      if (u < v) edges.push_back({u, v, octile(cell_of_[u], t)});
      else if (v < u) edges.push_back({v, u, octile(cell_of_[u], t)});
    });
  finish(std::move(edges));
}

void SubgoalGraph::put_reach(Cell c, std::vector<Vertex>& ids, std::uint32_t& prev) {
  std::sort(ids.begin(), ids.end());
  const std::size_t start = reach_data_.size();
  if (start >= kNone) throw DeclaredCap("subgoal: reach lists too large (reach=0 scans instead)");
  put_unit(reach_data_, std::uint32_t(ids.size()));
  Vertex last = 0;
  for (Vertex v : ids) put_unit(reach_data_, std::uint32_t(v - last)), last = v;
  const std::size_t len = reach_data_.size() - start;
  // A list is self-delimiting (its count comes first): equal units over len mean equal lists.
  for (std::uint32_t cand : {prev, c >= Cell(pw_) ? reach_at_[c - Cell(pw_)] : kNone})
    if (cand != kNone && cand != kStale && cand + len <= start &&
        std::equal(reach_data_.begin() + cand, reach_data_.begin() + std::ptrdiff_t(cand + len), reach_data_.begin() + std::ptrdiff_t(start))) {
      reach_data_.resize(start);
      reach_at_[c] = prev = cand;
      return;
    }
  reach_at_[c] = prev = std::uint32_t(start);
}

bool SubgoalGraph::corner(Cell c) const {
  for (int dy : {-1, 1})
    for (int dx : {-1, 1})
      if (!free_[c + dx + dy * pw_] && free_[c + dx] && free_[c + dy * pw_]) return true;
  return false;
}

// Clearances: steps from a cell in a cardinal direction up to the first subgoal (included) or the
// last free cell (the paper's Clearance(s, d)), filled from the far end of each row/column. A cell's
// clearances depend on its row (E, W) or column (S, N) alone. Columns are filled a row at a time
// (row-major memory order), all the given columns together.
void SubgoalGraph::fill_clearances(std::span<const int> lines, bool rows) {
  const int step[4] = {1, -1, pw_, -pw_};
  auto fill = [&](int d, Cell c) {
    const Cell n = Cell(std::int64_t(c) + step[d]);
    clear_[c][d] = !free(c) || !free(n) ? 0 : std::uint16_t(vertex_[n] >= 0 ? 1 : 1 + clear_[n][d]);
  };
  if (rows) {
    for (int y : lines) {
      for (int x = w_ - 1; x >= 0; --x) fill(kE, cell(x, y));
      for (int x = 0; x < w_; ++x) fill(kW, cell(x, y));
    }
  } else {
    for (int y = h_ - 1; y >= 0; --y)
      for (int x : lines) fill(kS, cell(x, y));
    for (int y = 0; y < h_; ++y)
      for (int x : lines) fill(kN, cell(x, y));
  }
}

// Free-space components (4-connected, as grid8: a diagonal move needs both orthogonal cells).
void SubgoalGraph::label_components() {
  const int step[4] = {1, -1, pw_, -pw_};
  component_.assign(free_.size(), -1);
  std::vector<Cell> stack;
  std::int32_t next = 0;
  for (Cell seed = 0; seed < Cell(free_.size()); ++seed) {
    if (!free(seed) || component_[seed] >= 0) continue;
    component_[seed] = next;
    stack.push_back(seed);
    while (!stack.empty()) {
      const Cell c = stack.back();
      stack.pop_back();
      for (int d = 0; d < 4; ++d) {
        const Cell n = Cell(std::int64_t(c) + step[d]);
        if (free(n) && component_[n] < 0) component_[n] = next, stack.push_back(n);
      }
    }
    ++next;
  }
}

// The shape of the octile path of edge u -> v (free_shape). With the scans' lists (update()), an
// edge that u's own scan reported is diagonal-first (shape 0): the scan walked that very path
// (diag_ok steps, then free ray cells); only the others are walked. Calls come grouped by u.
int SubgoalGraph::EdgeShape::operator()(Vertex u, Vertex v) {
  if (!g.upd_.tracked) return g.free_shape(g.cell_of_[u], g.cell_of_[v]);
  if (mark.empty()) mark.assign(g.cell_of_.size(), kNone);
  if (u != current) {
    current = u;
    for (std::uint32_t i = g.upd_.scan_off[u]; i < g.upd_.scan_off[u + 1]; ++i) mark[std::size_t(g.vertex_[g.upd_.scan_to[i]])] = u;
  }
  return mark[v] == u ? 0 : g.free_shape(g.cell_of_[u], g.cell_of_[v]);
}

void SubgoalGraph::finish(std::vector<CsrGraph::WeightedEdge> edges, const std::vector<std::int32_t>* old_of_new) {
  const std::size_t n = cell_of_.size();
  graph_ = CsrGraph(n, std::move(edges));
  shape_.resize(graph_.num_edges());
  EdgeShape shape_of{*this};
  for (Vertex u = 0; u < Vertex(n); ++u)
    for (auto [it, end] = out_edges(u, graph_); it != end; ++it) {
      const int s = shape_of(u, target(*it, graph_));
      if (s < 0) throw std::logic_error("subgoal: an edge without a free octile path");
      shape_[it->index] = std::uint8_t(s);
    }
  // Landmarks on the simple subgoal graph (its distances are grid distances, every stored edge
  // weight is the length of a path): lower bounds for the searched graph too (landmarks.hpp).
  landmarks_ = Landmarks(graph_, weights(), std::size_t(alt_), std::identity{}, true);
  landmarks_.set_active(std::size_t(active_));
  // levels >= 2: an update leaves the contraction owed (docs/changing-maps.md): the queries search
  // the simple subgoal graph until the rule of table_search() derives it (owed.hpp); a build
  // derives it now.
  if (ch_) build_ch();
  else if (levels_ >= 2 && old_of_new && defer_) owed_.owe(contraction_settled_);
  else if (levels_ >= 2) build_two_level();
  // labels=1: made here in a build; an update with defer=1 leaves them owed (labels_owed()), at
  // the price of the last labels' making (HubLabels::settled(); still owed: the price they were
  // owed at).
  const std::uint64_t labels_price = labels_owed_.owed() ? labels_owed_.price() : labels_.settled();
  labels_ = HubLabels();
  labels_owed_ = OwedWork();
  if (labels_on_) {
    labels_owed_.owe(labels_price);
    if (!old_of_new || !defer_) derive_labels();
  }
  // The all-pairs table over the simple subgoal graph (one place per subgoal); an update repairs it
  // (DistanceTable::update; old_of_new: per subgoal its id before the update, -1: new).
  if (!table_on_) table_ = DistanceTable();
  if (table_on_) {
    if (n >= DistanceTable::kNoPrev) throw DeclaredCap("subgoal: table=1 needs fewer than 65,535 subgoals (" + std::to_string(n) + ")");
    std::vector<std::uint32_t> place(n);
    std::iota(place.begin(), place.end(), 0u);
    try {
      if (old_of_new && !table_.empty()) table_.update(graph_, std::move(place), *old_of_new, std::size_t(1) << 30);
      else table_ = DistanceTable(graph_, std::move(place), std::size_t(1) << 30);
    } catch (const std::length_error& e) {
      throw DeclaredCap(std::string("subgoal: ") + e.what());
    }
  }
}

// labels=1: the hub labels over the simple subgoal graph (graph_). Each label entry keeps its
// edge's shape (shape_, per CSR entry), so that a path read from the labels is drawn without
// looking its edges up (polyline()), and its distance as exact octile step counts in 4 bytes
// (every edge is an octile path: straight | diagonal << 16 per entry). What a build makes in
// finish() and an update with defer=1 leaves owed.
void SubgoalGraph::derive_labels() {
  if (!labels_owed_.owed()) return;
  const std::size_t n = num_vertices(graph_);
  std::vector<std::uint32_t> steps(graph_.num_edges());
  for (Vertex u = 0; u < Vertex(n); ++u)
    for (auto [it, end] = out_edges(u, graph_); it != end; ++it) {
      const Cell a = cell_of_[u], b = cell_of_[target(*it, graph_)];
      const int dx = std::abs(cx(a) - cx(b)), dy = std::abs(cy(a) - cy(b));
      steps[it->index] = std::uint32_t(std::max(dx, dy) - std::min(dx, dy)) | (std::uint32_t(std::min(dx, dy)) << 16);
    }
  labels_ = HubLabels(graph_, HubLabels::kSamples, std::size_t(labels_mb_) << 20, shape_, steps);
  labels_owed_.settle();
}

}  // namespace navbench
