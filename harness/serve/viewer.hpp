// The parts of `navbench serve` (docs/viewer.md), shared by the files of harness/serve/:
//   maps.cpp       the served maps and what is built on them: cached per map and agent radius, bounded, shared by tabs
//   builds.cpp     one representation: built as `navbench run` builds it (also for a radius), brought up to date after an edit
//   requests.cpp   the fields of a JSON request, each checked with a one-line message
//   api_maps.cpp   GET /api/info, /api/map, /api/structure
//   api_query.cpp  POST /api/query: the pipeline of `navbench run` on every representation asked for
//   api_edit.cpp   POST /api/cells, /api/reset: editing a grid map
//   api_terrain.cpp POST /api/terrain, /api/paint, GET /api/costs: weights on a grid map (docs/terrain.md)
//   http.cpp       the routes, the JSON error answers, the Host check
//   serve.cpp      the command: options, maps, the listening socket, the stop signals
// The page itself is web/ (embedded at build time: web_assets.hpp).
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "geometry/steiner_reference.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/run.hpp"
#include "base/timing.hpp"

namespace httplib {
class Server;
struct Request;
struct Response;
}

namespace navbench::viewer {

using json = nlohmann::json;

// Limits of one request: anything larger is refused with a 4xx, never processed.
constexpr std::size_t kMaxBody = 64 * 1024;       // bytes of a request body (413 beyond)
constexpr std::size_t kMaxReps = 16;              // representations in one query
constexpr std::size_t kMaxSpecChars = 200;        // characters of one representation spec
constexpr std::size_t kMaxRepsCachedPerMap = 24;  // built representations kept per map (LRU)
constexpr std::size_t kMaxCells = 4096;           // cells toggled by one POST /api/cells (413 beyond)
constexpr std::size_t kMaxRadiiCachedPerMap = 2;  // agent radii whose builds are kept per map (LRU)
// POST /api/terrain carries a whole cost layer (a 1024 x 768 map's is a few MB): its body may be
// this large; every other request stays within kMaxBody (413 beyond, checked per route).
constexpr std::size_t kMaxCostsBody = 16 * 1024 * 1024;
// How long a query waits for the builds at an agent radius (docs/viewer.md#agents-with-a-radius)
// before it answers "still building"; the builds go on in the background and are cached.
// NAVBENCH_SERVE_WAIT_MS overrides it (the tests).
constexpr long kBuildWaitMs = 5000;

// An answer other than 200: the status and a one-line message for {"error": ...}.
struct HttpError : std::runtime_error {
  int status;
  HttpError(int s, const std::string& m) : std::runtime_error(m), status(s) {}
};

// ---------- builds.cpp: one built representation of one map ----------

struct BuiltRep {
  std::mutex m;  // query-time state (the A* workspace) is not thread-safe; also guards `structure`
  std::unique_ptr<Planner> rep;  // null when the representation does not support the map
  std::string unsupported;                 // UnsupportedMap's message then
  BuildRow build;
  std::optional<std::string> structure;    // float32 x1 y1 x2 y2 ... (little-endian), on first request
  RepresentationSpec spec;                 // what was built: an edit of the map rebuilds it from this
};

// Builds `spec` on m by the timed build of `navbench run` (harness/run/timed_build.hpp), with its
// build row. A map the representation does not support gives a BuiltRep without `rep` (and the
// reason); other failures throw.
std::shared_ptr<BuiltRep> build_rep(const Map& m, const RepresentationSpec& spec);

// How one build followed an edit of its map.
struct UpdateOutcome {
  bool in_place = false;  // updated itself; otherwise built afresh
  double update_us = 0;   // the update, or the failed update and the fresh build
  std::string error;      // why the fresh build failed (then b.rep is null)
};
// Brings b up to date with m after `changed`, as `navbench run --dynamic` does. Caller holds b.m.
// `weights_changed`: the map's weights changed too (docs/terrain.md); only representations with the
// capability weights_in_place take that in place (grid4 and grid8), every other build is made afresh.
UpdateOutcome update_rep(BuiltRep& b, const Map& m, const std::vector<CellChange>& changed, bool weights_changed = false);

// The structure of a representation (`navbench structure`) as little-endian float32 x1 y1 x2 y2.
std::string structure_bytes(const Planner& rep);

// A disc agent's build of `spec` in its space, by the same timed build (the tangent graph, or the
// map shrunk by R); UnsupportedMap gives a BuiltRep without `rep`. Never updated after an edit:
// dropped with its RadiusBuilds.
std::shared_ptr<BuiltRep> build_disc_rep(const AgentSpace& space, const RepresentationSpec& spec);

// ---------- maps.cpp: the served maps and their caches ----------

using BuiltFuture = std::shared_future<std::shared_ptr<BuiltRep>>;

// A build in the cache: finished, failed or in progress, and when it was last asked for (LRU).
template <class T>
struct Slot {
  std::shared_future<std::shared_ptr<T>> built;
  std::uint64_t used = 0;
  base::Clock::time_point started;
  std::uint64_t id = 0;  // which build: a failed one removes its own slot only
};

// What one agent radius R > 1e-9 needs on one map state: a copy of the map, the disc's AgentSpace
// (free space, exact validity test, the maps shrunk by R) and its oracles (the tangent graph: the
// optimum), the same types `navbench run --radius R` makes per (map, R); and the builds at R of
// the representations that depend on R (shrunk-map and tangent-graph ones).
struct RadiusBuilds {
  double R = 0;
  std::uint64_t version = 0;  // of the map it was made from (an edit drops it)
  Map map;                    // never moves: the space keeps a reference to it
  std::unique_ptr<AgentSpace> space;
  std::unique_ptr<Oracles> oracles;  // made with the tangent graph built: queries only read it
  double build_ms = 0;        // free space, clearance, erosion and tangent graph
  std::mutex m;               // guards the fields below
  std::map<std::string, Slot<BuiltRep>> reps;  // by representation spec as given
  std::uint64_t tick = 0;
};

// Threads for builds that may outlast the request that started them (a radius's builds answer
// "still building" after kBuildWaitMs and finish in the background). Joined on destruction.
class BackgroundBuilds {
 public:
  ~BackgroundBuilds();
  void start(std::function<void()> work);

