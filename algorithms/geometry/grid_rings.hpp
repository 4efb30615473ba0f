// Boundary rings of a set of grid cells, by boundary tracing (the square-tracing idea of
// Pavlidis, "Algorithms for Graphics and Image Processing", 1982, on cell edges): every unit edge
// between a cell of the set and a cell outside it is directed with the set on its left, the edges
// are chained corner to corner, collinear unit edges are merged. At a corner where the set touches
// itself diagonally (two diagonally opposite cells inside) the chain turns left, around the cell it
// came along, so the two cells stay apart; a chain that still comes back to such a corner is split
// there. The result: simple rings (integer coordinates, no repeated last point) that touch each
// other only at those corners; outer boundaries turn counter-clockwise (positive shoelace area in
// (x, y)), boundaries of enclosed gaps clockwise.
#pragma once
#include <cstdint>
#include <vector>

#include "geometry/point.hpp"

namespace navbench {

// inside: width*height bytes, row-major (y * width + x), nonzero = in the set. Cells outside the
// grid are not in the set.
std::vector<std::vector<Point>> trace_cell_rings(int width, int height, const std::vector<std::uint8_t>& inside);

// Twice the signed area of a ring (shoelace): > 0 for counter-clockwise in (x, y).
double ring_area2(const std::vector<Point>& ring);

}  // namespace navbench
