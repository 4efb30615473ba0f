// A complete, minimal representation: the walk-through in docs/adding-a-representation.md.
// "tiles": free grid cells joined to their 4 neighbours, stored as compact CSR arrays and modelled
// in place as a Boost.Graph graph (the tile graphs with per-edge costs of the classic write-ups).
// Its folder (this one: the class, registration.cpp, CMakeLists.txt) is a representation folder as
// algorithms/representations/<name>/ holds one; the test build adds it at configure time
// (tests/CMakeLists.txt), so every battery runs on it and `navbench-example list` lists it
// (ctest example_folder), and the walk-through cannot rot.
#pragma once
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include <boost/graph/graph_concepts.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/representation.hpp"

namespace navbench::example {

// 1. The graph: CSR arrays, the BGL typedefs and free functions grouped by concept.
struct TileGraph {
  std::vector<std::uint32_t> offsets;  // out-edges of v: [offsets[v], offsets[v+1])
  std::vector<Vertex> targets;
  std::vector<double> costs;           // per-edge cost

  using vertex_descriptor = Vertex;
  using edge_descriptor = std::uint32_t;  // index into targets/costs
  using directed_category = boost::directed_tag;
  using edge_parallel_category = boost::disallow_parallel_edge_tag;
  struct traversal_category : boost::incidence_graph_tag, boost::vertex_list_graph_tag {};
  using out_edge_iterator = boost::counting_iterator<std::uint32_t>;
  using vertex_iterator = boost::counting_iterator<Vertex>;
  using degree_size_type = std::size_t;
  using vertices_size_type = std::size_t;
  using edges_size_type = std::size_t;
  static Vertex null_vertex() { return ~Vertex(0); }
};
// IncidenceGraph
inline std::pair<TileGraph::out_edge_iterator, TileGraph::out_edge_iterator> out_edges(Vertex v, const TileGraph& g) {
  return {g.offsets[v], g.offsets[v + 1]};
}
inline Vertex source(std::uint32_t e, const TileGraph& g) {
  return Vertex(std::upper_bound(g.offsets.begin(), g.offsets.end(), e) - g.offsets.begin() - 1);
}
inline Vertex target(std::uint32_t e, const TileGraph& g) { return g.targets[e]; }
inline std::size_t out_degree(Vertex v, const TileGraph& g) { return g.offsets[v + 1] - g.offsets[v]; }
// VertexListGraph
inline std::pair<TileGraph::vertex_iterator, TileGraph::vertex_iterator> vertices(const TileGraph& g) {
  return {0, Vertex(g.offsets.size() - 1)};
}
inline std::size_t num_vertices(const TileGraph& g) { return g.offsets.size() - 1; }

// 2. The representation: build in the constructor, then the few query-time calls of the contract.
class Tiles {
 public:
  using Graph = TileGraph;
  // 2a. The declaration: what it does (capabilities.hpp; make_entry checks it against the members
  // below: no corridor(), no update(), no table_search()) and its parameters (params.hpp).
  static constexpr Capabilities kCapabilities{.grid_only = true, .point_vertices = true, .segment_edges = true};
  // Opt-in: a sweep's {"every": true} leaves it out (an example, not a contender; a costly build
  // declares the same).
  static constexpr bool kOptIn = true;
  static constexpr std::array kParams{
      ParamDecl{"links", ParamType::integer, 1, 1, 4, "how many of the free tiles holding a query point it joins"}};

  Tiles(const Map& m, Params& params) : map_(&m.grid) {
    links_ = std::size_t(params.integer(param(kParams, "links")));  // read through the declaration
    params.finish("tiles");  // a key given but not read is an error
    if (m.kind != MapKind::grid) throw UnsupportedMap("tiles needs a grid map");
    const int W = m.grid.width, H = m.grid.height;
    g_.offsets.push_back(0);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        if (m.grid.passable(x, y))
          for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
            if (m.grid.passable(x + dx, y + dy)) {
              g_.targets.push_back(Vertex((y + dy) * W + x + dx));
              g_.costs.push_back(1.0);
            }
        g_.offsets.push_back(std::uint32_t(g_.targets.size()));
      }
  }

  const Graph& graph() const { return g_; }
  auto weights() const { return boost::make_iterator_property_map(g_.costs.data(), boost::identity_property_map()); }
  Point position(Vertex v) const { return {v % map_->width + 0.5, double(v / map_->width) + 0.5}; }

  // A query point joins up to `links` free tiles whose closed square holds it (one is enough for a
  // 4-connected graph; more shorten paths from a tile corner); nullopt if there is none.
  std::optional<Attachment> attach(Point p) const {
    Attachment a;
    for (int y = int(std::ceil(p.y)) - 1; y <= int(std::floor(p.y)); ++y)
      for (int x = int(std::ceil(p.x)) - 1; x <= int(std::floor(p.x)); ++x)
        if (map_->passable(x, y) && a.links.size() < links_) {
          const Vertex v = Vertex(y * map_->width + x);
          a.links.push_back({v, distance(p, position(v))});
          if (a.links.size() == 1) a.cell = v;
        }
    if (a.links.empty()) return std::nullopt;
    return a;
  }
  bool direct(const Query& q) const { return q.s.cell == q.g.cell; }  // same tile: straight line
  Polyline polyline(const Query& q) const { return polyline_through_positions(*this, q); }
  BuildStats stats() const {
    return {num_vertices(g_), g_.targets.size(),
            g_.offsets.capacity() * 4 + g_.targets.capacity() * 4 + g_.costs.capacity() * 8};
  }

 private:
  const GridMap* map_;
  std::size_t links_ = 1;
  TileGraph g_;
};

BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<TileGraph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<TileGraph>));
static_assert(Representation<Tiles>);

}  // namespace navbench::example
