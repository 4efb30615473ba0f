#include "harness/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <array>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "datasets/movingai.hpp"
#include "datasets/wkt.hpp"
#include "geometry/free_space.hpp"
#include "harness/pipeline.hpp"
#include "harness/results.hpp"
#include "smoothing/smoothing.hpp"

#ifndef NAVBENCH_BUILD_FLAGS
#define NAVBENCH_BUILD_FLAGS ""
#endif
#ifndef NAVBENCH_SOURCE_DIR
#define NAVBENCH_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace navbench {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

long parse_count(const std::string& opt, const std::string& v) {
  long n = 0;
  std::size_t used = 0;
  try {
    n = std::stol(v, &used);
  } catch (...) {
    used = 0;
  }
  if (used != v.size() || n <= 0) throw std::invalid_argument(opt + " needs a positive integer, got '" + v + "'");
  return n;
}

// Splitmix64 (Steele, Lea & Flood 2014): a tiny seeded generator whose output is the same everywhere.
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
};

std::string shell(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

// Random query pairs in free space (seeded; SPEC §5 --queries N --seed S).
Scenario draw_queries(const Map& m, const FreeSpace& free, long n, std::uint64_t seed) {
  Scenario sc;
  SplitMix rng{seed};
  const std::string name = fs::path(m.path).filename().string();
  const bool grid = m.kind == MapKind::grid;
  auto draw = [&](double& x, double& y) {
    for (int tries = 0; tries < 100000; ++tries) {
      if (grid) {  // a free cell, as Moving AI scenarios name cells
        x = std::floor(m.min.x + free.map().grid.width * rng.unit());
        y = std::floor(m.min.y + free.map().grid.height * rng.unit());
        if (m.grid.passable(int(x), int(y))) return;
      } else {
        x = m.min.x + (m.max.x - m.min.x) * rng.unit();
        y = m.min.y + (m.max.y - m.min.y) * rng.unit();
        if (free.point_free({x, y})) return;
      }
    }
    throw InputError(m.path + ": no free space to draw queries from");
  };
  for (long i = 0; i < n; ++i) {
    ScenarioLine l;
    l.map = name;
    l.width = grid ? m.grid.width : int(std::ceil(m.max.x));
    l.height = grid ? m.grid.height : int(std::ceil(m.max.y));
    draw(l.sx, l.sy);
    draw(l.gx, l.gy);
    l.optimal = 0;
    l.decimals = 8;
    sc.lines.push_back(l);
  }
  return sc;
}

}  // namespace

std::vector<std::string> parse_smoothing_list(const std::string& value) {
  std::vector<std::string> out;
  for (auto& s : split(value, ',')) {
    bool known = false;
    for (auto& sm : smoothers()) known |= sm.name == s;
    if (!known) throw std::invalid_argument("unknown smoothing '" + s + "' (none, los, funnel)");
    out.push_back(s);
  }
  if (out.empty()) throw std::invalid_argument("--smoothing needs at least one name");
  return out;
}

