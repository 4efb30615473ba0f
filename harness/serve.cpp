// `navbench serve`: the live viewer of issue 17. One page (harness/web/, embedded at build time)
// and a small JSON API on 127.0.0.1. Every query goes through the pipeline of `navbench run`
// (prepare_map, find_representation, run_query, exact_optimum), so the page's table equals
// `navbench run --convention corner` on the same points. Each (map, representation) is built
// once and cached; a mutex per built representation guards its query-time state (the A*
// workspace), so several tabs can query at once. Grid maps can be edited (POST /api/cells, SPEC §7):
// the edit holds its map exclusively while it changes the cells and brings every cached build up
// to date, so a query sees the map either before or after an edit, never between.
#include "harness/serve.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <CLI/CLI.hpp>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "datasets/movingai.hpp"
#include "harness/pipeline.hpp"
#include "harness/registry.hpp"
#include "harness/results.hpp"
#include "harness/run.hpp"
#include "harness/web_assets.hpp"
#include "smoothing/smoothing.hpp"

#ifndef NAVBENCH_SOURCE_DIR
#define NAVBENCH_SOURCE_DIR "."
#endif

namespace navbench {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Limits of one request: anything larger is refused with a 4xx, never processed.
constexpr std::size_t kMaxBody = 64 * 1024;       // bytes of a request body (413 beyond)
constexpr std::size_t kMaxReps = 16;              // representations in one query
constexpr std::size_t kMaxSpecChars = 200;        // characters of one representation spec
constexpr std::size_t kMaxRepsCachedPerMap = 24;  // built representations kept per map (LRU)
constexpr std::size_t kMaxCells = 4096;           // cells toggled by one POST /api/cells (413 beyond)

// An answer other than 200: the status and a one-line message for {"error": ...}.
struct HttpError : std::runtime_error {
  int status;
  HttpError(int s, const std::string& m) : std::runtime_error(m), status(s) {}
};

// One built representation of one map.
struct BuiltRep {
  std::mutex m;  // query-time state (the A* workspace) is not thread-safe; also guards `structure`
  std::unique_ptr<AnyRepresentation> rep;  // null when the representation does not support the map
  std::string unsupported;                 // UnsupportedMap's message then
  BuildRow build;
  std::optional<std::string> structure;    // float32 x1 y1 x2 y2 ... (little-endian), on first request
  RepresentationSpec spec;                 // what was built: an edit of the map rebuilds it from this
};
using BuiltFuture = std::shared_future<std::shared_ptr<BuiltRep>>;

struct ViewerMapEntry {
  PreparedMap pm;  // never moves (entries live behind unique_ptr): FreeSpace keeps a reference to pm.map
  // Shared by everything that reads pm.map or what is built on it (queries, structures, drawing);
  // exclusive for an edit of the cells. Taken before `m` and before any BuiltRep::m.
  std::shared_mutex state;
  std::uint64_t version = 0;                        // edits so far (guarded by `state`)
  std::optional<std::vector<std::uint8_t>> original;  // the cells as read, kept at the first edit (for reset)
  std::mutex m;    // guards the fields below
  std::shared_ptr<const FreeSpace> free;
  struct Slot {
    BuiltFuture built;
    std::uint64_t used = 0;
  };
  std::map<std::string, Slot> reps;  // by representation text as given ("quadtree:min=2")
  std::uint64_t tick = 0;            // per-map clock for the LRU of `reps`
  std::uint64_t used = 0;            // global clock for the LRU of maps (Viewer::m_)
};

double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

std::string error_body(const std::string& message) { return json{{"error", message}}.dump(); }

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json opt(const std::optional<bool>& v) { return v ? json(*v) : json(nullptr); }

class Viewer {
 public:
  Viewer(const std::vector<std::string>& files, std::size_t cache_maps) : cache_maps_(cache_maps) {
    QuerySelection sel;
    sel.queries = 1;  // maps without a scenario file are fine here (as in `navbench structure`)
    for (const auto& f : files) {
      auto e = std::make_unique<ViewerMapEntry>();
      e->pm = prepare_map(f, sel);  // reads and checks the map and its scenario (InputError: exit 2)
      e->pm.scen.lines = {};          // the queries come from the page: a many-map server keeps no scenarios
      maps_.push_back(std::move(e));
    }
  }

  std::size_t size() const { return maps_.size(); }

