// The walkable area shrunk by an agent's radius R, for the representations that build on a map
// (docs/radius.md#how-each-representation-meets-a-radius): Recast-style erosion (M. Mononen, Recast
// rcErodeWalkableArea: a voxel stays walkable when its distance-field value is at least the agent's
// radius), here with the exact Euclidean clearance of the cell centres.
#pragma once
#include "geometry/clearance.hpp"
#include "geometry/map.hpp"

namespace navbench {

// Which cells survive the erosion by R:
//   centre — the cell's centre keeps clearance >= R - 1e-9 (the tolerance of docs/radius.md, so a query
//            cell valid for R is always passable): what grid4/grid8/quadtree/subgoal move between;
//   cell   — the whole closed cell keeps clearance >= R - 1e-9 (its four corners do: the distance
//            between two axis-parallel boxes is attained at a corner of each), so every point of
//            the eroded walkable area is clear and a path inside it is valid for R. Recast's way of
//            keeping its contours R off the walls (it rounds the radius up to whole cells, so it
//            is at least this conservative; it then snaps query points onto the mesh, which this
//            suite does not: a query point in a dropped cell is reported, not moved);
//   none   — no cell is dropped: the map itself (the search ignores R; only the smoother and the
//            validity test know it, TRA*-style).
// A shrunk-map representation's `erode=centre|cell|none` (docs/radius.md) is this value.
enum class Erosion { centre, cell, none };
const char* to_string(Erosion e);

// The grid whose passable cells are those of `g` that survive erosion by R. R <= 1e-9 or none: g itself.
//
// Moves between such cells: an orthogonal move between two clear centres, and a diagonal move whose
// four cells all have clear centres (the no-corner-cutting rule of grid8), keep clearance R along
// their whole segment. Proof: the distance from (x, y) to a closed unit square [i, i+1] x [j, j+1]
// is hypot(dx(x), dy(y)) with dx, dy the distances to the intervals; over a span [c, c+1] of
// centre coordinates (c = k + 0.5) with i integer each of dx, dy takes its minimum at an end (the
// interval either covers an end or lies beyond one), so over the segment (orthogonal: one span, the
// other coordinate fixed) or the square of the four centres (diagonal) the distance to each blocked
// square is smallest at one of the centres, all clear. The map's outside is a union of such squares.
// So grid4/grid8 on this grid give paths valid for R by construction (tested exactly).
GridMap erode_grid(const GridMap& g, const GridClearance& gc, double R, Erosion mode = Erosion::centre);

// A polygon map's free space shrunk by R, as a polygon map (the meshes' build map at R > 0):
// Boost.Geometry's buffer at distance -d with round joins of n = 64 points per circle. centre: d = R,
// the joins' chords inscribed in the circles of radius R round the obstacle corners, so the area holds
// every point with clearance R (query points included) and dips at most R (1 - cos(pi / n)), 0.12 %
// of R, below it near those corners; cell: d = R / cos(pi / n), every chord R away from its corner,
// so every point of the area keeps clearance R (conservative by at most 0.12 % of R, as erode=cell is
// on grids). One component: its rings are the walkable area; several (or none): the map's box is,
// the rest of it obstacles. R <= 1e-9 or none: m itself.
Map erode_polygon_map(const Map& m, double R, Erosion mode = Erosion::centre);

}  // namespace navbench
