// A mesh of convex polygons searched through its portals, shared by navmesh-file and recast
// (Recast/Detour's scheme): PortalMesh lays out the graph and attaches points, PolygonBuckets finds
// the polygon holding a point.
//
// PolygonBuckets: point location over the mesh's polygons. Each polygon is
// listed in every square bucket its bounding box touches, the buckets about four polygons wide on
// average. A point is tested only against its own bucket's list. Every polygon holding the point
// touches that bucket and each list keeps the polygons' order, so the answer is the first polygon
// (by index) holding the point, however the buckets are laid out.
//
// The polygons are read through two functions: count(i), the number of corners of polygon i, and
// corner(i, k), its corner k, counter-clockwise.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "geometry/point.hpp"
#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/union_find.hpp"

namespace navbench {

class PolygonBuckets {
 public:
  // Lays the buckets over n polygons; a bucket's side is at least min_side.
  template <class Count, class Corner>
  void build(std::size_t n, const Count& count, const Corner& corner, double min_side) {
    std::vector<Box> boxes(n);
    Box all;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < count(i); ++k) boxes[i].add(corner(i, k));
      all.add(boxes[i]);
    }
    origin_ = {all.x0, all.y0};
    const double area = std::max(1e-9, (all.x1 - all.x0) * (all.y1 - all.y0));
    side_ = std::max(min_side, std::sqrt(4 * area / double(std::max<std::size_t>(1, n))));
    bw_ = std::max(1, int(std::ceil((all.x1 - all.x0) / side_)) + 1);
    bh_ = std::max(1, int(std::ceil((all.y1 - all.y0) / side_)) + 1);
    std::vector<std::vector<std::uint32_t>> lists(std::size_t(bw_) * std::size_t(bh_));
    for (std::uint32_t i = 0; i < n; ++i) {
      const int bx0 = column(boxes[i].x0), bx1 = column(boxes[i].x1);
      const int by0 = row(boxes[i].y0), by1 = row(boxes[i].y1);
      for (int by = by0; by <= by1; ++by)
        for (int bx = bx0; bx <= bx1; ++bx) lists[std::size_t(by) * std::size_t(bw_) + std::size_t(bx)].push_back(i);
    }
    begin_.assign(1, 0);
    polygons_.clear();
    for (const auto& l : lists) {
      polygons_.insert(polygons_.end(), l.begin(), l.end());
      begin_.push_back(std::uint32_t(polygons_.size()));
    }
  }

  // The first polygon of p's bucket with p on or left of every edge a -> b, orient(a, b, p) >= 0
  // (a point on a shared edge or a vertex is in every polygon holding it), or -1. The caller gives
  // the orientation test: exact where the mesh's corners are the map's own, plain arithmetic
  // where they are Recast's voxel grid.
  template <class Count, class Corner, class Orient>
  std::int32_t locate(Point p, const Count& count, const Corner& corner, const Orient& orient) const {
    const double fx = (p.x - origin_.x) / side_, fy = (p.y - origin_.y) / side_;
    if (!(fx >= 0 && fy >= 0)) return -1;
    const int bx = int(fx), by = int(fy);
    if (bx >= bw_ || by >= bh_) return -1;
    const std::size_t b = std::size_t(by) * std::size_t(bw_) + std::size_t(bx);
    for (std::uint32_t k = begin_[b]; k < begin_[b + 1]; ++k) {
      const std::uint32_t poly = polygons_[k];
      const std::size_t n = count(poly);
      bool inside = true;
      for (std::size_t i = 0; i < n && inside; ++i) inside = orient(corner(poly, i), corner(poly, (i + 1) % n), p) >= 0;
      if (inside) return std::int32_t(poly);
    }
    return -1;
  }

  std::size_t memory_bytes() const { return polygons_.capacity() * 4 + begin_.capacity() * 4; }

 private:
  struct Box {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    void add(const Point& c) { x0 = std::min(x0, c.x), y0 = std::min(y0, c.y), x1 = std::max(x1, c.x), y1 = std::max(y1, c.y); }
    void add(const Box& b) { x0 = std::min(x0, b.x0), y0 = std::min(y0, b.y0), x1 = std::max(x1, b.x1), y1 = std::max(y1, b.y1); }
  };
  int column(double x) const { return int((x - origin_.x) / side_); }
  int row(double y) const { return int((y - origin_.y) / side_); }

  double side_ = 1;
  int bw_ = 0, bh_ = 0;
  Point origin_{0, 0};
  std::vector<std::uint32_t> begin_, polygons_;  // bucket b lists polygons_[begin_[b] .. begin_[b + 1])
};

// Portal v's two polygons and its two corners, as PortalMesh::link_portals reads them.
struct PortalEnds {
  std::uint32_t from, to;
  Point a, b;
};

// The graph over a mesh's portals: graph vertex v is portal v at its midpoint, two portals of one
// convex polygon are linked (they see each other), and the polygons' connected components give the
// fast no-path answer. The representation fills the polygons' point location, buckets_.
class PortalMesh : public BuiltGraph<CsrGraph>, public StoredPositions {
 protected:
  // Lays the graph out over `polygons` polygons and `portals` portals: ends(v) gives portal v's
  // PortalEnds; price(a, b, polygon) prices a link inside a polygon.
  template <class Ends, class Price>
  void link_portals(std::size_t polygons, std::size_t portals, const Ends& ends, const Price& price) {
    cell_portals_.assign(polygons, {});
    pos_.clear();
    pos_.reserve(portals);
    UnionFind uf(polygons);
    for (Vertex v = 0; v < portals; ++v) {
      const PortalEnds e = ends(v);
      pos_.push_back({(e.a.x + e.b.x) / 2, (e.a.y + e.b.y) / 2});
      cell_portals_[e.from].push_back(v);
      cell_portals_[e.to].push_back(v);
      uf.unite(e.from, e.to);
    }
    component_.resize(polygons);
    for (std::size_t c = 0; c < polygons; ++c) component_[c] = std::int32_t(uf.find(c));
    std::vector<CsrGraph::WeightedEdge> edges;
    for (std::uint32_t c = 0; c < cell_portals_.size(); ++c) {
      const auto& ps = cell_portals_[c];
      for (std::size_t i = 0; i < ps.size(); ++i)
        for (std::size_t j = i + 1; j < ps.size(); ++j) edges.push_back({ps[i], ps[j], price(pos_[ps[i]], pos_[ps[j]], c)});
    }
    graph_ = CsrGraph(portals, std::move(edges));
  }

  // p in polygon c (c < 0: no polygon holds it, no attachment), linked to c's portals, each link
  // priced by price(p, midpoint, c).
  template <class Price>
  std::optional<Attachment> attach_in(std::int32_t c, Point p, const Price& price) const {
    if (c < 0) return std::nullopt;
    Attachment a;
    a.cell = c;
    a.component = component_[std::size_t(c)];
    for (Vertex v : cell_portals_[std::size_t(c)]) a.links.push_back({v, price(p, pos_[v], std::uint32_t(c))});
    return a;
  }

  std::vector<std::vector<Vertex>> cell_portals_;  // per polygon, its portals
  std::vector<std::int32_t> component_;            // per polygon
  PolygonBuckets buckets_;                         // point location over the polygons
};

}  // namespace navbench