  json info() const {
    json maps = json::array();
    for (std::size_t i = 0; i < maps_.size(); ++i) maps.push_back(map_summary(i));
    json reps = json::array(), sm = json::array();
    for (const auto& e : representations()) reps.push_back({{"name", e.name}, {"description", e.description}});
    for (const auto& s : smoothers()) sm.push_back({{"name", s.name}, {"description", s.description}});
    return {{"maps", maps},
            {"representations", reps},
            {"smoothers", sm},
            {"heuristics", {"euclidean", "octile", "manhattan", "chebyshev", "zero"}},
            {"limits", {{"body_bytes", kMaxBody}, {"representations", kMaxReps}}}};
  }

  json map_summary(std::size_t i) const {
    const Map& m = maps_[i]->pm.map;
    return {{"id", i},
            {"name", m.name},
            {"collection", m.collection},
            {"kind", m.kind == MapKind::grid ? "grid" : "polygon"},
            {"min", {m.min.x, m.min.y}},
            {"max", {m.max.x, m.max.y}},
            {"width", m.kind == MapKind::grid ? m.grid.width : 0},
            {"height", m.kind == MapKind::grid ? m.grid.height : 0}};
  }

  ViewerMapEntry& entry(const std::string& id_text) {
    std::size_t used = 0;
    long id = -1;
    try {
      id = std::stol(id_text, &used);
    } catch (...) {
      used = 0;
    }
    if (id_text.empty() || used != id_text.size() || id < 0 || std::size_t(id) >= maps_.size())
      throw HttpError(404, "unknown map '" + id_text + "' (this server has maps 0.." + std::to_string(maps_.size() - 1) + ")");
    return *maps_[std::size_t(id)];
  }

  // The map for drawing: grids as rows of '.'/'@', polygon maps as the rings of the free space
  // (free space on the left of each ring: filled with the non-zero rule they give exactly it).
  json map_detail(ViewerMapEntry& e) {
    std::shared_lock map_lock(e.state);
    const Map& m = e.pm.map;
    json out = map_summary(index_of(e));
    out["version"] = e.version;
    if (m.kind == MapKind::grid) {
      json rows = json::array();
      std::string row(std::size_t(m.grid.width), '.');
      for (int y = 0; y < m.grid.height; ++y) {
        for (int x = 0; x < m.grid.width; ++x) row[std::size_t(x)] = m.grid.passable(x, y) ? '.' : '@';
        rows.push_back(row);
      }
      out["rows"] = rows;
    } else {
      json rings = json::array();
      for (const auto& r : free_space(e)->obstacle_rings()) {
        json pts = json::array();
        for (const auto& p : r) pts.push_back({p.x, p.y});
        rings.push_back(pts);
      }
      out["rings"] = rings;
    }
    return out;
  }

  std::size_t index_of(const ViewerMapEntry& e) const {
    for (std::size_t i = 0; i < maps_.size(); ++i)
      if (maps_[i].get() == &e) return i;
    return 0;
  }

  std::shared_ptr<const FreeSpace> free_space(ViewerMapEntry& e) {
    touch(e);
    std::lock_guard g(e.m);
    if (!e.free) e.free = std::make_shared<const FreeSpace>(e.pm.map);
    return e.free;
  }

  // The built representation, building it on first use. Concurrent requests for the same
  // unbuilt one wait for a single build. A failed build is not cached (the next request retries).
  std::shared_ptr<BuiltRep> built(ViewerMapEntry& e, const RepresentationSpec& spec) {
    std::promise<std::shared_ptr<BuiltRep>> promise;
    BuiltFuture fut;
    bool builder = false;
    {
      std::lock_guard g(e.m);
      auto it = e.reps.find(spec.text);
      if (it == e.reps.end()) {
        if (e.reps.size() >= kMaxRepsCachedPerMap) evict_one_rep(e);
        fut = promise.get_future().share();
        e.reps.emplace(spec.text, ViewerMapEntry::Slot{fut, ++e.tick});
        builder = true;
      } else {
        it->second.used = ++e.tick;
        fut = it->second.built;
      }
    }
    if (builder) {
      try {
        promise.set_value(build(e, spec));
      } catch (...) {
        {
          std::lock_guard g(e.m);
          e.reps.erase(spec.text);
        }
        promise.set_exception(std::current_exception());
      }
    }
    return fut.get();
  }

