// Boost.Geometry views of the map geometry: obstacle polygons of a grid map (blocked cells merged
// into polygons by boundary tracing, collinear cell edges merged, holes kept), the polygon version
// of a grid map, and the free space of a polygon map (walkable area minus the union of obstacles).
#pragma once
#include <string>
#include <vector>

#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/multi_polygon.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include "geometry/map.hpp"

namespace navbench {

using BgPoint = boost::geometry::model::d2::point_xy<double>;
using BgPolygon = boost::geometry::model::polygon<BgPoint>;  // Boost defaults: clockwise, closed
using BgMultiPolygon = boost::geometry::model::multi_polygon<BgPolygon>;
using BgBox = boost::geometry::model::box<BgPoint>;

// A PolygonShape (rings[0] outer, rest holes; not closed) as a corrected Boost.Geometry polygon.
BgPolygon to_bg(const PolygonShape& shape);
// Back: open rings, outer first.
PolygonShape from_bg(const BgPolygon& poly);

// The obstacles of a grid map as polygons: one polygon per 4-connected set of blocked cells (two
// sets touching diagonally stay two polygons, touching at that corner), with holes, plus the
// outside of the map as a frame polygon ([-1, W+1] x [-1, H+1] minus the map rectangle) when
// with_outside is true. Integer coordinates, valid in the OGC sense.
BgMultiPolygon grid_obstacle_polygons(const GridMap& grid, bool with_outside);

// The polygon map of a grid map: walkable = the map rectangle, obstacles = grid_obstacle_polygons
// without the frame. Same free space, same validity answers (tested).
Map grid_to_polygon_map(const Map& grid_map);

// Free space of a polygon map: walkable minus the union of all obstacles, as a valid multipolygon.
// Throws std::invalid_argument (one line) when an input polygon is not valid.
BgMultiPolygon polygon_free_space(const PolygonMap& pm);

// Boost.Geometry's validity test and overlays of these types, compiled once, here: their
// instantiations are the heaviest compiles of the project (polygons.cpp: ~45 CPU-seconds at -O3),
// and the readers (datasets/wkt.cpp, datasets/polyanya_region.cpp) call these instead of
// instantiating them a second and third time. Each is exactly the Boost.Geometry call it names.
bool bg_is_valid(const BgPolygon& p, std::string& why);                        // bg::is_valid(p, why)
bool bg_self_intersects(const BgPolygon& p);                                   // bg::intersects(p)
BgMultiPolygon bg_sym_difference(const BgMultiPolygon& a, const BgPolygon& b);  // bg::sym_difference; may throw

}  // namespace navbench
