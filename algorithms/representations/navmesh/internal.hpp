// What build.cpp, query.cpp and update.cpp of the navmesh share (CGAL-free).
#pragma once
#include <cmath>

#include "representations/navmesh/navmesh.hpp"

namespace navbench::navmesh_detail {

// Euclidean length without std::hypot's overflow care (coordinates are map units): a third of the
// graph build on large maps went to hypot.
inline double dist(Point a, Point b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); }

}  // namespace navbench::navmesh_detail
