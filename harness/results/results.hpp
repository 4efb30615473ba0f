// Result rows and the one writer of results files (docs/results.md): PREFIX.csv, PREFIX.build.csv,
// PREFIX.paths.csv, PREFIX.meta.json; and their removal when a run is refused for its input.
#pragma once
#include <cstdint>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/error.hpp"

#include "geometry/point.hpp"
#include "geometry/radius_validity.hpp"

namespace navbench {

// docs/results.md#query-status. not_applicable: the combination cannot run by construction (funnel without a corridor);
// not a failure.
enum class Status { ok, no_path, invalid_query, not_applicable, error };
const char* to_string(Status s);

struct ResultRow {
  std::string map, collection;
  long scen_index = 0;
  int bucket = 0;
  std::string representation, heuristic, smoothing, convention;
  double sx = 0, sy = 0, gx = 0, gy = 0;  // as in the scenario file
  Status status = Status::error;
  std::optional<double> length, optimal, octile_optimal, gap;
  std::optional<bool> valid;
  std::size_t expansions = 0, path_points = 0;
  double locate_us = 0, search_us = 0, smooth_us = 0;
  // extra columns (docs/results.md allows more after the fixed ones)
  std::optional<double> raw_length;
  std::optional<bool> raw_valid;
  std::size_t generated = 0;
  std::string message;
  // docs/path-quality.md: the search (astar, theta, lazy-theta), the segment tests it made, and the
  // reported path's least distance to an obstacle and total turning in degrees (ok rows).
  std::string search = "astar";
  std::size_t los_checks = 0;
  std::optional<double> clearance, turn;
  // SPEC §15 (docs/results.md#real-time-columns): from the query's start until the first move of the
  // planner's path was known, until its first 20 units of length were (the whole path if shorter), and
  // the longest single call of the planner (locate and its first piece one call). The first two on
  // rows whose planner found a path, the third on every row whose planner was asked.
  std::optional<double> first_move_us, first20_us, max_step_us;
  std::optional<long> epoch;  // dynamic scenarios only (docs/changing-maps.md): the column `epoch`
  std::optional<double> radius;  // runs given --radius / "radii" only (docs/radius.md): the column `radius`
  // Runs under --pinch allow only (SPEC §11): the rule the validity test and the optimum followed
  // (allow on grid maps, forbid where a map has no grid pinch points): the column `pinch`.
  std::string pinch;
  // Weighted maps (docs/terrain.md): where the weights came from, the reported path's cost, the raw
  // path's, and the least cost of an 8-connected path (the group `terrain`).
  std::string terrain;
  std::optional<double> cost, raw_cost, octile_optimal_cost;
  std::optional<double> optimal_cost, cost_gap;  // the Steiner-point reference and cost / optimal_cost - 1
  // Runs with --trace (docs/traces.md): true on the rows of a query whose search was traced (the
  // trace is written inside the timed search, so these rows' times are not like the others'; SPEC
  // §14): the column `traced`.
  bool traced = false;
  Polyline path;  // for PREFIX.paths.csv; not a CSV column
  // A path with arcs (docs/radius.md, R > 0): when not empty, paths.csv writes these items instead of `path`.
  std::vector<PathItem> items;
};

struct BuildRow {
  std::string map, representation, params;
  double build_ms = 0;
  std::size_t vertices = 0, edges = 0, memory_bytes = 0;
  std::optional<double> radius;  // runs with a radius: the build's column `radius` (docs/radius.md)
  std::string terrain;           // runs over weighted maps: the map's weights (docs/terrain.md), "" when plain
  // A planner from outside (docs/outside-planners.md#4-what-is-measured-and-how; the group `entry`):
  // PreprocessMap's and PrepareForSearch's times, taken in the entry's process, the bytes it wrote
  // under its preprocessing prefix, and its processes' peak resident memory. Empty for navbench's own.
  std::optional<double> preprocess_ms, prepare_ms;
  std::optional<std::uint64_t> stored_bytes, peak_rss_bytes;
  // Runs under --pinch allow: the representation's own rule, allow when it built with pinch=allow,
  // forbid when it runs as it is (its paths never pass a pinch point): the column `pinch`.
  std::string pinch;
};

// One row of PREFIX.unrun.csv (docs/results.md#maps-not-run): a (map, representation) a run or sweep
// planned or was given that has no rows, and why. reason: "skip_maps" (the sweep config's choice:
// not run), "kind" (a map kind the representation refuses: it does not apply) or "cap" (a limit it
// declares, e.g. labels_mb or table_mb, that the map exceeds); message: the representation's words.
struct UnrunRow {
  std::string map, collection, representation, convention, reason, message;
  std::optional<double> radius;  // runs with a radius (the group `radius`)
  std::string terrain;           // runs over weighted maps (the group `terrain`), "" for a plain map
};

// One row of PREFIX.updates.csv (docs/changing-maps.md): what bringing one representation up to
// date after one map change cost; rebuild_us only with --rebuild-baseline.
struct UpdateRow {
  std::string map, representation;
  long epoch = 0, patches = 0;
  std::size_t cells_changed = 0;
  double update_us = 0;
  std::optional<double> rebuild_us;
};

std::string csv_field(const std::string& s);  // quotes when the field holds , " or newline
std::string format_number(double v);           // 12 significant digits
// The optional column groups a file has (docs/results.md): `radius` in runs given radii, `epoch`
// in the rows of changing maps. Runs without them keep the files exactly as before.
struct ColumnGroups {
  bool radius = false;
  bool epoch = false;
  bool terrain = false;  // runs over weighted maps (docs/terrain.md)
  bool pinch = false;    // runs under --pinch allow (SPEC §11)
  bool entry = false;    // build rows of runs with a planner from outside (docs/outside-planners.md)
  bool traced = false;   // runs and sweeps with --trace / "trace" (docs/traces.md#traced-rows)
};
// Header lines made from the one column table (results.cpp: name, type, group, how a row writes
// it): `radius` last in the results and build rows (then `epoch`), before `points` in the paths rows;
// the build rows' `entry` group after all others, and the results rows' `traced` last.
std::string result_header(const ColumnGroups& g);
std::string build_header(const ColumnGroups& g);
std::string paths_header(const ColumnGroups& g);
std::string updates_header();
std::string unrun_header(const ColumnGroups& g);  // the groups radius and terrain only
// The schema itself, as meta.json's "schema": {"results": [{"name", "type", "group"}, ...], "build", "paths", "updates", "unrun"}.
nlohmann::json column_schema();
// The row's fields in header order, from the same table: the core columns and those of the groups `g` has.
std::string format_row(const ResultRow& r, const ColumnGroups& g = {});
std::string format_build_row(const BuildRow& b, const ColumnGroups& g);
std::string format_path_row(const ResultRow& r, const ColumnGroups& g);  // "" when the row has no path
std::string format_update_row(const UpdateRow& u);
std::string format_unrun_row(const UnrunRow& u, const ColumnGroups& g);
// The same rows as JSON objects (the viewer's): every column by name, an absent value null.
nlohmann::json result_row_json(const ResultRow& r);
nlohmann::json build_row_json(const BuildRow& b);

// The files a run is about to write under `prefix` (PREFIX.csv, .build.csv, .paths.csv, .meta.json,
// .updates.csv, .unrun.csv), then the prefix's folder when it does not exist yet (the run will make it).
std::vector<std::string> result_files(const std::string& prefix);
// Removes those of `files` that exist, in order (a folder only when empty by then); never throws.
void remove_files(const std::vector<std::string>& files);

// Runs `body`; when it throws the error of bad input (base::InputError or std::invalid_argument:
// the command exits with 2), first removes `files`, so that a run refused for its input leaves no
// result files behind (docs/results.md#result-files). Any other failure keeps them: the rows a
// run finished before a crash or a full disk stay.
template <class F>
auto removing_on_refusal(const std::vector<std::string>& files, F&& body) {
  try {
    return body();
  } catch (const base::InputError&) {
    remove_files(files);
    throw;
  } catch (const std::invalid_argument&) {
    remove_files(files);
    throw;
  }
}

// Writes the result files of one run. Rows are flushed as they come, so an interrupted run keeps
// every row it finished (the sweep adds atomic per-unit files on top).
class ResultWriter {
 public:
  // groups: the optional columns its files carry (`epoch` for changing maps, `radius` for radii).
  ResultWriter(const std::string& prefix, bool paths, const ColumnGroups& groups = {});
  void write(const ResultRow& r);
  void write(const BuildRow& b);
  void write(const UnrunRow& u);  // PREFIX.unrun.csv: written by every run, its header alone when all ran
  void flush();

 private:
  std::ofstream csv_, build_, paths_, unrun_;
  ColumnGroups groups_;
  bool with_paths_;
};

}  // namespace navbench
