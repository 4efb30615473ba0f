// quadtree: the quad tree navigation mesh of the classic game-AI write-up of issue 5, on the region
// quadtree of Samet ("The Quadtree and Related Hierarchical Data Structures", ACM Computing Surveys
// 1984) as used for path planning by Kambhampati & Davis ("Multiresolution path planning for mobile
// robots", IEEE J. Robotics and Automation 1986). The field is padded to a power-of-two square and
// divided into quarters while a node holds both free space and obstacles; fully blocked nodes, and
// nodes that reach the minimum size while still touching an obstacle, are dropped. Adjacent cells
// that share a whole side are then collapsed into rectangles (aspect ratio <= `aspect`, so cells
// stay roughly square).
//
// The search graph is the portal graph of those convex cells: one vertex per portal (the segment two
// cells share, of positive length), placed at its midpoint; two portals of the same cell are joined
// with the distance between their midpoints. A query point joins the portals of the cell holding it,
// so every path segment lies inside one closed free cell and the raw path is valid by construction.
// The graph is a compact CSR modelled in place as a Boost.Graph graph (no adjacency_list copy).
//
// Parameters: min (smallest cell side; cells on grid maps, map units on polygon maps; default 1),
// merge (0/1, default 1), aspect (>= 1, default 2).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <boost/graph/graph_concepts.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/csr_graph.hpp"
#include "representations/representation.hpp"

namespace navbench {

// The portal graph: the shared CSR graph (representations/csr_graph.hpp).
using QuadTreeGraph = CsrGraph;
using QuadTreeWeightMap = CsrWeightMap;

class QuadTree {
 public:
  using Graph = QuadTreeGraph;

  // A free cell: the closed rectangle [min.x, max.x] x [min.y, max.y] in map units.
  struct Box {
    Point min, max;
  };

  QuadTree(const Map& map, Params& params);

  // --- the Representation contract ---
  const Graph& graph() const { return graph_; }
  QuadTreeWeightMap weights() const { return weight_map(graph_); }
  Point position(Vertex v) const { return mid_[v]; }
  std::optional<Attachment> attach(Point p) const;
  bool direct(const Query& q) const { return q.s.cell >= 0 && q.s.cell == q.g.cell; }
  Polyline polyline(const Query& q) const { return polyline_through_positions(*this, q); }
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  // The cells' outlines, for path pictures.
  std::vector<Segment> structure() const {
    std::vector<Segment> out;
    for (std::uint32_t c = 0; c < cells_.size(); ++c) {
      const Box b = cell_box(c);
      const Point p[4] = {b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}};
      for (int i = 0; i < 4; ++i) out.push_back({p[i], p[(i + 1) % 4]});
    }
    return out;
  }

  // --- inspection (tests, benchmarks, reports) ---
  std::size_t quadtree_leaves() const { return leaves_; }  // free leaves of the subdivision
  std::size_t cell_count() const { return cells_.size(); } // cells after merging ("leaves" reported)
  Box cell_box(std::uint32_t c) const;
  // The free cell holding p (descends the tree: O(depth)). On a boundary, the first free cell in
  // the directions (1,1), (1,-1), (-1,-1), (-1,1) from p: at a grid pinch point, its owner.
  std::optional<std::uint32_t> cell_at(Point p) const;
  // Cells sharing a boundary segment of positive length with c.
  std::vector<std::uint32_t> neighbours(std::uint32_t c) const;
  std::int32_t component(std::uint32_t c) const { return comp_[c]; }
  // Portal v: the two cells it joins and its segment (ends ordered by increasing x, then y).
  std::pair<std::uint32_t, std::uint32_t> portal_cells(Vertex v) const { return {portals_[v].a, portals_[v].b}; }
  std::pair<Point, Point> portal_segment(Vertex v) const;

 private:
  // Integer geometry: the root square is [0, side]^2 in units of unit_ map units from origin_.
  struct Rect {
    std::int32_t x0, y0, x1, y1;
  };
  // A portal on the line x = line (vertical) or y = line, spanning [lo, hi]; cell a lies on the
  // low side of the line (smaller x or y), cell b on the high side.
  struct PortalRec {
    std::uint32_t a, b;
    std::int32_t line, lo, hi;
    bool vertical;
  };
  // Tree slots: >= 0 an inner node whose 4 children are slots tree_[i..i+3] (order: low x low y,
  // high x low y, low x high y, high x high y); kBlocked; <= -2 a free leaf, id -(value + 2).
  static constexpr std::int32_t kBlocked = -1;

  void subdivide_grid(const GridMap& g, double min_size);
  void subdivide_polygon(const PolygonMap& pm, double min_size);
  void merge_cells(double aspect);
  void find_portals();
  void build_graph();
  Point world(double x, double y) const { return {origin_.x + x * unit_, origin_.y + y * unit_}; }
  std::int64_t locate_slot(double u, double v, bool high_x, bool high_y, bool* tie_x, bool* tie_y) const;

  Point origin_{0, 0};
  double unit_ = 1;
  std::int32_t side_ = 1;          // root side in units (a power of two)
  std::int32_t root_ = kBlocked;   // root slot
  std::vector<std::int32_t> tree_;
  std::size_t leaves_ = 0;
  std::vector<Rect> cells_;
  std::vector<std::int32_t> comp_;             // per cell: connected component id
  std::vector<PortalRec> portals_;              // per graph vertex
  std::vector<Point> mid_;                      // per graph vertex: portal midpoint
  std::vector<std::uint32_t> cell_first_;       // per cell: its portals are cell_portals_[first..first+1)
  std::vector<Vertex> cell_portals_;
  Graph graph_;
};

}  // namespace navbench
