// `navbench run` (SPEC §5) and the unit of work it shares with `navbench sweep`: one map, one
// representation -> build once, then every selected query through the pipeline.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "datasets/movingai.hpp"
#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "geometry/tangent_graph.hpp"
#include "harness/pipeline.hpp"
#include "harness/registry.hpp"

namespace navbench {

// Which queries of a map run, and where their points are.
struct QuerySelection {
  std::string scen;                  // explicit scenario (single map only)
  std::string convention = "center"; // center | corner (grid maps)
  long limit = -1;                   // N queries per scenario spread evenly (floor(i*M/N)); -1 = all
  bool first = false;                // with limit: the first N instead of spread
  long every = 1;                    // every k-th query (k > 1)
  long queries = -1;                 // random queries for maps without a scenario
  std::uint64_t seed = 1;
  std::string save_queries;          // write the drawn random queries as a scenario file
};

// How each query of a unit runs.
struct UnitOptions {
  std::vector<Heuristic> heuristics;
  std::vector<std::string> smoothings{"none"};
  int repetitions = 1;  // > 1: every query runs this often; its times are the medians
  bool paths = false;
  int threads = 1;      // > 1: the queries of a unit run in parallel (rows still in query order)
};

// A map read and checked, with its queries (built on first use).
struct PreparedMap {
  Map map;
  Scenario scen;
  bool has_scen = false;
  QuerySelection selection;
  std::unique_ptr<FreeSpace> free;
  std::vector<QueryInput> queries;
  bool optimum_done = false;
  // The agent (SPEC §6): set before build_queries; everything below is per (map, radius).
  std::optional<double> radius;            // a run with --radius / "radii" (rows get `radius`)
  std::unique_ptr<RadiusValidity> rv;      // R > 1e-9: the exact validity test
  std::unique_ptr<TangentGraph> tangent;   // R > 1e-9: the exact optimum, built once, for every representation
  double tangent_build_ms = 0;
  std::unique_ptr<Map> eroded, eroded_cell;  // R > 1e-9: the map shrunk by R (grids: erode=centre, erode=cell; polygons: the shrunk free space, centre holding every clear point, cell inside)

  double R() const { return radius.value_or(0.0); }
  bool disc() const { return R() > kRadiusTolerance; }
  RadiusContext radius_context() const { return {R(), rv.get()}; }
  void build_queries();    // free space + selected queries (random ones drawn here)
  void compute_optimum();  // fills QueryInput::optimal from the visibility graph (tangent graph for R > 0), once
  // The map a representation builds on: the eroded map for R > 0 ("centre" or "cell" on grid maps,
  // the shrunk free space on polygon maps; geometry/erosion.hpp), else the map.
  const Map& build_map(const std::string& erode);
  void release() {
    queries.clear();
    queries.shrink_to_fit();
    tangent.reset();
    rv.reset();
    eroded.reset();
    eroded_cell.reset();
    free.reset();
    optimum_done = false;
  }
};

// Reads and checks a map and its scenario (InputError on bad files); nothing heavy yet.
PreparedMap prepare_map(const std::string& path, const QuerySelection& sel);

// Builds a representation for pm's agent (SPEC §6): without a disc, `build` on the map; with R > 0,
// visgraph is the tangent graph and every other representation `build`s on the map eroded by R
// (erode: centre or cell, geometry/erosion.hpp; none: the map itself). Throws UnsupportedMap where that cannot be.
using BuildFn = std::function<std::unique_ptr<AnyRepresentation>(const Map&, Params&)>;
std::unique_ptr<AnyRepresentation> build_for_agent(PreparedMap& pm, const std::string& name, const BuildFn& build,
                                                   Params& params, const std::string& erode = "centre");

// Builds `spec` on the map and runs every query: rows go to sink; returns the build row, or
// nullopt when the representation does not support this kind of map (a note goes to stderr).
std::optional<BuildRow> run_unit(PreparedMap& pm, const RepresentationSpec& spec, const UnitOptions& opt,
                                 const std::function<void(const ResultRow&)>& sink);

struct RunConfig {
  std::vector<std::string> maps;  // files or directories
  std::vector<std::string> dynamic;  // dynamic scenarios (SPEC §7), instead of maps
  bool rebuild_baseline = false;     // dynamic: also time a full rebuild of every map state
  std::vector<RepresentationSpec> reps;
  QuerySelection select;
  UnitOptions unit;
  std::string out;                // PREFIX
  bool checkopt = false;          // fail when grid8 differs from the scenario optimum
  bool optimum = true;            // compute the exact optimum (visgraph) for optimal/gap
  std::vector<double> radii;      // --radius R (SPEC §6); empty: no radius (the point agent, no column)
  bool quiet = false;
  std::vector<std::string> argv;  // the command line, for meta.json
};

// Parses the arguments after `run` (CLI11). nullopt: --help was given and printed.
// Throws std::invalid_argument with a one-line message.
std::optional<RunConfig> parse_run_args(const std::vector<std::string>& args);
// `navbench run ARGS`: parses and runs; returns the exit status (SPEC §5). argv goes to meta.json.
int run_command(const std::vector<std::string>& args, const std::vector<std::string>& argv);
// Runs; returns the process exit status (0 = completed; 3 = --checkopt found mismatches).
int run(const RunConfig& cfg);

// --radius R: a list of numbers >= 0, comma-separated (std::invalid_argument otherwise).
std::vector<double> parse_radii(const std::string& value);

// --threads N: 1..1024 (std::invalid_argument otherwise).
int parse_threads(const std::string& value);

// "none,los" -> names, each checked against the registered smoothers.
std::vector<std::string> parse_smoothing_list(const std::string& value);

// Files the --map arguments name: each file itself, each directory searched (recursively, sorted)
// for *.map and *.wkt. Throws InputError for a path that does not exist or a directory with no maps.
std::vector<std::string> expand_map_paths(const std::vector<std::string>& maps);

// The self-description of a run (OMPL-style): host, CPU, compiler, flags, git commit, date, config.
nlohmann::json run_metadata(const std::vector<std::string>& argv, std::uint64_t seed, const nlohmann::json& config);
nlohmann::json config_json(const RunConfig& cfg);

}  // namespace navbench
