// Every subcommand's command line (docs/command-line.md), on CLI11 (header-only, Debian
// libcli11-dev): the one file that compiles it, each option parsed once by CLI11 into the typed
// structs of cli/arguments.hpp and run/description.hpp. --help prints the app's help to stdout
// (the command exits 0); every parse error becomes one std::invalid_argument line, which
// cli/commands.cpp prints as "navbench X: message" with exit status 2.
#include "harness/cli/arguments.hpp"

#include <climits>
#include <cmath>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <CLI/CLI.hpp>

#include "harness/run/run.hpp"
#include "harness/sweep/units.hpp"

namespace navbench {
namespace {

// A CLI::App configured the navbench way: a repeated scalar option keeps its last value (as the
// hand-written loops did), and unknown arguments are collected so they can be reported by name.
void configure(CLI::App& app) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_extras();
  app.get_formatter()->column_width(34);
}

// An option that may be given several times, one value each time (--rep a --rep b:k=v,...);
// commas stay inside the value.
template <typename T>
CLI::Option* repeated(CLI::App& app, const std::string& name, std::vector<T>& into, const std::string& desc) {
  return app.add_option(name, into, desc)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// Validators of typed options: CLI11 checks the text before converting it to the option's type,
// so each option is parsed once, by CLI11, with one message ("--limit: needs a positive integer, got '0'").
CLI::Validator integer_in(long long lo, long long hi, const std::string& what) {
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        long long n = 0;
        std::size_t used = 0;
        try {
          n = std::stoll(v, &used);
        } catch (...) {
          used = 0;
        }
        if (v.empty() || used != v.size() || n < lo || n > hi) return "needs " + what + ", got '" + v + "'";
        return "";
      },
      what);
}
CLI::Validator positive_integer(long long hi = (1LL << 40)) { return integer_in(1, hi, "a positive integer"); }
CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 19)
          return "needs a non-negative integer, got '" + v + "'";
        return "";
      },
      "a non-negative integer");
}

// Parses `args` (the arguments after the subcommand name, in order) into `app`.
// Returns 0 when --help/-h was given (help already printed: the command returns that status),
// nullopt when the command should go on. Throws std::invalid_argument with one line otherwise.
std::optional<int> parse(CLI::App& app, const std::vector<std::string>& args) {
  // CLI11 wants help even when other arguments are wrong: look for it first.
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << app.help();
      return 0;
    }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(cli::one_line(e.what()));
  }
  for (const auto& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') throw std::invalid_argument("unknown option '" + extra + "'");
    throw std::invalid_argument("unexpected argument '" + extra + "'");
  }
  // An option's value never starts with "--": `--out --quiet` means --out lacks its value.
  for (const CLI::Option* o : app.get_options())
    for (const auto& v : o->results())
      if (v.rfind("--", 0) == 0) throw std::invalid_argument(o->get_name() + " needs a value, got option '" + v + "'");
  return std::nullopt;
}

// --radius R[,R...]: each a number >= 0 (the empty item of "0.5," too is refused).
std::vector<double> parse_radius_list(const std::string& value) {
  std::vector<double> out;
  for (const std::string& v : base::split_list(value)) {
    double r = 0;
    std::size_t used = 0;
    try {
      r = std::stod(v, &used);
    } catch (...) {
      used = 0;
    }
    if (v.empty() || used != v.size() || !std::isfinite(r) || r < 0)
      throw std::invalid_argument("--radius needs numbers >= 0, got '" + v + "'");
    out.push_back(r);
  }
  return out;
}

