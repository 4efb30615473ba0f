// The Boost.Graph traits every graph of the suite shares, written once. Each graph is modelled in
// place, as boost/graph/grid_graph.hpp models a grid: no adjacency_list copy, vertices are the
// indices 0..num_vertices(g)-1 (navbench::Vertex), edges are directed, and the graph is an
// IncidenceGraph + VertexListGraph. A graph derives from BglGraph<itself, its edge descriptor>
// (boost::graph_traits reads the member types), defines its out_edge_iterator, out_edges, source,
// target, out_degree and num_vertices, and gets vertices() from here.
#pragma once
#include <cstddef>
#include <utility>

#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/representation.hpp"

namespace navbench {

template <class Derived, class EdgeT, class ParallelCategory = boost::disallow_parallel_edge_tag>
class BglGraph {
 public:
  using vertex_descriptor = Vertex;
  using edge_descriptor = EdgeT;
  using directed_category = boost::directed_tag;
  using edge_parallel_category = ParallelCategory;
  struct traversal_category : boost::incidence_graph_tag, boost::vertex_list_graph_tag {};
  using vertices_size_type = std::size_t;
  using edges_size_type = std::size_t;
  using degree_size_type = std::size_t;
  using vertex_iterator = boost::counting_iterator<Vertex>;
  static Vertex null_vertex() { return ~Vertex(0); }

  friend std::pair<vertex_iterator, vertex_iterator> vertices(const Derived& g) {
    return {vertex_iterator(0), vertex_iterator(Vertex(num_vertices(g)))};
  }
};

// The base of a graph's out_edge_iterator: a forward iterator whose dereference makes the edge
// descriptor (a small value, returned by value).
template <class Iterator, class EdgeT>
using OutEdgeFacade = boost::iterator_facade<Iterator, EdgeT, boost::forward_traversal_tag, EdgeT>;

// The property-map traits of an edge weight map (a readable map from edge to double length); the
// map derives from this and defines get().
template <class EdgeT>
struct EdgeWeightMap {
  using key_type = EdgeT;
  using value_type = double;
  using reference = double;
  using category = boost::readable_property_map_tag;
};

}  // namespace navbench
