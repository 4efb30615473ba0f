// The free space of a map and the one exact validity test of docs/maps.md, used by smoothing, by the
// harness's validation and by every representation's checks alike.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

// A convex obstacle corner: a boundary vertex whose free sector is wider than 180 degrees. `before`
// and `after` are points on the two boundary edges that leave it (the free sector runs
// counter-clockwise from `after` to `before`). A grid pinch point is never one.
struct ConvexCorner {
  Point at, before, after;
  std::int32_t component = -1;
};

class PathClearance;      // geometry/path_quality.hpp
class PolygonVisibility;  // geometry/visibility.hpp

class FreeSpace {
 public:
  // keeps a reference to m: m must outlive it. `squeeze`: the squeeze rule `allow` (SPEC §11, grid
  // maps): a segment may pass through a pinch point, so the cells meeting there are one component.
  explicit FreeSpace(const Map& m, bool squeeze = false);
  ~FreeSpace();
  FreeSpace(FreeSpace&&) noexcept;
  FreeSpace& operator=(FreeSpace&&) noexcept;

  const Map& map() const;
  bool squeeze() const;  // built with the squeeze rule `allow`
  // p lies in the closed free space: inside the map and not in the interior of an obstacle.
  bool point_free(Point p) const;
  // The segment a-b never enters an obstacle's interior and never passes through a pinch point
  // (a grid corner where exactly two diagonally opposite cells are blocked); an end on a pinch
  // point follows the owner rule below (a segment on its own is a path from a to b). Exact: no epsilon.
  bool segment_valid(Point a, Point b) const;
  // At least one point, every point free, every segment valid; at the start and goal the owner
  // rule, at an inner vertex on a pinch point the path arrives and leaves through one free cell.
  bool path_valid(const Polyline& path) const;
  // Free-space connected component of a free point (-1 when not free). Two free points are
  // connected by a valid path iff their ids are equal.
  std::int32_t component(Point p) const;
  // Obstacle boundaries as closed rings (no repeated last point); the map's outside counts as an
  // obstacle, so the outer boundary of the walkable area is one of these rings.
  // Each ring is simple, keeps the free space on its left (outer boundaries of the free space turn
  // counter-clockwise in (x, y), obstacle islands clockwise), and touches other rings only at
  // shared vertices. Grid maps: integer corners, collinear cell edges merged, traced on first use.
  const std::vector<std::vector<Point>>& obstacle_rings() const;
  // Every convex obstacle corner (the nodes of the visibility graph), in a fixed order.
  const std::vector<ConvexCorner>& convex_corners() const;
  // Number of free-space components (ids are 0 .. count-1).
  std::int32_t component_count() const;
  // The obstacle boundaries bucketed for clearance queries (geometry/path_quality.hpp), built on
  // first use, once, also when several threads ask at the same time.
  const PathClearance& path_clearance() const;
  // Polygon maps: the convex corners (indices, ascending) that a free point sees, that is every c
  // with segment_valid(p, c.at), output-sensitive (triangular expansion over the free space's
  // triangulation, geometry/visibility.hpp, built on first use, once, also when several threads ask
  // at the same time). False, and nothing written, on grid maps (their representations walk cells)
  // and where the triangulation cannot take the rings: the caller then asks segment_valid per corner.
  bool visible_corners(Point p, std::vector<std::uint32_t>& out) const;
  // The same from corner i's point, without i itself: every j != i with segment_valid(c_i.at, c_j.at);
  // with tangent_wedges at least those of them where the line through both is tangent at c_i
  // (visibility.hpp), for a caller that filters by that tangency.
  bool visible_from_corner(std::uint32_t i, std::vector<std::uint32_t>& out, bool tangent_wedges = false) const;

  // Semantics at a pinch point (two free sectors meeting at one point): the point itself belongs
  // to one sector, its "own" one. A path may start or end at a pinch point only from inside that
  // sector; an inner vertex there may be reached from either sector if the path leaves into the
  // same one (SPEC §1), so no valid path ever moves from one sector to the other through it. Grid maps: the sector of
  // free cell (x, y) for the corner (x, y), else that of cell (x, y - 1) (the cell grid4/grid8
  // attach such a point to). Polygon maps: the sector wider than 180 degrees if there is one, else
  // the first sector holding the direction (1,1), (1,-1), (-1,-1), (-1,1).
  //
  // Polygon maps: the free space is the walkable area minus the union of all obstacles, computed
  // once with Boost.Geometry (union_, difference); where obstacles cross, the crossing points are
  // rounded to doubles there. Every answer after that is exact with respect to those rings. Its
  // rings, their rtree and their triangulation (visible_corners) are built once per polygon map
  // and shared by every FreeSpace of equal polygons (the run's validity test, the representations
  // that keep one, the oracles' exact graph): a representation's build time on a polygon map holds
  // them only when it is the first to ask (in a run the agent space asks first, untimed). A grid
  // map's FreeSpace is each its own (a walk over the cells, a few percent of a build).
  // Components are the polygons of that (valid, OGC) multipolygon.

 private:
  struct Impl;
  static std::shared_ptr<Impl> shared_polygon_impl(const Map& m);
  const Map* map_ = nullptr;
  std::shared_ptr<Impl> impl_;  // polygon maps: shared by every FreeSpace of equal polygons
};

}  // namespace navbench