// How occupancy images read (ROS map_server maps and bare PNG/PGM; docs/maps.md).
void add_occupancy_options(CLI::App& app, OccupancyOptions& o) {
  app.add_option_function<std::string>("--unknown", [&o](const std::string& v) {
        if (v != "blocked" && v != "free") throw std::invalid_argument("--unknown needs blocked or free, got '" + v + "'");
        o.unknown_free = v == "free";
      }, "occupancy images: unknown cells blocked (default) or free")->type_name("blocked|free");
  app.add_option("--wmax", o.wmax, "ROS scale mode: weight of a cell at occupied_thresh (default 5)")
      ->check(CLI::Range(1.0, 1e9))->type_name("W");
  app.add_option("--occupied-thresh", o.occupied_thresh, "bare PNG/PGM maps: occupancy above it is blocked (default 0.65)")
      ->check(CLI::Range(0.0, 1.0))->type_name("T");
  app.add_option("--free-thresh", o.free_thresh, "bare PNG/PGM maps: occupancy below it is free (default 0.196)")
      ->check(CLI::Range(0.0, 1.0))->type_name("T");
}

void add_selection_options(CLI::App& app, RunConfig& c) {
  app.add_option("--map", c.maps, "map files (.map, .wkt, ROS .yaml, .png/.pgm, .mesh, .poly) or directories searched for them; one or more")
      ->expected(1, -1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("PATH");
  app.add_option("--scen", c.select.scen, "scenario file (single map; default: MAP.scen next to each map)")->type_name("FILE");
  app.add_option("--dynamic", c.dynamic, "changing-map scenarios (version 2 .scen + patch file) instead of --map")
      ->expected(1, -1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("SCEN");
  app.add_flag("--rebuild-baseline", c.rebuild_baseline, "dynamic: also time a full rebuild of every map state");
  app.add_option("--convention", c.select.convention, "query point of a scenario cell: its center (default) or corner")
      ->type_name("center|corner");
  app.add_option_function<std::string>("--pinch", [&c](const std::string& v) {
        if (v != "forbid" && v != "allow") throw std::invalid_argument("--pinch needs forbid or allow, got '" + v + "'");
        c.select.squeeze = v == "allow";
      }, "the squeeze rule (SPEC 11): a path through a pinch point forbidden (default) or allowed (grid maps)")
      ->type_name("forbid|allow");
  app.add_option("--limit", c.select.limit, "N queries of each scenario, spread evenly over it")
      ->check(positive_integer())->type_name("N");
  app.add_option("--queries", c.select.queries, "N random queries for maps without a scenario")
      ->check(positive_integer())->type_name("N");
  app.add_option("--seed", c.select.seed, "seed of the random queries (default 1)")->check(non_negative_integer())->type_name("S");
  app.add_option("--save-queries", c.select.save_queries, "write the drawn random queries as a scenario file")->type_name("FILE");
  app.add_option_function<std::string>("--terrain", [&c](const std::string& v) { c.select.weights.set_terrain(v); },
                 "weighted map (docs/terrain.md): terrain characters and their weights, e.g. S=2,W=5")
      ->type_name("CHAR=W,...");
  app.add_option("--costs", c.select.weights.costs, "weighted map (docs/terrain.md): a cost layer file of the map's size")
      ->type_name("FILE");
  add_occupancy_options(app, c.select.read.occupancy);
}

}  // namespace

// navbench run (docs/command-line.md#run): one RunConfig, checked by check_run like a sweep config.
std::optional<RunConfig> parse_run_args(const std::vector<std::string>& args) {
  RunConfig c;
  CLI::App app{"Runs every query of each map's scenario on each representation; writes PREFIX.csv, "
               "PREFIX.build.csv and PREFIX.meta.json (docs/results.md, docs/command-line.md).",
               "navbench run"};
  configure(app);
  add_selection_options(app, c);
  std::vector<std::string> reps, heuristics;
  std::string names;  // the registry's, so that the help names every representation there is
  for (const auto& e : representations()) names += (names.empty() ? "" : ", ") + e.name;
  const RepresentationEntry* entry = find_representation("gppc");  // a planner from outside, by name only
  repeated(app, "--rep", reps, "representations: NAME[,NAME...] or one NAME:k=v,...; may be repeated. NAME: " + names +
                                   " (navbench list: their parameters); " + entry->name + ":k=v,...: " + entry->description)
      ->type_name("SPEC");
  // The names come from where they are defined (harness/run/description.cpp, smoothing/smoothing.hpp).
  app.add_option_function<std::string>("--search", [&](const std::string& v) { c.unit.searches = parse_search_list(v); },
                                       "the searches, a list of " + search_names() +
                                           " (default astar; docs/path-quality.md, detour: docs/recast.md)")->type_name("astar,theta,...");
  app.add_option_function<std::string>("--smoothing", [&](const std::string& v) { c.unit.smoothings = parse_smoothing_list(v); },
                                       "smoothers to run on every path, a list of " + smoothing_names() + " (default none)")
      ->type_name("none,los,funnel");
  repeated(app, "--heuristic", heuristics, "euclidean (default), octile, manhattan, chebyshev, zero; *W weights")
      ->type_name("NAME[*W][,...]");
  app.add_option("--repetitions", c.unit.repetitions, "run each query N times; times are the medians")
      ->check(positive_integer(1000000))->type_name("N");
  app.add_option("--batch", c.unit.batch, "time N queries back to back before judging them, as an entry's batches (default 1)")
      ->check(integer_in(1, 4096, "a positive integer up to 4096"))->type_name("N");
  app.add_option("--threads", c.unit.threads, "answer each map's queries on N threads over one shared build (default 1)")
      ->check(integer_in(1, 1024, "a positive integer up to 1024"))->type_name("N");
  app.add_option_function<std::string>("--radius", [&](const std::string& v) { c.agents = agents_of(parse_radius_list(v)); },
                                       "agent radius R >= 0 in map units (docs/radius.md), or a list R,R,...: a build per radius")
      ->type_name("R");
  app.add_flag("--paths", c.unit.paths, "also write PREFIX.paths.csv (every path's points)");
  app.add_option("--trace", c.unit.trace, "write search traces of N queries per map and configuration (docs/traces.md)")
      ->check(positive_integer())->type_name("N");
  double trace_cap_mb = 0;
  app.add_option("--trace-cap", trace_cap_mb, "cut a trace file at MB megabytes, with a note (default 64)")
      ->check(CLI::PositiveNumber)->type_name("MB");
  app.add_flag("--checkopt", c.checkopt, "grid8-optimal representations must equal the scenario's optimum (exit 3 otherwise)");
  bool no_optimum = false;
  app.add_flag("--no-optimum", no_optimum, "skip the exact optimum (no optimal/gap columns)");
  app.add_flag("--quiet", c.quiet, "no progress lines");
  app.add_option("--out", c.out, "output prefix (required)")->type_name("PREFIX");
  if (parse(app, args)) return std::nullopt;

  c.optimum = !no_optimum;
  if (trace_cap_mb > 0) c.unit.trace_cap = std::size_t(trace_cap_mb * 1024 * 1024);
  for (const auto& r : reps)
    for (auto& s : parse_rep_option(r)) c.reps.push_back(s);
  for (const auto& h : heuristics)
    for (const std::string& s : base::split_list(h)) c.unit.heuristics.push_back(parse_heuristic(s));
  if (c.maps.empty() && c.dynamic.empty()) throw std::invalid_argument("run needs --map PATH... or --dynamic SCEN...");
  if (!c.maps.empty() && !c.dynamic.empty()) throw std::invalid_argument("run takes --map or --dynamic, not both");
  check_run(c, kCommandLineNames, !c.maps.empty());
  if (c.out.empty()) throw std::invalid_argument("run needs --out PREFIX");
  return c;
}

// The subcommand `run` (run/run.hpp): here with its parser, so that the pipeline's library
// (navbench_run) needs no command line.
int run_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  auto cfg = parse_run_args(args);
  if (!cfg) return 0;  // --help
  cfg->argv = argv;
  return run(*cfg);
}

