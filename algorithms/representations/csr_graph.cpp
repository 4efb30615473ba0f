#include "representations/csr_graph.hpp"

#include <numeric>
#include <stdexcept>

#include <boost/graph/graph_concepts.hpp>

namespace navbench {

BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<CsrGraph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<CsrGraph>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<CsrWeightMap, CsrGraph::Edge>));

CsrGraph::CsrGraph(std::size_t n, std::vector<WeightedEdge> undirected) : begin_(n + 1, 0) {
  // Counting sort by source, then duplicates dropped per source with a last-seen mark: O(V + E).
  for (const auto& e : undirected) ++begin_[e.u + 1], ++begin_[e.v + 1];
  std::partial_sum(begin_.begin(), begin_.end(), begin_.begin());
  targets_.resize(begin_[n]);
  weights_.resize(begin_[n]);
  std::vector<std::uint32_t> fill(begin_.begin(), begin_.end() - 1);
  for (const auto& e : undirected) {
    targets_[fill[e.u]] = e.v, weights_[fill[e.u]++] = e.w;
    targets_[fill[e.v]] = e.u, weights_[fill[e.v]++] = e.w;
  }
  std::vector<Vertex> seen(n, null_vertex());
  std::uint32_t out = 0;
  for (Vertex u = 0; u < Vertex(n); ++u) {
    const std::uint32_t b = begin_[u], e = begin_[u + 1];
    begin_[u] = out;
    for (std::uint32_t i = b; i < e; ++i) {
      const Vertex v = targets_[i];
      if (seen[v] == u || v == u) continue;
      seen[v] = u;
      targets_[out] = v, weights_[out++] = weights_[i];
    }
  }
  begin_[n] = out;
  targets_.resize(out);
  targets_.shrink_to_fit();
  weights_.resize(out);
  weights_.shrink_to_fit();
}

CsrGraph::CsrGraph(std::vector<std::uint32_t> begin, std::vector<Vertex> targets, std::vector<double> weights)
    : begin_(std::move(begin)), targets_(std::move(targets)), weights_(std::move(weights)) {
  if (begin_.empty() || begin_.back() != targets_.size() || targets_.size() != weights_.size())
    throw std::logic_error("CsrGraph: inconsistent arrays");
}

}  // namespace navbench
