// Weighted maps (docs/terrain.md): a terrain table over a Moving AI map's characters
// (--terrain S=2,W=5) and cost layers (--costs FILE), read and checked here; bad input is one line.
#pragma once
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "datasets/movingai.hpp"

namespace navbench {

// "S=2,W=5" -> the table (movingai.hpp). Throws std::invalid_argument with one line: an empty
// item, an item that is not CHAR=W, a weight that is not a finite number >= 1, a character named
// twice, or '@', 'O', 'T' (they stay obstacles).
TerrainTable parse_terrain(const std::string& text);

// A map read with a terrain table: the named characters are passable at their weight (a blocked
// one such as 'W' becomes passable), the other passable ones weigh 1. Map::terrain = the table's text.
Map load_terrain_map(const std::string& path, const TerrainTable& terrain);

// A cost layer: "type costs", "height H", "width W", "costs", then H lines of W numbers, each a
// decimal >= 1 or "inf" (blocked). Checked against the map's size; InputError("file:line: why").
// The weights go into m (a cell blocked in the map stays blocked, an inf cell becomes blocked);
// Map::terrain = the file's name.
void apply_cost_layer(Map& m, const std::string& path);
std::vector<double> read_cost_layer(std::istream& in, const std::string& file, int width, int height);
// Writes m's weights as a cost layer (blocked cells as inf), every number as printed by %.6g.
void write_cost_layer(std::ostream& out, const GridMap& m);

// navbench generate costs (docs/terrain.md): a cost layer for m.
//   inflation: a robot costmap, w = 1 + (wmax - 1) exp(-d / lambda), d = the distance from the cell
//              centre to the nearest blocked cell or map border (exact, Euclidean), rounded to 0.01;
//   regions:   seeded discs of dearer (2..5) and cheaper-than-around terrain over a base of 1.
struct CostLayerOptions {
  std::string kind = "inflation";  // inflation | regions
  double wmax = 5, lambda = 3;     // inflation
  int regions = 24;                // regions: how many discs
  std::uint64_t seed = 1;
};
std::vector<double> generate_cost_layer(const GridMap& m, const CostLayerOptions& o);

}  // namespace navbench
