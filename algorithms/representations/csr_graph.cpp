#include "representations/csr_graph.hpp"

#include <bit>
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
  end_.assign(begin_.begin() + 1, begin_.end());
  begin_.pop_back();
  live_edges_ = out;
  targets_.resize(out);
  targets_.shrink_to_fit();
  weights_.resize(out);
  weights_.shrink_to_fit();
}

CsrGraph::CsrGraph(std::vector<std::uint32_t> begin, std::vector<Vertex> targets, std::vector<double> weights)
    : begin_(std::move(begin)), targets_(std::move(targets)), weights_(std::move(weights)) {
  if (begin_.empty() || begin_.back() != targets_.size() || targets_.size() != weights_.size())
    throw std::logic_error("CsrGraph: inconsistent arrays");
  end_.assign(begin_.begin() + 1, begin_.end());
  begin_.pop_back();
  live_edges_ = targets_.size();
}

void CsrGraph::ensure_caps() {
  if (cap_.size() == begin_.size()) return;
  const std::size_t old = cap_.size();  // first edit: every slot is exactly its row
  if (old == 0) {
    // Room for the rows that will move, touched once now: later edits neither copy the arrays
    // as they grow nor fault their pages in one by one.
    const std::size_t n = targets_.size(), room = 2 * n + 1024;
    targets_.resize(room);
    weights_.resize(room);
    targets_.resize(n);
    weights_.resize(n);
  }
  cap_.resize(begin_.size());
  for (std::size_t v = old; v < begin_.size(); ++v) cap_[v] = end_[v] - begin_[v];
}

Vertex CsrGraph::add_vertex() {
  ensure_caps();
  if (!free_.empty()) {
    const Vertex u = free_.back();
    free_.pop_back();
    return u;
  }
  if (begin_.size() >= std::size_t(null_vertex())) throw std::length_error("CsrGraph: too many vertices");
  const auto at = std::uint32_t(targets_.size());
  begin_.push_back(at), end_.push_back(at), cap_.push_back(0);
  return Vertex(begin_.size() - 1);
}

void CsrGraph::remove_vertex(Vertex u) {
  ensure_caps();
  live_edges_ -= end_[u] - begin_[u];
  release_slot(begin_[u], cap_[u]);
  cap_[u] = 0;
  end_[u] = begin_[u];
  free_.push_back(u);
}

void CsrGraph::release_slot(std::uint32_t begin, std::uint32_t cap) {
  if (cap == 0) return;
  const std::size_t k = std::size_t(std::bit_width(cap) - 1);  // the slot holds 2^k entries at least
  if (free_slots_.size() <= k) free_slots_.resize(k + 1);
  free_slots_[k].push_back(begin);
}

void CsrGraph::grow_slot(Vertex u, std::size_t k) {
  if (k <= cap_[u]) return;
  const std::size_t c = std::size_t(std::bit_width(k - 1));  // 2^c >= k
  const std::uint32_t cap = std::uint32_t(1) << c;
  std::uint32_t at;
  if (c < free_slots_.size() && !free_slots_[c].empty()) {
    at = free_slots_[c].back();
    free_slots_[c].pop_back();
  } else {
    if (targets_.size() + cap >= std::size_t(null_vertex())) throw std::length_error("CsrGraph: too many edges");
    at = std::uint32_t(targets_.size());
    if (targets_.size() + cap > targets_.capacity()) {  // double the room, touched once (see ensure_caps)
      const std::size_t n = targets_.size(), room = 2 * n + cap;
      targets_.resize(room);
      weights_.resize(room);
      targets_.resize(n);
      weights_.resize(n);
    }
    targets_.resize(targets_.size() + cap);
    weights_.resize(weights_.size() + cap);
  }
  const std::uint32_t deg = end_[u] - begin_[u];
  std::copy(targets_.begin() + begin_[u], targets_.begin() + end_[u], targets_.begin() + at);
  std::copy(weights_.begin() + begin_[u], weights_.begin() + end_[u], weights_.begin() + at);
  release_slot(begin_[u], cap_[u]);
  begin_[u] = at, end_[u] = at + deg, cap_[u] = cap;
}

void CsrGraph::set_out_edges(Vertex u, const Vertex* t, const double* w, std::size_t k) {
  ensure_caps();
  live_edges_ -= end_[u] - begin_[u];
  end_[u] = begin_[u];
  grow_slot(u, k);
  std::copy(t, t + k, targets_.begin() + begin_[u]);
  std::copy(w, w + k, weights_.begin() + begin_[u]);
  end_[u] = begin_[u] + std::uint32_t(k);
  live_edges_ += k;
}

void CsrGraph::append_out_edges(Vertex u, const Vertex* t, const double* w, std::size_t k) {
  if (k == 0) return;
  ensure_caps();
  grow_slot(u, end_[u] - begin_[u] + k);
  std::copy(t, t + k, targets_.begin() + end_[u]);
  std::copy(w, w + k, weights_.begin() + end_[u]);
  end_[u] += std::uint32_t(k);
  live_edges_ += k;
}

}  // namespace navbench