  // The structure of a built representation as float32 segments, computed once per map version.
  std::string structure(ViewerMapEntry& e, const RepresentationSpec& spec, std::size_t& segments, std::uint64_t& version) {
    std::shared_lock map_lock(e.state);
    version = e.version;
    auto b = built(e, spec);
    if (!b->rep) throw HttpError(422, spec.text + " does not support map " + e.pm.map.name + ": " + b->unsupported);
    std::lock_guard g(b->m);
    if (!b->structure) {
      static_assert(std::endian::native == std::endian::little, "the page reads little-endian float32");
      const auto segs = b->rep->structure();
      std::string bytes(segs.size() * 4 * sizeof(float), '\0');
      char* out = bytes.data();
      for (const auto& s : segs) {
        const float v[4] = {float(s.a.x), float(s.a.y), float(s.b.x), float(s.b.y)};
        std::memcpy(out, v, sizeof v);
        out += sizeof v;
      }
      b->structure = std::move(bytes);
    }
    segments = b->structure->size() / (4 * sizeof(float));
    return *b->structure;
  }

  json query(const json& body);
  json edit_cells(const json& body);
  json reset(const json& body);

  // The map named by a request's "map" field (an id from /api/info, as a number or a string).
  ViewerMapEntry& entry_of(const json& body) {
    if (!body.contains("map") || !(body["map"].is_number_integer() || body["map"].is_string()))
      throw HttpError(400, "missing 'map': the map's id from /api/info");
    return entry(body["map"].is_string() ? body["map"].get<std::string>() : std::to_string(body["map"].get<long long>()));
  }

 private:
  // Sets the cells of `want` (x, y, new value) that differ, then brings everything built on the
  // map up to date. Caller holds e.state exclusively.
  json apply(ViewerMapEntry& e, const std::vector<CellChange>& want);
  std::shared_ptr<BuiltRep> build(ViewerMapEntry& e, const RepresentationSpec& spec) {
    touch(e);
    const RepresentationEntry* entry = find_representation(spec.name);
    if (!entry) throw HttpError(400, "unknown representation '" + spec.name + "'");
    auto b = std::make_shared<BuiltRep>();
    b->spec = spec;
    Params params = Params::parse(spec.params);
    const auto t0 = Clock::now();
    try {
      b->rep = entry->build(e.pm.map, params);
    } catch (const UnsupportedMap& u) {
      b->unsupported = u.what();
      return b;
    }
    // The build row as `navbench run` writes it (run_unit).
    b->build.build_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    b->rep->prepare();  // search memory, untimed (registry.hpp)
    b->build.map = e.pm.map.name;
    b->build.representation = spec.text;
    b->build.params = params.canonical();
    const BuildStats st = b->rep->stats();
    b->build.vertices = st.vertices;
    b->build.edges = st.edges;
    b->build.memory_bytes = st.memory_bytes;
    return b;
  }

  // Drops the least recently used finished build of e (caller holds e.m). In-flight queries keep
  // theirs alive through their shared_ptr.
  static void evict_one_rep(ViewerMapEntry& e) {
    auto victim = e.reps.end();
    for (auto it = e.reps.begin(); it != e.reps.end(); ++it)
      if (it->second.built.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
          (victim == e.reps.end() || it->second.used < victim->second.used))
        victim = it;
    if (victim != e.reps.end()) e.reps.erase(victim);
  }

  // Marks e as used; when more than cache_maps_ maps hold builds, the least recently used one
  // drops its free space and representations (a many-map server stays bounded in memory).
  void touch(ViewerMapEntry& e) {
    std::lock_guard g(m_);
    e.used = ++clock_;
    std::size_t holding = 0;
    ViewerMapEntry* lru = nullptr;
    for (auto& p : maps_) {
      if (p.get() == &e) continue;
      std::lock_guard ge(p->m);
      if (!p->free && p->reps.empty()) continue;
      ++holding;
      if (!lru || p->used < lru->used) lru = p.get();
    }
    if (lru && holding + 1 > cache_maps_) {
      std::lock_guard ge(lru->m);
      lru->free.reset();
      lru->reps.clear();
    }
  }

