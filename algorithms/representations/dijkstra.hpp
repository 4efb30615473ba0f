// Graph distances from a set of sources: the plain Dijkstra the precomputed heuristics are built
// from (distance_table.hpp, landmarks.hpp), over any Boost.Graph IncidenceGraph with an edge weight
// map and vertices 0..n-1.
#pragma once
#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/representation.hpp"

namespace navbench {

// d[v] = the least distance from any of `sources` to v, +inf where unreachable (d holds one entry
// per vertex of g on entry). With pred (one entry per vertex too): pred[v] = v's predecessor on
// a shortest path (v itself for a source, ~0 where unreachable).
template <class G, class W>
void dijkstra(const G& g, W w, std::span<const Vertex> sources, std::vector<double>& d,
              std::vector<Vertex>* pred = nullptr) {
  std::fill(d.begin(), d.end(), std::numeric_limits<double>::infinity());
  if (pred) std::fill(pred->begin(), pred->end(), ~Vertex(0));
  using Item = std::pair<double, Vertex>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  for (Vertex s : sources) {
    d[s] = 0;
    if (pred) (*pred)[s] = s;
    pq.push({0.0, s});
  }
  while (!pq.empty()) {
    auto [du, u] = pq.top();
    pq.pop();
    if (du > d[u]) continue;
    for (auto [it, end] = out_edges(u, g); it != end; ++it) {
      const Vertex v = Vertex(target(*it, g));
      const double dv = du + double(get(w, *it));
      if (dv < d[v]) {
        d[v] = dv;
        if (pred) (*pred)[v] = u;
        pq.push({dv, v});
      }
    }
  }
}

}  // namespace navbench
