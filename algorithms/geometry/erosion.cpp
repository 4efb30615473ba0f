#include "geometry/erosion.hpp"

namespace navbench {

GridMap erode_grid(const GridMap& g, const GridClearance& gc, double R) {
  GridMap out = g;
  if (!(R > kRadiusTolerance)) return out;
  const double lim = R - kRadiusTolerance;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      std::uint8_t& c = out.cells[std::size_t(y) * g.width + x];
      if (c && !(gc.centre(x, y) >= lim)) c = 0;
    }
  return out;
}

}  // namespace navbench