  std::vector<std::unique_ptr<ViewerMapEntry>> maps_;
  std::size_t cache_maps_;
  std::mutex m_;  // guards clock_ and the choice of a map to evict
  std::uint64_t clock_ = 0;
};

// Rejects fields other than `known` (listed in the message).
void only_fields(const json& body, const std::vector<std::string>& known) {
  if (!body.is_object()) throw HttpError(400, "the request must be a JSON object");
  for (auto it = body.begin(); it != body.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw HttpError(400, "unknown field '" + it.key() + "' (" + list + ")");
    }
}

// The grid of an editable map; a polygon map has no cells to toggle.
const GridMap& editable_grid(const ViewerMapEntry& e) {
  if (e.pm.map.kind != MapKind::grid)
    throw HttpError(400, "map " + e.pm.map.name + " is a polygon map: only grid maps have cells to toggle");
  return e.pm.map.grid;
}

// A point of the request: [x, y], two finite numbers inside the map's bounding box.
Point read_point(const json& body, const char* key, const Map& m) {
  auto it = body.find(key);
  if (it == body.end()) throw HttpError(400, std::string("missing '") + key + "': [x, y]");
  const json& v = *it;
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    throw HttpError(400, std::string("'") + key + "' must be [x, y] (two numbers)");
  const Point p{v[0].get<double>(), v[1].get<double>()};
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < m.min.x || p.y < m.min.y || p.x > m.max.x || p.y > m.max.y) {
    std::ostringstream s;
    s << key << " (" << p.x << ", " << p.y << ") is outside the map [" << m.min.x << ", " << m.max.x << "] x ["
      << m.min.y << ", " << m.max.y << "]";
    throw HttpError(400, s.str());
  }
  return p;
}

json row_json(const ResultRow& r, const BuildRow& b) {
  json path = json::array();
  for (const auto& p : r.path) path.push_back({p.x, p.y});
  return {{"representation", r.representation},
          {"smoothing", r.smoothing},
          {"heuristic", r.heuristic},
          {"status", to_string(r.status)},
          {"message", r.message},
          {"length", opt(r.length)},
          {"raw_length", opt(r.raw_length)},
          {"optimal", opt(r.optimal)},
          {"gap", opt(r.gap)},
          {"valid", opt(r.valid)},
          {"raw_valid", opt(r.raw_valid)},
          {"expansions", r.expansions},
          {"generated", r.generated},
          {"path_points", r.path_points},
          {"locate_us", r.locate_us},
          {"search_us", r.search_us},
          {"smooth_us", r.smooth_us},
          {"build_ms", b.build_ms},
          {"vertices", b.vertices},
          {"edges", b.edges},
          {"memory_bytes", b.memory_bytes},
          {"path", path},
          {"row", format_row(r)}};  // the SPEC §4 CSV row, as `navbench run` would write it
}

