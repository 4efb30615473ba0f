#include "harness/pipeline.hpp"

#include <chrono>
#include <cmath>
#include <utility>

#include "smoothing/smoothing.hpp"

namespace navbench {
namespace {

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

}  // namespace

std::vector<ResultRow> run_query(const MapContext& ctx, const QueryInput& in, AnyRepresentation& rep,
                                 const std::string& rep_text,
                                 const Heuristic& h, const std::vector<std::string>& smoothings,
                                 const FreeSpace& fs, bool keep_paths, SearchWorkspace* ws) {
  ResultRow row;
  row.map = ctx.map;
  row.collection = ctx.collection;
  row.convention = ctx.convention;
  row.scen_index = in.scen_index;
  row.bucket = in.bucket;
  row.sx = in.sx, row.sy = in.sy, row.gx = in.gx, row.gy = in.gy;
  row.octile_optimal = in.octile_optimal;
  row.representation = rep_text;
  row.heuristic = h.text;
  row.optimal = in.optimal;
  auto rows_for_all = [&](Status st, const std::string& msg) {
    std::vector<ResultRow> out;
    for (const auto& s : smoothings) {
      ResultRow r = row;
      r.smoothing = s;
      r.status = st;
      r.message = msg;
      out.push_back(std::move(r));
    }
    return out;
  };

  // 1. locate: inputs are checked once, here (SPEC §3: invalid_query when a point is not free).
  Query q;
  q.start = in.start;
  q.goal = in.goal;
  auto t = Clock::now();
  const bool free = fs.point_free(q.start) && fs.point_free(q.goal);
  const bool located = free && rep.locate(q);
  row.locate_us = us_since(t);
  if (!free) return rows_for_all(Status::invalid_query, fs.point_free(q.start) ? "goal not free" : "start not free");
  if (!located) return rows_for_all(Status::error, "free point not covered by the representation");
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component)
    return rows_for_all(Status::no_path, "");  // different free-space components: no search needed

  // 2. search: the shared A*, then the representation's polyline and corridor.
  SearchStats stats;
  t = Clock::now();
  const double cost = ws ? std::as_const(rep).search(q, h, stats, *ws) : rep.search(q, h, stats);
  const bool found = std::isfinite(cost);
  Polyline raw;
  std::optional<Corridor> corridor;
  if (found) {
    raw = rep.polyline(q);
    corridor = rep.corridor(q);
  }
  row.search_us = us_since(t);
  row.expansions = stats.expansions;
  row.generated = stats.generated;
  if (!found) return rows_for_all(Status::no_path, "");
  row.raw_length = polyline_length(raw);
  row.raw_valid = fs.path_valid(raw);

  // 3. smooth, 4. validate, 5. one row per smoothing mode.
  std::vector<ResultRow> out;
  for (const auto& mode : smoothings) {
    ResultRow r = row;
    r.smoothing = mode;
    t = Clock::now();
    SmoothingResult sm = smooth(mode, raw, corridor, [&fs](Point a, Point b) { return fs.segment_valid(a, b); });
    r.smooth_us = us_since(t);
    if (sm.status == SmoothingStatus::not_applicable) {  // SPEC §3: by construction, not a failure
      r.status = Status::not_applicable;
      r.message = mode + " not applicable: " + rep_text + " has no corridor";
      r.raw_length.reset();
      r.raw_valid.reset();
      out.push_back(std::move(r));
      continue;
    }
    r.status = Status::ok;
    r.length = polyline_length(sm.path);
    r.valid = fs.path_valid(sm.path);
    r.path_points = sm.path.size();
    if (r.optimal && *r.optimal > 0) r.gap = *r.length / *r.optimal - 1.0;
    if (keep_paths) r.path = std::move(sm.path);
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<double> exact_optimum(AnyRepresentation& vis, const FreeSpace& fs, Point s, Point g) {
  if (!fs.point_free(s) || !fs.point_free(g)) return std::nullopt;
  Query q;
  q.start = s;
  q.goal = g;
  if (!vis.locate(q)) return std::nullopt;
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component) return std::nullopt;
  SearchStats st;
  const double c = vis.search(q, parse_heuristic("euclidean"), st);
  if (!std::isfinite(c)) return std::nullopt;
  return polyline_length(vis.polyline(q));
}

std::unique_ptr<AnyRepresentation> build_optimum_graph(const Map& map) {
  const RepresentationEntry* e = find_representation("visgraph");
  if (!e) return nullptr;
  Params p = Params::parse("alt=0,block=0,skip=0");
  return e->build(map, p);
}

}  // namespace navbench
