// ch=1: the subgoal graph in a contraction hierarchy (Uras & Koenig, "Subgoal Graphs in
// Contraction Hierarchies", SoCS 2018; their GPPC 2019 entry SGCH): every subgoal is contracted, in
// edge-difference order, and a query is a bidirectional upward Dijkstra (Geisberger et al. 2008)
// from the start's and the goal's direct-h-reachable subgoals, with stall-on-demand.
#include "representations/subgoal/subgoal.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "representations/subgoal/internal.hpp"

namespace navbench {

using namespace subgoal_detail;

namespace {

// The contraction's working graph and the witness search (a bounded Dijkstra that avoids the
// subgoal being contracted). A pair p, q of s's neighbours needs the shortcut p-q when no path
// avoiding s is as short as w(p,s) + w(s,q); an unfinished witness search counts as "no witness",
// which only adds shortcuts (never a wrong distance).
struct Contractor {
  // Settled subgoals per witness search: few when estimating a priority, more when contracting.
  static constexpr int kEstimateCap = 200, kContractCap = 2000;
  std::vector<std::uint8_t> is_target;  // the later neighbours of the search's source, until settled
  std::vector<std::vector<ChEdge>> adj;
  std::vector<double> dist;
  std::vector<Vertex> touched;
  struct Shortcut {
    Vertex p, q;
    double w;
  };

  explicit Contractor(std::size_t n) : is_target(n, 0), adj(n), dist(n, kInf) {}

