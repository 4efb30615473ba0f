// The one shared A* (Hart, Nilsson & Raphael 1968) over every representation, built on Boost.Graph's
// A* (astar_search_no_init's visitor, breadth_first_visit and d_ary_heap_indirect). Per-query memory lives in a SearchWorkspace that is reused between queries
// and reset in O(touched) by a stamp: untouched entries read distance +inf and colour white, as
// astar_search_no_init requires (a plain vector_property_map would read 0 and give wrong paths).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include <boost/graph/astar_search.hpp>

#include "representations/distance_table.hpp"
#include "representations/landmarks.hpp"
#include "representations/representation.hpp"
#include "search/heuristic.hpp"
#include "search/query_graph.hpp"

namespace navbench {

// Counters of one search (Warthog-style metrics).
struct SearchStats {
  std::size_t expansions = 0;  // vertices taken off the open list
  std::size_t generated = 0;   // vertices first reached
};

class SearchWorkspace {
 public:
  struct Record {
    double dist, cost;    // g and f
    Vertex pred;
    std::uint32_t stamp;  // == current: this record belongs to the running query
    std::uint32_t heap;   // position in the open list's heap
    boost::default_color_type color;
  };

  // Allocates for graphs of up to n vertices (virtual ones included) ahead of the first query.
  void reserve(std::size_t n) {
    begin(n);
    goal_links.reset(n);
  }
  // Starts a query on a graph of n vertices (virtual ones included).
  void begin(std::size_t n) {
    if (records_.size() < n) records_.resize(n, Record{0, 0, 0, 0, 0, boost::white_color});
    if (++current_ == 0) {  // stamp wrapped: forget everything once every 2^32 queries
      for (auto& r : records_) r.stamp = 0;
      current_ = 1;
    }
    touched_ = 0;
  }
  Record& touch(Vertex v) {
    Record& r = records_[v];
    if (r.stamp != current_) {
      r = {kInf, kInf, v, current_, ~std::uint32_t(0), boost::white_color};
      ++touched_;
    }
    return r;
  }
  const Record* peek(Vertex v) const { return records_[v].stamp == current_ ? &records_[v] : nullptr; }
  // For vertices known to be touched in this query (those on the heap).
  const Record& touched_record(Vertex v) const { return records_[v]; }
  std::size_t touched() const { return touched_; }
  Record& touched_record_mut(Vertex v) { return records_[v]; }
  std::size_t memory_bytes() const {
    return records_.capacity() * sizeof(Record) + goal_links.stamp.capacity() * 4 +
           goal_links.link.capacity() * sizeof(Link);
  }

  GoalLinks goal_links;
  std::vector<Link> start_links;
  std::vector<double> landmark_goal;  // d(L_i, T) of the running query (ALT)
  std::vector<std::pair<std::uint32_t, double>> goal_places;  // (place, link cost) of the goal (distance table)
  static constexpr double kInf = std::numeric_limits<double>::infinity();

