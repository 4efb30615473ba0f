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
#include <string>
#include <utility>

namespace navbench {

static_assert(Representation<SubgoalGraph>);

using namespace subgoal_detail;

double SubgoalGraph::octile(Cell a, Cell b) const {
  const int dx = std::abs(cx(a) - cx(b)), dy = std::abs(cy(a) - cy(b));
  return double(std::max(dx, dy) - std::min(dx, dy)) + double(std::min(dx, dy)) * M_SQRT2;
}

std::uint64_t SubgoalGraph::next_build_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

SubgoalGraph::Scratch& SubgoalGraph::scratch() const {
  static thread_local Scratch s;
  if (s.owner != id_) {
    s.owner = id_;
    s.slot.assign(pos_.size(), -1);
    s.pending.assign((by_rank_.size() + 63) / 64, 0);
    s.summary.assign((s.pending.size() + 63) / 64, 0);
    s.reached[0] = s.reached[1] = Reached{};
    s.next = 0;
  }
  return s;
}

SubgoalGraph::SubgoalGraph(const Map& map, Params& params) : id_(next_build_id()) {
  if (map.kind != MapKind::grid) throw UnsupportedMap("subgoal needs a grid map");
  const GridMap& g = map.grid;
  if (g.width > 65000 || g.height > 65000 || std::size_t(g.width + 2) * std::size_t(g.height + 2) >= (std::size_t(1) << 31))
    throw UnsupportedMap("subgoal: map too large (clearances are 16-bit, cell indices 31-bit)");
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

  // table=1: every subgoal-to-subgoal distance of the simple subgoal graph, with predecessors
  // (representations/distance_table.hpp, subgoals^2 * 6 bytes), and the query answered from it
  // without a search (table_search()): the least start link + table distance + goal link. Default
  // on up to 1,024 subgoals (6 MiB; faster queries than levels=16 there: docs/measurements.md) unless
  // levels, alt or active is named (they ask for the search the table replaces). The table is over
  // the simple subgoal graph, so table=1 takes levels=1; a search still runs for heuristics the
  // table does not stand for (inadmissible ones: weight > 1, manhattan, and octile or Chebyshev towards
  // a goal off the half-integer lattice: search/astar.hpp, admissible_for).
  // Default levels=16 (N-level): the fastest exact search on den520d, brc202d and Aurora (against
  // levels=1 and 2: docs/measurements.md, harness/bench/bench_subgoal.cpp); levels=1 gives the simple
  // subgoal graph.
  const bool search_named =
      params.given(param(kParams, "levels")) || params.given(param(kParams, "alt")) || params.given(param(kParams, "active"));
  const bool table = params.flag(param(kParams, "table"), cell_of_.size() <= 1024 && !search_named);
  levels_ = params.integer(param(kParams, "levels"), table ? 1 : 16);
  if (table && levels_ > 1) throw std::invalid_argument("subgoal: table=1 is over the simple subgoal graph; it takes levels=1");
  // reach=1: every free cell keeps the list of its direct-h-reachable subgoals, so a query point
  // joins the graph by a table read instead of the clearance scan (precomputed per cell, as JPS+
  // precomputes its jump distances per cell; Harabor & Grastien 2014), packed (put_reach). Default
  // on maps of up to 2^20 cells (packed: about a third of plain 32-bit lists, and queries a little
  // faster than with the scan: docs/measurements.md); off above.
  const bool small = std::int64_t(map.grid.width) * map.grid.height <= (1 << 20);
  const bool reach_table = params.flag(param(kParams, "reach"), small);
  // alt=K: K landmarks (ALT, Goldberg & Harrelson 2005) on the simple subgoal graph, both bounds
  // (its distances are symmetric): default 16 (0 with the table): fewer expansions and faster
  // queries than the octile heuristic alone, for K x 8 bytes per subgoal; alt=8 and alt=32 were
  // slower (docs/measurements.md).
  alt_ = params.integer(param(kParams, "alt"), table ? 0 : 16);
  // active=M: each query evaluates only the M landmarks of largest bound at its start (Landmarks::
  // active()); default 4: faster queries than with all 16 (more expansions, each cheaper:
  // docs/measurements.md); 0: all.
  active_ = params.integer(param(kParams, "active"));
  params.finish("subgoal");
  table_on_ = table;

  for (int d = 0; d < 4; ++d) clear_[d].assign(cells, 0);
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
  if (start >= kNone) throw UnsupportedMap("subgoal: reach lists too large (reach=0 scans instead)");
  put_unit(reach_data_, std::uint32_t(ids.size()));
  Vertex last = 0;
  for (Vertex v : ids) put_unit(reach_data_, std::uint32_t(v - last)), last = v;
  const std::size_t len = reach_data_.size() - start;
  // A list is self-delimiting (its count comes first): equal units over len mean equal lists.
  for (std::uint32_t cand : {prev, c >= Cell(pw_) ? reach_at_[c - Cell(pw_)] : kNone})
    if (cand != kNone && cand + len <= start &&
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
    clear_[d][c] = !free(c) || !free(n) ? 0 : std::uint16_t(vertex_[n] >= 0 ? 1 : 1 + clear_[d][n]);
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
  if (!g.tracked_) return g.free_shape(g.cell_of_[u], g.cell_of_[v]);
  if (mark.empty()) mark.assign(g.cell_of_.size(), kNone);
  if (u != current) {
    current = u;
    for (std::uint32_t i = g.scan_off_[u]; i < g.scan_off_[u + 1]; ++i) mark[std::size_t(g.vertex_[g.scan_to_[i]])] = u;
  }
  return mark[v] == u ? 0 : g.free_shape(g.cell_of_[u], g.cell_of_[v]);
}

void SubgoalGraph::finish(std::vector<CsrGraph::WeightedEdge> edges) {
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
  if (levels_ >= 2) build_two_level();
  table_ = DistanceTable();
  if (table_on_) {
    if (n >= DistanceTable::kNoPrev) throw UnsupportedMap("subgoal: table=1 needs fewer than 65,535 subgoals (" + std::to_string(n) + ")");
    std::vector<std::uint32_t> place(n);
    std::iota(place.begin(), place.end(), 0u);
    try {
      table_ = DistanceTable(graph_, weights(), std::move(place), n, std::size_t(1) << 30);
    } catch (const std::length_error& e) {
      throw UnsupportedMap(std::string("subgoal: ") + e.what());
    }
  }
}

// The query from the table (DistanceTable::answer gives the argument): a shortest grid path that
// is not the direct start-goal link leaves the start's cell for a direct-h-reachable subgoal,
// follows a shortest path of the simple subgoal graph and reaches the goal's cell from a subgoal
// it is direct-h-reachable from (Uras et al. 2013, Theorem 1's decomposition). The direct link,
// when there is one, competes with it (a query point off a cell centre may do better through a
// subgoal). The shared A* asks here only for heuristics it is exact with (admissible_for).
std::optional<double> SubgoalGraph::table_search(Query& q, std::size_t& steps) const {
  if (table_.empty()) return std::nullopt;
  const std::optional<double> t = table_.answer(
      q, steps, [&](Vertex v) { return distance(pos_[v], q.goal); },
      [&](std::uint32_t a, std::uint32_t b) { return octile(cell_of_[a], cell_of_[b]); },
      [](std::uint32_t p) { return Vertex(p); });
  if (t && q.direct) {
    const double d = direct_cost(q);
    if (d <= *t) return q.path.clear(), d;
  }
  return t;
}

bool SubgoalGraph::reaches(Cell s, Cell t) const {
  if (s == t) return true;
  const int a = cx(t) - cx(s), b = cy(t) - cy(s);
  const int step[4] = {1, -1, pw_, -pw_};
  if (b == 0) return clear_[a > 0 ? kE : kW][s] >= std::abs(a);
  if (a == 0) return clear_[b > 0 ? kS : kN][s] >= std::abs(b);
  const int dx = a > 0 ? 1 : -1, dy = b > 0 ? 1 : -1;
  const int i = std::min(std::abs(a), std::abs(b)), j = std::max(std::abs(a), std::abs(b)) - i;
  const int c = std::abs(a) > std::abs(b) ? (dx > 0 ? kE : kW) : (dy > 0 ? kS : kN);
  // The same bounded rays as direct_h_reachable, in the one octant that holds t.
  int m = clear_[c][s];
  if (j > 0 && m > 0 && vertex_[Cell(std::int64_t(s) + std::int64_t(m) * step[c])] >= 0) --m;
  Cell cur = s;
  for (int k = 1; k <= i; ++k) {
    if (!diag_ok(cur, dx, dy)) return false;
    cur = Cell(std::int64_t(cur) + dx + dy * pw_);
    if (k == i) break;
    if (vertex_[cur] >= 0) return false;  // every such path passes this subgoal
    if (j > 0) {
      int jj = clear_[c][cur];
      if (jj <= m) {
        if (jj > 0 && vertex_[Cell(std::int64_t(cur) + std::int64_t(jj) * step[c])] >= 0) --jj;
        m = jj;
      }
    }
  }
  if (j == 0) return true;
  if (vertex_[cur] >= 0) return false;
  return clear_[c][cur] >= j && j <= m;
}

int SubgoalGraph::free_shape(Cell a, Cell b) const {
  const int ax = cx(a), ay = cy(a), bx = cx(b), by = cy(b);
  const int dx = bx > ax ? 1 : (bx < ax ? -1 : 0), dy = by > ay ? 1 : (by < ay ? -1 : 0);
  const int i = std::min(std::abs(bx - ax), std::abs(by - ay));
  const int sx = std::abs(bx - ax) > std::abs(by - ay) ? dx : 0, sy = sx ? 0 : dy;
  const int j = std::max(std::abs(bx - ax), std::abs(by - ay)) - i;
  auto walk = [&](bool diagonal_first) {
    Cell c = a;
    for (int part = 0; part < 2; ++part) {
      if ((part == 0) == diagonal_first) {
        for (int k = 0; k < i; ++k) {
          if (!diag_ok(c, dx, dy)) return false;
          c = Cell(std::int64_t(c) + dx + dy * pw_);
        }
      } else {
        for (int k = 0; k < j; ++k) {
          c = Cell(std::int64_t(c) + sx + sy * pw_);
          if (!free(c)) return false;
        }
      }
    }
    return true;
  };
  if (!free(a)) return -1;
  if (walk(true)) return 0;
  if (walk(false)) return 1;
  return -1;
}

void SubgoalGraph::append_octile(Polyline& out, Cell a, Cell b, int shape) const {
  const int ax = cx(a), ay = cy(a), bx = cx(b), by = cy(b);
  const int dx = bx > ax ? 1 : (bx < ax ? -1 : 0), dy = by > ay ? 1 : (by < ay ? -1 : 0);
  const int i = std::min(std::abs(bx - ax), std::abs(by - ay));
  const int j = std::max(std::abs(bx - ax), std::abs(by - ay)) - i;
  if (i > 0 && j > 0) {
    // The turn: after the diagonal part (shape 0) or after the straight part (shape 1).
    const bool horizontal = std::abs(bx - ax) > std::abs(by - ay);
    int tx, ty;
    if (shape == 0) tx = ax + i * dx, ty = ay + i * dy;
    else tx = ax + (horizontal ? j * dx : 0), ty = ay + (horizontal ? 0 : j * dy);
    out.push_back({tx + 0.5, ty + 0.5});
  }
  out.push_back(centre(b));
}

std::optional<SubgoalGraph::EdgeRef> SubgoalGraph::find_edge(Vertex a, Vertex b) const {
  // A local's upward edge is stored once, from the local: look both ways.
  for (auto [it, end] = out_edges(a, graph_); it != end; ++it)
    if (target(*it, graph_) == b) return EdgeRef{it->index, false};
  for (auto [it, end] = out_edges(b, graph_); it != end; ++it)
    if (target(*it, graph_) == a) return EdgeRef{it->index, true};
  return std::nullopt;
}

void SubgoalGraph::append_edge(Polyline& out, Vertex a, Vertex b) const {
  const auto e = find_edge(a, b);
  if (!e) throw std::logic_error("subgoal: consecutive path vertices without an edge");
  if (!via_.empty() && via_[e->index] != kNone) {  // a shortcut of the two-level graph: refine through its local
    append_edge(out, a, via_[e->index]);
    append_edge(out, via_[e->index], b);
    return;
  }
  // The entry's shape is seen from its source; walked backwards a diagonal-first path is straight-first.
  append_octile(out, cell_of_[a], cell_of_[b], e->reversed ? 1 - shape_[e->index] : shape_[e->index]);
}

int SubgoalGraph::cells_of(Point p, Cell out[4]) const {
  if (!(p.x >= 0 && p.y >= 0 && p.x <= w_ && p.y <= h_)) return 0;
  const int x1 = int(std::floor(p.x)), y1 = int(std::floor(p.y));
  const int x0 = (p.x == x1) ? x1 - 1 : x1, y0 = (p.y == y1) ? y1 - 1 : y1;
  int n = 0;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (x >= 0 && y >= 0 && x < w_ && y < h_ && free(cell(x, y))) out[n++] = cell(x, y);
  // A pinch point (two diagonally opposite free cells) joins the cell it names only (docs/maps.md).
  if (n == 2 && x0 != x1 && y0 != y1 && cx(out[0]) != cx(out[1]) && cy(out[0]) != cy(out[1])) {
    const bool own_free = x1 < w_ && y1 < h_ && free(cell(x1, y1));
    out[0] = own_free ? cell(x1, y1) : out[0];
    n = 1;
  }
  return n;
}

void SubgoalGraph::reach(Point p, bool closure, std::vector<Reach>& out) const {
  out.clear();
  Cell cells[4];
  const int n = cells_of(p, cells);
  Scratch& sc = scratch();
  std::vector<std::int32_t>& slot_ = sc.slot;
  // Returns true when v is new.
  auto add = [&](Vertex v, double cost, std::int32_t pred, int cell) {
    std::int32_t& s = slot_[v];
    if (s < 0) {
      s = std::int32_t(out.size());
      out.push_back({v, cost, pred, std::int8_t(cell)});
      return true;
    }
    if (cost < out[std::size_t(s)].cost) out[std::size_t(s)] = {v, cost, pred, std::int8_t(cell)};
    return false;
  };
  for (int k = 0; k < n; ++k) {
    const Cell c = cells[k];
    const double base = distance(p, centre(c));
    if (vertex_[c] >= 0) add(Vertex(vertex_[c]), base, -1, k);
    else if (!reach_at_.empty())
      for_reach(c, [&](Vertex v) { add(v, base + octile(c, cell_of_[v]), -1, k); });
    else direct_h_reachable(c, [&](Cell t) { add(Vertex(vertex_[t]), base + octile(c, t), -1, k); });
  }
  if (closure && levels_ >= 2) {
    // Upward closure in contraction order: every edge into a local comes from a lower-ranked one,
    // so a local's cost is final when it is taken (a Dijkstra on a DAG, ordered by rank). Ranks
    // taken only grow (each push is above the rank being taken), so the queue is a monotone one: a
    // bitset over ranks with a summary bit per 64-rank word, scanned by a cursor that never moves
    // back (push O(1), pop O(1) amortised over the summary words between the lowest and highest
    // rank reached: 64 x 64 ranks per word, so large maps skip their empty stretches), in place of a
    // binary heap's O(log n) sifts. Same order as a heap on rank, so the same closure.
    std::uint64_t* pending = sc.pending.data();
    std::uint64_t* summary = sc.summary.data();
    std::size_t queued = 0, sw = sc.summary.size();
    auto push = [&](std::uint32_t rank) {
      pending[rank >> 6] |= std::uint64_t(1) << (rank & 63);
      summary[rank >> 12] |= std::uint64_t(1) << ((rank >> 6) & 63);
      sw = std::min<std::size_t>(sw, rank >> 12);
      ++queued;
    };
    for (const Reach& r : out)
      if (local_[r.v]) push(rank_[r.v]);
    while (queued > 0) {
      while (summary[sw] == 0) ++sw;
      const std::size_t word = sw * 64 + std::size_t(std::countr_zero(summary[sw]));
      const std::uint32_t rank = std::uint32_t(word * 64 + std::size_t(std::countr_zero(pending[word])));
      pending[word] &= pending[word] - 1;
      if (pending[word] == 0) summary[sw] &= ~(std::uint64_t(1) << (word & 63));
      --queued;
      const Vertex x = by_rank_[rank];
      const std::int32_t i = slot_[x];
      const double cx = out[std::size_t(i)].cost;
      for (auto [it, end] = out_edges(x, graph_); it != end; ++it) {  // a local's edges are its upward ones
        const Vertex y = target(*it, graph_);
        if (add(y, cx + graph_.weight(it->index), i, -1) && local_[y]) push(rank_[y]);
      }
    }
  }
  for (const Reach& r : out) slot_[r.v] = -1;
}

std::optional<Attachment> SubgoalGraph::attach_as(Point p, bool closure) const {
  Cell cells[4];
  if (cells_of(p, cells) == 0) return std::nullopt;
  Scratch& sc = scratch();
  Reached& slot = sc.reached[sc.next];
  sc.next ^= 1;
  slot.p = p;
  slot.closure = closure;
  reach(p, closure, slot.r);
  const std::vector<Reach>& r = slot.r;
  Attachment a;
  a.links.reserve(r.size());
  for (const Reach& x : r) a.links.push_back({x.v, x.cost});
  a.cell = std::int64_t(cells[0]);
  a.component = component_[cells[0]];
  return a;
}

SubgoalGraph::DirectPlan SubgoalGraph::plan_direct(const Query& q, bool need_free_shape) const {
  DirectPlan best{std::numeric_limits<double>::infinity(), 0, 0, false};
  Cell sc[4], gc[4];
  const int ns = cells_of(q.start, sc), ng = cells_of(q.goal, gc);
  for (int i = 0; i < ns; ++i)
    for (int k = 0; k < ng; ++k) {
      if (sc[i] == gc[k]) {  // one closed free cell holds both: the straight segment
        const double c = distance(q.start, q.goal);
        if (c < best.cost) best = {c, sc[i], gc[k], true};
        continue;
      }
      if (component_[sc[i]] != component_[gc[k]]) continue;
      const bool ok = need_free_shape ? free_shape(sc[i], gc[k]) >= 0 : reaches(sc[i], gc[k]);
      if (!ok) continue;
      const double c = distance(q.start, centre(sc[i])) + octile(sc[i], gc[k]) + distance(centre(gc[k]), q.goal);
      if (c < best.cost) best = {c, sc[i], gc[k], false};
    }
  return best;
}

bool SubgoalGraph::direct(const Query& q) const { return std::isfinite(plan_direct(q, false).cost); }
double SubgoalGraph::direct_cost(const Query& q) const { return plan_direct(q, false).cost; }

Polyline SubgoalGraph::polyline(const Query& q) const {
  Polyline out{q.start};
  if (q.path.empty()) {
    const DirectPlan d = plan_direct(q, true);
    if (!std::isfinite(d.cost)) throw std::logic_error("subgoal: direct path without a free octile path");
    if (!d.same_cell) {
      out.push_back(centre(d.s));
      append_octile(out, d.s, d.g, free_shape(d.s, d.g));
    }
  } else {
    // The cells from a query point to the path's end vertex v, as reach() found them: the point's
    // cell, the octile path to a direct-h-reachable subgoal, then (levels >= 2, goal side) upward
    // edges to v. attach() kept the last two reach() results; one of this point that holds v is
    // used, else reach() runs again with the closure (which holds every vertex either role links).
    auto side = [&](Point p, Vertex v) {
      auto index_of = [v](const std::vector<Reach>& r) {
        for (std::size_t k = 0; k < r.size(); ++k)
          if (r[k].v == v) return std::int32_t(k);
        return std::int32_t(-1);
      };
      std::vector<Reach> fresh;
      const std::vector<Reach>* found = nullptr;
      std::int32_t i = -1;
      for (const Reached& c : scratch().reached)
        if (c.p.x == p.x && c.p.y == p.y && (i = index_of(c.r)) >= 0) {
          found = &c.r;
          break;
        }
      if (!found) reach(p, true, fresh), found = &fresh, i = index_of(fresh);
      const std::vector<Reach>& r = *found;
      if (i < 0) throw std::logic_error("subgoal: a query point does not reach its path vertex");
      std::vector<Vertex> chain;
      for (; r[std::size_t(i)].pred >= 0; i = r[std::size_t(i)].pred) chain.push_back(r[std::size_t(i)].v);
      chain.push_back(r[std::size_t(i)].v);
      std::reverse(chain.begin(), chain.end());
      Cell cells[4];
      cells_of(p, cells);
      const Cell c = cells[r[std::size_t(i)].cell];
      Polyline part{p, centre(c)};
      if (c != cell_of_[chain.front()]) append_octile(part, c, cell_of_[chain.front()], free_shape(c, cell_of_[chain.front()]));
      for (std::size_t k = 0; k + 1 < chain.size(); ++k) append_edge(part, chain[k], chain[k + 1]);
      return part;
    };
    Polyline head = side(q.start, q.path.front());
    out.insert(out.end(), head.begin() + 1, head.end());
    for (std::size_t i = 0; i + 1 < q.path.size(); ++i) append_edge(out, q.path[i], q.path[i + 1]);
    Polyline tail = side(q.goal, q.path.back());
    out.insert(out.end(), tail.rbegin() + 1, tail.rend());
  }
  out.push_back(q.goal);
  out.erase(std::unique(out.begin(), out.end(), [](Point a, Point b) { return a.x == b.x && a.y == b.y; }), out.end());
  if (out.size() == 1) out.push_back(q.goal);  // start == goal: a path of two equal points
  return out;
}

std::size_t SubgoalGraph::num_global() const {
  if (local_.empty()) return pos_.size();
  return std::size_t(std::count(local_.begin(), local_.end(), 0));
}

BuildStats SubgoalGraph::stats() const {
  BuildStats s;
  s.vertices = pos_.size();
  s.edges = graph_.num_edges();  // globals' edges (both ways) + locals' upward edges
  s.memory_bytes = graph_.memory_bytes() + free_.capacity() + 4 * clear_[0].capacity() * 2 +
                   vertex_.capacity() * 4 + component_.capacity() * 4 + cell_of_.capacity() * 4 +
                   pos_.capacity() * sizeof(Point) + local_.capacity() + shape_.capacity() + via_.capacity() * 4 +
                   rank_.capacity() * 4 + by_rank_.capacity() * sizeof(Vertex) + reach_at_.capacity() * 4 +
                   reach_data_.capacity() * 2 + scan_off_.capacity() * 4 + scan_to_.capacity() * 4 +
                   (sg_ext_.capacity() + cell_ext_.capacity()) * sizeof(Extent) + landmarks_.memory_bytes() +
                   table_.memory_bytes();
  return s;
}

}  // namespace navbench