// POST /api/query {"map": ID, "reps": [SPEC...], "start": [x, y], "goal": [x, y],
//                  "smoothing": "los" | [...], "heuristic": "euclidean*1.5", "paths": true}
json Viewer::query(const json& body) {
  const auto t0 = Clock::now();
  only_fields(body, {"map", "reps", "start", "goal", "smoothing", "heuristic", "paths"});
  ViewerMapEntry& e = entry_of(body);
  std::shared_lock map_lock(e.state);  // the map stays as it is until this answer is complete
  const Map& m = e.pm.map;

  // Representations: each a spec as `--rep` takes it, checked by the same parser.
  if (!body.contains("reps") || !body["reps"].is_array() || body["reps"].empty())
    throw HttpError(400, "'reps' must be a non-empty array of representation names");
  if (body["reps"].size() > kMaxReps) throw HttpError(400, "at most " + std::to_string(kMaxReps) + " representations per query");
  std::vector<RepresentationSpec> specs;
  for (const auto& r : body["reps"]) {
    if (!r.is_string() || r.get<std::string>().empty() || r.get<std::string>().size() > kMaxSpecChars)
      throw HttpError(400, "each of 'reps' must be a representation name (at most " + std::to_string(kMaxSpecChars) + " characters)");
    for (auto& s : parse_rep_option(r.get<std::string>())) specs.push_back(s);  // invalid_argument -> 400
  }
  if (specs.size() > kMaxReps) throw HttpError(400, "at most " + std::to_string(kMaxReps) + " representations per query");

  std::vector<std::string> smoothings{"none"};
  if (body.contains("smoothing")) {
    const json& s = body["smoothing"];
    std::string list;
    if (s.is_string()) list = s.get<std::string>();
    else if (s.is_array() && !s.empty() && s.size() <= 3 && std::all_of(s.begin(), s.end(), [](const json& x) { return x.is_string(); }))
      for (const auto& x : s) list += (list.empty() ? "" : ",") + x.get<std::string>();
    else throw HttpError(400, "'smoothing' must be a name or a list of names (none, los, funnel)");
    smoothings = parse_smoothing_list(list);
  }
  Heuristic h = parse_heuristic("euclidean");
  if (body.contains("heuristic")) {
    if (!body["heuristic"].is_string() || body["heuristic"].get<std::string>().size() > 64)
      throw HttpError(400, "'heuristic' must be a name such as \"euclidean\" or \"octile*1.5\"");
    h = parse_heuristic(body["heuristic"].get<std::string>());
  }
  bool paths = true;
  if (body.contains("paths")) {
    if (!body["paths"].is_boolean()) throw HttpError(400, "'paths' must be true or false");
    paths = body["paths"].get<bool>();
  }
  QueryInput in;
  in.start = read_point(body, "start", m);
  in.goal = read_point(body, "goal", m);
  // The row's scenario columns: the points themselves, i.e. the `corner` convention (SPEC §1),
  // so `navbench run --convention corner` with a scenario holding these numbers runs this query.
  in.sx = in.start.x, in.sy = in.start.y, in.gx = in.goal.x, in.gy = in.goal.y;
  const MapContext ctx{m.name, m.collection, "corner"};

  auto free = free_space(e);
  // The exact optimum for `optimal` and `gap`, as `navbench run` computes it (PreparedMap::compute_optimum).
  double optimum_us = 0;
  {
    const auto t = Clock::now();
    auto vis = built(e, RepresentationSpec{"visgraph", "visgraph", ""});
    if (vis->rep) {
      std::lock_guard g(vis->m);
      in.optimal = exact_optimum(*vis->rep, *free, in.start, in.goal);
    }
    optimum_us = us_since(t);
  }

  // Every representation on its own thread: builds (first use) and queries run in parallel.
  auto one = [&](const RepresentationSpec& spec) -> json {
    auto b = built(e, spec);
    json out = json::array();
    if (!b->rep) {
      for (const auto& s : smoothings)
        out.push_back({{"representation", spec.text}, {"smoothing", s}, {"heuristic", h.text}, {"status", "not_applicable"},
                       {"message", spec.text + " does not support this map: " + b->unsupported}, {"path", json::array()}});
      return out;
    }
    std::vector<ResultRow> rows;
    {
      std::lock_guard g(b->m);
      rows = run_query(ctx, in, *b->rep, spec.text, h, smoothings, *free, true);
    }
    for (auto& r : rows) {
      if (!paths) r.path.clear();
      out.push_back(row_json(r, b->build));
    }
    return out;
  };
  std::vector<std::future<json>> futures;
  for (std::size_t i = 1; i < specs.size(); ++i) futures.push_back(std::async(std::launch::async, one, specs[i]));
  json results = json::array();
  std::exception_ptr failure;
  auto collect = [&](auto&& get) {
    try {
      for (auto& r : get()) results.push_back(std::move(r));
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  };
  collect([&] { return one(specs[0]); });
  for (auto& f : futures) collect([&] { return f.get(); });  // every thread is joined before rethrowing
  if (failure) std::rethrow_exception(failure);

  return {{"map", index_of(e)},
          {"version", e.version},
          {"start", {in.start.x, in.start.y}},
          {"goal", {in.goal.x, in.goal.y}},
          {"heuristic", h.text},
          {"smoothing", smoothings},
          {"optimal", opt(in.optimal)},
          {"optimum_us", optimum_us},
          {"server_us", us_since(t0)},
          {"results", results}};
}

// POST /api/cells {"map": ID, "cells": [[x, y], ...], "blocked": true | false}
json Viewer::edit_cells(const json& body) {
  only_fields(body, {"map", "cells", "blocked"});
  ViewerMapEntry& e = entry_of(body);
  const GridMap& g = editable_grid(e);
  if (!body.contains("blocked") || !body["blocked"].is_boolean()) throw HttpError(400, "'blocked' must be true or false");
  if (!body.contains("cells") || !body["cells"].is_array()) throw HttpError(400, "'cells' must be an array of [x, y] cells");
  const json& cells = body["cells"];
  if (cells.size() > kMaxCells) throw HttpError(413, "at most " + std::to_string(kMaxCells) + " cells per request");
  const std::uint8_t v = body["blocked"].get<bool>() ? 0 : 1;
  // Every cell is checked before any changes: a bad request leaves the map as it was.
  std::vector<CellChange> want;
  want.reserve(cells.size());
  for (const auto& c : cells) {
    if (!c.is_array() || c.size() != 2 || !c[0].is_number_integer() || !c[1].is_number_integer())
      throw HttpError(400, "each of 'cells' must be [x, y] (two integers)");
    const long long x = c[0].get<long long>(), y = c[1].get<long long>();
    if (x < 0 || y < 0 || x >= g.width || y >= g.height)
      throw HttpError(400, "cell (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the map (0.." +
                               std::to_string(g.width - 1) + ", 0.." + std::to_string(g.height - 1) + ")");
    want.push_back({int(x), int(y), v});
  }
  std::unique_lock map_lock(e.state);  // waits for the queries in flight; new ones wait for this edit
  return apply(e, want);
}

// POST /api/reset {"map": ID}: the cells as read from the file.
json Viewer::reset(const json& body) {
  only_fields(body, {"map"});
  ViewerMapEntry& e = entry_of(body);
  const GridMap& g = editable_grid(e);
  std::unique_lock map_lock(e.state);
  std::vector<CellChange> want;
  if (e.original)
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) want.push_back({x, y, (*e.original)[std::size_t(y) * std::size_t(g.width) + std::size_t(x)]});
  return apply(e, want);
}

