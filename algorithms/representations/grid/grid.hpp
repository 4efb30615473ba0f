// grid4 / grid8: the occupancy grid itself as a Boost.Graph graph, modelled in place in the manner
// of boost/graph/grid_graph.hpp and example/implicit_graph.cpp — no adjacency_list copy. One byte
// per cell holds the moves allowed from it (computed once at build); out-edges enumerate its bits.
// Diagonal moves cost sqrt(2) and never cut a corner: both orthogonal neighbours must be passable
// (Moving AI's octile rule, docs/maps.md).
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include <boost/graph/graph_concepts.hpp>

#include "representations/bgl_traits.hpp"
#include "representations/built_graph.hpp"
#include "representations/representation.hpp"
#include "representations/union_find.hpp"

namespace navbench {

// A move: from cell u in direction dir. Directions 0..3 are E, W, S, N (cost 1); 4..7 are SE, NE,
// SW, NW (cost sqrt 2).
struct GridEdge {
  Vertex u = 0;
  std::uint8_t dir = 0;
  friend bool operator==(const GridEdge&, const GridEdge&) = default;
};
// The cell steps of the eight directions, by GridEdge::dir.
inline constexpr int kGridStepX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, kGridStepY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

class GridGraph : public BglGraph<GridGraph, GridEdge> {
 public:
  using Edge = GridEdge;

  class out_edge_iterator : public OutEdgeFacade<out_edge_iterator, Edge> {
   public:
    out_edge_iterator() = default;
    out_edge_iterator(Vertex u, unsigned mask) : u_(u), mask_(mask) {}

   private:
    friend class boost::iterator_core_access;
    Edge dereference() const { return {u_, std::uint8_t(std::countr_zero(mask_) & 7)}; }
    void increment() { mask_ &= mask_ - 1; }
    bool equal(const out_edge_iterator& o) const { return mask_ == o.mask_; }
    Vertex u_ = 0;
    unsigned mask_ = 0;
  };

  GridGraph() = default;
  GridGraph(const GridMap& map, bool diagonal);
  // The corner lattice (grid/corner_lattice.hpp): a width x height lattice of corners with the
  // given moves; no weights, no refresh.
  GridGraph(int width, int height, std::vector<std::uint8_t> moves) : width_(width), height_(height), moves_(std::move(moves)) {
    for (int d = 0; d < 8; ++d) offset_[d] = std::int64_t(kGridStepY[d]) * width_ + kGridStepX[d];
  }

  int width() const { return width_; }
  int height() const { return height_; }
  unsigned moves(Vertex v) const { return moves_[v]; }
  std::int64_t offset(unsigned dir) const { return offset_[dir]; }

  friend std::pair<out_edge_iterator, out_edge_iterator> out_edges(Vertex u, const GridGraph& g) {
    return {out_edge_iterator(u, g.moves_[u]), out_edge_iterator(u, 0)};
  }
  friend Vertex source(const Edge& e, const GridGraph&) { return e.u; }
  friend Vertex target(const Edge& e, const GridGraph& g) { return Vertex(std::int64_t(e.u) + g.offset_[e.dir]); }
  friend std::size_t out_degree(Vertex u, const GridGraph& g) { return std::size_t(std::popcount(g.moves_[u])); }
  friend std::size_t num_vertices(const GridGraph& g) { return g.moves_.size(); }

  std::size_t num_edges() const;
  // Recomputes the moves of cells x0 .. x1-1 of row y from the map (the build: every row; an
  // update: the rows and spans around the cells that changed). Reads rows y-1, y, y+1 in place.
  void refresh(const GridMap& map, int y, int x0, int x1);
  std::size_t memory_bytes() const { return moves_.capacity() + zeros_.capacity(); }
  // A weighted map's cell weights (the map's own array; docs/terrain.md), nullptr when unweighted.
  const double* cell_weights() const { return weights_; }
  // Reads the weights of `map` from now on (an update: the map may have become weighted, or its
  // weights array may have been replaced, since the build; nothing keeps pointing at the old one).
  void set_weights(const GridMap& map) { weights_ = map.weighted() ? map.weights.data() : nullptr; }
  const std::int64_t* offsets() const { return offset_; }

