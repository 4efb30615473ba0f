#include "geometry/erosion.hpp"

#include <algorithm>

namespace navbench {

GridMap erode_grid(const GridMap& g, const GridClearance& gc, double R, Erosion mode) {
  GridMap out = g;
  if (!(R > kRadiusTolerance)) return out;
  const double lim = R - kRadiusTolerance;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      std::uint8_t& c = out.cells[std::size_t(y) * g.width + x];
      const bool keep = mode == Erosion::centre
                            ? gc.centre(x, y) >= lim
                            : std::min(std::min(gc.corner(x, y), gc.corner(x + 1, y)),
                                       std::min(gc.corner(x, y + 1), gc.corner(x + 1, y + 1))) >= lim;
      if (c && !keep) c = 0;
    }
  return out;
}

}  // namespace navbench