json Viewer::apply(ViewerMapEntry& e, const std::vector<CellChange>& want) {
  GridMap& g = e.pm.map.grid;
  if (!e.original) e.original = g.cells;
  std::vector<CellChange> changed;
  for (const CellChange& c : want) {
    std::uint8_t& cell = g.cells[std::size_t(c.y) * std::size_t(g.width) + std::size_t(c.x)];
    if (cell != c.passable) {  // only real changes, each once (as apply_patch reports them)
      cell = c.passable;
      changed.push_back(c);
    }
  }
  json updates = json::array();
  double free_us = 0;
  if (!changed.empty()) {
    ++e.version;
    // The builds to bring up to date. Every cached build is finished: builds run under a shared
    // lock of e.state, which this edit holds exclusively.
    std::vector<std::pair<std::string, std::shared_ptr<BuiltRep>>> live;
    bool had_free = false;
    {
      std::lock_guard g2(e.m);
      had_free = e.free != nullptr;
      e.free.reset();
      for (auto it = e.reps.begin(); it != e.reps.end();) {
        std::shared_ptr<BuiltRep> b;
        try {
          b = it->second.built.get();
        } catch (...) {
        }
        if (!b || !b->rep) {  // failed or unsupported before: tried again on next use
          it = e.reps.erase(it);
          continue;
        }
        live.emplace_back(it->first, std::move(b));
        ++it;
      }
    }
    // The free space (validity, components) and, below, the visibility graph of the exact optimum
    // are rebuilt; a representation with an incremental update changes in place (SPEC §7).
    if (had_free) {
      const auto t0 = Clock::now();
      auto fresh = std::make_shared<const FreeSpace>(e.pm.map);
      free_us = us_since(t0);
      std::lock_guard g2(e.m);
      e.free = std::move(fresh);
    }
    for (auto& [text, b] : live) {
      std::lock_guard gb(b->m);
      auto t0 = Clock::now();
      // As harness/dynamic.cpp: update in place, or free the old build (untimed) and build afresh.
      // An update that may leave another structure than a fresh build's is not used here: every
      // answer equals `navbench run` on the edited map.
      const bool in_place = !b->rep->update_is_approximate() && b->rep->update(e.pm.map, changed);
      std::string error;
      double update_us = 0;
      if (!in_place) {
        update_us = us_since(t0);
        b->rep.reset();
        t0 = Clock::now();
        try {
          Params params = Params::parse(b->spec.params);
          b->rep = find_representation(b->spec.name)->build(e.pm.map, params);
        } catch (const std::exception& x) {
          error = x.what();
        }
      }
      update_us += us_since(t0);
      if (b->rep) b->rep->prepare();
      b->structure.reset();
      json u = {{"representation", text}, {"update_us", update_us}, {"in_place", in_place}};
      if (b->rep) {
        if (!in_place) b->build.build_ms = update_us / 1000.0;  // the row's build time: this build's
        const BuildStats st = b->rep->stats();
        b->build.vertices = st.vertices;
        b->build.edges = st.edges;
        b->build.memory_bytes = st.memory_bytes;
      } else {  // dropped from the cache: the next request builds it again (and reports why it cannot)
        u["error"] = error;
        std::lock_guard g2(e.m);
        if (auto it = e.reps.find(text); it != e.reps.end() && it->second.built.get() == b) e.reps.erase(it);
      }
      updates.push_back(std::move(u));
    }
  }
  return {{"map", index_of(e)}, {"version", e.version}, {"changed", changed.size()}, {"free_space_us", free_us}, {"updates", updates}};
}

