// Seeded polygon maps (docs/maps.md#seeded-polygon-maps): a square walkable area with star-shaped
// obstacles of slanted edges in general position, for tests against the definitions and for the
// growth of the polygon code with the number of vertices (harness/bench, docs/measurements.md).
// Integer arithmetic only (SplitMix draws, no trigonometry): a seed gives the same map everywhere.
#pragma once
#include <cstdint>

#include "geometry/map.hpp"

namespace navbench {

struct PolygonMapOptions {
  int obstacles = 64;    // obstacles drawn (1..10^6); each sits in its own cell of a square lattice
  int vertices = 12;     // vertices per obstacle (3..1024)
  int touching = 0;      // percent of obstacles grown to overlap a neighbour (unions, pinch-like contacts)
  std::uint64_t seed = 1;
};

// Throws std::invalid_argument (one line) for an option out of range.
void validate(const PolygonMapOptions& o);
// The map: walkable [0, S] x [0, S], S = 64 x the lattice side; obstacle k is star-shaped around a
// point of its lattice cell, its vertices on distinct rays from that point at drawn distances, so
// it is a simple polygon; most of the time it stays inside its cell (disjoint obstacles), with
// `touching` percent it reaches into the next cell (overlaps, which the free space unites).
// Coordinates are integers below 2^26.
PolygonMap generate_polygon_map(const PolygonMapOptions& o);
// name for --out: obstacles-N-K-seed (with -tT when touching > 0)
Map make_polygon_map(const PolygonMapOptions& o);

}  // namespace navbench