 private:
  std::vector<Record> records_;
  std::uint32_t current_ = 0;
  std::uint32_t touched_ = 0;
};

namespace detail {
// Property maps over the workspace records: reading an untouched vertex gives the fresh value.
#define NAVBENCH_WS_MAP(NAME, FIELD, TYPE, FRESH)                                                        \
  struct NAME {                                                                                          \
    using key_type = Vertex;                                                                             \
    using value_type = TYPE;                                                                             \
    using reference = TYPE;                                                                              \
    using category = boost::read_write_property_map_tag;                                                 \
    SearchWorkspace* ws;                                                                                 \
    friend TYPE get(const NAME& m, Vertex v) {                                                           \
      const auto* r = m.ws->peek(v);                                                                     \
      return r ? r->FIELD : (FRESH);                                                                     \
    }                                                                                                    \
    friend void put(const NAME& m, Vertex v, TYPE x) { m.ws->touch(v).FIELD = x; }                       \
  };
NAVBENCH_WS_MAP(DistMap, dist, double, SearchWorkspace::kInf)
NAVBENCH_WS_MAP(PredMap, pred, Vertex, v)
NAVBENCH_WS_MAP(ColorMap, color, boost::default_color_type, boost::white_color)
#undef NAVBENCH_WS_MAP

// f-values. Only the heap reads them, and only for vertices it holds, which are always touched
// (their f was put before the push), so reads skip the stamp test: this is the hottest map.
struct CostMap {
  using key_type = Vertex;
  using value_type = double;
  using reference = double;
  using category = boost::read_write_property_map_tag;
  SearchWorkspace* ws;
  friend double get(const CostMap& m, Vertex v) { return m.ws->touched_record(v).cost; }
  friend void put(const CostMap& m, Vertex v, double x) { m.ws->touch(v).cost = x; }
};

// The heap's position map, kept in the vertex's own record (same cache line as its f-value). The
// heap reads and writes it only for vertices it holds, which are touched.
struct HeapIndexMap {
  using key_type = Vertex;
  using value_type = std::size_t;
  using reference = std::size_t;
  using category = boost::read_write_property_map_tag;
  SearchWorkspace* ws;
  friend std::size_t get(const HeapIndexMap& m, Vertex v) { return m.ws->touched_record(v).heap; }
  friend void put(const HeapIndexMap& m, Vertex v, std::size_t i) { m.ws->touched_record_mut(v).heap = std::uint32_t(i); }
};

struct FoundGoal {};

template <class QG>
struct Visitor : boost::default_astar_visitor {
  Vertex goal;
  SearchStats* stats;
  void examine_vertex(Vertex u, const QG&) const {
    ++stats->expansions;
    if (u == goal) throw FoundGoal{};  // stop at the goal (Boost's documented idiom)
  }
  void discover_vertex(Vertex, const QG&) const { ++stats->generated; }
};

template <class R, Metric M>
struct PositionHeuristic {
  const R* rep;
  Vertex n;
  Point start, goal;
  double weight;
  double operator()(Vertex v) const {
    const Point p = v < n ? Point(rep->position(v)) : (v == n ? start : goal);
    if constexpr (M == Metric::zero) return 0.0;
    else return weight * metric_distance<M>(p, goal);
  }
};
// ALT (Goldberg & Harrelson 2005, see representations/landmarks.hpp): the larger of the metric
// and the landmark bounds d(L,T) - d(L,v); every term is a lower bound, so the max is one too.
template <class R, Metric M>
struct AltHeuristic {
  PositionHeuristic<R, M> base;
  const Landmarks* lm;
  const double* goal_dist;  // d(L_i, T), +inf when T is unreachable from L_i
  double operator()(Vertex v) const {
    const Point p = v < base.n ? Point(base.rep->position(v)) : (v == base.n ? base.start : base.goal);
    double e = metric_distance<M>(p, base.goal);
    if (v < base.n) {
      const double* row = lm->row(v);
      for (std::size_t i = 0, k = lm->k(); i < k; ++i) {
        const double b = goal_dist[i] - row[i];  // inf - inf (both unreachable) is NaN: max ignores it
        if (b > e && row[i] < Landmarks::kInf) e = b;
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
    const double e = metric_distance<M>(p, base.goal);
    if (v >= base.n) return base.weight * e;
    const float* row = table->row(table->place(v));
    double best = SearchWorkspace::kInf;
    for (std::size_t i = 0; i < goals; ++i) best = std::min(best, double(row[goal[i].first]) + goal[i].second);
    return base.weight * std::max(e, best);
  }
};
}  // namespace detail

// Runs the shared A* from q.start to q.goal over r's graph with q's attachments.
// On success fills q.path (base vertices, start side first) and returns the path cost;
// returns +inf when the goal is unreachable.
template <Representation R>
double astar(const R& r, Query& q, const Heuristic& h, SearchWorkspace& ws, SearchStats& stats) {
  using QG = QueryGraph<typename R::Graph, decltype(r.weights())>;
  const std::size_t n = num_vertices(r.graph());
  ws.begin(n + 2);
  ws.goal_links.reset(n + 2);
  ws.start_links = q.s.links;
  const Vertex S = Vertex(n), T = Vertex(n + 1);
  if (q.direct) {
    double c = distance(q.start, q.goal);
    if constexpr (HasDirectCost<R>) c = r.direct_cost(q);
    ws.start_links.push_back({T, c});
  }
  for (const Link& l : q.g.links) ws.goal_links.mark(l.vertex, T, l.cost);
  QG g(r.graph(), r.weights(), ws.start_links, ws.goal_links);

  detail::Visitor<QG> vis;
  vis.goal = T;
  vis.stats = &stats;
  detail::DistMap dist{&ws};
  detail::CostMap cost{&ws};
  detail::PredMap pred{&ws};
  detail::ColorMap color{&ws};
  detail::HeapIndexMap heap_index{&ws};
  put(dist, S, 0.0);
  put(pred, S, S);
  q.path.clear();
  bool found = false;
  // The landmark table, when the representation offers one and a metric heuristic is asked for.
  const Landmarks* lm = nullptr;
  if constexpr (HasLandmarks<R>) lm = h.metric == Metric::zero ? nullptr : r.landmarks();
  if (lm && (lm->k() == 0 || lm->size() != n)) lm = nullptr;
  if (lm) {
    ws.landmark_goal.assign(lm->k(), SearchWorkspace::kInf);
    for (const Link& l : q.g.links) {
      const double* row = lm->row(l.vertex);
      for (std::size_t i = 0; i < lm->k(); ++i) ws.landmark_goal[i] = std::min(ws.landmark_goal[i], row[i] + l.cost);
    }
  }
  const DistanceTable* table = nullptr;
  if constexpr (HasDistanceTable<R>) table = h.metric == Metric::zero ? nullptr : r.distance_table();
  if (table && (table->empty() || table->vertices() != n)) table = nullptr;
  if (table) {  // the goal's places, each once with its cheapest link
    ws.goal_places.clear();
    for (const Link& l : q.g.links) {
      const std::uint32_t p = table->place(l.vertex);
      auto it = std::find_if(ws.goal_places.begin(), ws.goal_places.end(), [p](const auto& x) { return x.first == p; });
      if (it == ws.goal_places.end()) ws.goal_places.push_back({p, l.cost});
      else it->second = std::min(it->second, l.cost);
    }
  }
  // This is the body of boost::astar_search_no_init (Boost 1.74), Boost's A* visitor over
  // breadth_first_visit with a 4-ary indirect heap, with one change: the heap's position map is
  // the workspace record instead of a vector_property_map that astar_search_no_init allocates
  // per call and grows to the largest vertex index (an O(V) cost for every query).
  auto run = [&](const auto& heur) {
    put(cost, S, heur(S));
    using Queue = boost::d_ary_heap_indirect<Vertex, 4, detail::HeapIndexMap, detail::CostMap, std::less<double>>;
    Queue open(cost, heap_index, std::less<double>());
    boost::detail::astar_bfs_visitor<std::decay_t<decltype(heur)>, detail::Visitor<QG>, Queue, detail::PredMap,
                                     detail::CostMap, detail::DistMap, OverlayWeightMap, detail::ColorMap,
                                     std::plus<double>, std::less<double>>
        bfs(heur, vis, open, pred, cost, dist, OverlayWeightMap{}, color, std::plus<double>(), std::less<double>(), 0.0);
    try {
      boost::breadth_first_visit(g, S, open, bfs, color);
    } catch (const detail::FoundGoal&) {
      found = true;
    }
  };
  with_metric(h.metric, [&](auto m) {
    detail::PositionHeuristic<R, decltype(m)::value> heur;
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
      if (lm) return run(detail::AltHeuristic<R, decltype(m)::value>{heur, lm, ws.landmark_goal.data()});
    }
    run(heur);
  });
  if (!found) return SearchWorkspace::kInf;
  for (Vertex v = get(pred, T); v != S; v = get(pred, v)) q.path.push_back(v);
  std::reverse(q.path.begin(), q.path.end());
  return get(dist, T);
}

}  // namespace navbench
