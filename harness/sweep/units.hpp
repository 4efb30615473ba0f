// The units of a sweep and their files: ids, merging unit files into one result
// set, and progress lines. Shared by `navbench sweep` and `navbench merge`.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/timing.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/agent.hpp"

#include "harness/results/results.hpp"
#include "harness/run/description.hpp"

namespace navbench {

// One (map, convention, radius, representation) of a sweep, or one (dynamic scenario, convention,
// representation).
struct Unit {
  std::size_t map;  // index into the sweep's maps (static units)
  std::string convention;
  RepresentationSpec rep;
  std::string id;   // file stem
  long dyn = -1;    // index into the sweep's dynamic scenarios for a dynamic unit, else -1
  Agent agent;      // the point agent without the column `radius` in a sweep without radii
};

// What tells a weighted map entry apart from the same map plain (docs/terrain.md): "" without
// weights, "__tTABLE" for a terrain table, "__cNAME" for a cost layer (its file name without .costs).
std::string weights_tag(const MapWeights& w);
// The id of a static unit: COLLECTION__MAP[__tTABLE|__cNAME]__CONVENTION__REP[__rR], made file-name safe.
std::string static_unit_id(const std::string& collection, const std::string& map, const std::string& convention,
                           const std::string& rep_text, const std::optional<double>& radius, const std::string& weights = "");
// Unit ids of the dynamic scenarios: dynamic__NAME__CONVENTION__REP (NAME: the file name without .scen).
std::vector<std::string> dynamic_unit_ids(const std::vector<std::string>& scens, const std::vector<std::string>& conventions,
                                          const std::vector<RepresentationSpec>& reps);
// The optimum cache's file stem for a (map, convention, radius).
std::string optimum_id(const std::string& collection, const std::string& map, const std::string& convention,
                       const std::optional<double>& radius, const std::string& weights = "");

// A double as text that reads back to the same double (the saved optimum must give the same gaps
// on a resumed run as on an uninterrupted one).
std::string exact_text(double v);
// A stable hash of the canonical config text (base::fnv1a_hex), as 16 hex digits.
std::string config_hash(const std::string& canonical);
// --shard K/N -> {K, N} with 1 <= K <= N (std::invalid_argument otherwise).
std::pair<long, long> parse_shard(const std::string& s);

// Concatenates the unit files (in unit order) into OUT/results.{csv,build.csv,paths.csv,unrun.csv}.
// `groups`: the optional columns of the units' rows; with `epoch` the units are dynamic ones (plus
// .updates.csv) and OUT is the sweep's dynamic/ folder. Throws when a unit has no results.
// `skipped`: the units a sweep's skip_maps left out, whose ID.unrun.csv (where a shard wrote one)
// joins results.unrun.csv after the units' own (docs/results.md#maps-not-run).
void write_merged(const std::filesystem::path& out, const std::vector<std::filesystem::path>& unit_dirs,
                  const std::vector<std::string>& ids, bool paths, const ColumnGroups& groups,
                  const std::vector<std::string>& skipped = {});

// Progress lines of a sweep: a bar on a terminal, a line per unit otherwise.
struct Progress {
  std::mutex m;
  std::size_t done = 0, total = 0, rows = 0;
  base::Clock::time_point t0 = base::Clock::now();
  bool tty = false;
  bool quiet = false;
  Progress();
  void unit_done(const std::string& id, std::size_t nrows, double seconds);
};

}  // namespace navbench
