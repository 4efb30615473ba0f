#include "harness/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <array>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "datasets/movingai.hpp"
#include "datasets/splitmix.hpp"
#include "datasets/wkt.hpp"
#include "geometry/erosion.hpp"
#include "geometry/free_space.hpp"
#include "harness/cli.hpp"
#include "harness/dynamic.hpp"
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
// With a radius (SPEC §6) `clear` also rejects query points closer than R to an obstacle; `off` is
// the query point's offset in its cell (the convention).
Scenario draw_queries(const Map& m, const FreeSpace& free, long n, std::uint64_t seed,
                      const std::function<bool(Point)>& clear = nullptr, double off = 0.5) {
  Scenario sc;
  SplitMix rng{seed};
  const std::string name = fs::path(m.path).filename().string();
  const bool grid = m.kind == MapKind::grid;
  auto draw = [&](double& x, double& y) {
    for (int tries = 0; tries < 100000; ++tries) {
      if (grid) {  // a free cell, as Moving AI scenarios name cells
        x = std::floor(m.min.x + free.map().grid.width * rng.unit());
        y = std::floor(m.min.y + free.map().grid.height * rng.unit());
        if (m.grid.passable(int(x), int(y)) && (!clear || clear({x + off, y + off}))) return;
      } else {
        x = m.min.x + (m.max.x - m.min.x) * rng.unit();
        y = m.min.y + (m.max.y - m.min.y) * rng.unit();
        if (free.point_free({x, y}) && (!clear || clear({x, y}))) return;
      }
    }
    throw InputError(m.path + (clear ? ": no point with the radius's clearance to draw queries from" : ": no free space to draw queries from"));
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

// Peak resident memory of this process so far (Linux VmHWM: reset by exec, unlike getrusage's
// ru_maxrss, which keeps the forking parent's size); 0 where /proc is not there.
static std::size_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::size_t(std::strtoull(line.c_str() + 6, nullptr, 10)) * 1024;
  return 0;
}

std::vector<double> parse_radii(const std::string& value) {
  std::vector<double> out;
  for (const auto& v : split(value, ',')) {
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
  if (out.empty()) throw std::invalid_argument("--radius needs a number >= 0");
  return out;
}

int parse_threads(const std::string& v) {
  const long n = parse_count("--threads", v);
  if (n > 1024) throw std::invalid_argument("--threads needs 1..1024, got '" + v + "'");
  return int(n);
}

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

std::optional<RunConfig> parse_run_args(const std::vector<std::string>& args) {
  RunConfig c;
  CLI::App app{"Runs every query of each map's scenario on each representation; writes PREFIX.csv, "
               "PREFIX.build.csv and PREFIX.meta.json (SPEC §4, §5).",
               "navbench run"};
  cli::configure(app);
  std::vector<std::string> reps, heuristics;
  std::string smoothing, limit, queries, seed, repetitions, threads, radius;
  app.add_option("--map", c.maps, "map files (.map, .wkt) or directories searched for them; one or more")
      ->expected(1, -1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("PATH");
  app.add_option("--scen", c.select.scen, "scenario file (single map; default: MAP.scen next to each map)")->type_name("FILE");
  app.add_option("--dynamic", c.dynamic, "dynamic scenarios (SPEC §7: version 2 .scen + patch file) instead of --map")
      ->expected(1, -1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("SCEN");
  app.add_flag("--rebuild-baseline", c.rebuild_baseline, "dynamic: also time a full rebuild of every map state");
  cli::repeated(app, "--rep", reps, "representations: NAME[,NAME...] or one NAME:k=v,...; may be repeated")
      ->type_name("SPEC");
  app.add_option("--smoothing", smoothing, "smoothers to run on every path (default none)")->type_name("none,los,funnel");
  cli::repeated(app, "--heuristic", heuristics, "euclidean (default), octile, manhattan, chebyshev, zero; *W weights")
      ->type_name("NAME[*W][,...]");
  app.add_option("--convention", c.select.convention, "query point of a scenario cell: its center (default) or corner")
      ->type_name("center|corner");
  app.add_option("--limit", limit, "N queries of each scenario, spread evenly over it")->type_name("N");
  app.add_option("--queries", queries, "N random queries for maps without a scenario")->type_name("N");
  app.add_option("--seed", seed, "seed of the random queries (default 1)")->type_name("S");
  app.add_option("--save-queries", c.select.save_queries, "write the drawn random queries as a scenario file")->type_name("FILE");
  app.add_option("--repetitions", repetitions, "run each query N times; times are the medians")->type_name("N");
  app.add_option("--threads", threads, "answer each map's queries on N threads over one shared build (default 1)")
      ->type_name("N");
  app.add_option("--radius", radius, "agent radius R >= 0 in map units (SPEC §6), or a list R,R,...: a build per radius")
      ->type_name("R");
  app.add_flag("--paths", c.unit.paths, "also write PREFIX.paths.csv (every path's points)");
  app.add_flag("--checkopt", c.checkopt, "grid8 must equal the scenario's optimum (exit 3 otherwise)");
  bool no_optimum = false;
  app.add_flag("--no-optimum", no_optimum, "skip the exact optimum (no optimal/gap columns)");
  app.add_flag("--quiet", c.quiet, "no progress lines");
  app.add_option("--out", c.out, "output prefix (required)")->type_name("PREFIX");
  if (cli::parse(app, args)) return std::nullopt;

  c.optimum = !no_optimum;
  for (const auto& r : reps)
    for (auto& s : parse_rep_option(r)) c.reps.push_back(s);
  if (app.count("--smoothing")) c.unit.smoothings = parse_smoothing_list(smoothing);
  for (const auto& h : heuristics)
    for (auto& s : split(h, ',')) c.unit.heuristics.push_back(parse_heuristic(s));
  if (c.select.convention != "center" && c.select.convention != "corner")
    throw std::invalid_argument("--convention must be center or corner, got '" + c.select.convention + "'");
  if (app.count("--limit")) c.select.limit = parse_count("--limit", limit);
  if (app.count("--queries")) c.select.queries = parse_count("--queries", queries);
  if (app.count("--seed")) {
    std::size_t used = 0;
    try {
      c.select.seed = std::stoull(seed, &used);
    } catch (...) {
      used = 0;
    }
    if (used != seed.size() || seed.empty() || seed[0] == '-') throw std::invalid_argument("--seed needs a non-negative integer");
  }
  if (app.count("--repetitions")) c.unit.repetitions = int(parse_count("--repetitions", repetitions));
  if (app.count("--threads")) c.unit.threads = parse_threads(threads);
  if (app.count("--radius")) c.radii = parse_radii(radius);
  if (!c.radii.empty() && !c.dynamic.empty()) throw std::invalid_argument("--radius is not supported with --dynamic");
  if (c.maps.empty() && c.dynamic.empty()) throw std::invalid_argument("run needs --map PATH... or --dynamic SCEN...");
  if (!c.maps.empty() && !c.dynamic.empty()) throw std::invalid_argument("run takes --map or --dynamic, not both");
  if (c.rebuild_baseline && c.dynamic.empty()) throw std::invalid_argument("--rebuild-baseline needs --dynamic");
  if (!c.dynamic.empty() && c.unit.threads > 1) throw std::invalid_argument("--threads is not supported with --dynamic yet");
  if (c.reps.empty()) throw std::invalid_argument("run needs --rep NAME[,NAME...]");
  if (c.out.empty()) throw std::invalid_argument("run needs --out PREFIX");
  if (c.unit.heuristics.empty()) c.unit.heuristics.push_back(parse_heuristic("euclidean"));
  return c;
}

int run_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  auto cfg = parse_run_args(args);
  if (!cfg) return 0;  // --help
  cfg->argv = argv;
  return run(*cfg);
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
  if (!c.dynamic.empty()) {
    j["dynamic"] = c.dynamic;
    j["rebuild_baseline"] = c.rebuild_baseline;
  }
  j["scen"] = c.select.scen;
  std::vector<std::string> reps, heur;
  for (auto& r : c.reps) reps.push_back(r.text);
  for (auto& h : c.unit.heuristics) heur.push_back(h.text);
  j["representations"] = reps;
  j["heuristics"] = heur;
  j["smoothing"] = c.unit.smoothings;
  j["repetitions"] = c.unit.repetitions;
  j["threads"] = c.unit.threads;
  j["convention"] = c.select.convention;
  j["limit"] = c.select.limit;
  j["queries"] = c.select.queries;
  j["seed"] = c.select.seed;
  if (!c.radii.empty()) j["radii"] = c.radii;
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
  const double off = (map.kind == MapKind::grid && selection.convention == "center") ? 0.5 : 0.0;
  std::function<bool(Point)> clear;
  if (disc()) {
    rv = std::make_unique<RadiusValidity>(*free);
    clear = [this](Point p) { return rv->point_clear(p, R()); };
    if (map.kind == MapKind::grid) {  // built here, once: sweep units share this map across threads
      eroded = std::make_unique<Map>(map);
      eroded->grid = erode_grid(map.grid, *rv->clearance(), R(), Erosion::centre);
      eroded_cell = std::make_unique<Map>(map);
      eroded_cell->grid = erode_grid(map.grid, *rv->clearance(), R(), Erosion::cell);
    } else {  // polygon maps: the free space shrunk by R (centre: holds every clear point; cell: inside)
      eroded = std::make_unique<Map>(erode_polygon_map(map, R(), Erosion::centre));
      eroded_cell = std::make_unique<Map>(erode_polygon_map(map, R(), Erosion::cell));
    }
  }
  if (!has_scen) {
    scen = draw_queries(map, *free, selection.queries, selection.seed, clear, off);
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
  for (long idx : indices) {
    const ScenarioLine& l = scen.lines[std::size_t(idx)];
    QueryInput qi;
    qi.start = {l.sx + off, l.sy + off};
    qi.goal = {l.gx + off, l.gy + off};
    qi.scen_index = idx;
    qi.bucket = l.bucket;
    qi.sx = l.sx, qi.sy = l.sy, qi.gx = l.gx, qi.gy = l.gy;
    if (has_scen && map.kind == MapKind::grid && !disc()) qi.octile_optimal = l.optimal;  // SPEC §6: empty for R > 0
    queries.push_back(qi);
  }
}

void PreparedMap::compute_optimum() {
  build_queries();
  if (optimum_done) return;
  if (disc()) {
    // SPEC §6: the exact optimum of the disc, from the tangent graph (Chew 1985), once per (map, R).
    const auto t0 = std::chrono::steady_clock::now();
    tangent = std::make_unique<TangentGraph>(*free, *rv, R());
    tangent_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (auto& qi : queries) {
      auto p = tangent->shortest_path(qi.start, qi.goal);
      if (p) qi.optimal = p->length;
    }
    optimum_done = true;
    return;
  }
  auto vis = build_optimum_graph(map);
  if (!vis) return;
  for (auto& qi : queries) qi.optimal = exact_optimum(*vis, *free, qi.start, qi.goal);
  optimum_done = true;
}

const Map& PreparedMap::build_map(const std::string& erode) {
  build_queries();
  if (!eroded) return map;
  return erode == "cell" ? *eroded_cell : *eroded;
}

std::unique_ptr<AnyRepresentation> build_for_agent(PreparedMap& pm, const std::string& name, const BuildFn& build,
                                                   Params& params, const std::string& erode) {
  pm.build_queries();
  if (!pm.disc()) return build(pm.map, params);
  // SPEC §6, a build per (map, representation, R): visgraph is the tangent graph of the disc; the
  // others build on the map shrunk by R (geometry/erosion.hpp).
  if (name == "visgraph") return build_tangent_representation(pm.map, pm.R());
  if (erode == "none") return build(pm.map, params);
  return build(pm.build_map(erode), params);
}

std::optional<BuildRow> run_unit(PreparedMap& pm, const RepresentationSpec& spec, const UnitOptions& opt,
                                 const std::function<void(const ResultRow&)>& sink) {
  pm.build_queries();
  const RepresentationEntry* e = find_representation(spec.name);
  if (!e) throw std::invalid_argument("unknown representation '" + spec.name + "'");
  std::string rest = spec.params;
  std::string erode = take_erode(rest);
  const bool erode_given = !erode.empty();
  if (erode.empty()) erode = "centre";
  Params params = Params::parse(rest);
  std::unique_ptr<AnyRepresentation> rep;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (pm.disc() && spec.name == "visgraph" && (!params.empty() || erode_given))
      throw std::invalid_argument("visgraph at R > 0 (the tangent graph) takes no parameters, got '" + spec.params + "'");
    rep = build_for_agent(pm, spec.name, e->build, params, erode);
  } catch (const UnsupportedMap& u) {
    std::cerr << "navbench: skipping " << spec.text << " on " << pm.map.name << ": " << u.what() << '\n';
    return std::nullopt;
  }
  BuildRow b;
  b.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  rep->prepare();  // search memory, untimed (registry.hpp)
  b.map = pm.map.name;
  b.representation = spec.text;
  b.params = params.canonical();
  if (pm.disc() && spec.name != "visgraph") b.params = "erode=" + erode + (b.params.empty() ? "" : "," + b.params);
  const BuildStats st = rep->stats();
  b.vertices = st.vertices;
  b.edges = st.edges;
  b.memory_bytes = st.memory_bytes;
  b.radius = pm.radius;
  const int reps = std::max(1, opt.repetitions);
  const RadiusContext radius_ctx = pm.radius_context();
  const RadiusContext* rad = pm.radius ? &radius_ctx : nullptr;
  const MapContext ctx{pm.map.name, pm.map.collection, pm.selection.convention};
  // One query's rows; with reps > 1 each stage's time is the median of the repetitions.
  auto answer = [&](const QueryInput& qi, const Heuristic& h, SearchWorkspace* ws) {
    auto rows = run_query(ctx, qi, *rep, spec.text, h, opt.smoothings, *pm.free, opt.paths, ws, rad);
    if (reps > 1) {
      std::vector<std::vector<std::array<double, 3>>> times(rows.size());
      for (std::size_t k = 0; k < rows.size(); ++k) times[k].push_back({rows[k].locate_us, rows[k].search_us, rows[k].smooth_us});
      for (int r = 1; r < reps; ++r) {
        auto again = run_query(ctx, qi, *rep, spec.text, h, opt.smoothings, *pm.free, false, ws, rad);
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
    return rows;
  };
  const std::size_t threads = std::size_t(std::max(1, opt.threads));
  if (threads == 1) {
    for (const auto& h : opt.heuristics)
      for (const auto& qi : pm.queries)
        for (auto& r : answer(qi, h, nullptr)) sink(r);
    return b;
  }
  // --threads N: the queries of this (map, representation) in parallel over the one read-only
  // build, each thread with its own search workspace. Blocks of queries are answered in parallel,
  // then their rows go to the sink in query order, so the output equals a single-threaded run's
  // (timing columns aside) and memory stays bounded by one block.
  std::vector<std::unique_ptr<SearchWorkspace>> ws;
  for (std::size_t t = 0; t < threads; ++t) ws.push_back(rep->new_workspace());
  const std::size_t block = 256 * threads;
  std::vector<std::vector<ResultRow>> out;
  for (const auto& h : opt.heuristics)
    for (std::size_t begin = 0; begin < pm.queries.size(); begin += block) {
      const std::size_t end = std::min(pm.queries.size(), begin + block);
      out.assign(end - begin, {});
      std::atomic<std::size_t> next{begin};
      std::exception_ptr failure;
      std::mutex failure_mutex;
      auto worker = [&](std::size_t t) {
        try {
          for (std::size_t i; (i = next.fetch_add(1)) < end;) out[i - begin] = answer(pm.queries[i], h, ws[t].get());
        } catch (...) {
          std::lock_guard<std::mutex> lock(failure_mutex);
          if (!failure) failure = std::current_exception();
          next = end;
        }
      };
      std::vector<std::thread> pool;
      for (std::size_t t = 1; t < std::min(threads, end - begin); ++t) pool.emplace_back(worker, t);
      worker(0);
      for (auto& th : pool) th.join();
      if (failure) std::rethrow_exception(failure);
      for (auto& rows : out)
        for (auto& r : rows) sink(r);
    }
  return b;
}

int run(const RunConfig& cfg) {
  if (!cfg.dynamic.empty()) return run_dynamic(cfg);
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
  ResultWriter writer(cfg.out, cfg.unit.paths, false, !cfg.radii.empty());
  long mismatches = 0, checked = 0;
  // Without --radius one pass with no radius; with it, one pass per radius (SPEC §6).
  std::vector<std::optional<double>> radii;
  for (double r : cfg.radii) radii.push_back(r);
  if (radii.empty()) radii.push_back(std::nullopt);
  for (auto& pm : maps)
  for (const auto& radius : radii) {
    pm.release();
    pm.radius = radius;
    if (cfg.optimum) pm.compute_optimum();
    pm.build_queries();  // (with --no-optimum too: the count below is the real one)
    if (!cfg.quiet) {
      std::cerr << "navbench: " << pm.map.name << " (" << pm.map.collection << "): " << pm.queries.size() << " queries";
      if (pm.radius) std::cerr << ", radius " << format_number(*pm.radius);
      if (pm.tangent) {
        char buf[160];
        std::snprintf(buf, sizeof buf, " (tangent graph: %zu circles, %zu vertices, %zu edges, built in %.1f ms)",
                      pm.tangent->circle_count(), pm.tangent->vertex_count(), pm.tangent->edge_count(), pm.tangent_build_ms);
        std::cerr << buf;
      }
      std::cerr << '\n';
    }
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
      const auto t0 = std::chrono::steady_clock::now();
      if (auto b = run_unit(pm, spec, cfg.unit, sink)) {
        writer.write(*b);
        // Throughput of the query phase (build excluded, row writing included), e.g. for --threads.
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - b->build_ms / 1e3;
        const std::size_t n = pm.queries.size() * cfg.unit.heuristics.size();
        if (!cfg.quiet && s > 0) {
          char buf[200];
          std::snprintf(buf, sizeof buf, "navbench: %s %s: %zu queries in %.6f s (%.0f queries/s, %d thread%s, peak RSS %.1f MiB)\n",
                        pm.map.name.c_str(), spec.text.c_str(), n, s, double(n) / s, cfg.unit.threads,
                        cfg.unit.threads == 1 ? "" : "s", double(peak_rss_bytes()) / (1 << 20));
          std::cerr << buf;
        }
      }
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
