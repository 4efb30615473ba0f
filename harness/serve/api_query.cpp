// POST /api/query {"map": ID, "reps": [SPEC...], "start": [x, y], "goal": [x, y],
//                  "smoothing": "los" | [...], "heuristic": "euclidean*1.5", "paths": true, "radius": 0.5}
// Every query goes through the pipeline of `navbench run` (run_query) and the one oracle service
// (harness/run/oracles.hpp), so each
// answer's row equals `navbench run --convention corner` on the same points (docs/viewer.md#the-api);
// with "radius", `navbench run --radius R --convention corner` (docs/viewer.md#agents-with-a-radius).
#include <algorithm>
#include <cmath>
#include <exception>
#include <future>
#include <limits>
#include <sstream>

#include "base/text.hpp"
#include "geometry/path_cost.hpp"
#include "harness/serve/viewer.hpp"
#include "search/workspace.hpp"

namespace navbench::viewer {

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// The path's points, and for a path with arcs (docs/radius.md) each arc as [k, cx, cy]: from
// path[k] to path[k + 1] along the circle centred at (cx, cy), the shorter way round.
void path_json(const ResultRow& r, json& path, json& arcs) {
  path = json::array();
  arcs = json::array();
  for (const auto& p : r.path) path.push_back({p.x, p.y});
  for (const PathItem& it : r.items) {
    if (it.arc_centre) arcs.push_back({path.size() - 1, it.p.x, it.p.y});
    else path.push_back({it.p.x, it.p.y});
  }
}

// A row as the page reads it: every column of the results rows (the column table of
// harness/results/results.cpp, by name), the build's, the path and the CSV row itself.
json row_json(const ResultRow& r, const BuildRow& b, bool weighted) {
  json j = result_row_json(r);
  const json build = build_row_json(b);
  for (const char* k : {"build_ms", "vertices", "edges", "memory_bytes"}) j[k] = build[k];
  if (!weighted) j["terrain"] = nullptr;  // docs/terrain.md#columns
  path_json(r, j["path"], j["arcs"]);
  // the CSV row as `navbench run` writes it (docs/results.md#result-rows; on a weighted map with
  // the group terrain, as `navbench run --terrain/--costs` does)
  j["row"] = format_row(r, {.radius = r.radius.has_value(), .terrain = weighted});
  return j;
}

// One query on one map state: what every representation's answer needs.
struct QueryJob {
  MapCache& maps;
  MapEntry& e;
  const QueryRequest& q;
  const MapContext& ctx;
  const QueryInput& in;
  const AgentSpace& space;                 // the agent's: the point's, or at R > 1e-9 rb's
  const CostModel& cost;
  std::shared_ptr<RadiusBuilds> rb;        // R > 1e-9: the builds at R
  base::Clock::time_point deadline;              // when builds at R answer "still building"
  bool weighted = false;                   // docs/terrain.md: the map has weights (rows with the group terrain)
};

// An oracle's answer over a registry entry's build as the user would name it (so the build is
// shared with their queries), asked under the build's lock; nullopt without the entry or its build.
template <class Ask>
std::optional<double> ask_built(MapCache& maps, MapEntry& e, const RepresentationEntry* entry, Ask ask) {
  if (!entry) return std::nullopt;
  RepresentationSpec spec;
  spec.text = entry->name;
  spec.entry = entry;
  auto b = maps.built(e, spec);
  if (!b->rep) return std::nullopt;
  std::lock_guard lock(b->m);
  return ask(*b->rep);
}

// `optimal` and `gap` from the oracle service's exact_optimum, over the registry's reference
// representation built as the user would name it, so its build is shared with their queries.
std::optional<double> exact_optimum_of(MapCache& maps, MapEntry& e, const FreeSpace& free, Point s, Point g) {
  if (e.pm.map.weighted()) {
    // docs/terrain.md: on a weighted map `optimal` stays Euclidean: the exact graph of the same free
    // space without the weights (build_optimum_graph of the copy), made again when the cells change.
    // Built outside e.m (the caller holds e.state shared: the map does not change meanwhile), so
    // other requests on the map do not wait for it; two first queries may both build it.
    std::shared_ptr<PlainOptimum> po;
    {
      std::lock_guard lock(e.m);
      po = e.plain_optimum;
    }
    if (!po || (po->version != e.version && po->map.grid.cells != e.pm.map.grid.cells)) {
      auto p = std::make_shared<PlainOptimum>();
      p->version = e.version;
      p->map = without_weights(e.pm.map);
      p->rep = build_optimum_graph(p->map);
      std::lock_guard lock(e.m);
      e.plain_optimum = po = p;
    }
    if (!po->rep) return std::nullopt;
    std::lock_guard lock(po->m);
    return exact_optimum(*po->rep, free, s, g);
  }
  return ask_built(maps, e, reference_representation(), [&](const Planner& vis) { return exact_optimum(vis, free, s, g); });
}

// docs/terrain.md: octile_optimal_cost from the oracle service, over the registry's grid8-optimal
// entry that takes weights; its build is shared with the user's.
std::optional<double> octile_cost_of(MapCache& maps, MapEntry& e, const FreeSpace& free, const CostModel& cost, Point s, Point g) {
  if (!free.point_free(s) || !free.point_free(g)) return std::nullopt;
  return ask_built(maps, e, octile_entry(), [&](const Planner& grid8) { return octile_cost(grid8, free, cost, s, g); });
}

// docs/terrain.md: optimal_cost from the oracle service's reference_cost, over a reference made once
// per state of the map's cells and weights (the reference is const and thread-safe).
std::optional<double> reference_cost_of(MapEntry& e, const FreeSpace& free, Point s, Point g, std::optional<double> octile) {
  if (!free.point_free(s) || !free.point_free(g)) return std::nullopt;
  // Built outside e.m, as the plain optimum above; every edit, paint and load bumps e.version.
  std::shared_ptr<CostReference> cr;
  {
    std::lock_guard lock(e.m);
    cr = e.cost_reference;
  }
  if (!cr || cr->version != e.version) {
    auto c = std::make_shared<CostReference>();
    c->version = e.version;
    c->grid = e.pm.map.grid;
    c->ref = std::make_unique<SteinerReference>(c->grid);
    std::lock_guard lock(e.m);
    e.cost_reference = cr = c;
  }
  return reference_cost(*cr->ref, free, s, g, octile);
}

// The answers of one representation: a row per smoothing (not_applicable rows when it does not
// support the map or the radius). Builds it on first use by the timed build (at R > 0 in the disc's
// space), where only a representation on the map itself (erode=none) shares the point agent's build.
json answer_one(const QueryJob& job, const RepresentationSpec& spec) {
  json out = json::array();
  auto rows_without_path = [&](const char* status, const std::string& message, bool building = false) {
    for (const auto& s : job.q.smoothings) {
      json r = {{"representation", spec.text}, {"smoothing", s}, {"search", to_string(job.q.search)}, {"heuristic", job.q.heuristic.text},
                {"status", status}, {"message", message}, {"radius", opt(job.q.agent.column())},
                {"path", json::array()}, {"arcs", json::array()}};
      if (building) r["building"] = true;
      out.push_back(std::move(r));
    }
    return out;
  };
  std::shared_ptr<BuiltRep> b;
  if (job.rb && !(spec.caps().radius == RadiusSupport::shrunk_map && spec.erosion() == Erosion::none)) {
    // As the timed build says: the tangent graph takes no parameters.
    if (spec.caps().radius == RadiusSupport::tangent_graph && (!spec.params.empty() || spec.erode))
      return rows_without_path("not_applicable", spec.name() + " at R > 0 (the tangent graph) takes no parameters, got '" + spec.text + "'");
    base::Clock::time_point since;
    b = job.maps.built_at(job.rb, spec, job.deadline, &since);
    if (!b)
      return rows_without_path("error", "still building " + spec.text + " for radius " + base::number(job.rb->R) + " (" +
                                            base::number(std::round(base::us_since(since) / 1e5) / 10) + " s so far); ask again", true);
  } else {
    b = job.maps.built(job.e, spec);
  }
  if (!b->rep)
    return rows_without_path("not_applicable", spec.text + " does not support this map" + (job.rb ? " at radius " + base::number(job.rb->R) : "") +
                                                   ": " + b->unsupported);
  std::vector<ResultRow> rows;
  std::optional<TraceRecorder> trace;  // "trace": true (docs/traces.md#in-navbenchs-viewer)
  {
    std::lock_guard lock(b->m);
    if (job.q.trace) trace.emplace(*b->rep, job.in.start, job.in.goal);
    rows = run_query({.map = job.ctx, .space = job.space, .cost = job.cost, .rep_text = spec.text, .heuristic = job.q.heuristic,
                      .smoothings = job.q.smoothings, .rep = b->rep.get(), .search = job.q.search, .caps = spec.caps(),
                      .keep_paths = true, .trace = trace ? &*trace : nullptr},
                     job.in);
  }
  for (auto& r : rows) {
    // The column `radius` is the request's agent's: at R <= 1e-9 it shares the map's point space.
    r.radius = job.q.agent.column();
    if (!job.q.paths) {
      r.path.clear();
      r.items.clear();
    }
    out.push_back(row_json(r, b->build, job.weighted));
  }
  if (trace && !out.empty()) out[0]["trace"] = trace->to_json();  // once per representation: its first row
  return out;
}

// Every representation on its own thread: builds (first use) and queries run in parallel. The
// rows keep the order of the request; every thread is joined before a failure is rethrown.
json answer_all(const QueryJob& job) {
  const auto& specs = job.q.specs;
  std::vector<std::future<json>> futures;
  for (std::size_t i = 1; i < specs.size(); ++i)
    futures.push_back(std::async(std::launch::async, [&job, &spec = specs[i]] { return answer_one(job, spec); }));
  json results = json::array();
  std::exception_ptr failure;
  auto collect = [&](auto&& get) {
    try {
      for (auto& r : get()) results.push_back(std::move(r));
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  };
  collect([&] { return answer_one(job, specs[0]); });
  for (auto& f : futures) collect([&] { return f.get(); });
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace

json api_query(MapCache& maps, const json& body) {
  const auto t0 = base::Clock::now();
  only_fields(body, {"map", "reps", "start", "goal", "smoothing", "search", "heuristic", "paths", "radius", "trace"});
  MapEntry& e = map_of(maps, body);
  std::shared_lock map_lock(e.state);  // the map stays as it is until this answer is complete
  const Map& m = e.pm.map;
  const QueryRequest q = read_query(body, m);
  const bool weighted = m.weighted();
  QueryInput in;
  in.start = q.start;
  in.goal = q.goal;
  // The row's scenario columns: the points themselves, i.e. the `corner` convention
  // (docs/maps.md#query-points-center-and-corner), so `navbench run --convention corner` with a
  // scenario holding these numbers runs this query.
  in.sx = in.start.x, in.sy = in.start.y, in.gx = in.goal.x, in.gy = in.goal.y;
  if (weighted) {
    // docs/terrain.md: weighted runs use the `center` convention (weights belong to cells), and no
    // radius: a point is the centre of the cell holding it (the right or lower one on a border), the
    // scenario's numbers are that cell, as `navbench run --terrain T` with a scenario of those cells.
    if (q.agent.disc())
      throw HttpError(400, "'radius' > 0 on a weighted map: agents with a radius on terrain costs are not covered (docs/terrain.md)");
    auto cell = [&](double v, int n) { return double(std::clamp(int(std::floor(v)), 0, n - 1)); };
    in.sx = cell(q.start.x, m.grid.width), in.sy = cell(q.start.y, m.grid.height);
    in.gx = cell(q.goal.x, m.grid.width), in.gy = cell(q.goal.y, m.grid.height);
    in.start = {in.sx + 0.5, in.sy + 0.5};
    in.goal = {in.gx + 0.5, in.gy + 0.5};
  }
  const MapContext ctx = map_context(m, weighted ? "center" : "corner");
  const CostModel cost(m);  // terrain and least weight of a weighted map

  // An agent with a radius (docs/radius.md): R <= 1e-9 is the point agent (its rows only gain the
  // column `radius`); beyond, the builds at R (503 while they take longer than the wait).
  const auto deadline = maps.deadline(t0);
  std::shared_ptr<RadiusBuilds> rb;
  if (q.agent.disc()) rb = maps.radius_builds(e, q.agent.R(), deadline);
  auto point = maps.point_space(e);
  const AgentSpace& space = rb ? *rb->space : *point;  // the same cells; the validity test of R is rb's
  const FreeSpace& free = point->free();
  const auto t_opt = base::Clock::now();
  in.optimal = rb ? rb->oracles->optimum(in.start, in.goal) : exact_optimum_of(maps, e, free, in.start, in.goal);
  if (weighted) {
    in.octile_optimal_cost = octile_cost_of(maps, e, free, cost, in.start, in.goal);
    in.optimal_cost = reference_cost_of(e, free, in.start, in.goal, in.octile_optimal_cost);
  }
  const double optimum_us = base::us_since(t_opt);

  const json results = answer_all(QueryJob{maps, e, q, ctx, in, space, cost, rb, deadline, weighted});
  json out = {{"map", maps.index_of(e)},
              {"version", e.version},
              {"start", {in.start.x, in.start.y}},
              {"goal", {in.goal.x, in.goal.y}},
              {"heuristic", q.heuristic.text},
              {"smoothing", q.smoothings},
              {"optimal", opt(in.optimal)},
              {"optimum_us", optimum_us},
              {"server_us", base::us_since(t0)},
              {"radius", opt(q.agent.column())},
              {"terrain", weighted ? json(m.terrain) : json(nullptr)},
              {"octile_optimal_cost", opt(in.octile_optimal_cost)},
              {"optimal_cost", opt(in.optimal_cost)},
              {"results", results}};
  if (rb) {  // what R > 0 shares, built once per (map, R) (docs/radius.md)
    out["radius_build_ms"] = rb->build_ms;
    const TangentGraph& t = *rb->oracles->tangent();
    out["tangent"] = {{"circles", t.circle_count()}, {"vertices", t.vertex_count()}, {"edges", t.edge_count()},
                      {"build_ms", rb->oracles->tangent_build_ms()}};
  }
  return out;
}

}  // namespace navbench::viewer
