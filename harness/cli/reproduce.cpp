// navbench reproduce (docs/reproduce.md). `uras-koenig-arena2`: the statistics Uras & Koenig's
// any-angle library wrote on DAO arena2 (T. Uras and S. Koenig, "An Empirical Comparison of
// Any-Angle Path-Planning Algorithms", SoCS 2015; ../shared/datasets/published/
// uras-koenig-2015-arena2/SOURCES.md) against navbench under the library's conventions (SPEC §11):
// the corner lattice (grid8:lattice=corner,pinch=allow), the corner convention, and the squeeze
// rule `allow` for the validity test, Theta*'s line of sight and the exact optimum
// (geometry/squeeze_optimum.hpp). The published files are read, never copied.
#include "harness/cli/reproduce.hpp"
#include "harness/cli/reproduce_gppc.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/text.hpp"
#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/prepared_map.hpp"
#include "harness/run/timed_build.hpp"
#include "search/heuristic.hpp"

namespace navbench {

namespace {

// One configuration of the library and navbench's counterpart (search, heuristic, smoothing).
struct Config {
  const char* name;
  const char* what;
  SearchMode search;
  const char* heuristic;
  const char* smoothing;
  bool exact_lengths;  // the rule fixes every query's length (A* on the lattice: its optimum)
};
const Config kConfigs[] = {
    {"A_OCT", "A* octile, corner lattice", SearchMode::astar, "octile", "none", true},
    {"A_EUC", "A* Euclidean, corner lattice", SearchMode::astar, "euclidean", "none", true},
    {"A_OCT_PS", "A* octile + post-smoothing", SearchMode::astar, "octile", "los", false},
    {"A_EUC_PS", "A* Euclidean + post-smoothing", SearchMode::astar, "euclidean", "los", false},
    {"T", "Theta*", SearchMode::theta, "euclidean", "none", false},
    {"T_PS", "Theta* + post-smoothing", SearchMode::theta, "euclidean", "los", false},
    {"L", "Lazy Theta*", SearchMode::lazy_theta, "euclidean", "none", false},
    {"L_PS", "Lazy Theta* + post-smoothing", SearchMode::lazy_theta, "euclidean", "los", false},
};
const char* const kNotReproduced[] = {"B", "B_PS", "F", "F_PS"};  // Block A*, Field A*: navbench has neither

struct Published {
  std::vector<double> length, expansions;
};

// outputs/Instances-NAME-arena2: one tab-separated line per query (time ms, length, expansions, ...).
Published read_instances(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file + ": cannot read (give --data DIR, the folder holding arena2.map and outputs/)");
  Published p;
  std::string line;
  for (long n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream f(line);
    double ms, len, exp;
    if (!(f >> ms >> len >> exp)) throw std::invalid_argument(file + ":" + std::to_string(n) + ": expected time, length, expansions");
    p.length.push_back(len);
    p.expansions.push_back(exp);
  }
  return p;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

struct Line {  // one row of the table
  std::string name, what, pub_mean, pub_ratio, our_mean, our_ratio, diff, pub_exp, our_exp, agree;
};

int uras_koenig_arena2(const std::string& data, const std::string& out, const std::vector<std::string>& argv) {
  QuerySelection sel;
  sel.convention = "corner";
  sel.scen = data + "/arena2.map.scen";
  sel.squeeze = true;  // the library's rule: a path may pass through a pinch point
  const PreparedMap pm = prepare_map(data + "/arena2.map", sel);
  // The point agent's space under the squeeze rule, the queries and their exact optimum
  // (geometry/squeeze_optimum.hpp, through the one oracle service).
  const AgentMap am(pm, Agent{}, OracleOptions{});
  const std::string text = "grid8:lattice=corner,pinch=allow";
  const RepresentationSpec spec = parse_rep_option(text).front();
  TimedBuild built = build_timed(am.space(), spec);
  if (!built.rep) throw std::runtime_error(text + ": " + built.unsupported);
  const MapContext mctx{pm.map.name, pm.map.collection, "corner"};
  const std::vector<QueryInput>& queries = am.queries();
  const std::size_t n = queries.size();
  std::vector<double> opt(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!queries[i].optimal) throw std::runtime_error("query " + std::to_string(i) + " has no path under the squeeze rule");
    opt[i] = *queries[i].optimal;
  }
  const Published anya = read_instances(data + "/outputs/Instances-ANYA-arena2");
  if (anya.length.size() != n) throw std::invalid_argument("Instances-ANYA-arena2 holds " + std::to_string(anya.length.size()) + " queries, the scenario " + std::to_string(n));
  const double pub_opt = mean(anya.length), our_opt = mean(opt);
  std::vector<Line> lines;
  nlohmann::json configs = nlohmann::json::array();
  std::ofstream rows(out + "/lengths.csv");
  rows << "config,scen_index,published_length,length,valid,published_expansions,expansions\n";
  auto agree_count = [&](const std::vector<double>& a, const std::vector<double>& b) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) k += std::abs(a[i] - b[i]) <= 1e-4;
    return k;
  };
  {  // the exact optimum
    const std::size_t k = agree_count(opt, anya.length);
    lines.push_back({"ANYA", "exact optimum (squeeze optimum)", base::fixed(pub_opt, 6), "1.0000", base::fixed(our_opt, 6), "1.0000",
                     base::fixed(our_opt - pub_opt, 6), base::fixed(mean(anya.expansions), 1), "",
                     std::to_string(k) + "/" + std::to_string(n) + " within 1e-4"});
    configs.push_back({{"name", "ANYA"}, {"published_mean", pub_opt}, {"mean", our_opt}, {"agree", k}, {"queries", n}});
    for (std::size_t i = 0; i < n; ++i)
      rows << "ANYA," << i << ',' << format_number(anya.length[i]) << ',' << format_number(opt[i]) << ",1," << anya.expansions[i] << ",\n";
  }
  for (const Config& c : kConfigs) {
    const Published pub = read_instances(data + "/outputs/Instances-" + c.name + "-arena2");
    if (pub.length.size() != n) throw std::invalid_argument(std::string("Instances-") + c.name + "-arena2: wrong number of queries");
    const Heuristic h = parse_heuristic(c.heuristic);
    std::vector<double> len(n), exp(n);
    std::size_t valid = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::vector<std::string> smoothings{c.smoothing};
      const QueryContext qc{mctx, am.space(), am.cost(), text, h, smoothings, built.rep.get(), c.search, spec.caps()};
      const auto r = run_query(qc, queries[i]);
      if (r.front().status != Status::ok) throw std::runtime_error(std::string(c.name) + ": query " + std::to_string(i) + " " + r.front().message);
      len[i] = *r.front().length;
      exp[i] = double(r.front().expansions);
      valid += r.front().valid.value_or(false);
      rows << c.name << ',' << i << ',' << format_number(pub.length[i]) << ',' << format_number(len[i]) << ','
           << int(r.front().valid.value_or(false)) << ',' << pub.expansions[i] << ',' << r.front().expansions << '\n';
    }
    const double pm_len = mean(pub.length), our = mean(len);
    const std::size_t k = agree_count(len, pub.length);
    lines.push_back({c.name, c.what, base::fixed(pm_len, 6), base::fixed(pm_len / pub_opt, 4), base::fixed(our, 6), base::fixed(our / our_opt, 4),
                     base::fixed(our - pm_len, 6), base::fixed(mean(pub.expansions), 1), base::fixed(mean(exp), 1),
                     c.exact_lengths ? std::to_string(k) + "/" + std::to_string(n) + " lengths equal" : "(tie-breaking)"});
    configs.push_back({{"name", c.name}, {"search", to_string(c.search)}, {"heuristic", c.heuristic}, {"smoothing", c.smoothing},
                       {"published_mean", pm_len}, {"published_ratio", pm_len / pub_opt}, {"mean", our}, {"ratio", our / our_opt},
                       {"published_expansions", mean(pub.expansions)}, {"expansions", mean(exp)}, {"agree", k},
                       {"valid", valid}, {"queries", n}});
  }
  for (const char* name : kNotReproduced) {
    const Published pub = read_instances(data + "/outputs/Instances-" + std::string(name) + "-arena2");
    lines.push_back({name, name[0] == 'B' ? "Block A*" : "Field A*", base::fixed(mean(pub.length), 6), base::fixed(mean(pub.length) / pub_opt, 4),
                     "not reproduced", "", "", base::fixed(mean(pub.expansions), 1), "", "navbench has no such search"});
  }
  // The table: stdout, table.md, index.html.
  std::ostringstream md;
  md << "Uras & Koenig (SoCS 2015) library on DAO arena2, " << n << " queries; navbench: " << text
     << ", convention corner, pinch allow. Ratios: mean length / mean exact optimum (published: ANYA's).\n\n"
     << "| config | search | published mean | published ratio | ours mean | our ratio | ours - published | published expansions | our expansions | per-query agreement |\n"
     << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Line& l : lines)
    md << "| " << l.name << " | " << l.what << " | " << l.pub_mean << " | " << l.pub_ratio << " | " << l.our_mean << " | "
       << l.our_ratio << " | " << l.diff << " | " << l.pub_exp << " | " << l.our_exp << " | " << l.agree << " |\n";
  std::cout << md.str();
  std::ofstream(out + "/table.md") << md.str();
  write_reproduce_html(out + "/index.html", "navbench reproduce uras-koenig-arena2", md.str());
  nlohmann::json config = {{"reproduce", "uras-koenig-arena2"}, {"data", data}, {"representation", text}, {"convention", "corner"},
                           {"pinch", "allow"}, {"queries", n}, {"configs", configs}};
  std::ofstream(out + "/meta.json") << json_text(run_metadata(argv, 0, config), 2) << '\n';
  std::cerr << "navbench: wrote " << out << "/table.md, index.html, lengths.csv, meta.json\n";
  return 0;
}

}  // namespace

