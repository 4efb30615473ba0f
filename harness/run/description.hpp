// One typed description of a run (docs/command-line.md): what `navbench run` fills from its
// command line (cli/options.cpp) and a sweep from its config (sweep/config.cpp), checked in one
// place (check_run) before any work. A radius is an Agent (harness/run/agent.hpp) from the option to the row.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "datasets/movingai.hpp"
#include "datasets/load_map.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/agent.hpp"
#include "search/planner.hpp"
#include "search/heuristic.hpp"

namespace navbench {

// The weights of a grid map's cells (docs/terrain.md): a terrain table over its characters or a
// cost layer, at most one; neither: the unweighted map.
struct MapWeights {
  std::optional<TerrainTable> terrain;  // --terrain / "terrain": CHAR=W,..., parsed once where given (set_terrain)
  std::string costs;                    // --costs / "costs": a cost layer file
  bool any() const { return terrain || !costs.empty(); }
  // Parses a terrain table (datasets/terrain.hpp; std::invalid_argument with one line); "" is none.
  void set_terrain(const std::string& text);
  // The table's text ("" without one): the column `terrain`, meta.json, a sweep unit's id.
  std::string terrain_text() const { return terrain ? terrain->text : std::string(); }
};

// Which queries of a map run, and where their points are (and the map's weights: per map entry
// in a sweep, like its queries).
struct QuerySelection {
  MapWeights weights;
  std::string scen;                  // explicit scenario (single map only)
  std::string convention = "center"; // center | corner (grid maps)
  bool squeeze = false;              // --pinch allow (SPEC §11): a path may pass through a pinch point (grid maps)
  long limit = -1;                   // N queries per scenario spread evenly (floor(i*M/N)); -1 = all
  bool first = false;                // with limit: the first N instead of spread
  long every = 1;                    // every k-th query (k > 1)
  long queries = -1;                 // random queries for maps without a scenario
  std::uint64_t seed = 1;
  std::string save_queries;          // write the drawn random queries as a scenario file
  MapReadOptions read;               // how occupancy images read (--unknown, --wmax, thresholds)
};

// --pinch allow (SPEC §11): the representations that declare the squeeze rule (a `pinch`
// parameter) and do not name it take pinch=allow where their declaration allows it (check_run).
void follow_squeeze(std::vector<RepresentationSpec>& reps);

// The search of a query: SearchMode (search/planner.hpp).
const char* to_string(SearchMode m);  // astar, theta, lazy-theta, detour: the column `search`
// "astar, theta, lazy-theta, detour": every search's name, from the one list (description.cpp).
std::string search_names();
// "astar,theta" -> modes. Throws std::invalid_argument("unknown search 'x' (astar, theta, ...)").
std::vector<SearchMode> parse_search_list(const std::string& value);

// How each query of a unit runs.
struct UnitOptions {
  std::vector<SearchMode> searches{SearchMode::astar};
  std::vector<Heuristic> heuristics;
  std::vector<std::string> smoothings{"none"};
  int repetitions = 1;  // > 1: every query runs this often; its times are the medians
  // > 1: navbench's own representations time `batch` queries back to back before judging them, as a
  // planner from outside answers its batches (docs/command-line.md --batch); 1: each query judged at once.
  int batch = 1;
  bool paths = false;
  int threads = 1;      // > 1: the queries of a unit run in parallel (rows still in query order)
  // Search traces (SPEC §12, docs/traces.md): `trace` queries per map and configuration, spread as
  // --limit spreads them, each written to a file under traces/ beside trace_prefix.csv, cut at
  // trace_cap bytes (0: the default, harness/run/traces.hpp).
  std::size_t trace = 0;
  std::size_t trace_cap = 0;
  std::string trace_prefix;
};

// What a run asks for, wherever it was given.
struct RunDescription {
  std::vector<RepresentationSpec> reps;
  QuerySelection select;
  UnitOptions unit;
  std::vector<Agent> agents;         // --radius / "radii": one agent per radius (docs/radius.md); empty: the point agent, no column
  std::vector<std::string> dynamic;  // changing-map scenarios (docs/changing-maps.md), instead of maps
  bool rebuild_baseline = false;     // dynamic: also time a full rebuild of every map state
};

// `navbench run`: a description plus where it reads and writes.
struct RunConfig : RunDescription {
  std::vector<std::string> maps;  // files or directories
  std::string out;                // PREFIX
  bool checkopt = false;          // fail when a grid8-optimal representation differs from the scenario
  bool optimum = true;            // compute the exact optimum for optimal/gap
  bool quiet = false;
  std::vector<std::string> argv;  // the command line, for meta.json
  // The build rows carry the group `entry` even when no planner from outside is among `reps` (a
  // sweep's unit of its own representation, whose files merge with its entries' units).
  bool entry_columns = false;
};

// How the options are spelled where a description came from, for its error messages.
struct OptionNames {
  const char* prefix;  // "" for the command line, "sweep config: " for a config
  const char* who;     // "run" or "sweep config": who needs a missing option
  const char* radii, *dynamic, *threads, *rebuild_baseline, *reps, *smoothing, *convention, *searches, *terrain, *costs;
  const char* maps, *limit, *queries, *seed, *trace, *trace_cap;
};
extern const OptionNames kCommandLineNames, kSweepConfigNames;

// The one check of a description: each value (radius >= 0, known smoothers and conventions) and
// the rules between options. Throws std::invalid_argument with one line; fills the default
// heuristic (euclidean) when none was given. `has_maps`: the description also runs static maps
// (`--map`, a sweep's "maps"), which the query selection's options choose among; with changing
// maps only (docs/changing-maps.md#running-a-changing-map) they would choose nothing and are refused,
// as are the options a changing map's run does not follow (--radius, --threads, --trace, ...).
void check_run(RunDescription& d, const OptionNames& names, bool has_maps);

// The rules of a map's weights (docs/terrain.md): a valid terrain table, not with a cost layer, the
// center convention, no radius > 0, and not on a changing map. Called by check_run for the run's own
// selection (whose weights would apply to its --dynamic scenario) and by the sweep config for each
// map entry's (a sweep's dynamic scenarios are entries of their own, without weights: on_dynamic false).
void check_weights(const QuerySelection& sel, const RunDescription& d, const OptionNames& names, bool on_dynamic = true);

// "none, los, funnel": the registered smoothers' names (smoothing/smoothing.hpp).
std::string smoothing_names();
// "none,los" -> names, each checked against the registered smoothers.
std::vector<std::string> parse_smoothing_list(const std::string& value);

// The configuration a run records in its meta.json.
nlohmann::json config_json(const RunConfig& cfg);

}  // namespace navbench
