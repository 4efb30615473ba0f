// Landmark distances for ALT / differential heuristics (Goldberg & Harrelson, "Computing the
// Shortest Path: A* Search Meets Graph Theory", SODA 2005; Sturtevant et al., "Memory-Based
// Heuristics for Explicit State Spaces", IJCAI 2009). Built once per representation from its own
// Boost.Graph graph: K landmarks chosen by farthest-point selection, one Dijkstra from each.
// The shared A* (search/astar.hpp) turns them into an exact lower bound on the distance to the
// query's virtual goal T: for every landmark L, d(L,T) <= d(L,v) + d(v,T) (triangle inequality in
// the query graph, directed or not), so h(v) = d(L,T) - d(L,v), with
// d(L,T) = min over the goal's links (g, c) of d(L,g) + c computed once per query. Consistent, so
// the A* stays exact. Any representation offers it by returning a table from landmarks().
// A table built `symmetric` (its distances d(u,v) = d(v,u), a metric at most the query graph's
// distances between its vertices, e.g. the subgoal graph's grid distances; the query graph itself
// may be directed) also gives the bound from behind the goal (Goldberg & Harrelson 2005 use both
// on undirected graphs): h(v) = d(L,v) - B with B = max over the goal's links (g, c) of
// d(L,g) - c. A path from v ends with some link (g, c): its cost is at least d(v,g) + c >=
// d(L,v) - d(L,g) + c >= d(L,v) - B. (Not d(L,v) - d(L,T): the links need not obey the triangle
// inequality with the table, e.g. a goal on a grid corner joins two diagonal cells that no grid
// move joins.) Consistent too, |d(L,u) - d(L,v)| <= d(u,v) along every edge.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/dijkstra.hpp"
#include "representations/representation.hpp"

namespace navbench {

class Landmarks {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  Landmarks() = default;
  // k landmarks over graph g with weight map w (k = 0: an empty table, nothing is computed).
  // `group` maps a vertex to the place it stands for (several vertices may share one, e.g. the two
  // taut states of a corner): selection spreads landmarks over places, not over vertices that are
  // near in space but far in the directed graph.
  template <class G, class W, class Group = std::identity>
  Landmarks(const G& g, W w, std::size_t k, Group group = {}, bool symmetric = false) : symmetric_(symmetric) {
    n_ = num_vertices(g);
    if (k == 0 || n_ == 0) return;
    std::vector<double> d(n_), nearest(n_, kInf);
    // Farthest-point selection: start from the vertex farthest from vertex 0, then repeatedly the
    // vertex farthest from every landmark chosen so far (ties: lowest id, so builds are repeatable).
    // Seed: the vertex of highest out-degree (in the main component of any real map).
    Vertex seed = 0;
    for (std::size_t v = 0; v < n_; ++v)
      if (out_degree(Vertex(v), g) > out_degree(seed, g)) seed = Vertex(v);
    dijkstra(g, w, std::span<const Vertex>(&seed, 1), d);
    Vertex next = farthest(g, d);
    if (next == ~Vertex(0) && out_degree(seed, g) > 0) next = seed;  // nothing farther has out-arcs
    std::vector<std::vector<double>> rows;
    std::vector<double> place(n_, kInf);  // per place: the least d(L, v) over its vertices
    while (rows.size() < k && next != ~Vertex(0)) {
      dijkstra(g, w, std::span<const Vertex>(&next, 1), d);
      ids_.push_back(next);
      for (std::size_t v = 0; v < n_; ++v) place[group(Vertex(v))] = std::min(place[group(Vertex(v))], d[v]);
      for (std::size_t v = 0; v < n_; ++v) nearest[v] = std::min(nearest[v], place[group(Vertex(v))]);
      rows.push_back(d);
      next = farthest(g, nearest);
    }
    k_ = ids_.size();
    table_.assign(n_ * k_, kInf);  // vertex-major: the K distances of a vertex share a cache line
    for (std::size_t i = 0; i < k_; ++i)
      for (std::size_t v = 0; v < n_; ++v) table_[v * k_ + i] = rows[i][v];
  }

  std::size_t k() const { return k_; }
  bool symmetric() const { return symmetric_; }
  // Active landmarks (Goldberg & Werneck, "Computing Point-to-Point Shortest Paths from External
  // Memory", ALENEX 2005): with m in 1..k-1 a query evaluates only the m landmarks whose bound at
  // the start is largest (a subset of lower bounds: still consistent); 0, every landmark.
  std::size_t active() const { return active_ > 0 && active_ < k_ ? active_ : 0; }
  void set_active(std::size_t m) { active_ = m; }
  std::size_t size() const { return n_; }
  // d(L_i, v) for the i-th landmark: +inf when v is unreachable from it.
  const double* row(Vertex v) const { return table_.data() + std::size_t(v) * k_; }
  const std::vector<Vertex>& ids() const { return ids_; }
  std::size_t memory_bytes() const { return table_.capacity() * sizeof(double) + ids_.capacity() * sizeof(Vertex); }

 private:
  // The vertex with the largest finite key not yet a landmark (~0 when none is left); only
  // vertices with out-arcs (a sink, e.g. an arrival-only state, reaches nothing).
  template <class G>
  Vertex farthest(const G& g, const std::vector<double>& key) const {
    Vertex best = ~Vertex(0);
    double bd = 0;
    for (std::size_t v = 0; v < n_; ++v)
      if (key[v] < kInf && key[v] > bd && out_degree(Vertex(v), g) > 0) {
        bd = key[v];
        best = Vertex(v);
      }
    return best;
  }

  std::size_t n_ = 0, k_ = 0;
  bool symmetric_ = false;
  std::size_t active_ = 0;
  std::vector<double> table_;
  std::vector<Vertex> ids_;
};

// A representation that offers landmark distances (nullptr or an empty table: none this build).
template <class R>
concept HasLandmarks = requires(const R& r) {
  { r.landmarks() } -> std::same_as<const Landmarks*>;
};

}  // namespace navbench