RunConfig parse_run_args(const std::vector<std::string>& args) {
  RunConfig c;
  bool heuristic_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) throw std::invalid_argument(a + " needs a value");
      return args[++i];
    };
    if (a == "--map") {
      value();
      c.maps.push_back(args[i]);
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) c.maps.push_back(args[++i]);
    } else if (a == "--scen") c.select.scen = value();
    else if (a == "--rep") {
      for (auto& s : parse_rep_option(value())) c.reps.push_back(s);
    } else if (a == "--smoothing") {
      c.unit.smoothings = parse_smoothing_list(value());
    } else if (a == "--heuristic") {
      if (!heuristic_given) c.unit.heuristics.clear();
      heuristic_given = true;
      for (auto& s : split(value(), ',')) c.unit.heuristics.push_back(parse_heuristic(s));
    } else if (a == "--convention") {
      c.select.convention = value();
      if (c.select.convention != "center" && c.select.convention != "corner")
        throw std::invalid_argument("--convention must be center or corner, got '" + c.select.convention + "'");
    } else if (a == "--limit") c.select.limit = parse_count(a, value());
    else if (a == "--queries") c.select.queries = parse_count(a, value());
    else if (a == "--seed") {
      const std::string& v = value();
      std::size_t used = 0;
      try {
        c.select.seed = std::stoull(v, &used);
      } catch (...) {
        used = 0;
      }
      if (used != v.size() || v.empty() || v[0] == '-') throw std::invalid_argument("--seed needs a non-negative integer");
    } else if (a == "--save-queries") c.select.save_queries = value();
    else if (a == "--out") c.out = value();
    else if (a == "--paths") c.unit.paths = true;
    else if (a == "--repetitions") c.unit.repetitions = int(parse_count(a, value()));
    else if (a == "--checkopt") c.checkopt = true;
    else if (a == "--no-optimum") c.optimum = false;
    else if (a == "--quiet") c.quiet = true;
    else throw std::invalid_argument("unknown option '" + a + "' for run");
  }
  if (c.maps.empty()) throw std::invalid_argument("run needs --map PATH...");
  if (c.reps.empty()) throw std::invalid_argument("run needs --rep NAME[,NAME...]");
  if (c.out.empty()) throw std::invalid_argument("run needs --out PREFIX");
  if (c.unit.heuristics.empty()) c.unit.heuristics.push_back(parse_heuristic("euclidean"));
  return c;
}

