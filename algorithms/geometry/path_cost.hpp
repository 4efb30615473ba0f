// The cost of a path on a weighted map (docs/terrain.md): C = the integral of the weight along it,
// computed exactly: each segment is cut where it crosses a grid line, and each piece weighs the
// cell it lies in (a piece along a cell side weighs the cheaper of the two cells; a corner, being a
// point, weighs nothing). On an unweighted map C is the length. Beside the validity test
// (free_space.hpp), used by every row, by the cost-aware los smoother and by the tests.
#pragma once
#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

// C of the segment a-b on grid g; +inf when a piece of positive length lies in a blocked cell or
// outside the map (such a segment is not valid either).
double segment_cost(const GridMap& g, Point a, Point b);
double path_cost(const GridMap& g, const Polyline& p);

// The least weight of a passable cell (1 on an unweighted map): a heuristic of metric distance
// times this stays admissible.
double least_weight(const GridMap& g);

}  // namespace navbench
