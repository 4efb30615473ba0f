// navbench: the command line of docs/command-line.md (main.cpp calls navbench::command_line).
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "datasets/generate.hpp"
#include "datasets/terrain.hpp"
#include "datasets/generate_dynamic.hpp"
#include "datasets/generate_polygons.hpp"
#include "datasets/load_map.hpp"
#include "datasets/movingai.hpp"
#include "datasets/wkt.hpp"
#include "geometry/polygons.hpp"
#include "harness/cli/arguments.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/python_commands.hpp"
#include "harness/cli/reproduce.hpp"
#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/run.hpp"
#include "harness/serve/serve.hpp"
#include "harness/sweep/sweep.hpp"
#include "smoothing/smoothing.hpp"

namespace {

// navbench generate KIND ... --out DIR/NAME: a seeded map and its scenario (Moving AI files), or a
// change scenario of an existing map.
int generate_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  const auto o = navbench::parse_generate_args(args);
  if (!o) return 0;  // --help
  if (o->kind == "costs") {  // a cost layer (docs/terrain.md) of an existing grid map
    const navbench::Map base = navbench::load_movingai_map(o->map);
    navbench::GridMap g = base.grid;
    g.weights = navbench::generate_cost_layer(g, o->costs);
    const std::string file = o->dir + "/" + o->name + (o->name.ends_with(".costs") ? "" : ".costs");
    std::ofstream f(file);
    navbench::write_cost_layer(f, g);
    f.close();
    if (!f) throw std::runtime_error(file + ": cannot write");
    std::cerr << "navbench: wrote " << file << " (" << o->costs.kind << ", " << g.width << "x" << g.height << ")\n";
    return 0;
  }
  if (o->kind == "queries") {  // a scenario of an existing grid map, e.g. a ROS map (docs/maps.md)
    const navbench::Map base = navbench::load_map(o->map);
    if (base.kind != navbench::MapKind::grid)
      throw navbench::base::InputError(o->map + ": generate queries needs a grid map (.map, ROS .yaml, .png/.pgm)");
    const std::string map_name = std::filesystem::path(o->map).filename().string();
    const navbench::Scenario s = navbench::make_scenario(base.grid, map_name, o->queries, o->gen.seed);
    const std::string file = o->dir + "/" + o->name + (o->name.ends_with(".scen") ? "" : ".scen");
    std::ofstream f(file);
    navbench::write_scenario(f, s);
    f.close();
    if (!f) throw std::runtime_error(file + ": cannot write");
    std::cerr << "navbench: wrote " << file << " (" << s.lines.size() << " queries of " << map_name << ")\n";
    return 0;
  }
  if (o->kind == "wkt") {  // a polygon map (docs/maps.md): a map's free space, or seeded obstacles
    navbench::PolygonMap pm;
    std::string what;
    if (!o->map.empty()) {
      const navbench::Map base = navbench::load_map(o->map);
      if (base.weighted()) throw navbench::base::InputError(o->map + ": generate wkt takes an unweighted map");
      pm = base.kind == navbench::MapKind::grid ? navbench::grid_to_polygon_map(base).polygons : base.polygons;
      what = "the free space of " + o->map;
    } else {
      pm = navbench::generate_polygon_map(o->polygons);
      what = std::to_string(pm.obstacles.size()) + " seeded obstacles";
    }
    const std::string file = o->dir + "/" + o->name + (o->name.ends_with(".wkt") ? "" : ".wkt");
    std::filesystem::create_directories(o->dir);
    std::ofstream f(file);
    navbench::write_wkt_map(f, pm);
    f.close();
    if (!f) throw std::runtime_error(file + ": cannot write");
    std::cerr << "navbench: wrote " << file << " (" << what << ")\n";
    return 0;
  }
  if (o->kind == "changes") {  // a change scenario (docs/changing-maps.md) of an existing grid map
    const navbench::Map base = navbench::load_movingai_map(o->map);
    const navbench::DynamicScenario d = navbench::make_change_scenario(base.grid, o->change, o->name);
    navbench::write_change_scenario(o->dir, o->name, d);
    std::cerr << "navbench: wrote " << o->dir << "/" << o->name << ".scen and .patch (" << d.patches.size() << " patches, "
              << d.commands.size() << " commands)\n";
    return 0;
  }
  navbench::GridMap m = navbench::generate_map(o->gen);
  navbench::Scenario s = navbench::make_scenario(m, o->name + ".map", o->queries, o->gen.seed);
  navbench::write_generated(o->dir, o->name, m, s);
  std::cerr << "navbench: wrote " << o->dir << "/" << o->name << ".map and .map.scen (" << s.lines.size() << " queries)\n";
  return 0;
}

