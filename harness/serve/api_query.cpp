// POST /api/query {"map": ID, "reps": [SPEC...], "start": [x, y], "goal": [x, y],
//                  "smoothing": "los" | [...], "heuristic": "euclidean*1.5", "paths": true}
// Every query goes through the pipeline of `navbench run` (run_query, exact_optimum), so each
// answer's row equals `navbench run --convention corner` on the same points (docs/viewer.md#the-api).
#include <exception>
#include <future>

#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json opt(const std::optional<bool>& v) { return v ? json(*v) : json(nullptr); }

json row_json(const ResultRow& r, const BuildRow& b) {
  json path = json::array();
  for (const auto& p : r.path) path.push_back({p.x, p.y});
  return {{"representation", r.representation},
          {"smoothing", r.smoothing},
          {"search", r.search},
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
          {"los_checks", r.los_checks},
          {"clearance", opt(r.clearance)},
          {"turn", opt(r.turn)},
          {"locate_us", r.locate_us},
          {"search_us", r.search_us},
          {"smooth_us", r.smooth_us},
          {"build_ms", b.build_ms},
          {"vertices", b.vertices},
          {"edges", b.edges},
          {"memory_bytes", b.memory_bytes},
          {"path", path},
          {"row", format_row(r)}};  // the CSV row as `navbench run` writes it (docs/results.md#result-rows)
}

// One query on one map state: what every representation's answer needs.
struct QueryJob {
  MapCache& maps;
  MapEntry& e;
  const QueryRequest& q;
  const MapContext& ctx;
  const QueryInput& in;
  const FreeSpace& free;
};

// The exact optimum for `optimal` and `gap`, as `navbench run` computes it (PreparedMap's
// optimum): the registry's reference representation, built as the user would name it, so its
// build is shared with their queries.
std::optional<double> exact_optimum_of(MapCache& maps, MapEntry& e, const FreeSpace& free, Point s, Point g) {
  const RepresentationEntry* ref = reference_representation();
  if (!ref) return std::nullopt;
  RepresentationSpec spec;
  spec.text = ref->name;
  spec.entry = ref;
  auto vis = maps.built(e, spec);
  if (!vis->rep) return std::nullopt;
  std::lock_guard lock(vis->m);
  return exact_optimum(*vis->rep, free, s, g);
}

// The answers of one representation: a row per smoothing (not_applicable rows when it does not
// support the map). Builds it on first use.
json answer_one(const QueryJob& job, const RepresentationSpec& spec) {
  auto b = job.maps.built(job.e, spec);
  json out = json::array();
  if (!b->rep) {
    for (const auto& s : job.q.smoothings)
      out.push_back({{"representation", spec.text}, {"smoothing", s}, {"search", to_string(job.q.search)}, {"heuristic", job.q.heuristic.text}, {"status", "not_applicable"},
                     {"message", spec.text + " does not support this map: " + b->unsupported}, {"path", json::array()}});
    return out;
  }
  std::vector<ResultRow> rows;
  {
    std::lock_guard lock(b->m);
    rows = run_query(job.ctx, job.in, *b->rep, spec.text, job.q.heuristic, job.q.smoothings, job.free, true, nullptr,
                     nullptr, job.q.search, spec.caps());
  }
  for (auto& r : rows) {
    if (!job.q.paths) r.path.clear();
    out.push_back(row_json(r, b->build));
  }
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
  const auto t0 = Clock::now();
  only_fields(body, {"map", "reps", "start", "goal", "smoothing", "search", "heuristic", "paths"});
  MapEntry& e = map_of(maps, body);
  std::shared_lock map_lock(e.state);  // the map stays as it is until this answer is complete
  const Map& m = e.pm.map;
  const QueryRequest q = read_query(body, m);
  QueryInput in;
  in.start = q.start;
  in.goal = q.goal;
  // The row's scenario columns: the points themselves, i.e. the `corner` convention
  // (docs/maps.md#query-points-center-and-corner), so `navbench run --convention corner` with a
  // scenario holding these numbers runs this query.
  in.sx = in.start.x, in.sy = in.start.y, in.gx = in.goal.x, in.gy = in.goal.y;
  const MapContext ctx{m.name, m.collection, "corner"};

  auto free = maps.free_space(e);
  const auto t_opt = Clock::now();
  in.optimal = exact_optimum_of(maps, e, *free, in.start, in.goal);
  const double optimum_us = us_since(t_opt);

  const json results = answer_all(QueryJob{maps, e, q, ctx, in, *free});
  return {{"map", maps.index_of(e)},
          {"version", e.version},
          {"start", {in.start.x, in.start.y}},
          {"goal", {in.goal.x, in.goal.y}},
          {"heuristic", q.heuristic.text},
          {"smoothing", q.smoothings},
          {"optimal", opt(in.optimal)},
          {"optimum_us", optimum_us},
          {"server_us", us_since(t0)},
          {"results", results}};
}

}  // namespace navbench::viewer
