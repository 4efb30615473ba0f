// Theta* (Nash, Daniel, Koenig & Felner, AAAI 2007) and Lazy Theta* (Nash, Koenig & Tovey, AAAI
// 2010): the shared A* (search/astar.hpp: the same overlay graph, workspace records and open list)
// with one change. A generated vertex v takes its generator u's parent p as its own parent when the
// straight segment p-v passes the caller's validity test (the exact one of docs/validity.md, or the
// swept-disc test for an agent with a radius), at cost g(p) + |p v|; else it goes through the
// edge u-v as in A*. Lazy Theta* assumes the shortcut when v is generated and tests it only when v
// is expanded, falling back then to the cheapest expanded vertex that generated v; it makes fewer
// tests. For representations whose edges are the straight segments between their vertices' points
// (Capabilities::segment_edges): the path is the chain of parents, a polyline through their points.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "search/planner.hpp"
#include "search/astar.hpp"
#include "smoothing/smoothing.hpp"

namespace navbench {

namespace detail {

// Lazy Theta*'s SetVertex for u, whose assumed shortcut from its parent failed the test: u goes in
// through its cheapest edge from an expanded vertex. The graphs Theta* runs on are symmetric
// (segment edges), so u's expanded neighbours are its out-neighbours, plus the start S through its
// links and, for the goal T, the vertices of its links.
template <class Graph, class Cost>
void lazy_set_vertex(Vertex u, Vertex S, Vertex T, const Graph& g, const Query& q, SearchWorkspace& ws,
                     SearchWorkspace::Record& ru, Cost&& cost) {
  constexpr std::uint8_t kBlack = SearchWorkspace::kBlack;
  double best = SearchWorkspace::kInf;
  Vertex from = u;
  auto consider = [&](Vertex m, double w) {
    const SearchWorkspace::Record& rm = ws.record(m);
    if (rm.color == kBlack && rm.dist + w < best) {
      best = rm.dist + w;
      from = m;
    }
  };
  if (u == T) {
    for (const Link& l : q.g.links) consider(l.vertex, l.cost);
    if (q.direct) consider(S, cost(q.start, q.goal));
  } else {
    for (auto [it, end] = out_edges(u, g); it != end; ++it)
      if (Vertex m = Vertex(target(*it, g)); m < S) consider(m, it->w);
    for (const Link& l : ws.start_links)
      if (l.vertex == u) consider(S, l.cost);
  }
  ru.dist = best;
  ru.pred = from;
}

}  // namespace detail

// Runs Theta* or Lazy Theta* from q.start to q.goal over r's graph with q's attachments. On success
// fills `path` (start, the parents' points, goal) and q.path (the base vertices of the chain) and
// returns the path's length; +inf when the goal is unreachable. stats.los_checks counts the tests.
// `obs`: the query's observer (search/observer.hpp), NoObserver when none is attached.
template <Representation R, class Obs = NoObserver>
double theta_star(const R& r, Query& q, const Heuristic& h, SearchMode mode, VisibleFn visible, SearchWorkspace& ws,
                  SearchStats& stats, Polyline& path, Obs obs = {}) {
  const std::size_t n = num_vertices(r.graph());
  const Vertex S = Vertex(n), T = Vertex(n + 1);
  const auto g = query_overlay(r, q, ws);
  auto point = [&](Vertex v) { return v < S ? Point(r.position(v)) : (v == S ? q.start : q.goal); };
  // The run's heuristic on positions, as A*'s (its metric switched at run time: one instantiation).
  PositionHeuristic<R, kRuntimeMetric> heur{&r, S, q.start, q.goal, h.weight, h.metric};
  // A shortcut's cost: its length, or on a weighted map its cost (docs/terrain.md). There the
  // triangle inequality fails (a straight line through dear ground may cost more than the edges),
  // so the edge is relaxed beside every shortcut.
  bool weighted = false;
  if constexpr (HasSegmentCost<R>) weighted = r.weighted();
  auto cost = [&](Point a, Point b) {
    if constexpr (HasSegmentCost<R>) {
      if (weighted) return r.segment_cost(a, b);
    }
    return distance(a, b);
  };
  auto sees = [&](Vertex a, Vertex b) {
    ++stats.los_checks;
    return visible(point(a), point(b));
  };
  // u's parent is the start and u holds a start link of exactly its g: the link itself, no test.
  auto start_link = [&](Vertex u, const SearchWorkspace::Record& ru) {
    if (ru.pred != S) return false;
    for (const Link& l : ws.start_links)
      if (l.vertex == u && l.cost == ru.dist) return true;
    return false;
  };
  detail::OpenList open(ws);
  constexpr std::uint8_t kGray = SearchWorkspace::kGray, kBlack = SearchWorkspace::kBlack;
  // Lowers v's g to `g` with parent `p` (pushes or decreases its key).
  auto relax = [&](Vertex v, double gv, Vertex p) {
    SearchWorkspace::Record& rec = ws.touch(v);
    if (!(gv < rec.dist)) return;
    const bool reached = rec.dist < SearchWorkspace::kInf;  // generated before: an update
    rec.dist = gv;
    rec.pred = p;
    rec.cost = gv + heur(v);
    if constexpr (Obs::enabled) (reached ? obs.update(v, p, gv, rec.cost) : obs.generate(v, p, gv, rec.cost));
    if (rec.color == kGray) {
      open.update(v);
    } else {
      rec.color = kGray;
      open.push(v);
    }
  };
  {
    SearchWorkspace::Record& rs = ws.touch(S);
    rs.dist = 0;
    rs.pred = S;
    rs.cost = heur(S);
    rs.color = kGray;
    open.push(S);
    ++stats.generated;
    obs.source(S, n, rs.cost);
    obs.generate(S, S, 0.0, rs.cost);
  }
  bool found = false;
  while (!open.empty()) {
    const Vertex u = open.top();
    open.pop();
    SearchWorkspace::Record& ru = ws.touched_record(u);
    ru.color = kBlack;
    ++stats.expansions;
    // Lazy Theta*'s SetVertex: the assumed shortcut from the parent is tested now; without sight
    // the vertex goes in through its cheapest edge from an expanded vertex (detail::lazy_set_vertex).
    if (mode == SearchMode::lazy_theta && u != S && !start_link(u, ru) && !sees(ru.pred, u)) {
      detail::lazy_set_vertex(u, S, T, g, q, ws, ru, cost);
      if constexpr (Obs::enabled) ru.cost = ru.dist + heur(u);  // f as the observer reports it
    }
    if constexpr (Obs::enabled) obs.expand(u, ru.pred, ru.dist, ru.cost);
    if (u == T) {
      found = true;
      obs.close(u, ru.pred, ru.dist, ru.cost);
      break;
    }
    const Vertex p = ru.pred;
    for (auto [it, end] = out_edges(u, g); it != end; ++it) {
      const Vertex v = Vertex(target(*it, g));
      const SearchWorkspace::Record& rv = ws.record(v);
      if (rv.color == kBlack) continue;
      if (rv.color == SearchWorkspace::kWhite) ++stats.generated;
      const double w = it->w;
      if (mode == SearchMode::lazy_theta) {
        if (u != S) relax(v, ws.record(p).dist + cost(point(p), point(v)), p);
        if (u == S || weighted) relax(v, ru.dist + w, u);
      } else if (u != S) {
        // The shortcut is tested only when it would lower g(v): otherwise neither it nor the edge
        // can (g(u) + w >= g(p) + |p u| + |u v| >= g(p) + |p v|), so the test would change nothing.
        const double via_p = ws.record(p).dist + cost(point(p), point(v));
        const bool shortcut = via_p < ws.record(v).dist && sees(p, v);
        if (shortcut) relax(v, via_p, p);
        if (!shortcut || weighted) relax(v, ru.dist + w, u);
      } else {
        relax(v, ru.dist + w, u);
      }
    }
    if constexpr (Obs::enabled) obs.close(u, ru.pred, ru.dist, ru.cost);
  }
  obs.end(found ? ws.record(T).dist : SearchWorkspace::kInf);
  q.path.clear();
  path.clear();
  if (!found) return SearchWorkspace::kInf;
  for (Vertex v = ws.record(T).pred; v != S; v = ws.record(v).pred) q.path.push_back(v);
  std::reverse(q.path.begin(), q.path.end());
  path.push_back(q.start);
  for (Vertex v : q.path) path.push_back(point(v));
  path.push_back(q.goal);
  return ws.record(T).dist;
}

}  // namespace navbench
