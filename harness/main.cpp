// navbench: the command line of SPEC §5.
#include <exception>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "datasets/generate.hpp"
#include "datasets/movingai.hpp"
#include "harness/registry.hpp"
#include "harness/results.hpp"
#include "harness/run.hpp"
#include "harness/serve.hpp"
#include "harness/sweep.hpp"
#include "smoothing/smoothing.hpp"

namespace {

const char* kUsage =
    "usage: navbench <command> [options]\n"
    "  run --map PATH... [--scen FILE] --rep NAME[,NAME...] [--rep NAME:k=v,...] [--smoothing none,los,funnel]\n"
    "      [--heuristic NAME[*W][,...]] [--convention center|corner] [--limit N] [--queries N] [--seed S]\n"
    "      [--save-queries FILE] [--repetitions N] [--paths] [--checkopt] [--no-optimum] [--quiet] --out PREFIX\n"
    "  sweep CONFIG [--out DIR] [--jobs N] [--shard K/N] [--quiet]\n"
    "  merge SHARD_DIR... --out DIR\n"
    "  generate random|rooms|maze|polygons [--width W] [--height H] [--density PCT] [--room N]\n"
    "      [--corridor N] [--obstacles N] [--seed S] [--queries N] --out DIR/NAME\n"
    "  structure --map FILE --rep NAME[,NAME...] --out FILE.csv   structure segments for pathviz.py\n"
    "  list                      representations and smoothers\n"
    "  help                      this text\n";

long number(const std::string& opt, const std::string& v) {
  std::size_t used = 0;
  long n = 0;
  try {
    n = std::stol(v, &used);
  } catch (...) {
    used = 0;
  }
  if (used != v.size() || v.empty()) throw std::invalid_argument(opt + " needs an integer, got '" + v + "'");
  return n;
}

// navbench generate KIND ... --out DIR/NAME: a seeded map and its scenario (Moving AI files).
int generate(const std::vector<std::string>& args) {
  if (args.empty() || args[0].rfind("--", 0) == 0)
    throw std::invalid_argument("generate needs a kind: random, rooms, maze, polygons");
  navbench::GenerateOptions o;
  o.kind = args[0];
  std::string out;
  long queries = 100;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
    const std::string& v = args[++i];
    if (a == "--width") o.width = int(number(a, v));
    else if (a == "--height") o.height = int(number(a, v));
    else if (a == "--density") {
      std::size_t used = 0;
      try {
        o.density = std::stod(v, &used);
      } catch (...) {
        used = 0;
      }
      if (used != v.size()) throw std::invalid_argument("--density needs a number, got '" + v + "'");
    } else if (a == "--room") o.room = int(number(a, v));
    else if (a == "--corridor") o.corridor = int(number(a, v));
    else if (a == "--obstacles") o.obstacles = int(number(a, v));
    else if (a == "--seed") o.seed = std::uint64_t(number(a, v));
    else if (a == "--queries") queries = number(a, v);
    else if (a == "--out") out = v;
    else throw std::invalid_argument("unknown option '" + a + "' for generate");
  }
  if (out.empty()) throw std::invalid_argument("generate needs --out DIR/NAME");
  navbench::validate(o);
  const auto slash = out.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : out.substr(0, slash);
  const std::string name = slash == std::string::npos ? out : out.substr(slash + 1);
  navbench::GridMap m = navbench::generate_map(o);
  navbench::Scenario s = navbench::make_scenario(m, name + ".map", int(queries), o.seed);
  navbench::write_generated(dir, name, m, s);
  std::cerr << "navbench: wrote " << dir << "/" << name << ".map and .map.scen (" << s.lines.size() << " queries)\n";
  return 0;
}

// navbench structure --map FILE --rep SPEC... --out FILE.csv: the representations' structure as
// segments (representation,kind,x1,y1,x2,y2), for scripts/pathviz.py --structure.
int structure(const std::vector<std::string>& args) {
  std::string map, out;
  std::vector<navbench::RepresentationSpec> reps;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
    if (args[i] == "--map") map = args[++i];
    else if (args[i] == "--rep") {
      for (auto& s : navbench::parse_rep_option(args[++i])) reps.push_back(s);
    } else if (args[i] == "--out") out = args[++i];
    else throw std::invalid_argument("unknown option '" + args[i] + "' for structure");
  }
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
      rep = navbench::find_representation(spec.name)->build(pm.map, p);
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

int list() {
  for (const auto& e : navbench::representations()) std::cout << "representation " << e.name << ' ' << e.description << '\n';
  for (const auto& s : navbench::smoothers()) std::cout << "smoothing " << s.name << ' ' << s.description << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (cmd == "list") return list();
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (cmd == "run") {
      auto cfg = navbench::parse_run_args(rest);
      cfg.argv.assign(argv, argv + argc);
      return navbench::run(cfg);
    }
    if (cmd == "sweep") return navbench::sweep_command(rest, std::vector<std::string>(argv, argv + argc));
    if (cmd == "merge") return navbench::merge_command(rest, std::vector<std::string>(argv, argv + argc));
    if (cmd == "generate") return generate(rest);
    if (cmd == "structure") return structure(rest);
    if (cmd == "serve") return navbench::serve_command(rest);
    std::cerr << "navbench: unknown command '" << cmd << "' (run, sweep, merge, generate, list, help)\n";
    return 2;
  } catch (const navbench::InputError& e) {
    std::cerr << "navbench: " << e.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "navbench: " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "navbench: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "navbench: error: " << e.what() << '\n';
    return 1;
  }
}
