#include "geometry/erosion.hpp"

#include <algorithm>
#include <cmath>

#include <boost/geometry/algorithms/buffer.hpp>
#include <boost/geometry/algorithms/convert.hpp>
#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/strategies/buffer.hpp>
#include <boost/geometry/strategies/strategies.hpp>
#include <boost/geometry/strategies/agnostic/buffer_distance_symmetric.hpp>
#include <boost/geometry/strategies/cartesian/buffer_end_round.hpp>
#include <boost/geometry/strategies/cartesian/buffer_join_round.hpp>
#include <boost/geometry/strategies/cartesian/buffer_point_circle.hpp>
#include <boost/geometry/strategies/cartesian/buffer_side_straight.hpp>

#include "geometry/polygons.hpp"

namespace navbench {

const char* to_string(Erosion e) {
  switch (e) {
    case Erosion::cell: return "cell";
    case Erosion::none: return "none";
    case Erosion::centre: break;
  }
  return "centre";
}

GridMap erode_grid(const GridMap& g, const GridClearance& gc, double R, Erosion mode) {
  GridMap out = g;
  if (mode == Erosion::none || !(R > kRadiusTolerance)) return out;
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

Map erode_polygon_map(const Map& m, double R, Erosion mode) {
  if (mode == Erosion::none || !(R > kRadiusTolerance)) return m;
  namespace bg = boost::geometry;
  namespace sb = bg::strategy::buffer;
  constexpr int kPoints = 64;  // per full circle of a round join
  const double pi = std::acos(-1.0);
  const BgMultiPolygon free = polygon_free_space(m.polygons);
  BgMultiPolygon shrunk;
  bg::buffer(free, shrunk, sb::distance_symmetric<double>(mode == Erosion::cell ? -R / std::cos(pi / kPoints) : -R), sb::side_straight(),
             sb::join_round(kPoints), sb::end_round(kPoints), sb::point_circle(kPoints));
  Map out = m;
  out.polygons = PolygonMap{};
  if (shrunk.size() == 1) {
    out.polygons.walkable = from_bg(shrunk.front());
    return out;
  }
  BgPolygon box;
  bg::convert(BgBox(BgPoint(m.min.x, m.min.y), BgPoint(m.max.x, m.max.y)), box);
  bg::correct(box);
  BgMultiPolygon rest;
  bg::difference(box, shrunk, rest);
  out.polygons.walkable = from_bg(box);
  for (const BgPolygon& p : rest) out.polygons.obstacles.push_back(from_bg(p));
  return out;
}

}  // namespace navbench
