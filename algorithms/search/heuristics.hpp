// The heuristics of the shared searches as small types (docs/command-line.md --heuristic). Each is
// a callable `double(Vertex)` over the overlay's vertices (search/query_graph.hpp: 0..n-1 the built
// graph's, n the start, n + 1 the goal), built per query by the planner's side (with_heuristic) and
// taken by the search as a template argument, as warthog-core's searches take theirs:
//   PositionHeuristic  the run's metric on vertex positions, times its weight;
//   AltHeuristic       the larger of the metric and ALT's landmark bounds (Goldberg & Harrelson 2005);
//   TableHeuristic     the larger of the metric and an all-pairs table's distance to the goal's places.
// The metric is a template argument inside the search loop where it matters (euclidean, and octile
// where paths are octile moves), else one runtime-switched instantiation (with_search_metric).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "representations/distance_table.hpp"
#include "representations/landmarks.hpp"
#include "representations/representation.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

namespace navbench {

// The metric inside the search loop: a template argument for euclidean (every representation's
// heuristic) and, where paths are octile moves (declared grid8_optimal: grid8, subgoal graphs), for
// octile; one runtime-switched instantiation for the rest (octile elsewhere, manhattan, chebyshev,
// zero): two or three A* instantiations per representation and heuristic kind instead of five
// (the registrations' compile time), and the switch is one predictable branch per heuristic call.
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

// The metric from a vertex's position to the goal, times the weight.
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

// Builds the heuristic `h` asks for on r's query q and calls f with it: the representation's
// all-pairs table (HasDistanceTable) or landmarks (HasLandmarks) where it has them for a metric
// heuristic, else the metric on positions; the metric a template argument where it matters
// (with_search_metric), switched at run time for an observed search (`runtime_metric`: the same
// values, one instantiation instead of three, as traced queries are few and not timed). Needs the
// overlay's start links in ws (query_overlay, search/astar.hpp); writes the goal's landmark bounds
// or places into ws.
template <Representation R, bool runtime_metric = false, class F>
decltype(auto) with_heuristic(const R& r, const Query& q, const Heuristic& h, SearchWorkspace& ws, F&& f) {
  const std::size_t n = num_vertices(r.graph());
  // The landmark table, when the representation offers one and a metric heuristic is asked for.
  const Landmarks* lm = nullptr;
  if constexpr (HasLandmarks<R>) lm = h.metric == Metric::zero ? nullptr : r.landmarks();
  if (lm && (lm->k() == 0 || lm->size() != n)) lm = nullptr;
  if (lm) detail::fold_landmarks(*lm, q, ws, n);
  const DistanceTable* table = nullptr;
  if constexpr (HasDistanceTable<R>) table = h.metric == Metric::zero ? nullptr : r.distance_table();
  if (table && (table->empty() || table->vertices() != n)) table = nullptr;
  if (table) detail::goal_places(*table, q, ws, n);  // the goal's places, each once with its cheapest link
  auto build = [&](auto m) {
    PositionHeuristic<R, decltype(m)::value> position;
    position.rt = h.metric;
    position.rep = &r;
    position.n = Vertex(n);
    position.start = q.start;
    position.goal = q.goal;
    position.weight = h.weight;
    if constexpr (HasDistanceTable<R>) {
      if (table)
        return f(TableHeuristic<R, decltype(m)::value>{position, table, ws.goal_places.data(), ws.goal_places.size()});
    }
    if constexpr (HasLandmarks<R>) {
      if (lm)
        return f(AltHeuristic<R, decltype(m)::value>{position, lm, ws.landmark_goal.data(), ws.landmark_back.data(),
                                                     ws.landmark_active.empty() ? nullptr : ws.landmark_active.data(),
                                                     ws.landmark_active.size()});
    }
    return f(position);
  };
  if constexpr (runtime_metric) return build(std::integral_constant<Metric, kRuntimeMetric>{});
  else return with_search_metric<R>(h.metric, build);
}

}  // namespace navbench
