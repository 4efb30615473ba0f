// Visibility on a polygon map's free space, output-sensitive: which convex corners a point sees, by
// triangular expansion (Bungiu, Hemmer, Hershberger, Huang, Kröller, "Efficient Computation of
// Visibility Polygons", EuroCG 2014; the method of CGAL's Triangular_expansion_visibility_2) over a
// constrained Delaunay triangulation of the free space (CGAL, built once per FreeSpace).
//
// The expansion walks from the point's triangle across unconstrained edges, narrowing an angular
// window; it never crosses a ring edge. Windows are closed (a ray grazing a vertex or running along
// an edge stays in), and every decision is an exact orientation of input points (geometry/exact.hpp),
// so the answer is FreeSpace::segment_valid's, not an approximation of it: the corners it reports
// are exactly those c with segment_valid(p, c.at) (tested against that definition on random maps,
// tests/test_visibility.cpp). A window only shrinks and a crossing always moves away from the point,
// so the work is the triangles the point sees (plus their rim), not the map's size.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/point.hpp"

namespace navbench {

class FreeSpace;

class PolygonVisibility {
 public:
  // A polygon map's free space (its rings and convex corners, copied); every query takes the same fs.
  explicit PolygonVisibility(const FreeSpace& fs);
  ~PolygonVisibility();
  PolygonVisibility(const PolygonVisibility&) = delete;
  PolygonVisibility& operator=(const PolygonVisibility&) = delete;

  // False when the triangulation could not take the rings as they are (a constraint it had to cut
  // at a new point); callers then use the definition (segment_valid over every corner) instead.
  bool usable() const;
  // Indices into fs.convex_corners() of every corner c with fs.segment_valid(p, c.at), ascending;
  // empty when p is not free.
  void visible_corners(const FreeSpace& fs, Point p, std::vector<std::uint32_t>& out) const;
  // The same for the point of corner i, from which every corner at another point is asked
  // (segment_valid(c_i.at, c_j.at), j != i), ascending. tangent_wedges: only the corners that also
  // lie where a line through c_i is tangent there must be in (a caller that keeps tangent pairs
  // filters the rest), which spares the expansion the wedge opposite the obstacle.
  void visible_from_corner(const FreeSpace& fs, std::uint32_t i, std::vector<std::uint32_t>& out,
                           bool tangent_wedges = false) const;
  // p lies in the closed free space: by point location in the triangulation (CGAL's walk from a
  // vertex near p, exact predicates): on a triangle of the free space, or on its boundary.
  bool point_free(Point p) const;
  // The segment a-b by a walk along the triangulation from a's triangle (exact orientations):
  // 1 when it certainly lies in the free space (a and b inside free triangles, the segment passing
  // from one to the next only through the inside of edges that are no ring's); -1 when it certainly
  // does not (from a inside a free triangle it crosses a ring edge at a point inside that edge,
  // which the definition refuses); 0 decides nothing (a vertex on the way, an end on an edge or
  // outside the free triangles): FreeSpace::segment_valid then applies the definition.
  int segment_inside(Point a, Point b) const;
  // Triangles of the triangulation (statistics, memory).
  std::size_t triangles() const;
  std::size_t memory_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace navbench
