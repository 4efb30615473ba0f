// The one shared A* (Hart, Nilsson & Raphael 1968) over every representation: navbench's own loop
// over Boost.Graph's public IncidenceGraph concept (out_edges, target) and a readable edge-weight
// property map (get), with a heuristic the caller builds (search/heuristics.hpp) and an observer
// (search/observer.hpp). Its order of work is Boost's A* (astar_search_no_init's visitor over
// breadth_first_visit, Boost 1.74) step for step — the same relaxations, heap operations and
// tie-breaking — so every path and length is the one Boost's search gave, on a 4-ary heap whose
// storage stays in the workspace. Per-query memory lives in a SearchWorkspace that is reused between
// queries and reset in O(touched) from a list of the records a query wrote.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/representation.hpp"
#include "search/heuristic.hpp"
#include "search/heuristics.hpp"
#include "search/observer.hpp"
#include "search/query_graph.hpp"
#include "search/workspace.hpp"

namespace navbench {

namespace detail {

// The open list: a 4-ary heap as Boost's d_ary_heap_indirect (the same sift rules, strict less on
// f, so the same vertex order and the same paths), whose entries carry their f-value, so a sift
// compares keys in the heap array instead of loading every vertex's record (one cache miss per
// comparison). Positions live in the records (needed by update, the decrease-key).
class OpenList {
 public:
  using Entry = SearchWorkspace::OpenEntry;
  static constexpr std::size_t kArity = 4;

  explicit OpenList(SearchWorkspace& ws) : ws_(&ws), data_(&ws.open_storage) { data_->clear(); }

  bool empty() const { return data_->empty(); }
  std::size_t size() const { return data_->size(); }
  Vertex top() const { return data_->front().v; }
  void push(Vertex v) {
    data_->push_back({ws_->touched_record(v).cost, v});
    up(data_->size() - 1);
  }
  void pop() {
    std::vector<Entry>& d = *data_;
    ws_->touched_record(d.front().v).heap = ~std::uint32_t(0);
    const Entry last = d.back();
    d.pop_back();
    if (!d.empty()) down(last);
  }
  // Decrease-key: v's f in its record has just been lowered.
  void update(Vertex v) {
    const auto& r = ws_->touched_record(v);
    (*data_)[r.heap].f = r.cost;
    up(r.heap);
  }
  // Empties the list: the search stops after the vertex being expanded.
  void clear() { data_->clear(); }

 private:
  // Moves entry i toward the root while its f is strictly below its parent's.
  void up(std::size_t i) {
    Entry* d = data_->data();
    const Entry e = d[i];
    while (i > 0) {
      const std::size_t p = (i - 1) / kArity;
      if (!(e.f < d[p].f)) break;
      d[i] = d[p];
      ws_->touched_record(d[i].v).heap = std::uint32_t(i);
      i = p;
    }
    d[i] = e;
    ws_->touched_record(e.v).heap = std::uint32_t(i);
  }
  // Places e (the former last entry) at the root and sifts it down: each step takes the first
  // child of least f and swaps when that f is strictly below e's (Boost's rule).
  void down(const Entry e) {
    Entry* d = data_->data();
    const std::size_t n = data_->size();
    std::size_t i = 0;
    for (;;) {
      const std::size_t c0 = i * kArity + 1;
      if (c0 >= n) break;
      std::size_t best = c0;
      const std::size_t ce = std::min(c0 + kArity, n);
      for (std::size_t c = c0 + 1; c < ce; ++c)
        if (d[c].f < d[best].f) best = c;
      if (!(d[best].f < e.f)) break;
      d[i] = d[best];
      ws_->touched_record(d[i].v).heap = std::uint32_t(i);
      i = best;
    }
    d[i] = e;
    ws_->touched_record(e.v).heap = std::uint32_t(i);
  }