  void shortcuts_of(Vertex s, std::vector<Shortcut>& out, int cap) {
    out.clear();
    const auto& nb = adj[s];
    using DE = std::pair<double, Vertex>;
    std::vector<DE> open;
    for (std::size_t i = 0; i + 1 < nb.size(); ++i) {
      const Vertex p = nb[i].to;
      double wmax = 0;  // the search from p decides the pairs p, q for the later neighbours q
      for (std::size_t k = i + 1; k < nb.size(); ++k) wmax = std::max(wmax, nb[k].w);
      const double limit = nb[i].w + wmax + kEps;
      std::size_t left = 0;  // targets not settled yet: the search stops when none is left
      for (std::size_t k = i + 1; k < nb.size(); ++k) left += is_target[nb[k].to] ? 0 : (is_target[nb[k].to] = 1);
      open.clear();
      dist[p] = 0;
      touched.push_back(p);
      open.push_back({0.0, p});
      for (int settled = 0; !open.empty() && settled < cap;) {
        std::pop_heap(open.begin(), open.end(), std::greater<DE>());
        const auto [d, u] = open.back();
        open.pop_back();
        if (d > dist[u]) continue;
        if (d > limit) break;
        ++settled;
        if (is_target[u] && (is_target[u] = 0, --left == 0)) break;
        for (const ChEdge& e : adj[u]) {
          if (e.to == s) continue;
          const double nd = d + e.w;
          if (nd < dist[e.to]) {
            if (dist[e.to] == kInf) touched.push_back(e.to);
            dist[e.to] = nd;
            open.push_back({nd, e.to});
            std::push_heap(open.begin(), open.end(), std::greater<DE>());
          }
        }
      }
      for (std::size_t k = i + 1; k < nb.size(); ++k) {
        const double via = nb[i].w + nb[k].w;
        if (dist[nb[k].to] > via + kEps) out.push_back({p, nb[k].to, via});
      }
      for (std::size_t k = i + 1; k < nb.size(); ++k) is_target[nb[k].to] = 0;
      for (Vertex t : touched) dist[t] = kInf;
      touched.clear();
    }
  }
};

}  // namespace

// The contraction (after Geisberger et al. 2008, as SGCH contracts the simple subgoal graph): the
// subgoal of least priority next, priority = shortcuts it adds - its degree + its contracted
// neighbours (edge difference plus the usual uniformity term), recomputed when it is taken (lazy
// update) and for its neighbours after each contraction. Each subgoal keeps its edges to the
// neighbours left when it is contracted (its upward edges). The searched graph stores per subgoal
// its upward edges first (ch_up_end_ marks their end), then its downward ones (the upward edges of
// lower subgoals, reversed), so the shared A* (heuristics the CH query does not stand for) searches
// the whole hierarchy, original edges and shortcuts, and stays exact.
void SubgoalGraph::build_ch() {
  const std::size_t n = pos_.size();
  Contractor c(n);
  for (Vertex u = 0; u < Vertex(n); ++u)
    for (auto [it, end] = out_edges(u, graph_); it != end; ++it)
      c.adj[u].push_back({target(*it, graph_), graph_.weight(it->index), kNone});
  std::vector<std::vector<ChEdge>> up(n);
  std::vector<int> prio(n, 0), contracted_nb(n, 0), depth(n, 0);
  rank_.assign(n, kNone);
  by_rank_.clear();
  local_.assign(n, 1);
  std::vector<Contractor::Shortcut> sc;
  auto priority = [&](Vertex v, int cap) {
    c.shortcuts_of(v, sc, cap);
    return 2 * (int(sc.size()) - int(c.adj[v].size())) + contracted_nb[v] + depth[v];
  };
  using QE = std::pair<int, Vertex>;
  std::priority_queue<QE, std::vector<QE>, std::greater<QE>> queue;
  for (Vertex v = 0; v < Vertex(n); ++v) queue.push({prio[v] = priority(v, Contractor::kEstimateCap), v});
  std::uint32_t next_rank = 0;
  while (!queue.empty()) {
    const auto [p, s_] = queue.top();
    const Vertex s = s_;  // a plain variable: lambdas below capture it (clang 14 cannot capture bindings)
    queue.pop();
    if (rank_[s] != kNone || p != prio[s]) continue;  // contracted, or a stale entry
    if (prio[s] = priority(s, Contractor::kEstimateCap); !queue.empty() && prio[s] > queue.top().first) {
      queue.push({prio[s], s});
      continue;
    }
    c.shortcuts_of(s, sc, Contractor::kContractCap);
    rank_[s] = next_rank++;
    by_rank_.push_back(s);
    up[s] = std::move(c.adj[s]);
    c.adj[s].clear();
    for (const ChEdge& e : up[s]) {
      std::erase_if(c.adj[e.to], [&](const ChEdge& x) { return x.to == s; });
      ++contracted_nb[e.to];
      depth[e.to] = std::max(depth[e.to], depth[s] + 1);
    }
    for (const Contractor::Shortcut& k : sc)
      for (const auto& [a, b] : {std::pair{k.p, k.q}, std::pair{k.q, k.p}}) {
        auto it = std::find_if(c.adj[a].begin(), c.adj[a].end(), [b = b](const ChEdge& x) { return x.to == b; });
        if (it == c.adj[a].end()) c.adj[a].push_back({b, k.w, s});
        else if (k.w < it->w) *it = {b, k.w, s};
      }
    for (const ChEdge& e : up[s]) queue.push({prio[e.to] = priority(e.to, Contractor::kEstimateCap), e.to});
  }
  store_ch(up);
}

// The searched graph from the upward lists: per subgoal its upward edges, then its downward ones.
void SubgoalGraph::store_ch(const std::vector<std::vector<ChEdge>>& up) {
  const std::size_t n = up.size();
  std::vector<std::vector<std::pair<Vertex, std::uint32_t>>> down(n);  // (lower subgoal, index in its up list)
  for (Vertex u = 0; u < Vertex(n); ++u)
    for (std::uint32_t i = 0; i < up[u].size(); ++i) down[up[u][i].to].push_back({u, i});
  std::vector<std::uint32_t> begin(n + 1, 0);
  std::vector<Vertex> targets;
  std::vector<double> weights;
  shape_.clear();
  via_.clear();
  ch_up_end_.assign(n, 0);
  EdgeShape shape_of{*this};
  auto put = [&](Vertex u, const ChEdge& e) {
    targets.push_back(e.to);
    weights.push_back(e.w);
    via_.push_back(e.via);
    shape_.push_back(e.via == kNone ? std::uint8_t(shape_of(u, e.to)) : 0);
  };
  for (Vertex u = 0; u < Vertex(n); ++u) {
    begin[u] = std::uint32_t(targets.size());
    for (const ChEdge& e : up[u]) put(u, e);
    ch_up_end_[u] = std::uint32_t(targets.size());
    for (const auto& [l, i] : down[u]) put(u, ChEdge{l, up[l][i].w, up[l][i].via});
  }
  begin[n] = std::uint32_t(targets.size());
  graph_ = CsrGraph(std::move(begin), std::move(targets), std::move(weights));
}

// The CH query: a Dijkstra upward from the start's links and one upward from the goal's, the one
// of smaller key expanded next, until both keys reach the best meeting cost (every shortest path
// climbs and then descends the hierarchy, so it meets at its highest subgoal). Stall-on-demand: a
// subgoal reached more cheaply through a higher neighbour than its own key is not on a shortest
// upward path and is not expanded. The direct start-goal link competes (ties to it, as the table).
std::optional<double> SubgoalGraph::ch_search(Query& q, std::size_t& steps) const {
  const std::size_t n = pos_.size();
  Scratch& sc = scratch();
  if (sc.ch_dist[0].size() != n)
    for (int d = 0; d < 2; ++d) sc.ch_dist[d].assign(n, kInf), sc.ch_pred[d].assign(n, -1);
  q.path.clear();
  double best = q.direct ? direct_cost(q) : kInf;
  Vertex meet = kNone;
  using HE = std::pair<double, Vertex>;
  auto& touched = sc.ch_touched;
  auto relax = [&](int d, Vertex v, double c, std::int32_t pred) {
    double& dv = sc.ch_dist[d][v];
    if (c >= dv) return;
    if (dv == kInf) touched.push_back(v);
    dv = c;
    sc.ch_pred[d][v] = pred;
    sc.ch_open[d].push_back({c, v});
    std::push_heap(sc.ch_open[d].begin(), sc.ch_open[d].end(), std::greater<HE>());
  };
  for (const Link& l : q.s.links)
    if (l.vertex < n) relax(0, l.vertex, l.cost, -1);
  for (const Link& l : q.g.links)
    if (l.vertex < n) relax(1, l.vertex, l.cost, -1);
  for (;;) {
    const double k0 = sc.ch_open[0].empty() ? kInf : sc.ch_open[0].front().first;
    const double k1 = sc.ch_open[1].empty() ? kInf : sc.ch_open[1].front().first;
    const int d = k0 <= k1 ? 0 : 1;
    if (std::min(k0, k1) >= best) break;
    auto& open = sc.ch_open[d];
    std::pop_heap(open.begin(), open.end(), std::greater<HE>());
    const auto [dv, v] = open.back();
    open.pop_back();
    const double* dist = sc.ch_dist[d].data();
    if (dv > dist[v]) continue;
    ++steps;
    if (const double o = sc.ch_dist[1 - d][v]; dv + o < best) best = dv + o, meet = v;
    auto [it, end] = out_edges(v, graph_);
    const std::uint32_t up_end = ch_up_end_[v];
    bool stalled = false;
    for (auto e = it; e != end && e->index < up_end; ++e)
      if (dist[target(*e, graph_)] + graph_.weight(e->index) < dv) {
        stalled = true;
        break;
      }
    if (stalled) continue;
    for (auto e = it; e != end && e->index < up_end; ++e) relax(d, target(*e, graph_), dv + graph_.weight(e->index), std::int32_t(v));
  }
  if (meet != kNone) {
    for (std::int32_t v = std::int32_t(meet); v >= 0; v = sc.ch_pred[0][std::size_t(v)]) q.path.push_back(Vertex(v));
    std::reverse(q.path.begin(), q.path.end());
    for (std::int32_t v = sc.ch_pred[1][meet]; v >= 0; v = sc.ch_pred[1][std::size_t(v)]) q.path.push_back(Vertex(v));
  }
  for (Vertex v : touched)
    for (int d = 0; d < 2; ++d) sc.ch_dist[d][v] = kInf, sc.ch_pred[d][v] = -1;
  touched.clear();
  sc.ch_open[0].clear(), sc.ch_open[1].clear();
  return best;
}

}  // namespace navbench
