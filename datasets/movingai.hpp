// Readers and writers for the Moving AI benchmark formats (docs/maps.md; Sturtevant, "Benchmarks for
// Grid-Based Pathfinding", IEEE TCIAIG 2012). Malformed input throws InputError("file:line: reason").
#pragma once
#include <istream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "geometry/map.hpp"

namespace navbench {

struct ScenarioLine {
  int bucket = 0;
  std::string map;        // as written in the file
  int width = 0, height = 0;
  double sx = 0, sy = 0, gx = 0, gy = 0;  // integer cells in Moving AI files; real in saved polygon sets
  double optimal = 0;     // octile optimum; < 0 when unknown
  int decimals = -1;      // how the optimum was printed: digits after the point ...
  int significant = -1;   // ... and significant digits, for "equal to the printed precision"
  long line = 0;          // line in the file it was read from (0: not read from a file)
};

struct Scenario {
  std::string path;
  std::vector<ScenarioLine> lines;
};

// Largest side accepted (beyond this a file is "absurd"): 1<<15 cells.
inline constexpr int kMaxMapSide = 1 << 15;

// A terrain table (docs/terrain.md, --terrain S=2,W=5; datasets/terrain.hpp reads it): map
// characters and their weights. A named character is passable at its weight, even one that is
// otherwise blocked ('W'); '@', 'O' and 'T' cannot be named.
struct TerrainTable {
  std::string text;  // as given: the column `terrain`
  std::vector<std::pair<char, double>> weights;
};

// With `terrain`, the map's weights are filled from the table (unnamed passable characters weigh 1).
GridMap read_movingai_map(std::istream& in, const std::string& name_for_errors, const TerrainTable* terrain = nullptr);
Map load_movingai_map(const std::string& path);  // fills name/collection/path
Scenario read_scenario(std::istream& in, const std::string& name_for_errors);
Scenario load_scenario(const std::string& path);
// Checks that every line's width/height match the map (InputError naming the line otherwise).
void check_scenario_matches(const Scenario& s, const GridMap& m);

void write_movingai_map(std::ostream& out, const GridMap& m);
void write_scenario(std::ostream& out, const Scenario& s);

// |x - optimum| <= this is "equal to the printed optimum": half a unit of the last printed digit
// plus the files' own rounding of sqrt(2) (see movingai.cpp).
double printed_tolerance(const ScenarioLine& l);

}  // namespace navbench