  SearchWorkspace* ws_;
  std::vector<Entry>* data_;
};

// The loop of astar_search (below). Boost's order, per vertex u taken off the open list: count and
// report the expansion (the goal: found, the list emptied, so the loop ends after u); then each
// out-edge (u, v) by the colour of v — white: relax (g, parent, f = g + h), then v becomes gray, is
// generated and pushed whether or not relaxed; gray: relax, and on a lower g the decrease-key;
// black: relax, and on a lower g v is pushed again and turns gray (reopened: an inconsistent
// heuristic) — ; then u turns black and is closed. A relaxation lowers g only when g(u) + w(u, v)
// is strictly below g(v): the first of equal paths keeps its parent.
template <class Graph, class Weights, class H, class Obs>
bool astar_loop(const Graph& g, const Weights& weights, Vertex goal, const H& h, SearchWorkspace& ws, SearchStats& stats,
                OpenList& open, const Obs& obs) {
  using Record = SearchWorkspace::Record;
  auto report = [&](void (Obs::*event)(Vertex, Vertex, double, double) const, Vertex v) {
    const Record& r = ws.record(v);
    (obs.*event)(v, r.pred, r.dist, r.cost);
  };
  bool found = false;
  while (!open.empty()) {
    const Vertex u = open.top();
    open.pop();
    ++stats.expansions;
    if constexpr (Obs::enabled) report(&Obs::expand, u);
    if (u == goal) {
      found = true;
      open.clear();
    }
    for (auto [it, end] = out_edges(u, g); it != end; ++it) {
      const Vertex v = Vertex(target(*it, g));
      const double w = get(weights, *it);
      const double du = ws.record(u).dist;
      const std::uint8_t colour = ws.record(v).color;
      const double nd = du + w;
      if (colour == SearchWorkspace::kWhite) {
        if (nd < ws.record(v).dist) {
          Record& rv = ws.touch(v);
          rv.dist = nd;
          rv.pred = u;
          rv.cost = nd + h(v);
        }
        ws.touch(v).color = SearchWorkspace::kGray;
        ++stats.generated;
        if constexpr (Obs::enabled) report(&Obs::generate, v);
        open.push(v);
      } else if (nd < ws.record(v).dist) {
        Record& rv = ws.touched_record(v);
        rv.dist = nd;
        rv.pred = u;
        if (colour == SearchWorkspace::kGray) {
          rv.cost = nd + h(v);
          open.update(v);
          if constexpr (Obs::enabled) report(&Obs::update, v);
        } else {  // black: reopened
          if constexpr (Obs::enabled) report(&Obs::update, v);
          rv.cost = nd + h(v);
          open.push(v);
          rv.color = SearchWorkspace::kGray;
        }
      }
    }
    ws.touched_record(u).color = SearchWorkspace::kBlack;
    if constexpr (Obs::enabled) report(&Obs::close, u);
  }
  return found;
}

// The loop with every call inside inlined (the overlay's edge iterator, the heuristic, the open
// list): left to itself GCC keeps the iterator's dereference as a call in the per-edge loop.
template <class Graph, class Weights, class H>
[[gnu::flatten]] bool astar_loop_timed(const Graph& g, const Weights& weights, Vertex goal, const H& h, SearchWorkspace& ws,
                                       SearchStats& stats, OpenList& open) {
  return astar_loop(g, weights, goal, h, ws, stats, open, NoObserver{});
}

}  // namespace detail

// The shared A* from `start` to `goal` on g (an IncidenceGraph over navbench::Vertex, its edge
// weights in `weights`) with the heuristic h (double(Vertex), search/heuristics.hpp), in ws's
// records, which the caller has begun for this query (SearchWorkspace::begin). `n` is what the
// observer's source event says the built graph's size is. Returns the goal's g, +inf when it is not
// reached; the path is the chain of ws's predecessors from the goal. An observed search (a traced
// query, never timed) leaves the inlining to the compiler: flattened, the observed searches were a
// quarter of the registrations' code and of their compile time.
template <class Graph, class Weights, class H, class Obs = NoObserver>
double astar_search(const Graph& g, const Weights& weights, Vertex start, Vertex goal, const H& h, SearchWorkspace& ws,
                    SearchStats& stats, std::size_t n, Obs obs = {}) {
  SearchWorkspace::Record& rs = ws.touch(start);
  rs.dist = 0.0;
  rs.pred = start;
  rs.cost = h(start);
  obs.source(start, n, rs.cost);
  rs.color = SearchWorkspace::kGray;
  ++stats.generated;
  obs.generate(start, start, rs.dist, rs.cost);
  detail::OpenList open(ws);
  open.push(start);
  bool found;
  if constexpr (Obs::enabled) found = detail::astar_loop(g, weights, goal, h, ws, stats, open, obs);
  else found = detail::astar_loop_timed(g, weights, goal, h, ws, stats, open);
  const double cost = found ? ws.record(goal).dist : SearchWorkspace::kInf;
  obs.end(cost);
  return cost;
}

// Starts a query on r's graph in ws: the records reset, the start's links (and the direct link to
// the goal) and the goal's links set, and the overlay graph over them (start n, goal n + 1). The
// first step of every search on the overlay (astar, search/theta.hpp).
template <Representation R>
QueryGraph<typename R::Graph, decltype(std::declval<const R&>().weights())> query_overlay(const R& r, const Query& q,
                                                                                         SearchWorkspace& ws) {
  const std::size_t n = num_vertices(r.graph());
  ws.begin(n + 2);
  ws.goal_links.reset(n + 2);
  ws.start_links = q.s.links;
  const Vertex T = Vertex(n + 1);
  if (q.direct) {
    double c = distance(q.start, q.goal);
    if constexpr (HasDirectCost<R>) c = r.direct_cost(q);
    ws.start_links.push_back({T, c});
  }
  for (const Link& l : q.g.links) ws.goal_links.mark(l.vertex, T, l.cost);
  return {r.graph(), r.weights(), ws.start_links, ws.goal_links};
}

// A representation that answers a query without a search when it can (visgraph's and subgoal's
// table=1: an all-pairs table, DistanceTable::answer); nullopt sends the query to the A*.
template <class R>
concept HasTableSearch = requires(const R& r, Query& q, std::size_t& steps) {
  { r.table_search(q, steps) } -> std::same_as<std::optional<double>>;
};

// A representation told the expansions of each of the shared A*'s searches on its graph (visgraph:
// while its skip graph is owed after an update, its queries' work decides when to derive it,
// docs/changing-maps.md). Called after the search, in the thread that answers.
template <class R>
concept HasSearchReport = requires(const R& r, std::size_t expansions) { r.searched(expansions); };

// A representation whose paths run between cell centres by grid8 moves (subgoal graphs), a query
// point joining its cell's centre by a straight link: the octile and Chebyshev distances bound its
// costs from below when the goal's offset from its cell centre is 0 or 1/2 on each axis (a cell
// centre, corner or edge midpoint: octile = Euclidean there). Elsewhere octile can exceed the
// goal's straight link, by up to ~0.045 (offset (0.5, 0.23)).
template <class R>
concept HasGridPathCosts = R::grid_path_costs;

// Whether 2x and 2y are integers: p lies on the lattice of cell centres, corners and edge midpoints.
inline bool on_half_lattice(Point p) {
  return std::floor(2 * p.x) == 2 * p.x && std::floor(2 * p.y) == 2 * p.y;
}

// Whether the A* with h returns the optimum on r for q (an admissible heuristic), so that an exact
// table answer is the answer it would give; other heuristics keep their own search behaviour.
template <class R>
bool admissible_for(const Heuristic& h, const Query& q) {
  if (h.weight > 1.0) return false;
  if (h.metric == Metric::euclidean || h.metric == Metric::zero) return true;
  return HasGridPathCosts<R> && (h.metric == Metric::octile || h.metric == Metric::chebyshev) &&
         on_half_lattice(q.goal);
}

// The shared A* on a representation: from q.start to q.goal over r's graph with q's attachments,
// the table's answer first where r has one and h is admissible, else astar_search on the query's
// overlay with the heuristic with_heuristic builds for h. On success fills q.path (base vertices,
// start side first) and returns the path cost; returns +inf when the goal is unreachable.
// `obs`: the query's observer (search/observer.hpp), NoObserver when none is attached.
template <Representation R, class Obs = NoObserver>
double astar(const R& r, Query& q, const Heuristic& h, SearchWorkspace& ws, SearchStats& stats, Obs obs = {}) {
  if constexpr (HasTableSearch<R>) {
    if (admissible_for<R>(h, q)) {
      std::size_t steps = 0;
      if (const std::optional<double> c = r.table_search(q, steps)) {
        stats.expansions += steps;
        obs.table_answer(*c, steps);
        return *c;
      }
    }
  }
  const std::size_t n = num_vertices(r.graph());
  const Vertex S = Vertex(n), T = Vertex(n + 1);
  const auto g = query_overlay(r, q, ws);
  q.path.clear();
  const std::size_t expanded = stats.expansions;
  const double cost = with_heuristic<R, Obs::enabled>(
      r, q, h, ws, [&](const auto& heur) { return astar_search(g, OverlayWeightMap{}, S, T, heur, ws, stats, n, obs); });
  if constexpr (HasSearchReport<R>) r.searched(stats.expansions - expanded);
  if (!std::isfinite(cost)) return SearchWorkspace::kInf;
  for (Vertex v = ws.record(T).pred; v != S; v = ws.record(v).pred) q.path.push_back(v);
  std::reverse(q.path.begin(), q.path.end());
  return cost;
}

}  // namespace navbench
