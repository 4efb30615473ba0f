#include "harness/sweep/config.hpp"
#include "harness/sweep/units.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "base/error.hpp"
#include "harness/run/prepared_map.hpp"
#include "harness/sweep/sweep.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace navbench {
namespace {

std::vector<std::string> expand_glob(const std::string& pattern) {
  if (pattern.find_first_of("*?[") == std::string::npos) return {pattern};
  glob_t g{};
  std::vector<std::string> out;
  if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.push_back(g.gl_pathv[i]);
  globfree(&g);
  if (out.empty()) throw base::InputError(pattern + ": pattern matches no file");
  return out;
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

}  // namespace

std::vector<RepresentationSpec> expand_reps(const json& j, std::vector<std::vector<std::string>>* skip) {
  std::vector<RepresentationSpec> out;
  for (const auto& r : j) {
    if (r.is_string()) {
      for (auto& s : parse_rep_option(r.get<std::string>())) {
        out.push_back(s);
        if (skip) skip->emplace_back();
      }
      continue;
    }
    // {"every": true}: every registered representation that does not declare itself opt-in (a costly
    // build: RepresentationEntry::opt_in), with its defaults and the item's searches and skip_maps.
    const bool every = r.is_object() && r.contains("every");
    if (every && !(r["every"].is_boolean() && r["every"].get<bool>()))
      throw std::invalid_argument("sweep config: \"every\" is true (every registered representation not declared opt-in)");
    if (!r.is_object() || (!every && (!r.contains("name") || !r["name"].is_string())) || (every && (r.contains("name") || r.contains("params"))))
      throw std::invalid_argument("sweep config: a representation is a string, {\"name\": ..., \"params\": {...}} or {\"every\": true}");
    for (auto it = r.begin(); it != r.end(); ++it)
      if (it.key() != "name" && it.key() != "params" && it.key() != "searches" && it.key() != "skip_maps" && it.key() != "every")
        throw std::invalid_argument("sweep config: unknown key '" + it.key() +
                                    "' in a representation (name, params, searches, skip_maps, every)");
    const std::string name = every ? std::string("every") : r["name"].get<std::string>();
    // Its own searches, replacing the run's (e.g. recast's Detour query, which no other has).
    std::vector<SearchMode> searches;
    if (r.contains("searches")) {
      std::string list;
      for (auto& s : strings(r["searches"], "searches")) list += (list.empty() ? "" : ",") + s;
      searches = parse_search_list(list);
      if (searches.empty()) throw std::invalid_argument("sweep config: 'searches' of " + name + " needs at least one name");
    }
    // Maps it does not run on, by name (e.g. where its build alone would break a time budget).
    const std::vector<std::string> skipped =
        r.contains("skip_maps") ? strings(r["skip_maps"], "skip_maps") : std::vector<std::string>{};
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
    std::vector<std::string> texts;
    if (every) {
      for (const RepresentationEntry& e : representations())
        if (!e.opt_in) texts.push_back(e.name);
    } else {
      for (const auto& c : combos) texts.push_back(c.empty() ? name : name + ":" + c);
    }
    for (const auto& text : texts)
      for (auto& s : parse_rep_option(text)) {
        s.searches = searches;
        out.push_back(s);
        if (skip) skip->push_back(skipped);
      }
  }
  if (out.empty()) throw std::invalid_argument("sweep config: no representations");
  return out;
}

namespace {

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
// "queries": {...}, "unknown": "blocked"|"free", "wmax": W}. An optional entry that matches nothing is skipped with a note (e.g. the
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
        if (it.key() != "path" && it.key() != "optional" && it.key() != "queries" && it.key() != "comment" &&
            it.key() != "terrain" && it.key() != "costs" && it.key() != "unknown" && it.key() != "wmax")
          throw std::invalid_argument("sweep config: unknown key '" + it.key() +
                                      "' in a map entry (path, optional, queries, terrain, costs, unknown, wmax)");
      if (!v.contains("path") || !v["path"].is_string()) throw std::invalid_argument("sweep config: a map entry needs \"path\": a string");
      e.path = v["path"].get<std::string>();
      if (v.contains("optional") && !v["optional"].is_boolean())
        throw std::invalid_argument("sweep config: a map entry's 'optional' must be true or false");
      e.optional = v.value("optional", false);
      for (const char* key : {"terrain", "costs"})
        if (v.contains(key) && !v[key].is_string())
          throw std::invalid_argument(std::string("sweep config: a map entry's '") + key + "' must be a string");
      if (v.contains("queries")) {
        e.select = parse_queries(v["queries"], global);
      }
      e.select.weights.set_terrain(v.value("terrain", ""));  // the table parsed once, here
      e.select.weights.costs = v.value("costs", "");
      // Occupancy images (docs/maps.md): unknown cells blocked or free, the scale mode's wmax.
      if (v.contains("unknown")) {
        if (!v["unknown"].is_string() || (v["unknown"] != "blocked" && v["unknown"] != "free"))
          throw std::invalid_argument("sweep config: a map entry's 'unknown' must be \"blocked\" or \"free\"");
        e.select.read.occupancy.unknown_free = v["unknown"] == "free";
      }
      if (v.contains("wmax")) {
        if (!v["wmax"].is_number() || !(v["wmax"].get<double>() >= 1 && v["wmax"].get<double>() <= 1e9))
          throw std::invalid_argument("sweep config: a map entry's 'wmax' must be a number >= 1");
        e.select.read.occupancy.wmax = v["wmax"].get<double>();
      }
    } else {
      throw std::invalid_argument("sweep config: 'maps' must be a list of paths or {\"path\": ...} objects");
    }
    if (e.path.empty()) throw std::invalid_argument("sweep config: a map path is empty");
    out.push_back(e);
  }
  return out;
}

