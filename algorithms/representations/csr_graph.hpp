// A static weighted graph in compressed sparse row arrays, modelled in place as a Boost.Graph graph:
// the graph type of the representations that build their own edge lists (navmesh, navmesh-vertices,
// navmesh-tiles, visgraph, subgoal, tangent). Shared so that one tested model of the BGL concepts
// serves them all. (quadtree reads its edges from its cells' portal lists instead: quadtree.hpp.)
#pragma once
#include <cstdint>
#include <utility>
#include <vector>


#include "representations/bgl_traits.hpp"
#include "representations/representation.hpp"

namespace navbench {

// An edge of a CsrGraph: its source and its entry in the arrays.
struct CsrEdge {
  Vertex u = 0;
  std::uint32_t index = 0;  // position in targets/weights
  friend bool operator==(const CsrEdge&, const CsrEdge&) = default;
};

// A static weighted graph in compressed sparse row form, modelled in place as a Boost.Graph graph
// (IncidenceGraph + VertexListGraph, as boost/graph/compressed_sparse_row_graph.hpp but with
// 32-bit indices and the weights in one array next to the targets).
class CsrGraph : public BglGraph<CsrGraph, CsrEdge> {
 public:
  using Edge = CsrEdge;
  struct WeightedEdge {
    Vertex u, v;
    double w;
  };

  class out_edge_iterator : public OutEdgeFacade<out_edge_iterator, Edge> {
   public:
    out_edge_iterator() = default;
    out_edge_iterator(Vertex u, std::uint32_t i) : u_(u), i_(i) {}

   private:
    friend class boost::iterator_core_access;
    Edge dereference() const { return {u_, i_}; }
    void increment() { ++i_; }
    bool equal(const out_edge_iterator& o) const { return i_ == o.i_; }
    Vertex u_ = 0;
    std::uint32_t i_ = 0;
  };

  CsrGraph() = default;
  // n vertices; every undirected edge listed once is stored in both directions. Exact duplicates
  // (same pair) are dropped.
  CsrGraph(std::size_t n, std::vector<WeightedEdge> undirected);
  // The arrays themselves: the out-edges of u are entries begin[u] .. begin[u+1]-1.
  CsrGraph(std::vector<std::uint32_t> begin, std::vector<Vertex> targets, std::vector<double> weights);

  friend std::pair<out_edge_iterator, out_edge_iterator> out_edges(Vertex u, const CsrGraph& g) {
    return {out_edge_iterator(u, g.begin_[u]), out_edge_iterator(u, g.end_[u])};
  }
  friend Vertex source(const Edge& e, const CsrGraph&) { return e.u; }
  friend Vertex target(const Edge& e, const CsrGraph& g) { return g.targets_[e.index]; }
  friend std::size_t out_degree(Vertex u, const CsrGraph& g) { return g.end_[u] - g.begin_[u]; }
  friend std::size_t num_vertices(const CsrGraph& g) { return g.num_vertices(); }

  std::size_t num_vertices() const { return begin_.size(); }
  std::size_t num_edges() const { return live_edges_; }  // directed: each undirected edge twice
  double weight(std::uint32_t index) const { return weights_[index]; }
  const double* weight_data() const { return weights_.data(); }
  std::size_t memory_bytes() const {
    std::size_t slots = 0;
    for (const auto& f : free_slots_) slots += f.capacity() * 4;
    return (begin_.capacity() + end_.capacity() + cap_.capacity() + free_.capacity()) * 4 + slots +
           targets_.capacity() * sizeof(Vertex) + weights_.capacity() * sizeof(double);
  }

  // --- in-place edits (docs/changing-maps.md updates) ---
  // The rows stay in the shared arrays: a row that outgrows its slot moves to a slot of the next
  // power-of-two size, taken from a free list of that size or appended; the slot it leaves goes to
  // the free list of its size (a segregated-fit allocator, as in Wilson et al., "Dynamic Storage
  // Allocation: A Survey", 1995). An edit costs O(its row) and never moves other rows, while the
  // search keeps the plain CSR layout.
  // A new vertex without out-edges; reuses the id of a removed vertex when there is one.
  Vertex add_vertex();
  // Drops u's out-edges and frees its id (the caller removes the edges into u).
  void remove_vertex(Vertex u);
  // Replaces u's out-edges.
  void set_out_edges(Vertex u, const Vertex* targets, const double* weights, std::size_t k);
  // Drops the out-edges of u whose target fails keep(target), in place.
  template <class Keep>
  void filter_out_edges(Vertex u, Keep&& keep) {
    std::uint32_t out = begin_[u];
    for (std::uint32_t i = begin_[u]; i < end_[u]; ++i)
      if (keep(targets_[i])) targets_[out] = targets_[i], weights_[out++] = weights_[i];
    live_edges_ -= end_[u] - out;
    end_[u] = out;
  }
  // Adds k out-edges to u.
  void append_out_edges(Vertex u, const Vertex* targets, const double* weights, std::size_t k);
  // Live vertices: num_vertices() minus the removed ones.
  std::size_t num_live_vertices() const { return begin_.size() - free_.size(); }

 private:
  void ensure_caps();
  void grow_slot(Vertex u, std::size_t k);  // u's slot holds >= k entries afterwards (row kept)
  void release_slot(std::uint32_t begin, std::uint32_t cap);
  std::vector<std::uint32_t> begin_, end_;  // out-edges of u: [begin_[u], end_[u])
  std::vector<std::uint32_t> cap_;          // slot size of u (filled on the first edit)
  std::vector<Vertex> free_;                // removed vertex ids
  std::vector<std::vector<std::uint32_t>> free_slots_;  // [k]: free slots of at least 2^k entries
  std::vector<Vertex> targets_;
  std::vector<double> weights_;
  std::size_t live_edges_ = 0;
};

// Edge weights of a CsrGraph: the stored lengths (a bare array pointer: one load per edge).
struct CsrWeightMap : EdgeWeightMap<CsrEdge> {
  const double* w = nullptr;
  friend double get(const CsrWeightMap& m, const CsrGraph::Edge& e) { return m.w[e.index]; }
};

inline CsrWeightMap weight_map(const CsrGraph& g) { return {{}, g.weight_data()}; }


}  // namespace navbench