 private:
  const double* weights_ = nullptr;
  int width_ = 0, height_ = 0;
  bool diagonal_ = false;
  std::int64_t offset_[8] = {};
  std::vector<std::uint8_t> moves_;
  std::vector<std::uint8_t> zeros_;  // a blocked row, read above the first row and below the last
};

// Edge weights: 1 for the four straight moves, sqrt(2) for the diagonals; on a weighted map
// (docs/terrain.md) times the mean weight of the two cells, (w_a + w_b) / 2: the exact cost of
// the step's segment, which crosses only those two cells (a diagonal meets the other two at a point).
struct GridWeightMap : EdgeWeightMap<GridEdge> {
  const double* w = nullptr;
  const std::int64_t* offset = nullptr;
  friend double get(const GridWeightMap& m, const GridGraph::Edge& e) {
    const double len = e.dir < 4 ? 1.0 : M_SQRT2;
    if (!m.w) return len;
    return len * 0.5 * (m.w[e.u] + m.w[std::int64_t(e.u) + m.offset[e.dir]]);
  }
};
inline GridWeightMap weight_map(const GridGraph& g) { return {{}, g.cell_weights(), g.offsets()}; }

// The representation: a cell is a vertex at its centre; a query point joins every free cell whose
// closed square holds it.
template <bool Diagonal>
class GridRepresentation : public BuiltGraph<GridGraph> {
 public:
  GridRepresentation(const Map& map, Params& params);
  // The declaration: a step is the segment between two vertices (segment edges); grid8's raw paths
  // (centre lattice) are the scenario's optimal 8-connected paths; weight changes update in place.
  // `lattice=corner` puts the vertices at cell corners (SPEC §11, grid/corner_lattice.hpp; unweighted
  // maps, rebuilt on a change); `pinch` is its squeeze rule (SPEC §11), which the centre lattice
  // cannot use (its moves never pass a pinch point).
  static constexpr Capabilities kCapabilities{.grid_only = true, .grid8_optimal = Diagonal, .point_vertices = true,
                                              .weights = true, .weights_in_place = true, .update_in_place = true,
                                              .segment_edges = true};
  static constexpr std::array kParams{
      ParamDecl{"lattice", ParamType::choice, 0, 0, 1, "vertices at cell centres or at cell corners (SPEC 11)", nullptr,
                "center,corner"},
      ParamDecl{"pinch", ParamType::choice, 0, 0, 1, "corner lattice: moves through a pinch point forbidden or allowed",
                nullptr, "forbid,allow"}};
  static constexpr std::array kClashes{
      ParamClash{"pinch", 1, "lattice", 0, 0, "pinch=allow needs lattice=corner (centre moves never pass a pinch point)"}};
  bool corner_lattice() const { return corner_; }

  Point position(Vertex v) const {
    // y = v / W by a floating multiply (exact after the one-step correction): the heuristic calls
    // this for every generated vertex and an integer division costs more than the rest of it.
    const unsigned W = unsigned(graph_.width());
    unsigned y = unsigned(double(v) * inv_width_);
    if (y * W > v) --y;
    else if ((y + 1) * W <= v) ++y;
    return {double(v - y * W) + half_, double(y) + half_};
  }
  // The cell's square, counter-clockwise (search traces, search/observer.hpp); none on the corner
  // lattice, whose vertices are corners.
  void vertex_outline(Vertex v, std::vector<Point>& out) const {
    if (corner_) return;
    const Point c = position(v);
    out.insert(out.end(), {{c.x - 0.5, c.y - 0.5}, {c.x + 0.5, c.y - 0.5}, {c.x + 0.5, c.y + 0.5}, {c.x - 0.5, c.y + 0.5}});
  }
  std::optional<Attachment> attach(Point p) const;
  bool direct(const Query& q) const;
  double direct_cost(const Query& q) const { return segment_cost(q.start, q.goal); }
  // docs/terrain.md: a straight segment's cost on a weighted map (geometry/path_cost.hpp), else its length.
  bool weighted() const { return map_->weighted(); }
  double segment_cost(Point a, Point b) const;
  Polyline polyline(const Query& q) const { return polyline_through_positions(*this, q); }
  BuildStats stats() const;
  // The moves as segments between cell centres (each undirected move once).
  void structure(const SegmentSink& emit) const;
  // docs/changing-maps.md: changed cells update the moves of their 3x3 neighbourhoods, O(changed). A freed cell
  // joins (unites) its neighbours' components; a blocked cell leaves its component's label as it
  // is, so labels may over-approximate connectivity after a split: equal labels then no longer
  // prove a path exists, but different labels still prove none does (the only use: early no_path).
  // The steps' costs read the map's weights where they are (docs/terrain.md), so a change of weights
  // only (`changed` empty, or listing cells whose weight changed) is taken in place too: the update
  // points the graph at the map's current weights array (one that appeared, moved or went away).
  bool update(const Map& map, const std::vector<CellChange>& changed);

 private:
  const GridMap* map_;
  double inv_width_ = 1.0;
  double half_ = 0.5;    // a vertex's offset from its cell's corner: 0.5 on the centre lattice, 0 on corners
  bool corner_ = false;  // lattice=corner
  bool squeeze_ = false; // pinch=allow
  std::vector<std::int32_t> component_;  // 4-connected free-cell component label per cell (-1 blocked)
  struct Run {
    int y, x0, x1;       // cells x0 .. x1-1 of row y
    std::uint8_t free;   // their value (a row span to recompute leaves it 0)
  };
  // Update scratch: the runs of changed cells, the row spans whose moves are recomputed (bucketed
  // by row), and where each row's bucket starts. (The build's free runs are Runs too.)
  std::vector<Run> runs_, spans_;
  std::vector<std::size_t> row_start_;
  UnionFind labels_;  // label -> its component id (labels united by updates)
  std::int32_t component_of(Vertex v) const { return component_[v] < 0 ? -1 : labels_.root(component_[v]); }
};

using Grid4 = GridRepresentation<false>;
using Grid8 = GridRepresentation<true>;

}  // namespace navbench
