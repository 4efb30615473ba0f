// The corner lattice (SPEC §11; docs/maps.md#lattices-cell-centres-or-cell-corners): grid4/grid8 with `lattice=corner` put their
// vertices at cell corners, as the any-angle literature does (Nash & Koenig, AI Magazine 2013;
// Uras & Koenig, SoCS 2015). Corner (x, y), 0 <= x <= W, 0 <= y <= H, is vertex y * (W + 1) + x;
// its moves use GridEdge's directions (0..3 E W S N, 4..7 SE NE SW NW). A diagonal move crosses
// one cell and needs it unblocked; a straight move runs along a cell side and needs at least one
// unblocked cell beside it. Under the squeeze rule `forbid` (SPEC §1) a pinch corner keeps only the
// moves inside its own cell (FreeSpace's rule: cell (x, y), else cell (x, y - 1)), in both
// directions, so no lattice path crosses from one free cell to the other through it; a path that
// touched it from the other cell could always go round without it at no greater cost. Under
// `allow` every move stays.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "geometry/map.hpp"
#include "representations/types.hpp"

namespace navbench {

// The moves of every corner of `map` (one byte each, bits as GridEdge's directions); `diagonal`:
// 8-connected, else 4-connected; `squeeze`: the rule `allow`.
std::vector<std::uint8_t> corner_moves(const GridMap& map, bool diagonal, bool squeeze);

// Whether corner (x, y) is a pinch point: exactly two diagonally opposite cells around it are
// blocked (outside the map counts as blocked).
bool corner_is_pinch(const GridMap& map, int x, int y);

// How a query point joins the corner lattice: a point on a corner joins that vertex at cost 0;
// any other point (never a pinch point) joins the corners of every unblocked cell whose closed
// square holds it (under `forbid`, a pinch corner only from its own cell). nullopt outside the
// closed free space.
std::optional<Attachment> corner_attach(const GridMap& map, bool squeeze, Point p);

}  // namespace navbench
