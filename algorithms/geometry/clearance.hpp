// Clearance of a grid map (docs/radius.md): the exact Euclidean distance from cell centres and grid corners
// to the nearest obstacle (blocked cells as closed unit squares, everything outside [0,W] x [0,H]),
// and an exact disc test for any point. The radius-R free space every representation builds on.
#pragma once
#include <cstdint>
#include <vector>

#include "geometry/distance.hpp"
#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

// docs/radius.md: a point is clear for radius R when its distance to every obstacle is >= R - this.
inline constexpr double kRadiusTolerance = 1e-9;

class GridClearance {
 public:
  explicit GridClearance(const GridMap& g);

  int width() const { return W_; }
  int height() const { return H_; }

  // Squared distance from the centre (x + 0.5, y + 0.5) of cell (x, y) to the nearest obstacle:
  // exact (a multiple of 1/4), 0 for a blocked cell.
  double centre_sq(int x, int y) const { return centre_sq_[std::size_t(y) * W_ + x]; }
  // Squared distance from the grid corner (x, y), 0 <= x <= W, 0 <= y <= H: exact, 0 on the map's
  // border and at corners of blocked cells.
  double corner_sq(int x, int y) const { return corner_sq_[std::size_t(y) * (W_ + 1) + x]; }
  double centre(int x, int y) const;
  double corner(int x, int y) const;

  // Cell (x, y) is inside the map and blocked.
  bool blocked(int x, int y) const { return next_blocked(x, y) == x; }
  // The smallest x' >= x with cell (x', y) blocked, W when none (0 <= x <= W, 0 <= y < H): lets a
  // scan over a row jump over runs of free cells.
  int next_blocked(int x, int y) const { return next_[std::size_t(y) * (W_ + 1) + x]; }
  // Number of blocked cells (x, y) with x0 <= x <= x1, y0 <= y <= y1 (all within the map; x0 <= x1 + 1,
  // y0 <= y1 + 1): four look-ups in the summed-area table (Crow 1984, "Summed-area tables for texture
  // mapping"), so that a scan can skip a whole free rectangle at once.
  std::int32_t blocked_count(int x0, int y0, int x1, int y1) const {
    auto at = [&](int x, int y) { return sum_[std::size_t(y) * (W_ + 1) + x]; };
    return at(x1 + 1, y1 + 1) - at(x0, y1 + 1) - at(x1 + 1, y0) + at(x0, y0);
  }

  // Distance from any point to the nearest obstacle: 0 outside the map or in a blocked cell.
  // Exact up to the rounding of one hypot.
  double point_clearance(Point c) const;
  // The closed disc of radius R at c keeps distance >= R - kRadiusTolerance from every obstacle.
  // When R <= kRadiusTolerance that test is vacuous and the point agent's is used: c lies in the
  // closed free space (docs/maps.md).
  bool disc_free(Point c, double R) const;

 private:
  // Upper bound on point_clearance(c) from the nearest stored lattice point (c inside the map).
  double clearance_upper(Point c, double* lower) const;

  int W_ = 0, H_ = 0;
  std::vector<std::int32_t> next_;  // H rows of W + 1 entries
  std::vector<std::int32_t> sum_;   // (W + 1) x (H + 1): blocked cells (x', y') with x' < x, y' < y
  std::vector<double> centre_sq_;   // W x H
  std::vector<double> corner_sq_;   // (W + 1) x (H + 1)
};

}  // namespace navbench
