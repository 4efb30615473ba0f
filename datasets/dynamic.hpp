// Dynamic scenarios (docs/changing-maps.md): the Grid-Based Path Planning Competition's dynamic track format,
// `version 2` — a map that starts all free and changes through patches between queries.
// Malformed input throws InputError("file:line: reason"), like every other reader.
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "datasets/movingai.hpp"
#include "geometry/map.hpp"

namespace navbench {

// One rectangle of cells that overwrites the map where it is placed (both free and blocked cells).
struct Patch {
  int width = 0, height = 0;
  std::vector<std::uint8_t> cells;  // 1 = passable, row-major
};

struct DynamicCommand {
  enum Kind : std::uint8_t { place, query } kind = place;
  long epoch = 0;
  long line = 0;                // line in the scenario file (for messages)
  int id = 0, x = 0, y = 0;     // place: patch id and its top-left cell
  int sx = 0, sy = 0, gx = 0, gy = 0;  // query: cells
  std::vector<double> costs;    // query: one per name of the `cost` line
  std::vector<std::string> cost_text;  // as printed (for the printed-precision tolerance)
};

struct DynamicScenario {
  std::string path;             // the .scen file
  std::string name;             // its file name without .scen (the `map` column)
  int width = 0, height = 0;
  std::vector<std::string> cost_names;
  int octile = -1;              // index of `octile` among cost_names
  std::string patch_file;       // as written (relative to the scenario)
  std::vector<Patch> patches;
  std::vector<DynamicCommand> commands;
};

// Reads the scenario and the patch file it names. The patch file is read from `patch_dir`
// (default: the scenario's folder).
DynamicScenario read_dynamic_scenario(std::istream& scen, const std::string& scen_name, std::istream& patches,
                                      const std::string& patch_name);
DynamicScenario load_dynamic_scenario(const std::string& path);
// Whether a file looks like a dynamic scenario (first line `version 2`).
bool is_dynamic_scenario(const std::string& path);

// Writes the patch file and the scenario (the one format `navbench generate` emits).
void write_dynamic_scenario(std::ostream& scen, std::ostream& patches, const DynamicScenario& d);

// Overwrites m's cells with patch p at (x, y), clipped to the map; appends the cells whose value
// changed to `changed` and returns how many changed.
std::size_t apply_patch(GridMap& m, const Patch& p, int x, int y, std::vector<CellChange>& changed);

// |cost - printed| within the printed precision (docs/maps.md's rule applied to the dynamic files).
double printed_tolerance(const std::string& printed, double value);

}  // namespace navbench
