// SubgoalGraph::build_two_level(): the locals contracted out of the searched graph (levels >= 2).
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

// The two-level graph (after Uras, Koenig & Hernández 2013, two-level subgoal graphs, and Uras &
// Koenig 2014, N-level subgoal graphs): subgoals are made local one by one, the one of least current
// degree first (lazy queue), in at most levels-1 layers (a subgoal next to a local of layer k can
// only become local in layer k+1; levels=2 is one layer of pairwise non-adjacent locals, as TSG). Making s local removes it from the global graph and adds a shortcut p-q
// (weight w(p,s) + w(s,q), refined through s) for each pair of its remaining neighbours with no
// other path as short: a bounded Dijkstra witness search, as in contraction hierarchies (Geisberger
// et al. 2008); an unfinished search counts as "no witness", which only adds edges. s is made local
// only when it adds no more shortcuts than it has edges; it keeps its edges to the neighbours left
// at that moment (its upward edges). Distances between the remaining (global) subgoals stay exact,
// and any shortest path climbs from its first subgoal through upward edges, crosses the global graph
// and descends to its last, so a search that climbs through the locals' (directed) upward edges
// from the start's direct-h-reachable subgoals and links the goal to the upward closure of its own
// (reach()) keeps every query exact. Differences from the paper's TSG:
// its shortcuts must join h-reachable pairs and its locals may neighbour locals; here any shortcut
// is allowed (it records the local it bypasses) and levels=2 locals are pairwise non-adjacent.
void SubgoalGraph::build_two_level() {
  using E = ChEdge;  // to, weight, the local a shortcut bypasses (kNone: an edge of the simple graph)
  const std::size_t n = pos_.size();
  std::vector<std::vector<E>> adj(n);
  for (Vertex u = 0; u < Vertex(n); ++u)
    for (auto [it, end] = out_edges(u, graph_); it != end; ++it)
      adj[u].push_back({target(*it, graph_), graph_.weight(it->index), kNone});
  std::vector<std::vector<E>> up(n);
  local_.assign(n, 0);
  rank_.assign(n, kNone);
  by_rank_.clear();
  // layer[v]: 1 + the highest layer among v's contracted neighbours; locals of layer k sit below
  // those of layer k+1, and levels=L allows layers 0..L-2 (levels=2: locals pairwise non-adjacent).
  std::vector<int> layer(n, 0);
  using QE = std::pair<std::size_t, Vertex>;
  std::priority_queue<QE, std::vector<QE>, std::greater<QE>> queue;
  for (Vertex v = 0; v < Vertex(n); ++v) queue.push({adj[v].size(), v});

  // Witness search state, reset through the touched list; is_target: the later neighbours of the
  // search's source not settled yet.
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<std::uint8_t> is_target(n, 0);
  std::vector<Vertex> touched;
  using DE = std::pair<double, Vertex>;
  std::vector<DE> open;
  struct Shortcut {
    Vertex p, q;
    double w;
  };
  std::vector<Shortcut> shortcuts;
  std::uint32_t next_rank = 0;
  contraction_settled_ = 0;
  while (!queue.empty()) {
    const auto [deg, s_] = queue.top();
    const Vertex s = s_;  // a plain variable: lambdas below capture it (clang 14 cannot capture bindings)
    queue.pop();
    if (local_[s] || layer[s] + 2 > levels_) continue;  // above the top local layer: stays global
    if (deg != adj[s].size()) {  // stale: its degree changed since
      queue.push({adj[s].size(), s});
      continue;
    }
    const auto& nb = adj[s];
    shortcuts.clear();
    double wmax = 0;
    for (const E& e : nb) wmax = std::max(wmax, e.w);
    bool too_many = false;
    // The search from nb[i] decides the pairs (nb[i], nb[k]) for k > i only, so it stops as soon as
    // every such nb[k] is settled: their distances are final then, the ones the search run to its
    // cap or limit would leave (a settled vertex keeps its distance; a search whose targets are not
    // all settled runs exactly as before). The last neighbour has no later one: no search. The
    // shortcuts, and so the contraction, are the same; only the settled vertices after the last
    // target's are saved (ch.cpp's witness search stops the same way).
    for (std::size_t i = 0; i + 1 < nb.size() && !too_many; ++i) {
      const Vertex p = nb[i].to;
      const double limit = nb[i].w + wmax + kEps;
      std::size_t left = 0;
      for (std::size_t k = i + 1; k < nb.size(); ++k) left += is_target[nb[k].to] ? 0 : (is_target[nb[k].to] = 1);
      open.clear();
      dist[p] = 0;
      touched.push_back(p);
      open.push_back({0.0, p});
      int settled = 0;
      while (!open.empty() && settled < 400) {
        std::pop_heap(open.begin(), open.end(), std::greater<DE>());
        const auto [d, u] = open.back();
        open.pop_back();
        if (d > dist[u]) continue;
        if (d > limit) break;
        ++settled;
        if (is_target[u] && (is_target[u] = 0, --left == 0)) break;
        for (const E& e : adj[u]) {
          if (e.to == s) continue;
          const double nd = d + e.w;
          if (nd < dist[e.to]) {
            if (!std::isfinite(dist[e.to])) touched.push_back(e.to);
            dist[e.to] = nd;
            open.push_back({nd, e.to});
            std::push_heap(open.begin(), open.end(), std::greater<DE>());
          }
        }
      }
      contraction_settled_ += std::uint64_t(settled);
      for (std::size_t k = i + 1; k < nb.size(); ++k) is_target[nb[k].to] = 0;
      for (std::size_t k = i + 1; k < nb.size(); ++k) {
        const double via = nb[i].w + nb[k].w;
        if (dist[nb[k].to] > via + kEps) shortcuts.push_back({p, nb[k].to, via});
      }
      for (Vertex t : touched) dist[t] = std::numeric_limits<double>::infinity();
      touched.clear();
      if (shortcuts.size() > nb.size()) too_many = true;
    }
    if (too_many) continue;  // stays global unless a neighbour's contraction changes its degree
    local_[s] = 1;
    rank_[s] = next_rank++;
    by_rank_.push_back(s);
    up[s] = nb;
    for (const E& e : up[s]) {
      std::erase_if(adj[e.to], [&](const E& x) { return x.to == s; });
      layer[e.to] = std::max(layer[e.to], layer[s] + 1);
    }
    for (const Shortcut& c : shortcuts)
      for (const auto& ab : {std::pair{c.p, c.q}, std::pair{c.q, c.p}}) {
        const Vertex a = ab.first, b = ab.second;
        auto it = std::find_if(adj[a].begin(), adj[a].end(), [&](const E& x) { return x.to == b; });
        if (it == adj[a].end()) adj[a].push_back({b, c.w, s});
        else if (c.w < it->w) *it = {b, c.w, s};
      }
    for (const E& e : up[s]) queue.push({adj[e.to].size(), e.to});
    adj[s].clear();
  }

  store_two_level(adj, up);
}

// The searched graph, with shapes and vias: a global's edges to globals, a local's upward edges
// (directed: nothing leads down into a local, so a search climbs from the start's subgoals and
// descends only through the goal's links).
void SubgoalGraph::store_two_level(const std::vector<std::vector<ChEdge>>& adj, const std::vector<std::vector<ChEdge>>& up) {
  const std::size_t n = adj.size();
  std::vector<std::uint32_t> begin(n + 1, 0);
  std::vector<Vertex> targets;
  std::vector<double> weights;
  shape_.clear();
  via_.clear();
  EdgeShape shape_of{*this};
  for (Vertex u = 0; u < Vertex(n); ++u) {
    begin[u] = std::uint32_t(targets.size());
    for (const ChEdge& e : local_[u] ? up[u] : adj[u]) {
      targets.push_back(e.to);
      weights.push_back(e.w);
      via_.push_back(e.via);
      shape_.push_back(e.via == kNone ? std::uint8_t(shape_of(u, e.to)) : 0);
    }
  }
  begin[n] = std::uint32_t(targets.size());
  graph_ = CsrGraph(std::move(begin), std::move(targets), std::move(weights));
}

}  // namespace navbench
