// navbench: the command line of docs/command-line.md (main.cpp calls navbench::command_line).
#include <climits>
#include <exception>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "datasets/generate.hpp"
#include "datasets/generate_dynamic.hpp"
#include "datasets/movingai.hpp"
#include "harness/cli/cli.hpp"
#include "harness/cli/commands.hpp"
#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/run.hpp"
#include "harness/serve/serve.hpp"
#include "harness/sweep/sweep.hpp"
#include "smoothing/smoothing.hpp"

namespace {

// navbench generate KIND ... --out DIR/NAME: a seeded map and its scenario (Moving AI files).
int generate_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  navbench::GenerateOptions o;
  std::string kind, out, map, change = "blocks";
  int width = 0, height = 0, room = 0, corridor = 0, obstacles = 0, epochs = 0, block = 0, changes = 0, queries = 0;
  std::uint64_t seed = 0;
  double density = 0;
  const CLI::Validator integer = navbench::cli::integer_in(INT_MIN, INT_MAX, "an integer");
  CLI::App app{"Writes a seeded map and its scenario (Moving AI .map and .map.scen), or with KIND changes a "
               "seeded change scenario of an existing map (docs/changing-maps.md: NAME.scen + NAME.patch).",
               "navbench generate"};
  navbench::cli::configure(app);
  app.add_option("KIND", kind, "random, rooms, maze, polygons, cave; or changes (with --map)")->type_name("KIND");
  app.add_option("--map", map, "changes: the grid map (.map) the scenario changes")->type_name("FILE");
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
  app.add_option("--obstacles", obstacles, "polygons: number of obstacles")->check(integer)->type_name("N");
  app.add_option("--seed", seed, "random seed")->check(navbench::cli::non_negative_integer())->type_name("S");
  app.add_option("--queries", queries, "scenario queries (default 100; changes: per map state, default 10)")->check(integer)->type_name("N");
  app.add_option("--out", out, "output path without extension (required)")->type_name("DIR/NAME");
  if (navbench::cli::parse(app, args)) return 0;  // --help
  if (kind.empty()) throw std::invalid_argument("generate needs a kind: random, rooms, maze, polygons, cave, changes");
  if (out.empty()) throw std::invalid_argument("generate needs --out DIR/NAME");
  const auto slash = out.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : out.substr(0, slash);
  const std::string name = slash == std::string::npos ? out : out.substr(slash + 1);
  if (kind == "changes") {  // a change scenario (docs/changing-maps.md) of an existing grid map
    if (map.empty()) throw std::invalid_argument("generate changes needs --map FILE.map");
    navbench::ChangeOptions c;
    c.kind = change;
    if (app.count("--epochs")) c.epochs = epochs;
    if (app.count("--queries")) c.queries = queries;
    if (app.count("--block")) c.block = block;
    if (app.count("--changes")) c.changes = changes;
    if (app.count("--seed")) c.seed = seed;
    navbench::validate(c);
    const navbench::Map base = navbench::load_movingai_map(map);
    const navbench::DynamicScenario d = navbench::make_change_scenario(base.grid, c, name);
    navbench::write_change_scenario(dir, name, d);
    std::cerr << "navbench: wrote " << dir << "/" << name << ".scen and .patch (" << d.patches.size() << " patches, "
              << d.commands.size() << " commands)\n";
    return 0;
  }
  for (const char* opt : {"--map", "--epochs", "--block", "--changes"})
    if (app.count(opt)) throw std::invalid_argument(std::string(opt) + " is an option of 'generate changes'");
  o.kind = kind;
  if (!app.count("--queries")) queries = 100;
  if (app.count("--width")) o.width = width;
  if (app.count("--height")) o.height = height;
  if (app.count("--density")) o.density = density;
  if (app.count("--room")) o.room = room;
  if (app.count("--corridor")) o.corridor = corridor;
  if (app.count("--obstacles")) o.obstacles = obstacles;
  if (app.count("--seed")) o.seed = seed;
  navbench::validate(o);
  navbench::GridMap m = navbench::generate_map(o);
  navbench::Scenario s = navbench::make_scenario(m, name + ".map", queries, o.seed);
  navbench::write_generated(dir, name, m, s);
  std::cerr << "navbench: wrote " << dir << "/" << name << ".map and .map.scen (" << s.lines.size() << " queries)\n";
  return 0;
}