// "dynamic": changing-map scenarios (docs/changing-maps.md), entries like those of "maps" (path or
// {"path", "optional"}); each runs as its own units (every representation kept up to date).
void resolve_dynamic(const json& j, bool expand_maps, SweepConfig& c) {
  if (j["dynamic"].is_array())
    for (const auto& v : j["dynamic"]) {
      if (v.is_object() && v.contains("queries"))
        throw std::invalid_argument("sweep config: a dynamic entry runs all its queries (no 'queries' key)");
      if (v.is_object() && (v.contains("terrain") || v.contains("costs")))  // docs/terrain.md: changing weights are out of scope
        throw std::invalid_argument("sweep config: a dynamic entry takes no weights (no 'terrain' or 'costs' key)");
      if (v.is_object() && (v.contains("unknown") || v.contains("wmax")))  // its map is its patches: no image is read
        throw std::invalid_argument("sweep config: a dynamic entry reads no occupancy image (no 'unknown' or 'wmax' key)");
    }
  for (const MapEntry& e : map_entries(j["dynamic"], c.select)) {
    std::vector<std::string> files{e.path};
    if (expand_maps) try {
      files = expand_glob(e.path);
      for (const auto& f : files)
        if (!fs::is_regular_file(f)) throw base::InputError(f + ": no such dynamic scenario file");
    } catch (const base::InputError&) {
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

// "maps" (and "collections"): the map files of the sweep, each with its query selection, sorted;
// optional entries that match nothing are skipped with a note.
void resolve_maps(const json& j, bool expand_maps, SweepConfig& c) {
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
      } catch (const base::InputError& err) {
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
  std::map<std::string, std::string> layers;  // key -> the cost layer file of a weighted entry
  std::vector<std::tuple<std::string, QuerySelection, std::size_t>> kept;
  for (auto& f : found) {
    const auto& [file, sel, entry] = f;
    const fs::path p(file);
    // The same map with other weights is another entry (docs/terrain.md: its rows carry `terrain`).
    const std::string key = p.parent_path().filename().string() + "/" + p.stem().string() + weights_tag(sel.weights);
    // A cost layer is named in the rows by its file name: two layers of one name on one map would
    // be one in the results.
    if (!sel.weights.costs.empty()) {
      auto [l, first] = layers.emplace(key, sel.weights.costs);
      if (!first && fs::path(l->second).lexically_normal() != fs::path(sel.weights.costs).lexically_normal())
        throw std::invalid_argument("sweep config: " + l->second + " and " + sel.weights.costs + " are both cost layers '" +
                                    fs::path(sel.weights.costs).filename().string() + "' of " + file +
                                    " (results name a layer by its file name)");
    }
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
}

}  // namespace

SweepConfig parse_config(const std::string& text, const std::string& path, bool expand_maps) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and numbers too large to represent
    throw base::InputError(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw base::InputError(path + ": a sweep config is a JSON object");
  static const std::vector<std::string> keys = {"maps", "collections", "representations", "smoothing", "heuristics",
                                                "conventions", "queries", "repetitions", "seed", "output", "paths", "comment",
                                                "dynamic", "rebuild_baseline", "radii", "searches", "trace", "trace_cap_mb", "pinch"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      throw base::InputError(path + ": unknown key '" + it.key() + "'");
  SweepConfig c;
  try {
    if (j.contains("queries")) c.select = parse_queries(j["queries"], c.select);
    c.select.seed = std::uint64_t(integer(j, "seed", 1, 0, std::numeric_limits<long>::max()));
    if (!j.contains("maps") && !j.contains("dynamic")) throw std::invalid_argument("sweep config needs \"maps\" or \"dynamic\"");
    if (j.contains("dynamic")) resolve_dynamic(j, expand_maps, c);
    if (j.contains("rebuild_baseline") && !j["rebuild_baseline"].is_boolean())
      throw std::invalid_argument("sweep config: 'rebuild_baseline' must be true or false");
    c.rebuild_baseline = j.value("rebuild_baseline", false);
    // The squeeze rule (SPEC §11), one for the whole sweep: "forbid" (default) or "allow".
    if (j.contains("pinch") && !(j["pinch"] == "forbid" || j["pinch"] == "allow"))
      throw std::invalid_argument("sweep config: 'pinch' must be \"forbid\" or \"allow\"");
    c.select.squeeze = j.value("pinch", "forbid") == "allow";
    resolve_maps(j, expand_maps, c);
    for (QuerySelection& s : c.map_select) s.squeeze = c.select.squeeze;
    if (j.contains("representations")) c.reps = expand_reps(j["representations"], &c.rep_skip);
    c.rep_skip.resize(c.reps.size());
    if (j.contains("smoothing")) {
      std::string list;
      for (auto& s : strings(j["smoothing"], "smoothing")) list += (list.empty() ? "" : ",") + s;
      c.unit.smoothings = parse_smoothing_list(list);
    }
    if (j.contains("searches")) {
      std::string list;
      for (auto& s : strings(j["searches"], "searches")) list += (list.empty() ? "" : ",") + s;
      c.unit.searches = parse_search_list(list);
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
        if (!v.is_number()) throw std::invalid_argument("sweep config: 'radii' must be a non-empty array of numbers >= 0");
        c.agents.push_back(Agent::with_radius(v.get<double>()));
      }
    }
    if (j.contains("paths") && !j["paths"].is_boolean()) throw std::invalid_argument("sweep config: 'paths' must be true or false");
    c.unit.paths = j.value("paths", false);
    // Search traces (docs/traces.md): N queries per map and configuration, cut at trace_cap_mb.
    c.unit.trace = std::size_t(integer(j, "trace", 0, 0, 1000000));
    if (j.contains("trace_cap_mb")) c.unit.trace_cap = std::size_t(integer(j, "trace_cap_mb", 64, 1, 1 << 20)) << 20;
    if (j.contains("output") && !j["output"].is_string()) throw std::invalid_argument("sweep config: 'output' must be a string");
    c.output = j.value("output", c.output);
    check_run(c, kSweepConfigNames, j.contains("maps"));  // the rules every run description follows, as for `navbench run`
    for (const QuerySelection& sel : c.map_select)  // each map entry's weights, under each convention
      for (const std::string& conv : c.conventions) {
        QuerySelection s = sel;
        s.convention = conv;
        check_weights(s, c, kSweepConfigNames, false);
      }
  } catch (const json::exception& e) {
    throw base::InputError(path + ": wrong type of value: " + e.what());
  } catch (const std::invalid_argument& e) {
    throw base::InputError(path + ": " + e.what());
  } catch (const std::out_of_range& e) {
    throw base::InputError(path + ": " + e.what());
  }
  json canon = j;
  canon.erase("output");
  canon.erase("comment");
  canon["maps"] = c.maps;
  // Per map its weights' tag (the unit ids' part that tells a weighted entry from the plain map),
  // for `merge`; only in sweeps with weights, so other configs keep their hash.
  if (std::any_of(c.map_select.begin(), c.map_select.end(), [](const QuerySelection& s) { return s.weights.any(); })) {
    json tags = json::array();
    for (const QuerySelection& s : c.map_select) tags.push_back(weights_tag(s.weights));
    canon["map_weights"] = tags;
  }
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
  if (!in) throw base::InputError(path + ": cannot open sweep config");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path, true);
}

}  // namespace navbench

namespace navbench {
void check_sweep_config_text(const std::string& text) { parse_config(text, "config", false); }
}  // namespace navbench