std::vector<std::string> expand_map_paths(const std::vector<std::string>& maps) {
  std::vector<std::string> out;
  for (const auto& m : maps) {
    std::error_code ec;
    if (fs::is_directory(m, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(m, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        const auto& p = it->path();
        if (it->is_regular_file() && (p.extension() == ".map" || p.extension() == ".wkt")) found.push_back(p.string());
      }
      if (found.empty()) throw InputError(m + ": directory holds no .map or .wkt files");
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(m, ec)) {
      out.push_back(m);
    } else {
      throw InputError(m + ": no such map file or directory");
    }
  }
  return out;
}

nlohmann::json config_json(const RunConfig& c) {
  nlohmann::json j;
  j["maps"] = c.maps;
  j["scen"] = c.select.scen;
  std::vector<std::string> reps, heur;
  for (auto& r : c.reps) reps.push_back(r.text);
  for (auto& h : c.unit.heuristics) heur.push_back(h.text);
  j["representations"] = reps;
  j["heuristics"] = heur;
  j["smoothing"] = c.unit.smoothings;
  j["repetitions"] = c.unit.repetitions;
  j["convention"] = c.select.convention;
  j["limit"] = c.select.limit;
  j["queries"] = c.select.queries;
  j["seed"] = c.select.seed;
  return j;
}

nlohmann::json run_metadata(const std::vector<std::string>& argv, std::uint64_t seed, const nlohmann::json& config) {
  nlohmann::json j;
  std::string cmd;
  for (auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
  j["command_line"] = cmd;
  const std::string src = NAVBENCH_SOURCE_DIR;
  j["git_commit"] = shell("git -C '" + src + "' rev-parse HEAD 2>/dev/null");
  j["git_dirty"] = !shell("git -C '" + src + "' status --porcelain --untracked-files=no 2>/dev/null").empty();
  j["compiler"] = std::string("g++ ") + __VERSION__;
  j["flags"] = NAVBENCH_BUILD_FLAGS;
  j["cpu"] = cpu_model();
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  j["host"] = host;
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  j["date"] = date;
  j["seed"] = seed;
  j["config"] = config;
  return j;
}

PreparedMap prepare_map(const std::string& path, const QuerySelection& sel) {
  PreparedMap pm;
  const bool wkt = path.ends_with(".wkt");
  pm.map = wkt ? load_wkt_map(path) : load_movingai_map(path);
  const std::string scen = sel.scen.empty() ? path + ".scen" : sel.scen;
  if (fs::exists(scen)) {
    pm.scen = load_scenario(scen);
    pm.has_scen = true;
    if (!wkt) {
      check_scenario_matches(pm.scen, pm.map.grid);
      const std::string want = fs::path(path).filename().string();
      for (std::size_t i = 0; i < pm.scen.lines.size(); ++i)
        if (fs::path(pm.scen.lines[i].map).filename().string() != want)
          throw InputError(scen + ": query " + std::to_string(i) + " names map '" + pm.scen.lines[i].map +
                           "', not " + want);
    }
  } else if (!sel.scen.empty()) {
    throw InputError(sel.scen + ": cannot open scenario file");
  } else if (sel.queries <= 0) {
    throw InputError(path + ": no scenario file " + scen + " (give --queries N to draw random queries)");
  }
  pm.selection = sel;
  return pm;
}

void PreparedMap::build_queries() {
  if (free) return;
  free = std::make_unique<FreeSpace>(map);
  if (!has_scen) {
    scen = draw_queries(map, *free, selection.queries, selection.seed);
    if (!selection.save_queries.empty()) {
      std::ofstream out(selection.save_queries);
      write_scenario(out, scen);
      if (!out) throw std::runtime_error(selection.save_queries + ": cannot write");
    }
  }
  const long M = long(scen.lines.size());
  std::vector<long> indices;
  if (selection.every > 1) {  // every k-th query
    for (long i = 0; i < M; i += selection.every) indices.push_back(i);
  } else if (selection.limit > 0 && selection.first) {  // the first N
    for (long i = 0; i < std::min(selection.limit, M); ++i) indices.push_back(i);
  } else {  // --limit N: indices floor(i*M/N), so every bucket is represented (SPEC §5)
    const long N = selection.limit > 0 ? std::min(selection.limit, M) : M;
    for (long i = 0; i < N; ++i) indices.push_back(selection.limit > 0 ? long(double(i) * double(M) / double(N)) : i);
  }
  const double off = (map.kind == MapKind::grid && selection.convention == "center") ? 0.5 : 0.0;
  for (long idx : indices) {
    const ScenarioLine& l = scen.lines[std::size_t(idx)];
    QueryInput qi;
    qi.start = {l.sx + off, l.sy + off};
    qi.goal = {l.gx + off, l.gy + off};
    qi.scen_index = idx;
    qi.bucket = l.bucket;
    qi.sx = l.sx, qi.sy = l.sy, qi.gx = l.gx, qi.gy = l.gy;
    if (has_scen && map.kind == MapKind::grid) qi.octile_optimal = l.optimal;
    queries.push_back(qi);
  }
}

void PreparedMap::compute_optimum() {
  build_queries();
  const RepresentationEntry* vis_entry = find_representation("visgraph");
  if (!vis_entry || optimum_done) return;
  Params p;
  auto vis = vis_entry->build(map, p);
  for (auto& qi : queries) qi.optimal = exact_optimum(*vis, *free, qi.start, qi.goal);
  optimum_done = true;
}

std::optional<BuildRow> run_unit(PreparedMap& pm, const RepresentationSpec& spec, const UnitOptions& opt,
                                 const std::function<void(const ResultRow&)>& sink) {
  pm.build_queries();
  const RepresentationEntry* e = find_representation(spec.name);
  if (!e) throw std::invalid_argument("unknown representation '" + spec.name + "'");
  Params params = Params::parse(spec.params);
  std::unique_ptr<AnyRepresentation> rep;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    rep = e->build(pm.map, params);
  } catch (const UnsupportedMap& u) {
    std::cerr << "navbench: skipping " << spec.text << " on " << pm.map.name << ": " << u.what() << '\n';
    return std::nullopt;
  }
  BuildRow b;
  b.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  b.map = pm.map.name;
  b.representation = spec.text;
  b.params = params.canonical();
  const BuildStats st = rep->stats();
  b.vertices = st.vertices;
  b.edges = st.edges;
  b.memory_bytes = st.memory_bytes;
  const int reps = std::max(1, opt.repetitions);
  const MapContext ctx{pm.map.name, pm.map.collection, pm.selection.convention};
  for (const auto& h : opt.heuristics)
    for (const auto& qi : pm.queries) {
      auto rows = run_query(ctx, qi, *rep, spec.text, h, opt.smoothings, *pm.free, opt.paths);
      if (reps > 1) {  // repeated timings: report the median of each stage's time
        std::vector<std::vector<std::array<double, 3>>> times(rows.size());
        for (std::size_t k = 0; k < rows.size(); ++k) times[k].push_back({rows[k].locate_us, rows[k].search_us, rows[k].smooth_us});
        for (int r = 1; r < reps; ++r) {
          auto again = run_query(ctx, qi, *rep, spec.text, h, opt.smoothings, *pm.free, false);
          for (std::size_t k = 0; k < rows.size(); ++k) times[k].push_back({again[k].locate_us, again[k].search_us, again[k].smooth_us});
        }
        for (std::size_t k = 0; k < rows.size(); ++k) {
          double* fields[3] = {&rows[k].locate_us, &rows[k].search_us, &rows[k].smooth_us};
          for (int f = 0; f < 3; ++f) {
            std::vector<double> v;
            for (auto& t : times[k]) v.push_back(t[std::size_t(f)]);
            std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
            *fields[f] = v[v.size() / 2];
          }
        }
      }
      for (auto& r : rows) sink(r);
    }
  return b;
}

int run(const RunConfig& cfg) {
  const auto files = expand_map_paths(cfg.maps);
  if (!cfg.select.scen.empty() && files.size() != 1) throw std::invalid_argument("--scen needs exactly one map");
  // Every input file is read and checked before the first query runs: a bad file fails the run
  // at once with one line, not after an hour of results.
  std::vector<PreparedMap> maps;
  for (const auto& f : files) maps.push_back(prepare_map(f, cfg.select));

  if (auto dir = fs::path(cfg.out).parent_path(); !dir.empty()) fs::create_directories(dir);
  {
    std::ofstream meta(cfg.out + ".meta.json", std::ios::trunc);
    if (!meta) throw std::runtime_error(cfg.out + ".meta.json: cannot write");
    meta << run_metadata(cfg.argv, cfg.select.seed, config_json(cfg)).dump(2) << '\n';
  }
  ResultWriter writer(cfg.out, cfg.unit.paths);
  long mismatches = 0, checked = 0;
  for (auto& pm : maps) {
    if (cfg.optimum) pm.compute_optimum();
    if (!cfg.quiet)
      std::cerr << "navbench: " << pm.map.name << " (" << pm.map.collection << "): " << pm.queries.size() << " queries\n";
    for (const auto& spec : cfg.reps) {
      // Heuristics under which grid8 must be optimal: weight <= 1 and never above octile distance
      // (manhattan overestimates diagonal moves). Decided once, not per row.
      std::vector<std::string> admissible;
      for (const auto& h : cfg.unit.heuristics)
        if (h.weight <= 1.0 && h.metric != Metric::manhattan) admissible.push_back(h.text);
      const RepresentationEntry* entry = find_representation(spec.name);
      const bool grid8_optimal = entry && entry->grid8_optimal;
      auto sink = [&](const ResultRow& r) {
        // --checkopt (as Warthog's): grid8 (and every representation registered as grid8-optimal)
        // with an admissible heuristic must equal the scenario.
        if (cfg.checkopt && grid8_optimal && r.octile_optimal && r.raw_length && r.smoothing == cfg.unit.smoothings.front() &&
            std::find(admissible.begin(), admissible.end(), r.heuristic) != admissible.end()) {
          ++checked;
          const ScenarioLine& l = pm.scen.lines[std::size_t(r.scen_index)];
          if (std::abs(*r.raw_length - *r.octile_optimal) > printed_tolerance(l)) {
            ++mismatches;
            std::cerr << "navbench: checkopt: " << pm.map.name << " query " << r.scen_index << ": " << spec.text << " "
                      << format_number(*r.raw_length) << " != scenario " << format_number(l.optimal) << '\n';
          }
        }
        writer.write(r);
      };
      if (auto b = run_unit(pm, spec, cfg.unit, sink)) writer.write(*b);
      writer.flush();
    }
    pm.release();
  }
  writer.flush();
  if (cfg.checkopt) {
    std::cerr << "navbench: checkopt: " << checked << " queries checked (grid8-optimal representations), " << mismatches << " mismatches\n";
    if (mismatches > 0) return 3;
  }
  return 0;
}

}  // namespace navbench