std::optional<SweepArgs> parse_sweep_args(const std::vector<std::string>& args) {
  SweepArgs o;
  o.jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string shard;
  CLI::App app{"Runs a whole sweep from a JSON config (maps x representations x options) as resumable units "
               "in parallel; writes DIR/results.csv when every unit is done.",
               "navbench sweep"};
  configure(app);
  app.add_option("CONFIG", o.config_path, "sweep config file (JSON)")->type_name("CONFIG");
  app.add_option("--out", o.out, "output folder (default: the config's \"output\")")->type_name("DIR");
  app.add_option("--jobs", o.jobs, "units run in parallel (default: the number of cores)")
      ->check(integer_in(1, 1024, "1..1024"))->type_name("N");
  app.add_option("--shard", shard, "run only units K-1, K-1+N, ... (combine shards with navbench merge)")->type_name("K/N");
  app.add_option("--threads", o.threads, "threads per unit: its queries in parallel over one build (default 1)")
      ->check(integer_in(1, 1024, "a positive integer up to 1024"))->type_name("N");
  app.add_flag("--quiet", o.quiet, "no progress lines");
  if (parse(app, args)) return std::nullopt;  // --help
  if (o.config_path.empty()) throw std::invalid_argument("sweep needs a CONFIG file");
  if (!shard.empty()) std::tie(o.shard_k, o.shard_n) = parse_shard(shard);
  return o;
}

