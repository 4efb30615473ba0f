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

class PathClearance;  // geometry/path_quality.hpp

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
  // shared vertices. Grid maps: integer corners, collinear cell edges merged.
  const std::vector<std::vector<Point>>& obstacle_rings() const;
  // Every convex obstacle corner (the nodes of the visibility graph), in a fixed order.
  const std::vector<ConvexCorner>& convex_corners() const;
  // Number of free-space components (ids are 0 .. count-1).
  std::int32_t component_count() const;
  // The obstacle boundaries bucketed for clearance queries (geometry/path_quality.hpp), built on
  // first use, once, also when several threads ask at the same time.
  const PathClearance& path_clearance() const;

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
  // rounded to doubles there. Every answer after that is exact with respect to those rings.
  // Components are the polygons of that (valid, OGC) multipolygon.

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace navbench
