// The free space of a map and the one exact validity test of SPEC §1, used by smoothing, by the
// harness's validation and by every representation's checks alike.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

class FreeSpace {
 public:
  explicit FreeSpace(const Map& m);  // keeps a reference to m: m must outlive it
  ~FreeSpace();
  FreeSpace(FreeSpace&&) noexcept;
  FreeSpace& operator=(FreeSpace&&) noexcept;

  const Map& map() const;
  // p lies in the closed free space: inside the map and not in the interior of an obstacle.
  bool point_free(Point p) const;
  // The segment a-b never enters an obstacle's interior and never passes through a pinch point
  // (a grid corner where exactly two diagonally opposite cells are blocked). Exact: no epsilon.
  bool segment_valid(Point a, Point b) const;
  // At least one point, every point free, every segment valid.
  bool path_valid(const Polyline& path) const;
  // Free-space connected component of a free point (-1 when not free). Two free points are
  // connected by a valid path iff their ids are equal.
  std::int32_t component(Point p) const;
  // Obstacle boundaries as closed rings (no repeated last point); the map's outside counts as an
  // obstacle, so the outer boundary of the walkable area is one of these rings.
  const std::vector<std::vector<Point>>& obstacle_rings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace navbench
