#include "harness/sweep.hpp"

#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <nlohmann/json.hpp>

#include "datasets/dynamic.hpp"
#include "harness/results.hpp"
#include "harness/cli.hpp"
#include "harness/dynamic.hpp"
#include "harness/run.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace navbench {
namespace {

struct SweepConfig {
  std::vector<std::string> maps;         // after expanding globs and directories
  std::vector<QuerySelection> map_select;  // per map: the query selection (its entry's, else the global one)
  std::vector<std::string> collections;  // filter; empty = all
  std::vector<RepresentationSpec> reps;
  UnitOptions unit;
  std::vector<std::string> conventions{"center"};
  QuerySelection select;
  std::string output = "results/sweep";
  std::vector<std::string> dynamic;      // dynamic scenarios (SPEC §7): one unit per scenario x convention x rep
  bool rebuild_baseline = false;         // dynamic units also time a full rebuild of every map state
  std::vector<double> radii;             // "radii" (SPEC §6): one unit per radius; empty = no radius column
  json canonical;                        // what identifies the sweep (for resume and merge)
};

// A double as text that reads back to the same double (the saved optimum must give the same gaps
// on a resumed run as on an uninterrupted one).
std::string exact_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// FNV-1a (Fowler, Noll, Vo): a stable hash of the canonical config text.
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::vector<std::string> expand_glob(const std::string& pattern) {
  if (pattern.find_first_of("*?[") == std::string::npos) return {pattern};
  glob_t g{};
  std::vector<std::string> out;
  if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.push_back(g.gl_pathv[i]);
  globfree(&g);
  if (out.empty()) throw InputError(pattern + ": pattern matches no file");
  return out;
}

// Representation entries: "name", "name:k=v,...", or {"name": N, "params": {"k": [v1, v2], ...}}
// (a parameter grid: every combination becomes one representation spec).
std::vector<RepresentationSpec> expand_reps(const json& j) {
  std::vector<RepresentationSpec> out;
  for (const auto& r : j) {
    if (r.is_string()) {
      for (auto& s : parse_rep_option(r.get<std::string>())) out.push_back(s);
      continue;
    }
    if (!r.is_object() || !r.contains("name") || !r["name"].is_string())
      throw std::invalid_argument("sweep config: a representation is a string or {\"name\": ..., \"params\": {...}}");
    for (auto it = r.begin(); it != r.end(); ++it)
      if (it.key() != "name" && it.key() != "params")
        throw std::invalid_argument("sweep config: unknown key '" + it.key() + "' in a representation");
    const std::string name = r["name"];
    std::vector<std::string> combos{""};
    if (r.contains("params")) {
      if (!r["params"].is_object()) throw std::invalid_argument("sweep config: params of " + name + " must be an object");
      for (auto it = r["params"].begin(); it != r["params"].end(); ++it) {
        json values = it.value().is_array() ? it.value() : json::array({it.value()});
        if (values.empty()) throw std::invalid_argument("sweep config: parameter " + it.key() + " has no values");
        std::vector<std::string> next;
        for (const auto& c : combos)
          for (const auto& v : values) {
            std::string text = v.is_string() ? v.get<std::string>() : v.dump();
            next.push_back(c + (c.empty() ? "" : ",") + it.key() + "=" + text);
          }
        combos = next;
        if (combos.size() > 10000)
          throw std::invalid_argument("sweep config: the parameter grid of " + name + " has over 10000 combinations");
      }
    }
    for (const auto& c : combos)
      for (auto& s : parse_rep_option(c.empty() ? name : name + ":" + c)) out.push_back(s);
  }
  if (out.empty()) throw std::invalid_argument("sweep config: no representations");
  return out;
}

// An integer option in [lo, hi]; anything else (a float, a string, out of range) is a one-line error.
long integer(const json& j, const char* key, long fallback, long lo, long hi) {
  if (!j.contains(key)) return fallback;
  const json& v = j[key];
  if (!v.is_number_integer()) throw std::invalid_argument(std::string("sweep config: '") + key + "' must be an integer");
  const long long x = v.is_number_unsigned() ? (v.get<unsigned long long>() > (unsigned long long)hi ? hi + 1LL : v.get<long long>())
                                             : v.get<long long>();
  if (x < lo || x > hi)
    throw std::invalid_argument(std::string("sweep config: '") + key + "' must be in " + std::to_string(lo) + ".." +
                                std::to_string(hi));
  return long(x);
}

std::vector<std::string> strings(const json& j, const char* key) {
  if (!j.is_array()) throw std::invalid_argument(std::string("sweep config: '") + key + "' must be a list of strings");
  std::vector<std::string> out;
  for (const auto& v : j) {
    if (!v.is_string()) throw std::invalid_argument(std::string("sweep config: '") + key + "' must be a list of strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

// The "queries" object: {"select": all|first|spread|every, "n": N, "random": R}; fields not given
// keep their value in `sel`.
QuerySelection parse_queries(const json& q, QuerySelection sel) {
  if (!q.is_object()) throw std::invalid_argument("sweep config: \"queries\" is {\"select\": all|first|spread|every, \"n\": N}");
  for (auto it = q.begin(); it != q.end(); ++it)
    if (it.key() != "select" && it.key() != "n" && it.key() != "random")
      throw std::invalid_argument("sweep config: unknown key '" + it.key() + "' in queries (select, n, random)");
  if (q.contains("select") && !q["select"].is_string()) throw std::invalid_argument("sweep config: queries.select must be a string");
  const std::string s = q.value("select", "all");
  const long n = integer(q, "n", 0, 0, 1L << 40);
  if (s != "all" && n <= 0) throw std::invalid_argument("sweep config: queries.n must be positive");
  if (q.contains("select")) sel.limit = -1, sel.first = false, sel.every = 1;
  if (s == "first") sel.limit = n, sel.first = true;
  else if (s == "spread") sel.limit = n;
  else if (s == "every") sel.every = n;
  else if (s != "all") throw std::invalid_argument("sweep config: queries.select '" + s + "' (all, first, spread, every)");
  if (q.contains("random")) sel.queries = integer(q, "random", 0, 1, 100000000);
  return sel;
}

// One entry of "maps": a path (file, directory or glob) or {"path": P, "optional": true|false,
// "queries": {...}}. An optional entry that matches nothing is skipped with a note (e.g. the
// Moving AI maps in ../shared when they are not there); its "queries" replace the global ones for
// its maps.
struct MapEntry {
  std::string path;
  bool optional = false;
  QuerySelection select;
};

std::vector<MapEntry> map_entries(const json& j, const QuerySelection& global) {
  if (!j.is_array()) throw std::invalid_argument("sweep config: 'maps' must be a list of paths or {\"path\": ...} objects");
  std::vector<MapEntry> out;
  for (const auto& v : j) {
    MapEntry e;
    e.select = global;
    if (v.is_string()) {
      e.path = v.get<std::string>();
    } else if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != "path" && it.key() != "optional" && it.key() != "queries" && it.key() != "comment")
          throw std::invalid_argument("sweep config: unknown key '" + it.key() + "' in a map entry (path, optional, queries)");
      if (!v.contains("path") || !v["path"].is_string()) throw std::invalid_argument("sweep config: a map entry needs \"path\": a string");
      e.path = v["path"].get<std::string>();
      if (v.contains("optional") && !v["optional"].is_boolean())
        throw std::invalid_argument("sweep config: a map entry's 'optional' must be true or false");
      e.optional = v.value("optional", false);
      if (v.contains("queries")) {
        e.select = parse_queries(v["queries"], global);
      }
    } else {
      throw std::invalid_argument("sweep config: 'maps' must be a list of paths or {\"path\": ...} objects");
    }
    if (e.path.empty()) throw std::invalid_argument("sweep config: a map path is empty");
    out.push_back(e);
  }
  return out;
}

// Checks a config's text; with expand_maps the map list is resolved against the file system.
SweepConfig parse_config(const std::string& text, const std::string& path, bool expand_maps) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and numbers too large to represent
    throw InputError(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw InputError(path + ": a sweep config is a JSON object");
  static const std::vector<std::string> keys = {"maps", "collections", "representations", "smoothing", "heuristics",
                                                "conventions", "queries", "repetitions", "seed", "output", "paths", "comment",
                                                "dynamic", "rebuild_baseline", "radii"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      throw InputError(path + ": unknown key '" + it.key() + "'");
  SweepConfig c;
  try {
    if (j.contains("queries")) c.select = parse_queries(j["queries"], c.select);
    c.select.seed = std::uint64_t(integer(j, "seed", 1, 0, std::numeric_limits<long>::max()));
    if (!j.contains("maps") && !j.contains("dynamic")) throw std::invalid_argument("sweep config needs \"maps\" or \"dynamic\"");
    // "dynamic": changing-map scenarios (SPEC §7), entries like those of "maps" (path or
    // {"path", "optional"}); each runs as its own units (every representation kept up to date).
    if (j.contains("dynamic")) {
      if (j["dynamic"].is_array())
        for (const auto& v : j["dynamic"])
          if (v.is_object() && v.contains("queries"))
            throw std::invalid_argument("sweep config: a dynamic entry runs all its queries (no 'queries' key)");
      for (const MapEntry& e : map_entries(j["dynamic"], c.select)) {
        std::vector<std::string> files{e.path};
        if (expand_maps) try {
          files = expand_glob(e.path);
          for (const auto& f : files)
            if (!fs::is_regular_file(f)) throw InputError(f + ": no such dynamic scenario file");
        } catch (const InputError&) {
          if (!e.optional) throw;
          std::cerr << "navbench: sweep: optional dynamic scenario " << e.path << " not found, skipped\n";
          continue;
        }
        for (auto& f : files)
          if (std::find(c.dynamic.begin(), c.dynamic.end(), f) == c.dynamic.end()) c.dynamic.push_back(f);
      }
      if (c.dynamic.empty() && !j.contains("maps"))
        throw std::invalid_argument("sweep config: no dynamic scenario found (every entry is optional and absent)");
    }
    if (j.contains("rebuild_baseline") && !j["rebuild_baseline"].is_boolean())
      throw std::invalid_argument("sweep config: 'rebuild_baseline' must be true or false");
    c.rebuild_baseline = j.value("rebuild_baseline", false);
    const std::vector<MapEntry> given = j.contains("maps") ? map_entries(j["maps"], c.select) : std::vector<MapEntry>{};
    if (j.contains("maps") && given.empty()) throw std::invalid_argument("sweep config: \"maps\" is empty");
    // (file, selection, entry index); an entry's own "queries" override the global selection.
    std::vector<std::tuple<std::string, QuerySelection, std::size_t>> found;
    for (std::size_t e = 0; e < given.size(); ++e) {
      const MapEntry& m = given[e];
      std::vector<std::string> files;
      if (expand_maps) {
        try {
          std::vector<std::string> expanded = expand_glob(m.path);
          files = expand_map_paths(expanded);
        } catch (const InputError& err) {
          if (!m.optional) throw;
          std::cerr << "navbench: sweep: optional maps " << m.path << " not found, skipped\n";
          continue;
        }
      } else {
        files = {m.path};
      }
      for (auto& f : files) found.emplace_back(f, m.select, e);
    }
    if (j.contains("collections")) {
      c.collections = strings(j["collections"], "collections");
      std::erase_if(found, [&](const auto& m) {
        const std::string col = fs::path(std::get<0>(m)).parent_path().filename().string();
        return std::find(c.collections.begin(), c.collections.end(), col) == c.collections.end();
      });
      if (found.empty() && !given.empty()) throw std::invalid_argument("sweep config: no map is in the listed collections");
    }
    if (found.empty() && !given.empty())
      throw std::invalid_argument("sweep config: no map found (every entry is optional and absent)");
    // Results are keyed by collection/name: the same key from two files would mix two maps'
    // rows. A map of an optional entry whose key an earlier entry already has is skipped (the
    // same benchmark map in two places, e.g. ../shared and a download); otherwise it is an error.
    std::map<std::string, std::string> seen;  // key -> the file that has it
    std::vector<std::tuple<std::string, QuerySelection, std::size_t>> kept;
    for (auto& f : found) {
      const auto& [file, sel, entry] = f;
      const fs::path p(file);
      const std::string key = p.parent_path().filename().string() + "/" + p.stem().string();
      auto [it, fresh] = seen.emplace(key, file);
      if (fresh) kept.push_back(f);
      else if (fs::path(it->second).lexically_normal() == p.lexically_normal()) continue;  // listed twice: once
      else if (given[entry].optional) std::cerr << "navbench: sweep: " << file << " skipped: " << key << " is already in the sweep\n";
      else throw std::invalid_argument("sweep config: " + it->second + " and " + file + " are both " + key + " (results are keyed by folder/name)");
    }
    std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    for (auto& k : kept) {
      c.maps.push_back(std::get<0>(k));
      c.map_select.push_back(std::get<1>(k));
    }
    if (!j.contains("representations")) throw std::invalid_argument("sweep config needs \"representations\"");
    c.reps = expand_reps(j["representations"]);
    if (j.contains("smoothing")) {
      std::string list;
      for (auto& s : strings(j["smoothing"], "smoothing")) list += (list.empty() ? "" : ",") + s;
      c.unit.smoothings = parse_smoothing_list(list);
    }
    for (auto& h : j.contains("heuristics") ? strings(j["heuristics"], "heuristics") : std::vector<std::string>{"euclidean"})
      c.unit.heuristics.push_back(parse_heuristic(h));
    if (j.contains("conventions")) c.conventions = strings(j["conventions"], "conventions");
    for (auto& cv : c.conventions)
      if (cv != "center" && cv != "corner") throw std::invalid_argument("sweep config: convention '" + cv + "' (center, corner)");
    if (j.contains("queries")) c.select = parse_queries(j["queries"], c.select);
    c.unit.repetitions = int(integer(j, "repetitions", 1, 1, 1000));
    if (j.contains("radii")) {
      if (!j["radii"].is_array() || j["radii"].empty()) throw std::invalid_argument("sweep config: 'radii' must be a non-empty array of numbers >= 0");
      for (const auto& v : j["radii"]) {
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
          throw std::invalid_argument("sweep config: 'radii' must be a non-empty array of numbers >= 0");
        c.radii.push_back(v.get<double>());
      }
      if (j.contains("dynamic")) throw std::invalid_argument("sweep config: 'radii' is not supported with 'dynamic'");
    }
    if (j.contains("paths") && !j["paths"].is_boolean()) throw std::invalid_argument("sweep config: 'paths' must be true or false");
    c.unit.paths = j.value("paths", false);
    if (j.contains("output") && !j["output"].is_string()) throw std::invalid_argument("sweep config: 'output' must be a string");
    c.output = j.value("output", c.output);
  } catch (const json::exception& e) {
    throw InputError(path + ": wrong type of value: " + e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(path + ": " + e.what());
  } catch (const std::out_of_range& e) {
    throw InputError(path + ": " + e.what());
  }
  json canon = j;
  canon.erase("output");
  canon.erase("comment");
  canon["maps"] = c.maps;
  if (j.contains("dynamic")) canon["dynamic"] = c.dynamic;  // resolved paths (what `merge` reads)
  // Entries with their own query selection or optional ones change what runs: keep them in what
  // identifies the sweep (the plain list above is what `merge` reads).
  if (j.contains("maps") && j["maps"].is_array())
    for (const auto& e : j["maps"])
      if (e.is_object()) {
        canon["map_entries"] = j["maps"];
        break;
      }
  c.canonical = canon;
  return c;
}

SweepConfig read_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open sweep config");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path, true);
}

struct Unit {
  std::size_t map;  // index into maps (static units)
  std::string convention;
  RepresentationSpec rep;
  std::string id;   // file stem
  long dyn = -1;    // index into SweepConfig::dynamic for a dynamic unit, else -1
  long radius = -1; // index into SweepConfig::radii, -1 without radii
};

// The id part of a unit's radius: "__r0.4" ("" for a sweep without radii).
std::string radius_tag(const std::vector<double>& radii, long k) {
  return k < 0 ? std::string() : "__r" + format_number(radii[std::size_t(k)]);
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '=') ? c : '_';
  return out;
}

// Writes `text` to `path` atomically: a temporary file in the same folder, fsync'd, then renamed.
void write_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error(tmp.string() + ": cannot write");
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
    std::fclose(f);
    if (!ok) throw std::runtime_error(tmp.string() + ": write failed (disk full?)");
  }
  fs::rename(tmp, path);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Body of a CSV without its header line.
std::string body(const std::string& text) {
  auto nl = text.find('\n');
  return nl == std::string::npos ? "" : text.substr(nl + 1);
}

struct Progress {
  std::mutex m;
  std::size_t done = 0, total = 0, rows = 0;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  bool tty = ::isatty(STDERR_FILENO) != 0;
  bool quiet = false;
  void unit_done(const std::string& id, std::size_t nrows, double seconds) {
    std::lock_guard<std::mutex> lock(m);
    ++done;
    rows += nrows;
    if (quiet) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = done ? el / double(done) * double(total - done) : 0;
    char buf[256];
    if (tty) {
      const int width = 30, fill = int(double(width) * double(done) / double(std::max<std::size_t>(total, 1)));
      std::snprintf(buf, sizeof buf, "\r[%-*s] %zu/%zu units, %zu rows, %.0fs elapsed, ETA %.0fs   ", width,
                    std::string(std::size_t(fill), '#').c_str(), done, total, rows, el, eta);
      std::cerr << buf << (done == total ? "\n" : "") << std::flush;
    } else {
      std::snprintf(buf, sizeof buf, "navbench: [%zu/%zu] %s: %zu rows in %.1fs (ETA %.0fs)\n", done, total, id.c_str(),
                    nrows, seconds, eta);
      std::cerr << buf;
    }
  }
};

// Concatenates the unit files (in unit order) into OUT/results.{csv,build.csv,paths.csv}.
// With `dynamic`, the units are dynamic ones (rows with `epoch`, plus .updates.csv) and OUT is
// the sweep's dynamic/ folder.
void write_merged(const fs::path& out, const std::vector<fs::path>& unit_dirs, const std::vector<std::string>& ids,
                  bool paths, bool dynamic = false, bool radius = false) {
  std::string csv = result_header(radius) + (dynamic ? ",epoch" : "") + "\n",
              build = build_header(radius) + "\n", pth = paths_header(radius) + "\n",
              upd = std::string(kUpdatesHeader) + "\n";
  for (const auto& id : ids) {
    fs::path dir;
    for (const auto& d : unit_dirs)
      if (fs::exists(d / (id + ".csv"))) {
        dir = d;
        break;
      }
    if (dir.empty()) throw std::runtime_error("unit " + id + " has no results");
    csv += body(read_file(dir / (id + ".csv")));
    if (fs::exists(dir / (id + ".build.csv"))) build += body(read_file(dir / (id + ".build.csv")));
    if (paths && fs::exists(dir / (id + ".paths.csv"))) pth += body(read_file(dir / (id + ".paths.csv")));
    if (dynamic && fs::exists(dir / (id + ".updates.csv"))) upd += body(read_file(dir / (id + ".updates.csv")));
  }
  fs::create_directories(out);
  if (dynamic) write_atomic(out / "results.updates.csv", upd);
  write_atomic(out / "results.build.csv", build);
  if (paths) write_atomic(out / "results.paths.csv", pth);
  write_atomic(out / "results.csv", csv);
}

// Unit ids of the dynamic scenarios: dynamic__NAME__CONVENTION__REP (NAME: the file name without .scen).
std::vector<std::string> dynamic_unit_ids(const std::vector<std::string>& scens, const std::vector<std::string>& conventions,
                                          const std::vector<RepresentationSpec>& reps) {
  std::vector<std::string> ids;
  for (const auto& d : scens)
    for (const auto& conv : conventions)
      for (const auto& r : reps) ids.push_back(sanitize("dynamic__" + fs::path(d).stem().string() + "__" + conv + "__" + r.text));
  return ids;
}

std::pair<long, long> parse_shard(const std::string& s) {
  const auto slash = s.find('/');
  long k = 0, n = 0;
  try {
    if (slash == std::string::npos) throw 0;
    std::size_t a = 0, b = 0;
    k = std::stol(s.substr(0, slash), &a);
    n = std::stol(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1) throw 0;
  } catch (...) {
    throw std::invalid_argument("--shard needs K/N, got '" + s + "'");
  }
  if (n < 1 || k < 1 || k > n) throw std::invalid_argument("--shard K/N needs 1 <= K <= N, got '" + s + "'");
  return {k, n};
}

// One dynamic unit: the scenario through one representation (harness/dynamic.cpp) into
// units/ID.part.*, then renamed into place, ID.csv last (its presence marks the unit finished).
// Returns the number of rows.
std::size_t run_dynamic_unit(const SweepConfig& cfg, const Unit& u, const fs::path& out, const std::vector<std::string>& argv) {
  RunConfig rc;
  rc.dynamic = {cfg.dynamic[std::size_t(u.dyn)]};
  rc.rebuild_baseline = cfg.rebuild_baseline;
  rc.reps = {u.rep};
  rc.select = cfg.select;
  rc.select.convention = u.convention;
  rc.unit = cfg.unit;
  rc.unit.threads = 1;  // a dynamic scenario's queries depend on the updates before them
  rc.quiet = true;
  rc.argv = argv;
  const fs::path dir = out / "units";
  rc.out = (dir / (u.id + ".part")).string();
  run_dynamic(rc);
  for (const char* ext : {".updates.csv", ".build.csv", ".paths.csv"})
    if (fs::exists(rc.out + ext)) fs::rename(rc.out + ext, dir / (u.id + ext));
  fs::remove(rc.out + ".meta.json");
  const std::string rows = read_file(rc.out + ".csv");
  fs::rename(rc.out + ".csv", dir / (u.id + ".csv"));
  const std::size_t lines = std::size_t(std::count(rows.begin(), rows.end(), '\n'));
  return lines ? lines - 1 : 0;
}

}  // namespace

