// The tangent graph representation's build (tangent.hpp): the graph of a disc agent's free space and its landmarks.
#include "representations/tangent/tangent.hpp"


#include <algorithm>
#include <atomic>
#include <iterator>
#include <cmath>
#include <stdexcept>

#include "representations/union_find.hpp"

namespace navbench {

TangentRepresentation::TangentRepresentation(const Map& map, double R) : R_(R) {
  static std::atomic<std::uint64_t> builds{0};
  serial_ = ++builds;
  if (!(R_ > kRadiusTolerance) || !std::isfinite(R_)) throw std::invalid_argument("the tangent graph needs radius > 1e-9");
  free_ = std::make_unique<FreeSpace>(map);
  rv_ = std::make_unique<RadiusValidity>(*free_);
  tangent_ = std::make_unique<TangentGraph>(*free_, *rv_, R_);
  // Every node has at most one leaving segment and one leaving arc: a directed CSR graph.
  const std::size_t n = tangent_->vertex_count();
  std::vector<std::uint32_t> begin(n + 1, 0);
  std::vector<Vertex> targets;
  std::vector<double> weights;
  for (std::size_t i = 0; i < n; ++i) {
    const auto nd = tangent_->node(std::int32_t(i));
    if (nd.seg_to >= 0) targets.push_back(Vertex(nd.seg_to)), weights.push_back(nd.seg_len);
    // An arc jumps over the nodes without a leaving segment (arrivals), whose only way on is their
    // own arc: a walk along the circle stops only where it may leave, and the search expands
    // those nodes only when it arrives at them by their segment. The goal joins from every node
    // back to the last one with a leaving segment before its tangent point (join_goal's
    // back_to_segment), so no walk loses its way out; lengths are the sums of the arcs jumped.
    std::int32_t to = nd.arc_to;
    double len = nd.arc_len;
    while (to >= 0) {
      const auto nx = tangent_->node(to);
      if (nx.seg_to >= 0 || nx.arc_to < 0) break;
      len += nx.arc_len;
      to = nx.arc_to;
    }
    if (to >= 0 && to != nd.seg_to) targets.push_back(Vertex(to)), weights.push_back(len);
    begin[i + 1] = std::uint32_t(targets.size());
  }
  graph_ = CsrGraph(std::move(begin), std::move(targets), std::move(weights));
  if (map.kind == MapKind::grid) {
    grid_ = true;
    const auto& corners = free_->convex_corners();
    fov_ = GridFov(map.grid, corners);
    if (std::int64_t(map.grid.width) * map.grid.height <= (1 << 18) && corners.size() <= 4096) {
      std::vector<std::vector<GridFov::Span>> spans(corners.size());
      for (std::size_t k = 0; k < corners.size(); ++k)
        if (tangent_->circle_of_corner(k) >= 0) fov_.region(corners[k].at, spans[k]);
      blocks_ = BlockCandidates(map.grid, corners, 2, spans);
      los_ = GridLos(map.grid);
    }
  }
  landmarks_ = build_landmarks();
}

Landmarks TangentRepresentation::build_landmarks() const {
  // The landmark distances are taken in the symmetric closure of the graph (every arc also
  // reversed, same weight), not in the directed graph itself. Why: the selection of
  // representations/landmarks.hpp (farthest points from a seed) chooses among the vertices its
  // seed reaches, and in the directed tangent graph many vertices reach only a few others (a wrap
  // that ends at its cone with no tangent leaving after it), so it stops after one landmark. The
  // bound stays exact: the closure holds every arc of the graph, so its distances d' satisfy
  // d'(L, v) <= d'(L, u) + w(u, v) for every arc u -> v of the graph, and h(v) = d'(L, T) - d'(L, v)
  // (with d'(L, T) = min over the goal's links of d'(L, g) + c) is admissible and consistent for
  // the directed search, as ALT's proof needs only these triangle inequalities.
  const std::size_t n = tangent_->vertex_count();
  // Only the arcs of the largest connected component of the closure: the selection seeds at the
  // vertex of highest out-degree, which may lie in a small enclosed region (Aurora: many islands),
  // and then chooses only among the vertices it reaches. Vertices elsewhere keep +inf rows, which
  // the shared A* skips (h falls back to the Euclidean bound there); a vertex of the main component
  // with d'(L, T) = +inf cannot reach T (the closure holds every arc), so h = +inf is exact there.
  std::vector<std::uint32_t> comp(n, 0);  // 1: in the main component
  {
    UnionFind sets(n);  // the closure's components
    for (std::size_t u = 0; u < n; ++u)
      for (auto [it, end] = out_edges(Vertex(u), graph_); it != end; ++it)
        sets.unite(std::int32_t(u), std::int32_t(target(*it, graph_)));
    std::vector<std::size_t> size(n, 0);
    for (std::size_t v = 0; v < n; ++v) ++size[std::size_t(sets.find(std::int32_t(v)))];
    std::int32_t main = -1;  // the largest component; on a tie the one holding the least vertex
    for (std::size_t v = 0; v < n; ++v)
      if (const std::int32_t r = sets.find(std::int32_t(v)); main < 0 || size[std::size_t(r)] > size[std::size_t(main)]) main = r;
    for (std::size_t v = 0; v < n; ++v) comp[v] = sets.find(std::int32_t(v)) == main ? 1u : 0u;
  }
  std::vector<std::uint32_t> begin(n + 1, 0);
  for (std::size_t u = 0; u < n; ++u)
    if (comp[u])
      for (auto [it, end] = out_edges(Vertex(u), graph_); it != end; ++it) {
        ++begin[u + 1];
        ++begin[std::size_t(target(*it, graph_)) + 1];
      }
  for (std::size_t u = 0; u < n; ++u) begin[u + 1] += begin[u];
  std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
  std::vector<Vertex> targets(begin[n]);
  std::vector<double> weights(begin[n]);
  const auto w = weight_map(graph_);
  for (std::size_t u = 0; u < n; ++u)
    if (comp[u])
      for (auto [it, end] = out_edges(Vertex(u), graph_); it != end; ++it) {
        const Vertex v = Vertex(target(*it, graph_));
        const double x = get(w, *it);
        targets[fill[u]] = v, weights[fill[u]++] = x;
        targets[fill[v]] = Vertex(u), weights[fill[v]++] = x;
      }
  const CsrGraph sym(std::move(begin), std::move(targets), std::move(weights));
  // Landmarks spread over circles: a vertex's place is its circle (named by the circle's first
  // vertex, so places stay < n), as the tangent points of one corner are near in space.
  std::vector<Vertex> first(tangent_->circle_count(), Vertex(n)), place(n);
  for (std::size_t v = 0; v < n; ++v) {
    Vertex& f = first[std::size_t(tangent_->node(std::int32_t(v)).circle)];
    if (f == Vertex(n)) f = Vertex(v);
    place[v] = f;
  }
  return Landmarks(sym, weight_map(sym), kLandmarks, [&](Vertex v) { return place[v]; });
}

}  // namespace navbench