// navbench structure --map FILE --rep SPEC... --out FILE.csv: the representations' structure as
// segments (representation,kind,x1,y1,x2,y2), for scripts/pathviz.py --structure.
int structure_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  std::string map, out;
  std::vector<std::string> rep_args;
  CLI::App app{"Writes each representation's structure as segments (representation,kind,x1,y1,x2,y2) "
               "for scripts/pathviz.py --structure.",
               "navbench structure"};
  navbench::cli::configure(app);
  app.add_option("--map", map, "map file (required)")->type_name("FILE");
  navbench::cli::repeated(app, "--rep", rep_args, "representations: NAME[,NAME...] or one NAME:k=v,...; may be repeated")
      ->type_name("SPEC");
  app.add_option("--out", out, "output CSV file (required)")->type_name("FILE.csv");
  if (navbench::cli::parse(app, args)) return 0;  // --help
  std::vector<navbench::RepresentationSpec> reps;
  for (const auto& r : rep_args)
    for (auto& s : navbench::parse_rep_option(r)) reps.push_back(s);
  if (map.empty() || reps.empty() || out.empty()) throw std::invalid_argument("structure needs --map FILE --rep NAME --out FILE");
  navbench::QuerySelection sel;
  sel.queries = 1;  // maps without a scenario are fine here
  navbench::PreparedMap pm = navbench::prepare_map(map, sel);
  std::ofstream f(out);
  if (!f) throw std::runtime_error(out + ": cannot write");
  f << "representation,kind,x1,y1,x2,y2\n";
  for (const auto& spec : reps) {
    navbench::Params p = navbench::Params::parse(spec.params);
    std::unique_ptr<navbench::AnyRepresentation> rep;
    try {
      rep = spec.entry->build(pm.map, p);
    } catch (const navbench::UnsupportedMap& u) {
      std::cerr << "navbench: skipping " << spec.text << ": " << u.what() << '\n';
      continue;
    }
    for (const auto& s : rep->structure())
      f << navbench::csv_field(spec.text) << ",segment," << navbench::format_number(s.a.x) << ','
        << navbench::format_number(s.a.y) << ',' << navbench::format_number(s.b.x) << ','
        << navbench::format_number(s.b.y) << '\n';
  }
  if (!f.flush()) throw std::runtime_error(out + ": write failed");
  return 0;
}

int list_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  CLI::App app{"Prints one line per registered representation, its capabilities, and one per smoother.", "navbench list"};
  navbench::cli::configure(app);
  if (navbench::cli::parse(app, args)) return 0;  // --help
  for (const auto& e : navbench::representations()) std::cout << "representation " << e.name << ' ' << e.description << '\n';
  for (const auto& e : navbench::representations())
    std::cout << "capabilities " << e.name << ' ' << navbench::describe(e.caps) << '\n';
  for (const auto& s : navbench::smoothers()) std::cout << "smoothing " << s.name << ' ' << s.description << '\n';
  return 0;
}

// The subcommands: main only dispatches by name. A new subcommand is one line here.
struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args, const std::vector<std::string>& argv);
};
const Command kCommands[] = {
    {"run", "run the queries of maps on representations (one CSV row per query)", navbench::run_command},
    {"sweep", "run a sweep config: many maps x representations x options, resumable", navbench::sweep_command},
    {"merge", "combine the shard folders of a sweep", navbench::merge_command},
    {"generate", "write a seeded map and scenario (random, rooms, maze, polygons, cave), or a change scenario", generate_command},
    {"structure", "write representations' structure as segments for pathviz.py", structure_command},
    {"list", "list representations and smoothers", list_command},
    {"serve", "the live viewer: drag start and goal, every representation answers (docs/viewer.md)",
     [](const std::vector<std::string>& a, const std::vector<std::string>&) { return navbench::serve_command(a); }},
};

void usage(std::ostream& out) {
  out << "usage: navbench <command> [options]   (navbench <command> --help: its options)\n\ncommands:\n";
  for (const auto& c : kCommands) out << "  " << c.name << std::string(12 - std::string(c.name).size(), ' ') << c.summary << '\n';
}

}  // namespace

int navbench::command_line(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    usage(std::cerr);
    return 2;
  }
  const std::string cmd = args[0];
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    usage(std::cout);
    return 0;
  }
  const Command* found = nullptr;
  for (const auto& c : kCommands)
    if (cmd == c.name) found = &c;
  if (!found) {
    std::string names;
    for (const auto& c : kCommands) names += std::string(names.empty() ? "" : ", ") + c.name;
    std::cerr << "navbench: unknown command '" << cmd << "' (" << names << ", help)\n";
    return 2;
  }
  // Every error names the subcommand, on one line: "navbench run: unknown option '--bogus'".
  const std::string who = "navbench " + cmd + ": ";
  try {
    return found->run(std::vector<std::string>(args.begin() + 1, args.end()), std::vector<std::string>(argv, argv + argc));
  } catch (const navbench::InputError& e) {
    std::cerr << who << navbench::cli::one_line(e.what()) << '\n';
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << who << navbench::cli::one_line(e.what()) << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << who << "out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << who << "error: " << navbench::cli::one_line(e.what()) << '\n';
    return 1;
  }
}