// navbench structure --map FILE --rep SPEC... --out FILE.csv: the representations' structure as
// segments (representation,kind,x1,y1,x2,y2), for scripts/pathviz.py --structure.
int structure_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  const auto o = navbench::parse_structure_args(args);
  if (!o) return 0;  // --help
  navbench::QuerySelection sel;
  sel.queries = 1;  // maps without a scenario are fine here
  navbench::PreparedMap pm = navbench::prepare_map(o->map, sel);
  std::ofstream f(o->out);
  if (!f) throw std::runtime_error(o->out + ": cannot write");
  f << "representation,kind,x1,y1,x2,y2\n";
  for (const auto& spec : o->reps) {
    navbench::Params p = navbench::Params::parse(spec.params);
    std::unique_ptr<navbench::AnyRepresentation> rep;
    try {
      rep = spec.entry->build(pm.map, p);
    } catch (const navbench::UnsupportedMap& u) {
      std::cerr << "navbench: skipping " << spec.text << ": " << u.what() << '\n';
      continue;
    }
    const std::string name = navbench::csv_field(spec.text);
    rep->visit_structure([&](const navbench::Segment& s) {
      f << name << ",segment," << navbench::format_number(s.a.x) << ',' << navbench::format_number(s.a.y) << ','
        << navbench::format_number(s.b.x) << ',' << navbench::format_number(s.b.y) << '\n';
    });
  }
  if (!f.flush()) throw std::runtime_error(o->out + ": write failed");
  return 0;
}

// SPEC §5: one line per representation, its capabilities, and one line per declared parameter:
// `parameter NAME KEY TYPE DEFAULT RANGE HELP` (DEFAULT "auto": chosen from the map, as HELP ends).
void list_parameter(const std::string& rep, const navbench::ParamDecl& d) {
  std::cout << "parameter " << rep << ' ' << d.name << ' ' << navbench::to_string(d.type) << ' ' << navbench::default_text(d)
            << ' ' << navbench::range_text(d) << ' ' << d.help << (d.automatic ? std::string(" (auto: ") + d.automatic + ")" : "")
            << '\n';
}

int list_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  if (!navbench::parse_list_args(args)) return 0;  // --help
  for (const auto& e : navbench::representations()) std::cout << "representation " << e.name << ' ' << e.description << '\n';
  for (const auto& e : navbench::representations())
    std::cout << "capabilities " << e.name << ' ' << navbench::describe(e.caps) << '\n';
  for (const auto& e : navbench::representations()) {
    for (const auto& d : e.params) list_parameter(e.name, d);
    if (e.caps.radius == navbench::RadiusSupport::shrunk_map) list_parameter(e.name, navbench::kErodeParam);
  }
  for (const auto& s : navbench::smoothers()) std::cout << "smoothing " << s.name << ' ' << s.description << '\n';
  return 0;
}

// The subcommands of the parts below cli/: each parses here and hands its part a typed struct.
int run_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  auto cfg = navbench::parse_run_args(args);
  if (!cfg) return 0;  // --help
  cfg->argv = argv;
  return navbench::run(*cfg);
}

int sweep_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  const auto o = navbench::parse_sweep_args(args);
  return o ? navbench::sweep_command(*o, argv) : 0;  // nullopt: --help
}

int merge_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  const auto o = navbench::parse_merge_args(args);
  return o ? navbench::merge_command(*o, argv) : 0;
}

int serve_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  const auto o = navbench::parse_serve_args(args);
  return o ? navbench::serve_command(*o) : 0;
}

// The subcommands: main only dispatches by name. A new subcommand is one line here.
struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args, const std::vector<std::string>& argv);
};
const Command kCommands[] = {
    {"run", "run the queries of maps on representations (one CSV row per query)", run_command},
    {"sweep", "run a sweep config: many maps x representations x options, resumable", sweep_command},
    {"merge", "combine the shard folders of a sweep", merge_command},
    {"generate", "write a seeded map and scenario (random, rooms, maze, polygons, cave), a polygon map (wkt), or a change scenario", generate_command},
    {"structure", "write representations' structure as segments for pathviz.py", structure_command},
    {"list", "list representations and smoothers", list_command},
    {"reproduce", "run navbench's counterparts of a published table side by side with it (docs/reproduce.md)",
     navbench::reproduce_command},
    {"serve", "the live viewer: drag start and goal, every representation answers (docs/viewer.md)",
     serve_command},
    {"export", "write result sets into one SQLite database, or OMPL's benchmark log (docs/results.md#the-results-database)",
     navbench::export_command},
    {"compare", "pair two runs' queries: per configuration time ratio and gap difference (docs/results.md#comparing-two-runs)",
     navbench::compare_command},
};

void usage(std::ostream& out) {
  out << "usage: navbench <command> [options]   (navbench <command> --help: its options; navbench --version)\n\ncommands:\n";
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
  if (cmd == "--version") {  // the version and commit (harness/run/metadata.cpp)
    std::cout << navbench::version_line() << '\n';
    return 0;
  }
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
  } catch (const navbench::base::InputError& e) {
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