 private:
  struct Worker {
    std::thread t;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::mutex m_;
  std::vector<Worker> workers_;
};

// A weighted map's Euclidean optimum graph: built on a copy of the map without its weights.
struct PlainOptimum {
  std::uint64_t version = 0;  // the map's version it was made on (kept while the cells stay the same)
  Map map;  // the copy (the build keeps a pointer to it)
  std::unique_ptr<Planner> rep;
  std::mutex m;  // one search at a time
};

// A weighted map's reference optimum (docs/terrain.md): the Steiner-point reference over a copy of
// the grid as it was when made (cells and weights), asked through the oracle service (reference_cost).
struct CostReference {
  std::uint64_t version = 0;  // the map's version it was made on
  GridMap grid;  // the copy (the reference keeps a reference to it)
  std::unique_ptr<SteinerReference> ref;
};

struct MapEntry {
  PreparedMap pm;  // never moves (entries live behind unique_ptr): FreeSpace keeps a reference to pm.map
  // Shared by everything that reads pm.map or what is built on it (queries, structures, drawing);
  // exclusive for an edit of the cells. Taken before `m` and before any BuiltRep::m.
  std::shared_mutex state;
  std::uint64_t version = 0;                          // edits so far (guarded by `state`)
  std::optional<std::vector<std::uint8_t>> original;  // the cells as read, kept at the first edit (for reset)
  // The map's weights (docs/terrain.md) are pm.map.grid.weights and pm.map.terrain (where they came
  // from: the column `terrain`); a map is served unweighted until POST /api/terrain or /api/paint.
  std::mutex m;  // guards the fields below
  std::shared_ptr<const AgentSpace> space;  // the point agent's (free space, validity); made again when the cells change
  std::map<std::string, Slot<BuiltRep>> reps;  // by representation spec as given (name, or name:k=v,...)
  std::map<double, Slot<RadiusBuilds>> radii;  // agent radii R > 1e-9 (dropped by an edit)
  std::shared_ptr<PlainOptimum> plain_optimum;  // weighted maps: `optimal`'s graph (made again when the cells change)
  std::shared_ptr<CostReference> cost_reference;  // weighted maps: `optimal_cost` (made again when cells or weights change)
  std::uint64_t tick = 0;            // per-map clock for the LRU of `reps` and `radii`
  std::uint64_t used = 0;            // global clock for the LRU of maps (MapCache::m_)
};

// The maps given at start, each with its free space and built representations, made on first
// use. Builds are kept for the `cache_maps` most recently used maps only.
class MapCache {
 public:
  // Reads and checks every map file (InputError: the command exits with 2).
  MapCache(const std::vector<std::string>& files, std::size_t cache_maps);

