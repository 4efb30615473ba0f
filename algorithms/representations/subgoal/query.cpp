// The subgoal graph's queries (subgoal.hpp): the per-thread scratch, the table's answer, attaching
// start and goal, the direct path, the polyline of a path, statistics.
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

SubgoalGraph::Scratch& SubgoalGraph::scratch() const {
  static thread_local Scratch s;
  if (s.owner != id_) {
    s.owner = id_;
    s.slot.assign(pos_.size(), -1);
    s.pending.assign((by_rank_.size() + 63) / 64, 0);
    s.summary.assign((s.pending.size() + 63) / 64, 0);
    s.reached[0] = s.reached[1] = Reached{};
    s.next = 0;
    for (int d = 0; d < 2; ++d) s.ch_dist[d].clear(), s.ch_pred[d].clear();
    s.label_steps.clear();
  }
  return s;
}

// The query from the table (DistanceTable::answer gives the argument): a shortest grid path that
// is not the direct start-goal link leaves the start's cell for a direct-h-reachable subgoal,
// follows a shortest path of the simple subgoal graph and reaches the goal's cell from a subgoal
// it is direct-h-reachable from (Uras et al. 2013, Theorem 1's decomposition). The direct link,
// when there is one, competes with it (a query point off a cell centre may do better through a
// subgoal). The shared A* asks here only for heuristics it is exact with (admissible_for).
std::optional<double> SubgoalGraph::table_search(Query& q, std::size_t& steps) const {
  if (owed_.owed()) return owed_search(q, steps);
  if (ch_) return ch_search(q, steps);
  if (labels_on_) {
    // The labels owed after an update (labels_owed()): the rule of ski rental (owed.hpp), as the
    // contraction's below; the query that finds them due makes them, in its own search time
    // (labels that no longer fit labels_mb are not made: the A* goes on answering, exactly).
    auto& self = const_cast<SubgoalGraph&>(*this);  // one thread answers a changing map (owed.hpp)
    self.labels_owed_.make_if_due([&] { self.derive_labels(); });
    if (labels_owed_.owed()) return std::nullopt;
    return labels_search(q, steps);
  }
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

// The contraction owed after an update (levels >= 2, docs/changing-maps.md): the rule of ski rental
// (owed.hpp; Karlin, Manasse, Rudolph & Sleator, "Competitive snoopy caching", Algorithmica 1988): pay as you
// go (each query is answered by the shared A* over the simple subgoal graph, graph_ while the
// contraction is owed, with the octile and landmark bounds it takes on this graph: exact, every
// subgoal path being a grid8 path, Uras et al. 2013, Theorem 1, but without the hierarchy) until
// what the queries since the update have paid exceeds the price of buying (the contraction), then
// buy; the total is at most twice the better of the two choices made in hindsight. Both sides are
// counted in settled vertices (a heap pop and its relaxations): the shared A*'s expansions, which
// it reports to searched(), and the last contraction's witness searches. The query that passes the count derives the contraction, in the
// thread that answers and in its own search time, then makes its links again (the goal's now with
// the upward closure) and hands over to the shared A* on the contracted graph.
std::optional<double> SubgoalGraph::owed_search(Query& q, std::size_t& steps) const {
  (void)steps;
  if (!owed_.due()) return std::nullopt;  // the shared A* on the simple graph
  auto& self = const_cast<SubgoalGraph&>(*this);  // one thread answers a changing map (owed.hpp)
  self.derive_contraction();
  const std::optional<Attachment> s = attach_start(q.start), g = attach_goal(q.goal);
  if (s) q.s = *s;
  if (g) q.g = *g;
  return std::nullopt;
}

void SubgoalGraph::searched(std::size_t expansions) const {
  owed_.pay(expansions);
  labels_owed_.pay(expansions);
}

void SubgoalGraph::derive_contraction() {
  build_two_level();
  owed_.settle();
  id_ = next_build_id();  // the per-thread query scratch (the closure's rank queue) is sized per build
}

// The query from the hub labels (hub_labels.hpp), by the table's argument above: min over start
// links a and goal links b of c_a + d(a, b) + c_b, d by the labels, against the direct link. Each
// link's bound for HubLabels::best: the link, then the octile distance on to the far end's nearest
// cell and the straight piece into the far point (every path through the link goes on as a grid8
// path to one of the far point's cells, then straight to it). The subgoals between are read back
// from the labels' next-vertex entries, each step an edge of the simple graph, and the cost is
// summed along the path in the A*'s order.
double SubgoalGraph::labels_search(Query& q, std::size_t& steps) const {
  q.path.clear();
  thread_local std::vector<HubLabels::End> s, g;  // per-thread scratch: no allocation per query
  s.clear();
  g.clear();
  Cell sc[4], gc[4];
  const int ns = cells_of(q.start, sc), ng = cells_of(q.goal, gc);
  double sd[4], gd[4];  // from each cell's centre to its query point
  for (int k = 0; k < ns; ++k) sd[k] = distance(centre(sc[k]), q.start);
  for (int k = 0; k < ng; ++k) gd[k] = distance(centre(gc[k]), q.goal);
  Point sp[4], gp[4];  // the cells' centres (octile_d from pos_: no division per link)
  for (int k = 0; k < ns; ++k) sp[k] = centre(sc[k]);
  for (int k = 0; k < ng; ++k) gp[k] = centre(gc[k]);
  auto rest = [&](Vertex v, const Point* far, const double* into, int n) {
    double b = std::numeric_limits<double>::infinity();
    for (int k = 0; k < n; ++k) b = std::min(b, octile_d(pos_[v].x - far[k].x, pos_[v].y - far[k].y) + into[k]);
    return b;
  };
  for (const Link& l : q.s.links) s.push_back({l.vertex, l.cost, l.cost + rest(l.vertex, gp, gd, ng)});
  for (const Link& l : q.g.links) g.push_back({l.vertex, l.cost, l.cost + rest(l.vertex, sp, sd, ns)});
  // With landmarks (alt=K) a tighter bound (HubLabels::tighten, inside best()): the table is over
  // the simple subgoal graph the labels cover, symmetric.
  const HubLabels::Meet m = labels_.best(s, g, &landmarks_);
  if (q.direct) {
    const double d = direct_cost(q);
    if (d <= m.cost) return d;
  }
  if (!(m.cost < HubLabels::kInf)) return m.cost;
  Scratch& scr = scratch();
  scr.label_steps.clear();
  labels_.path(s[m.s].vertex, g[m.g].vertex, m.hub, q.path, &scr.label_steps);  // the start's subgoal .. the hub .. the goal's
  q.walk.key = 1;  // this query's path is read from the labels (first_piece; plan() cleared walk)
  steps += q.path.size();
  double cost = q.s.links[m.s].cost;
  for (std::size_t i = 1; i < q.path.size(); ++i) {
    const Point a = pos_[q.path[i - 1]], b = pos_[q.path[i]];
    cost += octile_d(a.x - b.x, a.y - b.y);
  }
  return cost + q.g.links[m.g].cost;
}

bool SubgoalGraph::reaches(Cell s, Cell t) const {
  if (s == t) return true;
  const int a = cx(t) - cx(s), b = cy(t) - cy(s);
  const int step[4] = {1, -1, pw_, -pw_};
  if (b == 0) return clear_[s][a > 0 ? kE : kW] >= std::abs(a);
  if (a == 0) return clear_[s][b > 0 ? kS : kN] >= std::abs(b);
  const int dx = a > 0 ? 1 : -1, dy = b > 0 ? 1 : -1;
  const int i = std::min(std::abs(a), std::abs(b)), j = std::max(std::abs(a), std::abs(b)) - i;
  const int c = std::abs(a) > std::abs(b) ? (dx > 0 ? kE : kW) : (dy > 0 ? kS : kN);
  // The same bounded rays as direct_h_reachable, in the one octant that holds t.
  int m = clear_[s][c];
  if (j > 0 && m > 0 && is_sg(Cell(std::int64_t(s) + std::int64_t(m) * step[c]))) --m;
  Cell cur = s;
  for (int k = 1; k <= i; ++k) {
    if (!diag_clear(cur, dx, dx > 0 ? kE : kW, dy > 0 ? kS : kN)) return false;
    cur = Cell(std::int64_t(cur) + dx + dy * pw_);
    if (k == i) break;
    if (is_sg(cur)) return false;  // every such path passes this subgoal
    if (j > 0) {
      int jj = clear_[cur][c];
      if (jj <= m) {
        if (jj > 0 && is_sg(Cell(std::int64_t(cur) + std::int64_t(jj) * step[c]))) --jj;
        m = jj;
      }
    }
  }
  if (j == 0) return true;
  if (is_sg(cur)) return false;
  return clear_[cur][c] >= j && j <= m;
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

void SubgoalGraph::append_octile_xy(Polyline& out, int ax, int ay, int bx, int by, int shape) {
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
  out.push_back({bx + 0.5, by + 0.5});
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
    else if (!reach_at_.empty() && reach_at_[c] != kStale)
      for_reach(c, [&](Vertex v) { add(v, base + octile(c, cell_of_[v]), -1, k); });
    else if (!reach_at_.empty()) {
      // A list an update dropped (update.cpp): the scan, in the stored list's order (ascending
      // ids), so that the links and the search's ties are a fresh build's.
      std::vector<Vertex>& ids = sc.stale_ids;
      ids.clear();
      direct_h_reachable(c, [&](Cell t) { ids.push_back(Vertex(vertex_[t])); });
      std::sort(ids.begin(), ids.end());
      for (Vertex v : ids) add(v, base + octile(c, cell_of_[v]), -1, k);
    } else direct_h_reachable(c, [&](Cell t) { add(Vertex(vertex_[t]), base + octile(c, t), -1, k); });
  }
  if (closure && levels_ >= 2 && !owed_.owed()) {
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
  reach(p, closure && !ch_, slot.r);
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

// The cells from a query point to the path's end vertex v, as reach() found them: the point's
// cell, the octile path to a direct-h-reachable subgoal, then (levels >= 2, goal side) upward edges
// to v; from p first. attach() kept the last two reach() results; one of this point that holds v is
// used, else reach() runs again with the closure (which holds every vertex either role links).
Polyline SubgoalGraph::side(Point p, Vertex v) const {
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
  // Diagonal-first (shape 0): the clearance scan found the subgoal along that very path (diagonal
  // steps without cutting a corner, then a straight ray over free cells; scan() in internal.hpp),
  // and the reach lists hold the scan's answers, so it is free and need not be walked again.
  if (c != cell_of_[chain.front()]) append_octile(part, c, cell_of_[chain.front()], 0);
  for (std::size_t k = 0; k + 1 < chain.size(); ++k) append_edge(part, chain[k], chain[k + 1]);
  return part;
}

// The abstract path's edge k (q.path[k] to q.path[k + 1]) refined into its octile path's points
// after q.path[k]. A path read from the labels (labels_search(), the same query's; q.walk.key 1)
// carries its edges' shapes: the bit as the edge stores it from its source, flipped when the step
// runs against it (as append_edge does for an edge found stored the other way).
void SubgoalGraph::append_path_edge(const Query& q, std::size_t k, Polyline& out) const {
  if (q.walk.key == 1) {
    const Scratch& sc = scratch();
    const int bit = sc.label_steps[k] & 1, against = sc.label_steps[k] >> 1;
    const Point a = pos_[q.path[k]], b = pos_[q.path[k + 1]];  // cell centres: x + 0.5, y + 0.5
    append_octile_xy(out, int(a.x), int(a.y), int(b.x), int(b.y), against ? 1 - bit : bit);
  } else {
    append_edge(out, q.path[k], q.path[k + 1]);
  }
}

// Repeated points merged where `out` grew from `from` points on.
static void merge_repeated_from(Polyline& out, std::size_t from) {
  out.erase(std::unique(out.begin() + std::ptrdiff_t(from > 0 ? from - 1 : 0), out.end(),
                        [](Point a, Point b) { return a.x == b.x && a.y == b.y; }),
            out.end());
}

// The first piece: the start's side and the abstract path's first edge refined (the first moves);
// next_piece() refines the other edges and adds the goal's side, in one call (a call an edge would
// add the harness's clock reads to every edge of the query). A direct path (no abstract path) comes
// whole. q.walk.at: the next edge; q.walk.key: 1 when the path was read from the labels.
bool SubgoalGraph::first_piece(Query& q, Polyline& out) const {
  if (q.path.empty()) {
    out = polyline(q);
    return false;
  }
  const Scratch& sc = scratch();
  q.walk.key = q.walk.key == 1 && sc.label_steps.size() + 1 == q.path.size() ? 1 : 0;  // set by labels_search()
  out.reserve(2 * q.path.size() + 8);  // up to two points an edge (turn, end), both sides' few more: no regrowth
  out.push_back(q.start);
  Polyline head = side(q.start, q.path.front());
  out.insert(out.end(), head.begin() + 1, head.end());
  q.walk.at = 0;
  if (q.path.size() >= 2) {
    append_path_edge(q, 0, out);
    q.walk.at = 1;
  }
  merge_repeated_from(out, 0);
  // A start on the path's one subgoal: its first move is the goal's side's.
  bool more = true;
  while (more && out.size() < 2) more = next_piece(q, out);
  return more;
}

bool SubgoalGraph::next_piece(Query& q, Polyline& out) const {
  const std::size_t before = out.size();
  for (std::size_t k = std::size_t(q.walk.at); k + 1 < q.path.size(); ++k) append_path_edge(q, k, out);
  q.walk.at = std::int64_t(q.path.size());
  Polyline tail = side(q.goal, q.path.back());
  out.insert(out.end(), tail.rbegin() + 1, tail.rend());
  out.push_back(q.goal);
  merge_repeated_from(out, before);
  return false;
}

Polyline SubgoalGraph::polyline(const Query& q) const {
  Polyline out;
  if (q.path.empty()) {
    out.push_back(q.start);
    const DirectPlan d = plan_direct(q, true);
    if (!std::isfinite(d.cost)) throw std::logic_error("subgoal: direct path without a free octile path");
    if (!d.same_cell) {
      out.push_back(centre(d.s));
      append_octile(out, d.s, d.g, free_shape(d.s, d.g));
    }
    out.push_back(q.goal);
    merge_repeated_from(out, 0);
  } else {  // the pieces joined
    Query walk = q;
    for (bool more = first_piece(walk, out); more;) more = next_piece(walk, out);
  }
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
  s.memory_bytes = graph_.memory_bytes() + free_.capacity() + clear_.capacity() * sizeof(clear_[0]) +
                   vertex_.capacity() * 4 + subgoal_bits_.capacity() * 8 + component_.capacity() * 4 + cell_of_.capacity() * 4 +
                   pos_.capacity() * sizeof(Point) + local_.capacity() + shape_.capacity() + via_.capacity() * 4 +
                   rank_.capacity() * 4 + by_rank_.capacity() * sizeof(Vertex) + ch_up_end_.capacity() * 4 + reach_at_.capacity() * 4 +
                   reach_data_.capacity() * 2 + labels_.memory_bytes() + upd_.scan_off.capacity() * 4 + upd_.scan_to.capacity() * 4 +
                   (upd_.sg_ext.capacity() + upd_.cell_ext.capacity()) * sizeof(Extent) + landmarks_.memory_bytes() +
                   table_.memory_bytes();
  return s;
}

}  // namespace navbench