// Runs `f` and turns every failure into a JSON error answer: never a crash, never a hang.
template <class F>
void guarded(httplib::Response& res, F&& f) {
  try {
    f();
  } catch (const HttpError& e) {
    res.status = e.status;
    res.set_content(error_body(e.what()), "application/json");
  } catch (const json::exception& e) {
    res.status = 400;
    res.set_content(error_body(std::string("bad JSON value: ") + e.what()), "application/json");
  } catch (const std::invalid_argument& e) {  // unknown representation, smoothing, heuristic, parameter
    res.status = 400;
    res.set_content(error_body(e.what()), "application/json");
  } catch (const InputError& e) {
    res.status = 400;
    res.set_content(error_body(e.what()), "application/json");
  } catch (const std::bad_alloc&) {
    res.status = 503;
    res.set_content(error_body("out of memory"), "application/json");
  } catch (const std::exception& e) {
    res.status = 500;
    res.set_content(error_body(std::string("internal error: ") + e.what()), "application/json");
  }
}

const char* reason(int status) {
  switch (status) {
    case 400: return "bad request";
    case 404: return "no such page";
    case 405: return "method not allowed";
    case 413: return "request body too large";
    case 414: return "request URI too long";
    default: return "request failed";
  }
}

// Bound to a loopback address, the server answers only requests whose Host header names this
// machine: a web page elsewhere cannot reach it through DNS rebinding (its Host is its own name).
bool host_allowed(const std::string& host_header) {
  std::string h = host_header;
  if (h.starts_with("[")) h = h.substr(0, h.find(']') + 1);  // [::1]:port
  else h = h.substr(0, h.find(':'));
  return h == "127.0.0.1" || h == "localhost" || h == "[::1]";
}

json parse_body(const httplib::Request& req) {
  try {
    return json::parse(req.body);
  } catch (const json::parse_error& e) {
    throw HttpError(400, std::string("malformed JSON: ") + e.what());
  }
}

void install_routes(httplib::Server& svr, Viewer& viewer, bool loopback) {
  if (loopback)
    svr.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
      if (host_allowed(req.get_header_value("Host"))) return httplib::Server::HandlerResponse::Unhandled;
      res.status = 403;
      res.set_content(error_body("Host '" + req.get_header_value("Host").substr(0, 100) +
                                 "' is not this machine (open http://127.0.0.1:PORT/)"),
                      "application/json");
      return httplib::Server::HandlerResponse::Handled;
    });
  for (std::size_t i = 0; i < web::kAssetCount; ++i) {
    const web::Asset& a = web::kAssets[i];
    const std::string path = std::string(a.path) == "/index.html" ? "/" : a.path;
    svr.Get(path, [a](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-cache");
      res.set_content(reinterpret_cast<const char*>(a.data), a.size, a.mime);
    });
  }
  svr.Get("/api/info", [&viewer](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] { res.set_content(viewer.info().dump(), "application/json"); });
  });
  svr.Get("/api/map", [&viewer](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      ViewerMapEntry& e = viewer.entry(req.get_param_value("map"));
      res.set_content(viewer.map_detail(e).dump(), "application/json");
    });
  });
  // GET /api/structure?map=ID&rep=SPEC: the representation's structure (`navbench structure`) as
  // little-endian float32 x1 y1 x2 y2 per segment.
  svr.Get("/api/structure", [&viewer](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      ViewerMapEntry& e = viewer.entry(req.get_param_value("map"));
      const std::string text = req.get_param_value("rep");
      if (text.empty() || text.size() > kMaxSpecChars) throw HttpError(400, "missing or too long 'rep'");
      const auto specs = parse_rep_option(text);
      if (specs.size() != 1) throw HttpError(400, "'rep' names one representation");
      std::size_t n = 0;
      std::uint64_t version = 0;
      std::string bytes = viewer.structure(e, specs[0], n, version);
      res.set_header("X-Segments", std::to_string(n));
      res.set_header("X-Map-Version", std::to_string(version));
      res.set_content(std::move(bytes), "application/octet-stream");
    });
  });
  svr.Post("/api/query", [&viewer](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] { res.set_content(viewer.query(parse_body(req)).dump(), "application/json"); });
  });
  // POST /api/cells {"map": ID, "cells": [[x, y], ...], "blocked": bool} and POST /api/reset {"map": ID}:
  // edit a grid map; every later query answers on the edited map.
  svr.Post("/api/cells", [&viewer](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] { res.set_content(viewer.edit_cells(parse_body(req)).dump(), "application/json"); });
  });
  svr.Post("/api/reset", [&viewer](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] { res.set_content(viewer.reset(parse_body(req)).dump(), "application/json"); });
  });
  // 4xx answers the library makes itself (413, 404, ...) get a JSON message too.
  svr.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    std::string msg = reason(res.status);
    if (res.status == 413) msg += " (at most " + std::to_string(kMaxBody) + " bytes)";
    if (res.status == 404) msg += ": " + req.path;
    res.set_content(error_body(msg), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  }));
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(error_body("internal error"), "application/json");
  });
}

}  // namespace