int reproduce_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  std::string name, out, data, config, maps_root = "../shared/datasets/movingai";
  long limit = -1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--list") {
      std::cout << "uras-koenig-arena2  Uras & Koenig's any-angle library (SoCS 2015) on DAO arena2: exact optimum, A*, Theta*, "
                   "Lazy Theta*, post-smoothing\n"
                   "gppc2023-classic    GPPC 2023 classic track: the config's entries and navbench's subgoal and grid8 beside the "
                   "published statistics\n"
                   "gppc2023-anyangle   GPPC 2023 any-angle track: the config's entries and navbench's visgraph beside the published "
                   "statistics\n";
      return 0;
    }
    if (a == "-h" || a == "--help") {
      std::cout << "usage: navbench reproduce NAME [--out DIR] [--data DIR] [--config FILE] [--maps DIR] [--limit N] | --list\n"
                   "  --data DIR    the published files (default ../shared/datasets/published/FOLDER)\n"
                   "  --config FILE gppc2023-*: the entries (gppc:path=P,track=T,name=N), optionally 'map PATH' and 'limit N' lines\n"
                   "  --maps DIR    gppc2023-*: the Moving AI folder of the default maps den520d, brc202d, Aurora\n"
                   "  --limit N     gppc2023-*: N queries per map, spread over its scenario\n"
                   "(docs/reproduce.md)\n";
      return 0;
    }
    if ((a == "--out" || a == "--data" || a == "--config" || a == "--maps" || a == "--limit") && i + 1 < args.size()) {
      const std::string& v = args[++i];
      if (a == "--out") out = v;
      else if (a == "--data") data = v;
      else if (a == "--config") config = v;
      else if (a == "--maps") maps_root = v;
      else {
        std::size_t used = 0;
        try {
          limit = std::stol(v, &used);
        } catch (...) {
          used = 0;
        }
        if (used != v.size() || limit < 1) throw std::invalid_argument("--limit needs a positive integer, got '" + v + "'");
      }
    } else if (a.starts_with("-")) {
      throw std::invalid_argument("unknown option '" + a + "' (--out DIR, --data DIR, --config FILE, --maps DIR, --limit N, --list)");
    } else if (name.empty()) {
      name = a;
    } else {
      throw std::invalid_argument("one NAME only, got '" + name + "' and '" + a + "'");
    }
  }
  if (name.empty()) throw std::invalid_argument("needs NAME (navbench reproduce --list names them)");
  const bool gppc = name == "gppc2023-classic" || name == "gppc2023-anyangle";
  if (name != "uras-koenig-arena2" && !gppc)
    throw std::invalid_argument("unknown reproduction '" + name + "' (known: uras-koenig-arena2, gppc2023-classic, gppc2023-anyangle)");
  if (out.empty()) out = "results/reproduce-" + name;
  if (!gppc) {
    std::filesystem::create_directories(out);
    return uras_koenig_arena2(data.empty() ? "../shared/datasets/published/uras-koenig-2015-arena2" : data, out, argv);
  }
  if (config.empty()) throw std::invalid_argument(name + " needs --config FILE naming the entries (docs/reproduce.md)");
  GppcOptions o;
  o.config = config;
  o.published = data.empty() ? "../shared/datasets/published/gppc2023" : data;
  o.default_maps = {maps_root + "/dao/den520d.map", maps_root + "/dao/brc202d.map", maps_root + "/sc1/Aurora.map"};
  o.limit = limit;
  o.out = out;
  std::filesystem::create_directories(out);
  return reproduce_gppc(name.substr(std::string("gppc2023-").size()), o, argv);
}

}  // namespace navbench
