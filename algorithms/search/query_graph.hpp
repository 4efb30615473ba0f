// The per-query overlay (docs/architecture.md): a representation's built graph plus two virtual vertices,
// start (n) and goal (n+1), with the query-time links of attach(), exposed as one Boost.Graph
// graph (IncidenceGraph + VertexListGraph) so the one A* runs on every representation unchanged.
// Edges carry their weight in the descriptor, so the weight map is a plain read.
#pragma once
#include <cstdint>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/iterator_facade.hpp>

#include "representations/bgl_traits.hpp"
#include "representations/representation.hpp"
#include "search/workspace.hpp"

namespace navbench {

struct OverlayEdge {
  Vertex u = 0, v = 0;
  double w = 0;
  friend bool operator==(const OverlayEdge& a, const OverlayEdge& b) { return a.u == b.u && a.v == b.v && a.w == b.w; }
};

// The start's links are used as attach() gave them (not deduplicated): the overlay may hold parallel edges.
template <class G, class W>
class QueryGraph : public BglGraph<QueryGraph<G, W>, OverlayEdge, boost::allow_parallel_edge_tag> {
 public:
  using base_traits = boost::graph_traits<G>;
  using base_iterator = typename base_traits::out_edge_iterator;

  // Base out-edges first, then the extra links (the goal link of a base vertex, or start's links).
  // The virtual start has no base range at all (`base_` false), so base iterators are never
  // default-constructed and compared (Boost's counting_iterator leaves them uninitialised).
  // The current edge is built once per step (load()) and kept in the iterator: breadth_first_visit
  // and the A* visitor dereference each edge several times, and each plain dereference would
  // redo the base-or-extra test and the target and weight reads.
  class out_edge_iterator
      : public boost::iterator_facade<out_edge_iterator, OverlayEdge, boost::forward_traversal_tag, const OverlayEdge&> {
   public:
    out_edge_iterator() = default;
    out_edge_iterator(const QueryGraph* g, Vertex src, const Link* x, const Link* xe) : g_(g), x_(x), xe_(xe) {
      e_.u = src;
      load();
    }
    out_edge_iterator(const QueryGraph* g, Vertex src, base_iterator cur, base_iterator end, const Link* x, const Link* xe)
        : g_(g), base_(true), cur_(cur), end_(end), x_(x), xe_(xe) {
      e_.u = src;
      load();
    }

   private:
    friend class boost::iterator_core_access;
    const OverlayEdge& dereference() const { return e_; }
    void increment() {
      if (base_ && cur_ != end_) ++cur_;
      else ++x_;
      load();
    }
    bool equal(const out_edge_iterator& o) const { return x_ == o.x_ && (!base_ || cur_ == o.cur_); }
    // The edge at the current position (left as is at the end).
    void load() {
      if (base_ && cur_ != end_) {
        const auto e = *cur_;
        e_.v = Vertex(target(e, *g_->base_));
        e_.w = double(get(g_->weights_, e));
      } else if (x_ != xe_) {
        e_.v = x_->vertex;
        e_.w = x_->cost;
      }
    }

    const QueryGraph* g_ = nullptr;
    bool base_ = false;
    base_iterator cur_{}, end_{};
    const Link* x_ = nullptr;
    const Link* xe_ = nullptr;
    OverlayEdge e_;
  };

  QueryGraph(const G& base, W weights, const std::vector<Link>& start_links, const GoalLinks& goal_links)
      : base_(&base), weights_(weights), n_(Vertex(num_vertices(base))), start_links_(&start_links),
        goal_links_(&goal_links) {}

  Vertex start_vertex() const { return n_; }
  Vertex goal_vertex() const { return n_ + 1; }
  Vertex base_size() const { return n_; }

  friend std::pair<out_edge_iterator, out_edge_iterator> out_edges(Vertex v, const QueryGraph& g) {
    if (v >= g.n_) {  // start: its links; goal: nothing
      const Link* b = g.start_links_->data();
      const Link* e = v == g.n_ ? b + g.start_links_->size() : b;
      return {out_edge_iterator(&g, v, b, e), out_edge_iterator(&g, v, e, e)};
    }
    auto [cur, end] = out_edges(v, *g.base_);
    const Link* x = g.goal_links_->find(v);
    const Link* xe = x ? x + 1 : x;
    return {out_edge_iterator(&g, v, cur, end, x, xe), out_edge_iterator(&g, v, end, end, xe, xe)};
  }
  friend Vertex source(const OverlayEdge& e, const QueryGraph&) { return e.u; }
  friend Vertex target(const OverlayEdge& e, const QueryGraph&) { return e.v; }
  friend std::size_t out_degree(Vertex v, const QueryGraph& g) {
    auto [b, e] = out_edges(v, g);
    return std::size_t(std::distance(b, e));
  }
  friend std::size_t num_vertices(const QueryGraph& g) { return std::size_t(g.n_) + 2; }

 private:
  const G* base_;
  W weights_;
  Vertex n_;
  const std::vector<Link>* start_links_;
  const GoalLinks* goal_links_;
};

// The weight map of the overlay: the weight travels in the edge descriptor.
struct OverlayWeightMap : EdgeWeightMap<OverlayEdge> {
  friend double get(const OverlayWeightMap&, const OverlayEdge& e) { return e.w; }
};

}  // namespace navbench