  std::size_t size() const { return maps_.size(); }
  const MapEntry& at(std::size_t i) const { return *maps_[i]; }
  // The map of a request's id (its decimal text); HttpError 404 for any other text.
  MapEntry& find(const std::string& id_text);
  std::size_t index_of(const MapEntry& e) const;

  // The point agent's space of e's current map, made on first use.
  std::shared_ptr<const AgentSpace> point_space(MapEntry& e);
  // The built representation, building it on first use. Concurrent requests for the same
  // unbuilt one wait for a single build. A failed build is not cached (the next request retries).
  std::shared_ptr<BuiltRep> built(MapEntry& e, const RepresentationSpec& spec);

  // When a request that began at t0 stops waiting for builds at a radius.
  base::Clock::time_point deadline(base::Clock::time_point t0) const { return t0 + wait_; }
  // The builds at radius R > 1e-9 on e's current map (caller holds e.state shared), made in the
  // background on first use. HttpError 503 (one line) when they are not ready by `deadline` (they go
  // on and are cached) or when kMaxRadiiCachedPerMap other radii are all still building.
  std::shared_ptr<RadiusBuilds> radius_builds(MapEntry& e, double R, base::Clock::time_point deadline);
  // spec built at rb's radius (build_disc_rep), in the background on first use; nullptr when not
  // ready by `deadline` (the build goes on). `since`: when that build began.
  std::shared_ptr<BuiltRep> built_at(const std::shared_ptr<RadiusBuilds>& rb, const RepresentationSpec& spec,
                                     base::Clock::time_point deadline, base::Clock::time_point* since = nullptr);

 private:
  // Marks e as used; when more than cache_maps_ maps hold builds, the least recently used one
  // drops its free space and representations (a many-map server stays bounded in memory).
  void touch(MapEntry& e);

