// The one shared A* (Hart, Nilsson & Raphael 1968) over every representation, built on Boost.Graph's
// A* (astar_search_no_init's visitor over breadth_first_visit, with a 4-ary heap as open list).
// Per-query memory lives in a SearchWorkspace that is reused between queries
// and reset in O(touched) from a list of the records a query wrote: untouched entries read distance
// +inf and colour white, as astar_search_no_init requires (a plain vector_property_map would read 0
// and give wrong paths).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <boost/graph/astar_search.hpp>

#include "representations/distance_table.hpp"
#include "representations/landmarks.hpp"
#include "representations/representation.hpp"
#include "search/heuristic.hpp"
#include "search/observer.hpp"
#include "search/query_graph.hpp"
#include "search/workspace.hpp"

namespace navbench {

static_assert(int(boost::white_color) == SearchWorkspace::kWhite, "the workspace's fresh colour is Boost's white");

namespace detail {
// Property maps over the workspace records: untouched records read fresh (see begin()).
#define NAVBENCH_WS_MAP(NAME, FIELD, TYPE)                                                                \
  struct NAME {                                                                                          \
    using key_type = Vertex;                                                                             \
    using value_type = TYPE;                                                                             \
    using reference = TYPE;                                                                              \
    using category = boost::read_write_property_map_tag;                                                 \
    SearchWorkspace* ws;                                                                                 \
    friend TYPE get(const NAME& m, Vertex v) { return TYPE(m.ws->record(v).FIELD); }                     \
    friend void put(const NAME& m, Vertex v, TYPE x) { m.ws->touch(v).FIELD = x; }                       \
  };
NAVBENCH_WS_MAP(DistMap, dist, double)
NAVBENCH_WS_MAP(PredMap, pred, Vertex)
NAVBENCH_WS_MAP(CostMap, cost, double)  // f: astar_bfs_visitor writes it, then pushes or updates
#undef NAVBENCH_WS_MAP
struct ColorMap {
  using key_type = Vertex;
  using value_type = boost::default_color_type;
  using reference = boost::default_color_type;
  using category = boost::read_write_property_map_tag;
  SearchWorkspace* ws;
  friend boost::default_color_type get(const ColorMap& m, Vertex v) {
    return boost::default_color_type(m.ws->record(v).color);
  }
  friend void put(const ColorMap& m, Vertex v, boost::default_color_type c) { m.ws->touch(v).color = std::uint8_t(c); }
};

// The open list: the same 4-ary heap as Boost's d_ary_heap_indirect (same sift rules, strict
// less on f, so the same vertex order and the same paths), but each entry carries its f-value, so
// a sift compares keys in the heap array instead of loading every vertex's record (one cache miss
// per comparison). Positions live in the records (needed by update, the decrease-key). Offers
// what breadth_first_visit and astar_bfs_visitor use: push, top, pop, empty, update.
class OpenList {
 public:
  using Entry = SearchWorkspace::OpenEntry;
  using value_type = Vertex;
  using size_type = std::size_t;
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
  // Empties the list: the search stops after the vertex being expanded (see Visitor).
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

// Stops the search when the goal is taken off the open list by emptying the list: the goal has no
// out-edges, so breadth_first_visit finishes it and returns (no exception: a throw and catch per
// query costs microseconds, more than a whole subgoal-graph search's heap work). Reports to the
// query's observer (search/observer.hpp); with NoObserver the reports compile to nothing.
template <class QG, class Obs = NoObserver>
struct Visitor : boost::default_astar_visitor {
  Vertex goal;
  SearchStats* stats;
  OpenList* open;
  bool* found;
  [[no_unique_address]] Obs obs{};
  const SearchWorkspace* ws = nullptr;  // read by the observer's reports only
  void examine_vertex(Vertex u, const QG&) const {
    ++stats->expansions;
    if constexpr (Obs::enabled) report(&Obs::expand, u);
    if (u == goal) {
      *found = true;
      open->clear();
    }
  }
  void discover_vertex(Vertex v, const QG&) const {
    ++stats->generated;
    if constexpr (Obs::enabled) report(&Obs::generate, v);
  }
  // g lowered: a vertex reached before (its colour not white yet) is an update; a first reach is
  // reported by discover_vertex, which Boost calls right after.
  template <class E>
  void edge_relaxed(const E& e, const QG& g) const {
    if constexpr (Obs::enabled) {
      const Vertex v = Vertex(target(e, g));
      if (ws->record(v).color != SearchWorkspace::kWhite) report(&Obs::update, v);
    }
  }
  void finish_vertex(Vertex u, const QG&) const {
    if constexpr (Obs::enabled) report(&Obs::close, u);
  }
  void report(void (Obs::*event)(Vertex, Vertex, double, double) const, Vertex v) const {
    const SearchWorkspace::Record& r = ws->record(v);
    (obs.*event)(v, r.pred, r.dist, r.cost);
  }
};

// breadth_first_visit with every call inside inlined (Boost's relax, the overlay's edge iterator,
// the visitor and property maps, the heuristic): left to itself GCC keeps relax and the iterator's
// dereference as calls in the per-edge loop.
template <class QG, class Queue, class BfsVisitor, class Color>
[[gnu::flatten]] void run_breadth_first_visit(const QG& g, Vertex s, Queue& open, BfsVisitor& bfs, Color color) {
  boost::breadth_first_visit(g, s, open, bfs, color);
}
// An observed search (a traced query, never timed) leaves the inlining to the compiler: flattened,
// the observed searches were a quarter of registry.cpp's code and of its compile time.
template <class QG, class Queue, class BfsVisitor, class Color>
void run_breadth_first_visit_observed(const QG& g, Vertex s, Queue& open, BfsVisitor& bfs, Color color) {
  boost::breadth_first_visit(g, s, open, bfs, color);
}

// The metric inside the search loop: a template argument for euclidean (every representation's
// heuristic) and, where paths are octile moves (declared grid8_optimal: grid8, subgoal graphs), for
// octile; one runtime-switched instantiation for the rest (octile elsewhere, manhattan, chebyshev,
// zero): two or three A* instantiations per representation and heuristic kind instead of five
// (registry.cpp's compile time), and the switch is one predictable branch per heuristic call.
inline constexpr Metric kRuntimeMetric = Metric(255);
template <class R>
concept OctileMoves = requires { requires R::kCapabilities.grid8_optimal; };
template <Metric M>
inline double search_metric(Metric rt, Point a, Point b) {
  if constexpr (M != kRuntimeMetric) return metric_distance<M>(a, b);
  else return with_metric(rt, [&](auto m) { return metric_distance<decltype(m)::value>(a, b); });
}
template <class R, class F>
decltype(auto) with_search_metric(Metric m, F&& f) {
  if (m == Metric::euclidean) return f(std::integral_constant<Metric, Metric::euclidean>{});
  if constexpr (OctileMoves<R>) {
    if (m == Metric::octile) return f(std::integral_constant<Metric, Metric::octile>{});
  }
  return f(std::integral_constant<Metric, kRuntimeMetric>{});
}

template <class R, Metric M>
struct PositionHeuristic {
  const R* rep;
  Vertex n;
  Point start, goal;
  double weight;
  Metric rt = Metric::zero;  // the metric when M is kRuntimeMetric
  double operator()(Vertex v) const {
    const Point p = v < n ? Point(rep->position(v)) : (v == n ? start : goal);
    if constexpr (M == Metric::zero) return 0.0;
    else return weight * search_metric<M>(rt, p, goal);
  }
};
// ALT (Goldberg & Harrelson 2005, see representations/landmarks.hpp): the larger of the metric
// and the landmark bounds d(L,T) - d(L,v); every term is a lower bound, so the max is one too.
template <class R, Metric M>
struct AltHeuristic {
  PositionHeuristic<R, M> base;
  const Landmarks* lm;
  const double* goal_dist;  // d(L_i, T), +inf when T is unreachable from L_i
  // Symmetric tables: max over the goal's links (g, c) of d(L_i, g) - c, the bound from behind the
  // goal (landmarks.hpp); +inf for other tables, so that row - goal_back never wins.
  const double* goal_back;
  const std::uint32_t* active = nullptr;  // active landmarks (Landmarks::active()), na of them; else all
  std::size_t na = 0;
  double operator()(Vertex v) const {
    const Point p = v < base.n ? Point(base.rep->position(v)) : (v == base.n ? base.start : base.goal);
    double e = search_metric<M>(base.rt, p, base.goal);
    if (v < base.n) {
      const double* row = lm->row(v);
      // Landmark i's bound; inf - inf (both unreachable) is NaN, which the comparison ignores.
      auto bound = [&](std::size_t i) {
        const double b = std::max(goal_dist[i] - row[i], row[i] - goal_back[i]);
        if (b > e && row[i] < Landmarks::kInf) e = b;
      };
      if (active) {
        for (std::size_t j = 0; j < na; ++j) bound(active[j]);
      } else {
        for (std::size_t i = 0, k = lm->k(); i < k; ++i) bound(i);
      }
    }
    return base.weight * e;
  }
};
// All-pairs table (representations/distance_table.hpp): the larger of the metric and
// min over the goal's places (p, c) of D(place(v), p) + c.
template <class R, Metric M>
struct TableHeuristic {
  PositionHeuristic<R, M> base;
  const DistanceTable* table;
  const std::pair<std::uint32_t, double>* goal;
  std::size_t goals;
  double operator()(Vertex v) const {
    const Point p = v < base.n ? Point(base.rep->position(v)) : (v == base.n ? base.start : base.goal);
    const double e = search_metric<M>(base.rt, p, base.goal);
    if (v >= base.n) return base.weight * e;
    const float* row = table->row(table->place(v));
    double best = SearchWorkspace::kInf;
    for (std::size_t i = 0; i < goals; ++i) best = std::min(best, double(row[goal[i].first]) + goal[i].second);
    return base.weight * std::max(e, best);
  }
};
}  // namespace detail

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

namespace detail {

// The landmark bounds of the goal for the ALT heuristic (n graph vertices): ws.landmark_goal and
// ws.landmark_back per landmark, and the active landmarks (ws.landmark_active) when there are few.
inline void fold_landmarks(const Landmarks& lm, const Query& q, SearchWorkspace& ws, std::size_t n) {
  const std::size_t k = lm.k();
  const std::size_t m = k <= 64 ? lm.active() : 0;
  const bool sym = lm.symmetric();
  // gb's start: -inf for the max a symmetric table folds; +inf otherwise (no bound from behind).
  const double back0 = sym ? -SearchWorkspace::kInf : SearchWorkspace::kInf;
  ws.landmark_goal.assign(k, SearchWorkspace::kInf);
  ws.landmark_back.assign(k, back0);
  double* gd = ws.landmark_goal.data();
  double* gb = ws.landmark_back.data();
  // gd[i] = min over links of d(L_i, g) + c, gb[i] = max of d(L_i, g) - c (symmetric tables),
  // for the landmarks `idx` (nullptr: 0..cnt-1) over the first nl goal links. A link unreachable
  // from L_i (+inf) leaves gb[i] = +inf: no bound from behind via L_i.
  auto fold = [&](std::size_t nl, const std::uint32_t* idx, std::size_t cnt) {
    for (std::size_t j = 0; j < nl; ++j) {
      const Link& l = q.g.links[j];
      const double* row = lm.row(l.vertex);
      for (std::size_t a = 0; a < cnt; ++a) {
        const std::size_t i = idx ? idx[a] : a;
        gd[i] = row[i] + l.cost < gd[i] ? row[i] + l.cost : gd[i];
        if (sym) gb[i] = row[i] - l.cost > gb[i] ? row[i] - l.cost : gb[i];
      }
    }
  };
  ws.landmark_active.clear();
  if (m == 0) {
    fold(q.g.links.size(), nullptr, k);
  } else {
    // Active landmarks: the m of largest bound at the start (least over its links of link cost +
    // the landmark's bound at the link's vertex), judged on the goal's first 16 links (a goal may
    // hold hundreds: subgoal graphs' upward closure, listed after the cell's own links); then
    // the exact values of those m over every link.
    fold(std::min<std::size_t>(q.g.links.size(), 16), nullptr, k);
    std::pair<double, std::uint32_t> score[64];
    for (std::size_t i = 0; i < k; ++i) {
      double best = SearchWorkspace::kInf;
      for (const Link& l : ws.start_links) {
        if (l.vertex >= n) continue;
        const double r = lm.row(l.vertex)[i];
        double b = r < Landmarks::kInf ? gd[i] - r : 0.0;
        if (sym && r < Landmarks::kInf) b = std::max(b, r - gb[i]);
        best = std::min(best, std::max(b, 0.0) + l.cost);
      }
      score[i] = {best < SearchWorkspace::kInf ? -best : 0.0, std::uint32_t(i)};  // ties: lowest index first
    }
    std::partial_sort(score, score + m, score + k);
    for (std::size_t j = 0; j < m; ++j) {
      const std::uint32_t i = score[j].second;
      ws.landmark_active.push_back(i);
      gd[i] = SearchWorkspace::kInf, gb[i] = back0;
    }
    fold(q.g.links.size(), ws.landmark_active.data(), m);
  }
}

// The goal's places for the table heuristic, each once with its cheapest link (ws.goal_places),
// kept to those an optimal path can end at (n graph vertices).
inline void goal_places(const DistanceTable& table, const Query& q, SearchWorkspace& ws, std::size_t n) {
  ws.goal_places.clear();
  for (const Link& l : q.g.links) {
    const std::uint32_t p = table.place(l.vertex);
    auto it = std::find_if(ws.goal_places.begin(), ws.goal_places.end(), [p](const auto& x) { return x.first == p; });
    if (it == ws.goal_places.end()) ws.goal_places.push_back({p, l.cost});
    else it->second = std::min(it->second, l.cost);
  }
  // Keep only the goal places an optimal path can end at. Through goal place p the best cost
  // is V(p) = min over start links (s, c_s) of c_s + D(place(s), p) + c_p, and min_p V(p) is
  // the optimum up to the table's float rounding (a lower bound, D rounds towards zero; exact
  // when the graph holds every shortest path, as the visibility graphs do). With only the places
  // whose V is within 1e-6 of the least one, h is still <= the true cost-to-go on the vertices
  // of an optimal path (A* stays exact; off that path h may overestimate, which only delays
  // those vertices), costs one table read per generated vertex instead of one per goal place,
  // and is exact along the path, so A* expands little more than the path itself.
  // Kept whole when the start sees the goal (the direct link) or the table reaches no goal place.
  if (!q.direct && ws.goal_places.size() > 1) {
    double best = SearchWorkspace::kInf;
    ws.goal_value.assign(ws.goal_places.size(), SearchWorkspace::kInf);
    for (const Link& s : ws.start_links) {
      if (s.vertex >= n) continue;
      const float* row = table.row(table.place(s.vertex));
      for (std::size_t i = 0; i < ws.goal_places.size(); ++i) {
        const double v = s.cost + double(row[ws.goal_places[i].first]) + ws.goal_places[i].second;
        if (v < ws.goal_value[i]) ws.goal_value[i] = v;
      }
    }
    for (double v : ws.goal_value) best = std::min(best, v);
    if (best < SearchWorkspace::kInf) {
      const double keep = DistanceTable::keep_bound(best);
      std::size_t k = 0;
      for (std::size_t i = 0; i < ws.goal_places.size(); ++i)
        if (ws.goal_value[i] <= keep) ws.goal_places[k++] = ws.goal_places[i];
      ws.goal_places.resize(k);
    }
  }
}

}  // namespace detail

// Runs the shared A* from q.start to q.goal over r's graph with q's attachments.
// On success fills q.path (base vertices, start side first) and returns the path cost;
// returns +inf when the goal is unreachable.
// `obs`: the query's observer (search/observer.hpp), NoObserver when none is attached.
template <Representation R, class Obs = NoObserver>
double astar(const R& r, Query& q, const Heuristic& h, SearchWorkspace& ws, SearchStats& stats, Obs obs = {}) {
  // The exact answer from the representation's own tables, when the A* would be exact too.
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
  using QG = QueryGraph<typename R::Graph, decltype(r.weights())>;
  const std::size_t n = num_vertices(r.graph());
  const Vertex S = Vertex(n), T = Vertex(n + 1);
  QG g = query_overlay(r, q, ws);

  bool found = false;
  detail::OpenList open(ws);
  detail::Visitor<QG, Obs> vis;
  vis.obs = obs;
  vis.ws = &ws;
  vis.goal = T;
  vis.stats = &stats;
  vis.open = &open;
  vis.found = &found;
  detail::DistMap dist{&ws};
  detail::CostMap cost{&ws};
  detail::PredMap pred{&ws};
  detail::ColorMap color{&ws};
  put(dist, S, 0.0);
  put(pred, S, S);
  q.path.clear();
  // The landmark table, when the representation offers one and a metric heuristic is asked for.
  const Landmarks* lm = nullptr;
  if constexpr (HasLandmarks<R>) lm = h.metric == Metric::zero ? nullptr : r.landmarks();
  if (lm && (lm->k() == 0 || lm->size() != n)) lm = nullptr;
  if (lm) detail::fold_landmarks(*lm, q, ws, n);
  const DistanceTable* table = nullptr;
  if constexpr (HasDistanceTable<R>) table = h.metric == Metric::zero ? nullptr : r.distance_table();
  if (table && (table->empty() || table->vertices() != n)) table = nullptr;
  if (table) detail::goal_places(*table, q, ws, n);  // the goal's places, each once with its cheapest link
  // This is the body of boost::astar_search_no_init (Boost 1.74), Boost's A* visitor over
  // breadth_first_visit, with one change: the open list is detail::OpenList (Boost's 4-ary heap
  // with the keys inline and its storage and positions in the workspace) instead of a
  // d_ary_heap_indirect whose vector and position map astar_search_no_init allocates per call.
  auto run = [&](const auto& heur) {
    put(cost, S, heur(S));
    obs.source(S, n, get(cost, S));
    boost::detail::astar_bfs_visitor<std::decay_t<decltype(heur)>, detail::Visitor<QG, Obs>, detail::OpenList, detail::PredMap,
                                     detail::CostMap, detail::DistMap, OverlayWeightMap, detail::ColorMap,
                                     std::plus<double>, std::less<double>>
        bfs(heur, vis, open, pred, cost, dist, OverlayWeightMap{}, color, std::plus<double>(), std::less<double>(), 0.0);
    if constexpr (Obs::enabled) detail::run_breadth_first_visit_observed(g, S, open, bfs, color);
    else detail::run_breadth_first_visit(g, S, open, bfs, color);
  };
  // An observed search takes the metric switched at run time (the same values, one instantiation
  // instead of three: the traced queries are few and not timed).
  auto with_metric_of = [&](auto f) {
    if constexpr (Obs::enabled) f(std::integral_constant<Metric, detail::kRuntimeMetric>{});
    else detail::with_search_metric<R>(h.metric, f);
  };
  with_metric_of([&](auto m) {
    detail::PositionHeuristic<R, decltype(m)::value> heur;
    heur.rt = h.metric;
    heur.rep = &r;
    heur.n = Vertex(n);
    heur.start = q.start;
    heur.goal = q.goal;
    heur.weight = h.weight;
    if constexpr (HasDistanceTable<R>) {
      if (table)
        return run(detail::TableHeuristic<R, decltype(m)::value>{heur, table, ws.goal_places.data(), ws.goal_places.size()});
    }
    if constexpr (HasLandmarks<R>) {
      if (lm) return run(detail::AltHeuristic<R, decltype(m)::value>{heur, lm, ws.landmark_goal.data(), ws.landmark_back.data(),
                                                              ws.landmark_active.empty() ? nullptr : ws.landmark_active.data(),
                                                              ws.landmark_active.size()});
    }
    run(heur);
  });
  obs.end(found ? get(dist, T) : SearchWorkspace::kInf);
  if (!found) return SearchWorkspace::kInf;
  for (Vertex v = get(pred, T); v != S; v = get(pred, v)) q.path.push_back(v);
  std::reverse(q.path.begin(), q.path.end());
  return get(dist, T);
}

}  // namespace navbench
