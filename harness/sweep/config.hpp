// Sweep configs (docs/command-line.md#sweep-config): JSON read and checked once into a
// SweepConfig, a RunDescription over many maps.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/results/results.hpp"
#include "harness/run/description.hpp"

namespace navbench {

// A sweep: a run description (its representations, options, radii, changing maps) over many
// maps and conventions, written into one output folder.
struct SweepConfig : RunDescription {
  std::vector<std::string> maps;         // after expanding globs and directories
  std::vector<QuerySelection> map_select;  // per map: the query selection (its entry's, else the global one)
  std::vector<std::string> collections;  // filter; empty = all
  std::vector<std::vector<std::string>> rep_skip;  // per representation: the maps its entry skips ("skip_maps": names)
  std::vector<std::string> conventions{"center"};
  std::string output = "results/sweep";
  nlohmann::json canonical;                      // what identifies the sweep (for resume and merge)
};

// The optional columns of a sweep's static rows: `radius` when it has radii, `terrain` when a map
// entry has weights (docs/terrain.md) or carries its own (a ROS map in scale mode); the build
// rows' `entry` when a planner from outside is among its representations; `traced` when it traces.
inline ColumnGroups sweep_groups(const SweepConfig& c) {
  ColumnGroups g{.radius = !c.agents.empty(), .pinch = c.select.squeeze, .entry = any_outside_planner(c.reps),
                 .traced = c.unit.trace > 0};
  for (const QuerySelection& s : c.map_select) g.terrain |= s.weights.any();
  for (const std::string& m : c.maps) g.terrain |= carries_own_costs(m);  // ROS scale maps (docs/maps.md)
  return g;
}






// Checks a config's text; with expand_maps the map list is resolved against the file system.
// InputError with one line ("PATH: ...") on anything wrong.
SweepConfig parse_config(const std::string& text, const std::string& path, bool expand_maps);
SweepConfig read_config(const std::string& path);
// Representation entries: "name", "name:k=v,...", or {"name": N, "params": {"k": [v1, v2], ...}}
// (a parameter grid: every combination becomes one representation spec), with optional "searches"
// (its own, docs/command-line.md#sweep-config) and "skip_maps" (names of maps, as in the column
// `map`, it does not run on; per spec into `skip` when given).
std::vector<RepresentationSpec> expand_reps(const nlohmann::json& j, std::vector<std::vector<std::string>>* skip = nullptr);
// Whether a representation whose entry skips `skip` runs on the map named `map` (static maps only).
inline bool runs_on(const std::vector<std::string>& skip, const std::string& map) {
  for (const auto& m : skip)
    if (m == map) return false;
  return true;
}

}  // namespace navbench
