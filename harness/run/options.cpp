// `navbench run`'s command line (docs/command-line.md#run): CLI11 typed options filling one
// RunConfig, checked by check_run like a sweep config.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "harness/cli/cli.hpp"
#include "harness/run/run.hpp"

namespace navbench {
namespace {

// --radius R[,R...]: each a number >= 0 (the empty item of "0.5," too is refused).
std::vector<double> parse_radius_list(const std::string& value) {
  std::vector<double> out;
  std::size_t pos = 0;
  while (pos <= value.size()) {
    std::size_t comma = value.find(',', pos);
    if (comma == std::string::npos) comma = value.size();
    const std::string v = value.substr(pos, comma - pos);
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
    pos = comma + 1;
  }
  return out;
}

void add_selection_options(CLI::App& app, RunConfig& c) {
  app.add_option("--map", c.maps, "map files (.map, .wkt) or directories searched for them; one or more")
      ->expected(1, -1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("PATH");
  app.add_option("--scen", c.select.scen, "scenario file (single map; default: MAP.scen next to each map)")->type_name("FILE");
  app.add_option("--dynamic", c.dynamic, "changing-map scenarios (version 2 .scen + patch file) instead of --map")
      ->expected(1, -1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("SCEN");
  app.add_flag("--rebuild-baseline", c.rebuild_baseline, "dynamic: also time a full rebuild of every map state");
  app.add_option("--convention", c.select.convention, "query point of a scenario cell: its center (default) or corner")
      ->type_name("center|corner");
  app.add_option("--limit", c.select.limit, "N queries of each scenario, spread evenly over it")
      ->check(cli::positive_integer())->type_name("N");
  app.add_option("--queries", c.select.queries, "N random queries for maps without a scenario")
      ->check(cli::positive_integer())->type_name("N");
  app.add_option("--seed", c.select.seed, "seed of the random queries (default 1)")->check(cli::non_negative_integer())->type_name("S");
  app.add_option("--save-queries", c.select.save_queries, "write the drawn random queries as a scenario file")->type_name("FILE");
}

}  // namespace

std::optional<RunConfig> parse_run_args(const std::vector<std::string>& args) {
  RunConfig c;
  CLI::App app{"Runs every query of each map's scenario on each representation; writes PREFIX.csv, "
               "PREFIX.build.csv and PREFIX.meta.json (docs/results.md, docs/command-line.md).",
               "navbench run"};
  cli::configure(app);
  add_selection_options(app, c);
  std::vector<std::string> reps, heuristics;
  cli::repeated(app, "--rep", reps, "representations: NAME[,NAME...] or one NAME:k=v,...; may be repeated")
      ->type_name("SPEC");
  app.add_option_function<std::string>("--smoothing", [&](const std::string& v) { c.unit.smoothings = parse_smoothing_list(v); },
                                       "smoothers to run on every path (default none)")->type_name("none,los,funnel");
  cli::repeated(app, "--heuristic", heuristics, "euclidean (default), octile, manhattan, chebyshev, zero; *W weights")
      ->type_name("NAME[*W][,...]");
  app.add_option("--repetitions", c.unit.repetitions, "run each query N times; times are the medians")
      ->check(cli::positive_integer(1000000))->type_name("N");
  app.add_option("--threads", c.unit.threads, "answer each map's queries on N threads over one shared build (default 1)")
      ->check(cli::integer_in(1, 1024, "a positive integer up to 1024"))->type_name("N");
  app.add_option_function<std::string>("--radius", [&](const std::string& v) { c.radii = parse_radius_list(v); },
                                       "agent radius R >= 0 in map units (docs/radius.md), or a list R,R,...: a build per radius")
      ->type_name("R");
  app.add_flag("--paths", c.unit.paths, "also write PREFIX.paths.csv (every path's points)");
  app.add_flag("--checkopt", c.checkopt, "grid8-optimal representations must equal the scenario's optimum (exit 3 otherwise)");
  bool no_optimum = false;
  app.add_flag("--no-optimum", no_optimum, "skip the exact optimum (no optimal/gap columns)");
  app.add_flag("--quiet", c.quiet, "no progress lines");
  app.add_option("--out", c.out, "output prefix (required)")->type_name("PREFIX");
  if (cli::parse(app, args)) return std::nullopt;

  c.optimum = !no_optimum;
  for (const auto& r : reps)
    for (auto& s : parse_rep_option(r)) c.reps.push_back(s);
  for (const auto& h : heuristics) {
    std::istringstream in(h);
    for (std::string s; std::getline(in, s, ',');) c.unit.heuristics.push_back(parse_heuristic(s));
  }
  if (c.maps.empty() && c.dynamic.empty()) throw std::invalid_argument("run needs --map PATH... or --dynamic SCEN...");
  if (!c.maps.empty() && !c.dynamic.empty()) throw std::invalid_argument("run takes --map or --dynamic, not both");
  check_run(c, kCommandLineNames);
  if (c.out.empty()) throw std::invalid_argument("run needs --out PREFIX");
  return c;
}

int run_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  auto cfg = parse_run_args(args);
  if (!cfg) return 0;  // --help
  cfg->argv = argv;
  return run(*cfg);
}

}  // namespace navbench