std::optional<MergeArgs> parse_merge_args(const std::vector<std::string>& args) {
  MergeArgs o;
  CLI::App app{"Combines the folders of a sharded sweep (navbench sweep --shard K/N) into one result set.", "navbench merge"};
  configure(app);
  app.add_option("SHARD_DIR", o.dirs, "sweep output folders of the same config")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("SHARD_DIR...");
  app.add_option("--out", o.out, "output folder (required)")->type_name("DIR");
  if (parse(app, args)) return std::nullopt;  // --help
  if (o.dirs.empty() || o.out.empty()) throw std::invalid_argument("merge needs SHARD_DIR... --out DIR");
  return o;
}

std::optional<ServeArgs> parse_serve_args(const std::vector<std::string>& args) {
  ServeArgs o;
  CLI::App app{"navbench serve: the live viewer. Pick a map, drag start and goal, and every selected\n"
               "representation answers through the pipeline of `navbench run`.",
               "navbench serve"};
  configure(app);
  app.add_option("--map", o.maps, "map files (.map, .wkt) or directories searched for them (default: the bundled datasets/maps)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("PATH");
  app.add_option("--port", o.port, "TCP port; 0 picks a free one (printed at start)")
      ->check(integer_in(0, 65535, "a port 0..65535"))->type_name("P");
  app.add_option("--host", o.host, "address to listen on (default 127.0.0.1: this machine only)")->type_name("HOST");
  app.add_option("--cache-maps", o.cache_maps, "maps that keep their built representations (least recently used dropped)")
      ->check(integer_in(1, 1000, "1..1000"))->type_name("N");
  app.add_option("--rep", o.reps, "planners from outside offered on the page: gppc:path=PROGRAM,track=classic|anyangle,name=N; may be repeated")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("SPEC");
  if (parse(app, args)) return std::nullopt;  // --help
  return o;
}

std::optional<GenerateArgs> parse_generate_args(const std::vector<std::string>& args) {
  GenerateArgs o;
  std::string out, change = "blocks";
  int width = 0, height = 0, room = 0, corridor = 0, obstacles = 0, epochs = 0, block = 0, changes = 0, queries = 0;
  int vertices = 0, touching = 0;
  std::uint64_t seed = 0;
  double density = 0, wmax = 0, lambda = 0;
  int regions = 0;
  std::string cost_kind;
  const CLI::Validator integer = integer_in(INT_MIN, INT_MAX, "an integer");
  CLI::App app{"Writes a seeded map and its scenario (Moving AI .map and .map.scen), or with KIND changes a "
               "seeded change scenario of an existing map (docs/changing-maps.md: NAME.scen + NAME.patch).",
               "navbench generate"};
  configure(app);
  app.add_option("KIND", o.kind, "random, rooms, maze, polygons, cave; wkt (a polygon map); or changes, costs, queries (with --map)")->type_name("KIND");
  app.add_option("--map", o.map, "changes, costs: the grid map (.map) the scenario or cost layer is for; queries: any grid map (.map, ROS .yaml, .png/.pgm); wkt: any map, written as its free space's polygons")->type_name("FILE");
  app.add_option("--kind", cost_kind, "costs: inflation (a robot costmap, cost rising near obstacles) or regions "
                 "(seeded discs of cheaper and dearer terrain); default inflation")->type_name("KIND");
  app.add_option("--wmax", wmax, "costs inflation: the weight next to an obstacle (default 5)")->type_name("W");
  app.add_option("--lambda", lambda, "costs inflation: the decay length in cells (default 3)")->type_name("L");
  app.add_option("--regions", regions, "costs regions: how many discs (default 24)")->check(integer)->type_name("N");
  app.add_option("--change", change, "changes: doors (toggle 1-cell wall gaps), blocks (k x k blocks appear and vanish) "
                 "or sweep (a wall with a gap crosses the map); default blocks")->type_name("KIND");
  app.add_option("--epochs", epochs, "changes: updates after the base map (default 20)")->check(integer)->type_name("N");
  app.add_option("--block", block, "changes: side of the blocks (default 4)")->check(integer)->type_name("K");
  app.add_option("--changes", changes, "changes: blocks placed / doors toggled per epoch (default 4)")->check(integer)->type_name("N");
  app.add_option("--width", width, "map width in cells")->check(integer)->type_name("W");
  app.add_option("--height", height, "map height in cells")->check(integer)->type_name("H");
  app.add_option("--density", density, "random: obstacle density in percent")->type_name("PCT");
  app.add_option("--room", room, "rooms: room size in cells")->check(integer)->type_name("N");
  app.add_option("--corridor", corridor, "maze: corridor width in cells")->check(integer)->type_name("N");
  app.add_option("--obstacles", obstacles, "polygons, wkt: number of obstacles")->check(integer)->type_name("N");
  app.add_option("--vertices", vertices, "wkt: vertices per obstacle (default 12)")->check(integer)->type_name("K");
  app.add_option("--touching", touching, "wkt: percent of obstacles reaching into a neighbour's cell (default 0)")->check(integer)->type_name("PCT");
  app.add_option("--seed", seed, "random seed")->check(non_negative_integer())->type_name("S");
  app.add_option("--queries", queries, "scenario queries (default 100; changes: per map state, default 10)")->check(integer)->type_name("N");
  app.add_option("--out", out, "output path without extension (required)")->type_name("DIR/NAME");
  if (parse(app, args)) return std::nullopt;  // --help
  if (o.kind.empty()) throw std::invalid_argument("generate needs a kind: random, rooms, maze, polygons, cave, wkt, changes, costs");
  if (out.empty()) throw std::invalid_argument("generate needs --out DIR/NAME");
  const auto slash = out.find_last_of('/');
  o.dir = slash == std::string::npos ? "." : out.substr(0, slash);
  o.name = slash == std::string::npos ? out : out.substr(slash + 1);
  // An option given on the command line replaces its field's default.
  const auto given = [&](const char* opt, auto& field, const auto& value) {
    if (app.count(opt)) field = value;
  };
  if (o.kind == "costs") {  // a cost layer (docs/terrain.md) of an existing grid map
    if (o.map.empty()) throw std::invalid_argument("generate costs needs --map FILE.map");
    CostLayerOptions& c = o.costs;
    given("--kind", c.kind, cost_kind);
    if (c.kind != "inflation" && c.kind != "regions")
      throw std::invalid_argument("generate costs: --kind must be inflation or regions, got '" + c.kind + "'");
    given("--wmax", c.wmax, wmax), given("--lambda", c.lambda, lambda);
    given("--regions", c.regions, regions), given("--seed", c.seed, seed);
    if (!(c.wmax >= 1 && c.wmax <= 1e6)) throw std::invalid_argument("generate costs: --wmax must be in 1..1e6");
    if (!(c.lambda > 0 && c.lambda <= 1e6)) throw std::invalid_argument("generate costs: --lambda must be in (0, 1e6]");
    if (c.regions < 0 || c.regions > 100000) throw std::invalid_argument("generate costs: --regions must be in 0..100000");
    return o;
  }
  for (const char* opt : {"--kind", "--wmax", "--lambda", "--regions"})
    if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is an option of 'generate costs'");
  if (o.kind == "wkt") {  // a polygon map (docs/maps.md): a map's free space as WKT, or seeded obstacles
    for (const char* opt : {"--epochs", "--block", "--changes", "--width", "--height", "--density", "--room", "--corridor", "--queries"})
      if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is not an option of 'generate wkt'");
    if (!o.map.empty()) {
      for (const char* opt : {"--obstacles", "--vertices", "--touching", "--seed"})
        if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is not an option of 'generate wkt --map'");
      return o;
    }
    given("--obstacles", o.polygons.obstacles, obstacles), given("--vertices", o.polygons.vertices, vertices);
    given("--touching", o.polygons.touching, touching), given("--seed", o.polygons.seed, seed);
    validate(o.polygons);
    return o;
  }
  for (const char* opt : {"--vertices", "--touching"})
    if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is an option of 'generate wkt'");
  if (o.kind == "queries") {  // a scenario of an existing grid map: Moving AI, ROS or image (docs/maps.md)
    if (o.map.empty()) throw std::invalid_argument("generate queries needs --map FILE");
    for (const char* opt : {"--epochs", "--block", "--changes", "--width", "--height", "--density", "--room", "--corridor", "--obstacles"})
      if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is not an option of 'generate queries'");
    if (app.count("--queries")) o.queries = queries;
    if (app.count("--seed")) o.gen.seed = seed;
    if (o.queries < 1 || o.queries > 1000000) throw std::invalid_argument("generate queries: --queries must be in 1..1000000");
    return o;
  }
  if (o.kind == "changes") {  // a change scenario (docs/changing-maps.md) of an existing grid map
    if (o.map.empty()) throw std::invalid_argument("generate changes needs --map FILE.map");
    ChangeOptions& c = o.change;
    c.kind = change;
    given("--epochs", c.epochs, epochs), given("--queries", c.queries, queries), given("--block", c.block, block);
    given("--changes", c.changes, changes), given("--seed", c.seed, seed);
    validate(c);
    return o;
  }
  for (const char* opt : {"--map", "--epochs", "--block", "--changes"})
    if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is an option of 'generate changes'");
  GenerateOptions& g = o.gen;
  g.kind = o.kind;
  given("--queries", o.queries, queries), given("--width", g.width, width), given("--height", g.height, height);
  given("--density", g.density, density), given("--room", g.room, room), given("--corridor", g.corridor, corridor);
  given("--obstacles", g.obstacles, obstacles), given("--seed", g.seed, seed);
  validate(g);
  return o;
}

std::optional<StructureArgs> parse_structure_args(const std::vector<std::string>& args) {
  StructureArgs o;
  std::vector<std::string> rep_args;
  CLI::App app{"Writes each representation's structure as segments (representation,kind,x1,y1,x2,y2) "
               "for scripts/pathviz.py --structure.",
               "navbench structure"};
  configure(app);
  app.add_option("--map", o.map, "map file (required)")->type_name("FILE");
  repeated(app, "--rep", rep_args, "representations: NAME[,NAME...] or one NAME:k=v,...; may be repeated")->type_name("SPEC");
  app.add_option("--out", o.out, "output CSV file (required)")->type_name("FILE.csv");
  if (parse(app, args)) return std::nullopt;  // --help
  for (const auto& r : rep_args)
    for (auto& s : parse_rep_option(r)) o.reps.push_back(s);
  if (o.map.empty() || o.reps.empty() || o.out.empty()) throw std::invalid_argument("structure needs --map FILE --rep NAME --out FILE");
  return o;
}

bool parse_list_args(const std::vector<std::string>& args) {
  CLI::App app{"Prints one line per registered representation, its capabilities, and one per smoother.", "navbench list"};
  configure(app);
  return !parse(app, args);
}

}  // namespace navbench
