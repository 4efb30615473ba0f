// Parts of the Representation contract that several representations answer alike, inherited
// instead of written out in each.
#pragma once
#include <vector>

#include "geometry/path_cost.hpp"
#include "representations/representation.hpp"

namespace navbench {

// The built graph a representation searches, and its edge weights: weight_map(graph) of the
// graph's own header. The representation's build fills graph_.
template <class G>
class BuiltGraph {
 public:
  using Graph = G;
  const Graph& graph() const { return graph_; }
  auto weights() const { return weight_map(graph_); }

 protected:
  Graph graph_;
};

// Vertices that are stored points: pos_[v] is vertex v's position, filled by the build.
class StoredPositions {
 public:
  Point position(Vertex v) const { return pos_[v]; }

 protected:
  std::vector<Point> pos_;
};

// A representation built on a weighted grid map (docs/terrain.md) prices a segment by the exact
// path-cost integral (geometry/path_cost.hpp), else by its length: its edges, links and the direct
// link (HasDirectCost), and Theta*'s shortcuts (HasSegmentCost). The build calls price_on(map).
class SegmentPricing {
 public:
  bool weighted() const { return weighted_ != nullptr; }
  double segment_cost(Point a, Point b) const { return weighted_ ? navbench::segment_cost(*weighted_, a, b) : distance(a, b); }
  double direct_cost(const Query& q) const { return segment_cost(q.start, q.goal); }

 protected:
  void price_on(const Map& m) { weighted_ = m.weighted() ? &m.grid : nullptr; }
  const GridMap* weighted_ = nullptr;
};

// Representations of free space as convex cells (navmesh, navmesh-vertices, navmesh-tiles, quadtree):
// two points in one cell see each other, and a path runs straight between its vertices' positions.
template <class Derived>
class ConvexCellQueries {
 public:
  bool direct(const Query& q) const { return q.s.cell >= 0 && q.s.cell == q.g.cell; }
  Polyline polyline(const Query& q) const { return polyline_through_positions(static_cast<const Derived&>(*this), q); }
};

}  // namespace navbench