int serve_command(const std::vector<std::string>& args) {
  CLI::App app{"navbench serve: the live viewer. Pick a map, drag start and goal, and every selected\n"
               "representation answers through the pipeline of `navbench run`.",
               "navbench serve"};
  std::vector<std::string> maps;
  int port = 8080;
  std::string host = "127.0.0.1";
  std::size_t cache_maps = 4;
  app.add_option("--map", maps, "map files (.map, .wkt) or directories searched for them (default: the bundled datasets/maps)");
  app.add_option("--port", port, "TCP port; 0 picks a free one (printed at start)")->check(CLI::Range(0, 65535));
  app.add_option("--host", host, "address to listen on (default 127.0.0.1: this machine only)");
  app.add_option("--cache-maps", cache_maps, "maps that keep their built representations (least recently used dropped)")
      ->check(CLI::Range(1, 1000));
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  } catch (const CLI::Success&) {  // --help
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "navbench serve: " << e.what() << " (see navbench serve --help)\n";
    return 2;
  }

  std::unique_ptr<Viewer> viewer;
  try {
    if (maps.empty()) {
      const std::string bundled = std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps";
      if (!std::filesystem::is_directory(bundled)) throw std::invalid_argument("serve needs --map PATH...");
      maps.push_back(bundled);
    }
    viewer = std::make_unique<Viewer>(expand_map_paths(maps), cache_maps);
  } catch (const InputError& e) {
    std::cerr << "navbench serve: " << e.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "navbench serve: " << e.what() << '\n';
    return 2;
  }

  // SIGINT/SIGTERM stop the server from a thread of our own (sigwait), not from a signal handler;
  // blocked here so the server's threads inherit the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  httplib::Server svr;
  svr.set_payload_max_length(kMaxBody);
  svr.set_read_timeout(5);
  svr.set_write_timeout(10);
  svr.set_keep_alive_timeout(5);
  // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and the
  // client's delayed ACK add ~40 ms to every answer (measured: 46 ms round trip for 3.5 ms of work).
  svr.set_tcp_nodelay(true);
  // A worker stays with a keep-alive connection until it idles out, and every open tab keeps one
  // or more: 32 workers (the library's default is 8) so several tabs never queue behind each other.
  svr.new_task_queue = [] { return new httplib::ThreadPool(32); };
  install_routes(svr, *viewer, host == "127.0.0.1" || host == "localhost" || host == "::1");
  // Our own socket options instead of the library's: SO_REUSEADDR (a restart finds the port free
  // at once) but not its SO_REUSEPORT (with which a second server on a busy port would start and
  // share it silently); and we keep the listening socket to widen its backlog below.
  int listen_fd = -1;
  svr.set_socket_options([&listen_fd](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd = sock;
  });
  const int bound = port == 0 ? svr.bind_to_any_port(host) : (svr.bind_to_port(host, port) ? port : -1);
  if (bound < 0) {
    std::cerr << "navbench serve: cannot listen on " << host << ":" << port << " (in use, or not an address of this machine)\n";
    return 1;
  }
  // cpp-httplib 0.11 listens with a backlog of 5: a burst of connections (several tabs, a test's 24
  // clients) overflowed it and clients saw resets (ListenOverflows). listen() again resizes it.
  if (listen_fd >= 0) ::listen(listen_fd, SOMAXCONN);
  std::cout << "navbench serve: " << viewer->size() << " maps at http://" << host << ":" << bound << "/  (Ctrl-C stops)"
            << std::endl;

  std::thread stopper([&svr, stop_signals] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    svr.stop();
  });
  const bool ok = svr.listen_after_bind();
  pthread_kill(stopper.native_handle(), SIGTERM);  // wakes the stopper if the server ended otherwise
  stopper.join();
  return ok ? 0 : 1;
}

}  // namespace navbench