  std::vector<std::unique_ptr<MapEntry>> maps_;
  std::size_t cache_maps_;
  std::mutex m_;  // guards clock_ and the choice of a map to evict
  std::uint64_t clock_ = 0;
  std::chrono::milliseconds wait_{kBuildWaitMs};
  std::atomic<std::uint64_t> next_id_{0};
  BackgroundBuilds background_;  // last: joined before anything else goes
};

// ---------- requests.cpp: reading a request ----------

// Rejects fields other than `known` (listed in the message).
void only_fields(const json& body, const std::vector<std::string>& known);
// The map named by a request's "map" field (an id from /api/info, as a number or a string).
MapEntry& map_of(MapCache& maps, const json& body);
// A point of the request: [x, y], two finite numbers inside the map's bounding box.
Point read_point(const json& body, const char* key, const Map& m);
// The grid of an editable map; a polygon map has no cells to toggle.
const GridMap& editable_grid(const MapEntry& e);

// "radius": the agent (docs/radius.md), a radius from 0 to the map's larger side; the point agent
// without the column `radius` when the request has none.
Agent read_radius(const json& body, const Map& m);

// What POST /api/query asks, every field checked (in this order: reps, smoothing, heuristic, search, paths,
// radius, start, goal), with the defaults of a field left out.
struct QueryRequest {
  std::vector<RepresentationSpec> specs;
  std::vector<std::string> smoothings{"none"};
  SearchMode search = SearchMode::astar;  // docs/path-quality.md
  Heuristic heuristic;
  bool paths = true;
  bool trace = false;  // docs/traces.md#in-navbenchs-viewer: each answer's search, step by step
  Agent agent;  // "radius" (docs/radius.md); without it the point agent, rows without `radius`
  Point start, goal;
};
QueryRequest read_query(const json& body, const Map& m);

// Planners from outside (docs/outside-planners.md#8-in-the-viewer): only those named on `navbench
// serve`'s command line (--rep gppc:path=...,track=...,name=N), set once before the server starts;
// a request names one by its rows' name, gppc:N. A request never names a program itself: the
// server would run it.
void set_outside_planners(std::vector<RepresentationSpec> specs);
const std::vector<RepresentationSpec>& outside_planners();
// One spec of a request, as `--rep` takes it; a planner from outside only by the name of one set
// above (HttpError 400 otherwise, before anything is parsed or run).
std::vector<RepresentationSpec> request_reps(const std::string& text);

// ---------- api_*.cpp: the answers ----------

json api_info(const MapCache& maps);
json api_map(MapCache& maps, MapEntry& e);
struct Structure {
  std::string bytes;  // float32 x1 y1 x2 y2 per segment
  std::size_t segments = 0;
  std::uint64_t version = 0;  // of the map it was drawn from
};
Structure api_structure(MapCache& maps, MapEntry& e, const std::string& rep_text, const std::string& radius_text = "");
json api_query(MapCache& maps, const json& body);
json api_cells(MapCache& maps, const json& body);
json api_reset(MapCache& maps, const json& body);
json api_terrain(MapCache& maps, const json& body);
json api_paint(MapCache& maps, const json& body);
std::string api_costs(MapEntry& e);  // the map's weights as a cost layer file (datasets/terrain.hpp)

// api_edit.cpp: sets the cells of `want` that differ and, with `weights`, the map's weights and
// their `terrain` text (empty weights: unweighted), then brings everything built on the map up to
// date (grid4/grid8 in place, other builds that take weights afresh; builds without the capability
// weights only follow changed cells). Caller holds e.state exclusively. Answers as /api/cells.
struct NewWeights {
  std::vector<double> weights;
  std::string terrain;
};
json apply_edit(MapCache& maps, MapEntry& e, const std::vector<CellChange>& want, const NewWeights* weights = nullptr);
// A request's "cells": [[x, y], ...], each checked against g (HttpError 400/413 with one line).
std::vector<std::pair<int, int>> request_cells(const json& body, const GridMap& g);

// ---------- http.cpp ----------

// The page, the JSON API and the error answers. `loopback`: answer only requests whose Host
// header names this machine.
void install_routes(httplib::Server& svr, MapCache& maps, bool loopback);

// One route of the JSON API: install_routes gives the server each, and the fuzz target
// (tests/fuzz/fuzz_serve.cpp) calls the same handlers with the requests it makes up.
struct ApiRoute {
  const char* method;  // GET or POST
  const char* path;
  void (*handle)(MapCache& maps, const httplib::Request& req, httplib::Response& res);
};
const std::vector<ApiRoute>& api_routes();
// The checks before any route: the Host header (on loopback) and a Content-Length over the route's
// limit. True when it answered (403 or 413) in `res`.
bool refused_before_routing(const httplib::Request& req, httplib::Response& res, bool loopback);

}  // namespace navbench::viewer