void check_sweep_config_text(const std::string& text) { parse_config(text, "config", false); }

int sweep_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  std::string config_path, out_override, shard_text, jobs_text, threads_text;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool quiet = false;
  CLI::App app{"Runs a whole sweep from a JSON config (maps x representations x options) as resumable units "
               "in parallel; writes DIR/results.csv when every unit is done.",
               "navbench sweep"};
  cli::configure(app);
  app.add_option("CONFIG", config_path, "sweep config file (JSON)")->type_name("CONFIG");
  app.add_option("--out", out_override, "output folder (default: the config's \"output\")")->type_name("DIR");
  app.add_option("--jobs", jobs_text, "units run in parallel (default: the number of cores)")->type_name("N");
  app.add_option("--shard", shard_text, "run only units K-1, K-1+N, ... (combine shards with navbench merge)")
      ->type_name("K/N");
  app.add_option("--threads", threads_text, "threads per unit: its queries in parallel over one build (default 1)")
      ->type_name("N");
  app.add_flag("--quiet", quiet, "no progress lines");
  if (cli::parse(app, args)) return 0;  // --help
  const int unit_threads = app.count("--threads") ? parse_threads(threads_text) : 1;
  if (app.count("--jobs")) {
    std::size_t used = 0;
    long n = 0;
    try {
      n = std::stol(jobs_text, &used);
    } catch (...) {
    }
    if (used != jobs_text.size() || n < 1 || n > 1024) throw std::invalid_argument("--jobs needs 1..1024, got '" + jobs_text + "'");
    jobs = unsigned(n);
  }
  if (config_path.empty()) throw std::invalid_argument("sweep needs a CONFIG file");
  const auto [shard_k, shard_n] = shard_text.empty() ? std::pair<long, long>{1, 1} : parse_shard(shard_text);

  SweepConfig cfg = read_config(config_path);
  cfg.unit.threads = unit_threads;  // not part of the config: the rows are the same for any count
  const fs::path out = out_override.empty() ? fs::path(cfg.output) : fs::path(out_override);
  const std::string hash = hex64(fnv1a(cfg.canonical.dump()));
  fs::create_directories(out / "units");
  fs::create_directories(out / "optimum");
  // A folder belongs to one sweep config: resuming into it with another config is refused.
  const fs::path stamp = out / "sweep.json";
  if (fs::exists(stamp)) {
    json old;
    try {
      old = json::parse(read_file(stamp));
    } catch (...) {
    }
    if (old.value("config_hash", "") != hash)
      throw std::invalid_argument(out.string() + " holds results of a different sweep config; choose another --out");
  } else {
    write_atomic(stamp, json{{"config_hash", hash}, {"config", cfg.canonical}}.dump(2) + "\n");
  }
  for (const auto& e : fs::directory_iterator(out / "units"))  // leftovers of a killed run
    if (e.path().string().find(".tmp") != std::string::npos || e.path().string().find(".part.") != std::string::npos)
      fs::remove(e.path());

  // Every map and scenario is read and checked before any unit runs.
  std::vector<PreparedMap> maps;
  for (std::size_t i = 0; i < cfg.maps.size(); ++i) maps.push_back(prepare_map(cfg.maps[i], cfg.map_select[i]));
  std::vector<Unit> units;
  const long nradii = cfg.radii.empty() ? 1 : long(cfg.radii.size());
  for (std::size_t mi = 0; mi < maps.size(); ++mi)
    for (const auto& conv : cfg.conventions)
      for (long ri = 0; ri < nradii; ++ri)
        for (const auto& r : cfg.reps) {
          const long rk = cfg.radii.empty() ? -1 : ri;
          units.push_back({mi, conv, r,
                           sanitize(maps[mi].map.collection + "__" + maps[mi].map.name + "__" + conv + "__" + r.text +
                                    radius_tag(cfg.radii, rk)),
                           -1, rk});
        }
  std::vector<std::string> static_ids;
  for (const auto& u : units) static_ids.push_back(u.id);
  const std::vector<std::string> dyn_ids = dynamic_unit_ids(cfg.dynamic, cfg.conventions, cfg.reps);
  {
    std::size_t k = 0;
    for (std::size_t d = 0; d < cfg.dynamic.size(); ++d)
      for (const auto& conv : cfg.conventions)
        for (const auto& r : cfg.reps) units.push_back({0, conv, r, dyn_ids[k++], long(d)});
  }
  std::vector<std::string> all_ids = static_ids;
  all_ids.insert(all_ids.end(), dyn_ids.begin(), dyn_ids.end());
  // Every dynamic scenario is read and checked before any unit runs, like the maps.
  for (const auto& d : cfg.dynamic) (void)load_dynamic_scenario(d);
  // --shard K/N: units K-1, K-1+N, ... — deterministic, so N machines cover the sweep exactly once.
  std::vector<const Unit*> todo;
  for (std::size_t i = 0; i < units.size(); ++i)
    if (long(i % std::size_t(shard_n)) == shard_k - 1 && !fs::exists(out / "units" / (units[i].id + ".csv")))
      todo.push_back(&units[i]);

  // Execution order (the unit ids and shards above stay as they are): the units of `jobs` maps at a
  // time, interleaved, so each worker prepares a different map's queries and exact optimum instead
  // of waiting on the lock of the one map being prepared (random512-10-0's optimum takes 5 s);
  // about 2 x jobs maps are held at once. Dynamic units run last, in order.
  {
    std::vector<std::vector<const Unit*>> groups;
    std::map<std::tuple<std::size_t, std::string, long>, std::size_t> group_of;
    std::vector<const Unit*> order, dyn;
    for (const Unit* u : todo) {
      if (u->dyn >= 0) {
        dyn.push_back(u);
        continue;
      }
      auto [it, fresh] = group_of.try_emplace({u->map, u->convention, u->radius}, groups.size());
      if (fresh) groups.emplace_back();
      groups[it->second].push_back(u);
    }
    for (std::size_t g0 = 0; g0 < groups.size(); g0 += jobs) {
      const std::size_t g1 = std::min(groups.size(), g0 + jobs);
      for (std::size_t i = 0, left = g1 - g0; left > 0; ++i)
        for (std::size_t g = g0; g < g1; ++g)
          if (i < groups[g].size()) {
            order.push_back(groups[g][i]);
            if (i + 1 == groups[g].size()) --left;
          }
    }
    order.insert(order.end(), dyn.begin(), dyn.end());
    todo = std::move(order);
  }

  {
    json meta = run_metadata(argv, cfg.select.seed, cfg.canonical);
    meta["config_hash"] = hash;
    meta["shard"] = std::to_string(shard_k) + "/" + std::to_string(shard_n);
    meta["jobs"] = jobs;
    write_atomic(out / "results.meta.json", meta.dump(2) + "\n");
  }

  // Per (map, convention): queries and the exact optimum, prepared once under a lock, shared by
  // that map's units (FreeSpace is read-only and safe to share), and saved so a resume reuses it.
  struct Shared {
    std::mutex m;
    std::unique_ptr<PreparedMap> pm;
    std::size_t pending = 0;
  };
  std::map<std::tuple<std::size_t, std::string, long>, Shared> shared;
  for (const Unit* u : todo)
    if (u->dyn < 0) ++shared[{u->map, u->convention, u->radius}].pending;

  Progress progress;
  progress.total = todo.size();
  progress.quiet = quiet;
  std::atomic<std::size_t> next{0};
  std::mutex err_m;
  std::string first_error;
  auto worker = [&] {
    for (;;) {
      const std::size_t k = next++;
      if (k >= todo.size()) return;
      {
        std::lock_guard<std::mutex> lock(err_m);
        if (!first_error.empty()) return;
      }
      const Unit& u = *todo[k];
      try {
        const auto t0 = std::chrono::steady_clock::now();
        if (u.dyn >= 0) {
          const std::size_t nrows = run_dynamic_unit(cfg, u, out, argv);
          progress.unit_done(u.id, nrows, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
          continue;
        }
        Shared& sh = shared.at({u.map, u.convention, u.radius});
        PreparedMap* pm = nullptr;
        {
          std::lock_guard<std::mutex> lock(sh.m);
          if (!sh.pm) {
            // The map and scenario were read and checked once, before any unit: copy, don't re-read.
            auto p = std::make_unique<PreparedMap>();
            p->map = maps[u.map].map;
            p->scen = maps[u.map].scen;
            p->has_scen = maps[u.map].has_scen;
            p->selection = maps[u.map].selection;
            p->selection.convention = u.convention;
            if (u.radius >= 0) p->radius = cfg.radii[std::size_t(u.radius)];
            p->build_queries();
            const fs::path opt = out / "optimum" / (sanitize(p->map.collection + "__" + p->map.name + "__" + u.convention +
                                                              radius_tag(cfg.radii, u.radius)) + ".csv");
            if (fs::exists(opt)) {  // reuse the optimum a previous (interrupted) run saved
              std::istringstream in(read_file(opt));
              std::string line;
              std::getline(in, line);
              std::size_t qi = 0;
              while (std::getline(in, line) && qi < p->queries.size()) {
                const auto comma = line.find(',');
                const std::string v = line.substr(comma + 1);
                if (!v.empty()) p->queries[qi].optimal = std::stod(v);
                ++qi;
              }
              p->optimum_done = true;
            } else {
              p->compute_optimum();
              std::string text = "scen_index,optimal\n";
              for (const auto& q : p->queries)
                text += std::to_string(q.scen_index) + "," + (q.optimal ? exact_text(*q.optimal) : "") + "\n";
              write_atomic(opt, text);
            }
            sh.pm = std::move(p);
          }
          pm = sh.pm.get();
        }
        const bool with_radius = !cfg.radii.empty();
        std::string csv = result_header(with_radius) + "\n", paths = paths_header(with_radius) + "\n";
        std::size_t nrows = 0;
        auto b = run_unit(*pm, u.rep, cfg.unit, [&](const ResultRow& r) {
          csv += format_row(r) + "\n";
          if (cfg.unit.paths)
            if (auto p = format_path_row(r); !p.empty()) paths += p + "\n";
          ++nrows;
        });
        const fs::path dir = out / "units";
        write_atomic(dir / (u.id + ".build.csv"), build_header(with_radius) + "\n" + (b ? format_build_row(*b) + "\n" : ""));
        if (cfg.unit.paths) write_atomic(dir / (u.id + ".paths.csv"), paths);
        write_atomic(dir / (u.id + ".csv"), csv);  // last: its presence marks the unit finished
        {
          std::lock_guard<std::mutex> lock(sh.m);
          if (--sh.pending == 0) sh.pm.reset();  // free the map once its last unit is done
        }
        progress.unit_done(u.id, nrows, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(err_m);
        if (first_error.empty()) first_error = u.id + ": " + e.what();
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<std::size_t>(jobs, std::max<std::size_t>(todo.size(), 1)); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (!first_error.empty()) throw std::runtime_error(first_error);

  std::size_t missing = 0;
  for (const auto& id : all_ids) missing += !fs::exists(out / "units" / (id + ".csv"));
  if (missing == 0) {
    if (!static_ids.empty()) write_merged(out, {out / "units"}, static_ids, cfg.unit.paths, false, !cfg.radii.empty());
    if (!dyn_ids.empty()) write_merged(out / "dynamic", {out / "units"}, dyn_ids, cfg.unit.paths, true);
    if (!quiet)
      std::cerr << "navbench: sweep complete: " << (static_ids.empty() ? "" : (out / "results.csv").string())
                << (static_ids.empty() || dyn_ids.empty() ? "" : ", ")
                << (dyn_ids.empty() ? "" : (out / "dynamic" / "results.csv").string()) << '\n';
  } else if (!quiet) {
    std::cerr << "navbench: shard " << shard_k << "/" << shard_n << " done; " << missing
              << " units belong to other shards: combine with `navbench merge`\n";
  }
  return 0;
}

int merge_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  std::vector<std::string> dir_args;
  std::string out;
  CLI::App app{"Combines the folders of a sharded sweep (navbench sweep --shard K/N) into one result set.",
               "navbench merge"};
  cli::configure(app);
  app.add_option("SHARD_DIR", dir_args, "sweep output folders of the same config")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->type_name("SHARD_DIR...");
  app.add_option("--out", out, "output folder (required)")->type_name("DIR");
  if (cli::parse(app, args)) return 0;  // --help
  const std::vector<fs::path> dirs(dir_args.begin(), dir_args.end());
  if (dirs.empty() || out.empty()) throw std::invalid_argument("merge needs SHARD_DIR... --out DIR");
  std::string hash;
  json config;
  std::vector<fs::path> unit_dirs;
  for (const auto& d : dirs) {
    if (!fs::exists(d / "sweep.json")) throw InputError(d.string() + ": not a sweep folder (no sweep.json)");
    json j = json::parse(read_file(d / "sweep.json"));
    if (hash.empty()) {
      hash = j.value("config_hash", "");
      config = j["config"];
    } else if (j.value("config_hash", "") != hash) {
      throw InputError(d.string() + ": its sweep config differs from " + dirs.front().string() + "; refusing to mix");
    }
    unit_dirs.push_back(d / "units");
  }
  // The unit list is the config's; every unit must be found in one of the shards.
  SweepConfig cfg;
  cfg.reps = expand_reps(config["representations"]);
  std::vector<std::string> conventions = config.contains("conventions") ? config["conventions"].get<std::vector<std::string>>()
                                                                        : std::vector<std::string>{"center"};
  std::vector<double> radii;
  if (config.contains("radii")) radii = config["radii"].get<std::vector<double>>();
  std::vector<std::string> ids;
  std::size_t missing = 0;
  for (const auto& m : config.contains("maps") ? config["maps"].get<std::vector<std::string>>() : std::vector<std::string>{}) {
    const fs::path p(m);
    std::string name = p.filename().string();
    for (const char* ext : {".map", ".wkt"})
      if (name.size() > 4 && name.ends_with(ext)) name.resize(name.size() - 4);
    const std::string col = p.parent_path().filename().string();
    for (const auto& conv : conventions)
      for (long ri = 0; ri < (radii.empty() ? 1 : long(radii.size())); ++ri)
        for (const auto& r : cfg.reps) {
          ids.push_back(sanitize(col + "__" + name + "__" + conv + "__" + r.text + radius_tag(radii, radii.empty() ? -1 : ri)));
          bool found = false;
          for (const auto& d : unit_dirs) found |= fs::exists(d / (ids.back() + ".csv"));
          missing += !found;
        }
  }
  const std::vector<std::string> dyn_ids = dynamic_unit_ids(
      config.contains("dynamic") ? config["dynamic"].get<std::vector<std::string>>() : std::vector<std::string>{},
      conventions, cfg.reps);
  for (const auto& id : dyn_ids) {
    bool found = false;
    for (const auto& d : unit_dirs) found |= fs::exists(d / (id + ".csv"));
    missing += !found;
  }
  if (missing)
    throw InputError(std::to_string(missing) + " of " + std::to_string(ids.size() + dyn_ids.size()) +
                     " units are in none of the shards");
  fs::create_directories(out);
  const bool paths = config.contains("paths") && config["paths"].get<bool>();
  if (!ids.empty()) write_merged(out, unit_dirs, ids, paths, false, !radii.empty());
  if (!dyn_ids.empty()) write_merged(fs::path(out) / "dynamic", unit_dirs, dyn_ids, paths, true);
  json meta = run_metadata(argv, config.value("seed", std::uint64_t(1)), config);
  meta["config_hash"] = hash;
  meta["merged_from"] = [&] {
    std::vector<std::string> v;
    for (auto& d : dirs) v.push_back(d.string());
    return v;
  }();
  write_atomic(fs::path(out) / "results.meta.json", meta.dump(2) + "\n");
  write_atomic(fs::path(out) / "sweep.json", json{{"config_hash", hash}, {"config", config}}.dump(2) + "\n");
  std::cerr << "navbench: merged " << ids.size() + dyn_ids.size() << " units into " << out << '\n';
  return 0;
}

}  // namespace navbench
