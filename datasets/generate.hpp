// The project's own maps: a seeded, deterministic generator of Moving AI grid maps (random, rooms,
// maze, polygons, cave) and a scenario maker whose optimal lengths come from an independent exact
// octile Dijkstra/A* over the bitmap (not the project's search, so it can check it).
// Every draw goes through a hand-written xoshiro256** stream and integer arithmetic (no
// std::*_distribution, no trigonometry), so a seed gives the same bytes on every machine.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "datasets/movingai.hpp"
#include "geometry/map.hpp"

namespace navbench {

// Largest side a generated map may have.
inline constexpr int kMaxGeneratedSide = 8192;

struct GenerateOptions {
  std::string kind = "random";  // random | rooms | maze | polygons | cave
  int width = 128, height = 128;
  double density = 20;   // random: percent of cells blocked (exactly round(density% * cells) cells);
                         // cave: percent of rock before the cellular automaton (give 40..50 for caves)
  int room = 16;         // rooms: wall period (Moving AI "NNroom": walls on every NN-th row/column)
  int corridor = 4;      // maze: corridor width in cells (walls are 1 cell wide)
  int obstacles = 32;    // polygons: number of polygons to place (fewer when the field is full)
  std::uint64_t seed = 1;
};

// Throws std::invalid_argument (one line) for an unknown kind or an option out of range:
// width/height 1..8192; density 0..100; room 2..8192; corridor 1..8192; obstacles 0..100000.
void validate(const GenerateOptions& o);

// The map for these options; identical for identical options on every machine.
GridMap generate_map(const GenerateOptions& o);

// The conventional name of a generated map: random-20-128, rooms-16-128, maze-4-128, polygons-128
// (sizes as WxH when not square, e.g. maze-4-256x128; a fractional density keeps its digits).
std::string generated_map_name(const GenerateOptions& o);

// Exact optimal 8-connected length between two cells (diagonal sqrt(2), no corner cutting: a
// diagonal step needs both orthogonally adjacent cells passable); nullopt when a cell is blocked,
// outside the map, or the two are not connected. Its own A* with exact a + b*sqrt(2) costs.
std::optional<double> octile_distance(const GridMap& m, int sx, int sy, int gx, int gy);

// `queries` random start/goal pairs (start != goal) of free cells in the same 4-connected component
// (the distribution of uniform pairs of free cells with pairs in different components skipped),
// optimal = octile_distance printed with 8 decimals, bucket = floor(optimal / 4), lines sorted by
// bucket (stable), map column = map_file_name. Throws std::invalid_argument when queries is outside
// 0..1000000 or queries > 0 and no two free cells are connected.
Scenario make_scenario(const GridMap& m, const std::string& map_file_name, int queries, std::uint64_t seed);

// Writes DIR/NAME.map and DIR/NAME.map.scen (creating DIR); std::runtime_error when it cannot.
void write_generated(const std::string& dir, const std::string& name, const GridMap& m, const Scenario& s);

}  // namespace navbench
