#include "harness/run/pipeline.hpp"

#include <chrono>
#include <cmath>
#include <utility>

#include "geometry/path_cost.hpp"
#include "geometry/path_quality.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "smoothing/smoothing.hpp"

namespace navbench {
namespace {

// A row whose smoother does not apply (docs/results.md#query-status): by construction, not a failure; no lengths.
void mark_not_applicable(ResultRow& r, std::string message) {
  r.status = Status::not_applicable;
  r.message = std::move(message);
  r.raw_length.reset();
  r.raw_valid.reset();
}

// An ok row for a disc path with arcs (docs/radius.md) of the given length and validity; points counted
// without the `@` arc centres.
void finish_arc_row(ResultRow& r, std::vector<PathItem> items, double length, bool valid, bool keep_paths,
                    const FreeSpace& fs) {
  r.status = Status::ok;
  r.clearance = fs.path_clearance().clearance(items);
  r.turn = path_turn(items);
  r.length = length;
  r.valid = valid;
  r.path_points = 0;
  for (const PathItem& it : items) r.path_points += !it.arc_centre;
  if (r.optimal && *r.optimal > 0) r.gap = *r.length / *r.optimal - 1.0;
  if (keep_paths) r.items = std::move(items);
}

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

}  // namespace

ResultRow identity_row(const MapContext& ctx, const QueryInput& in, const std::string& rep_text, const Heuristic& h,
                       SearchMode search, const RadiusContext* radius) {
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
  if (radius) row.radius = radius->R;
  row.search = to_string(search);
  if (ctx.weighted) {
    row.terrain = ctx.terrain;
    row.octile_optimal_cost = in.octile_optimal_cost;
    row.optimal_cost = in.optimal_cost;
  }
  return row;
}

std::vector<ResultRow> rows_for_every_smoothing(const ResultRow& row, const std::vector<std::string>& smoothings,
                                                Status status, const std::string& message) {
  std::vector<ResultRow> out;
  for (const auto& s : smoothings) {
    ResultRow r = row;
    r.smoothing = s;
    r.status = status;
    r.message = message;
    out.push_back(std::move(r));
  }
  return out;
}

std::string no_terrain_message(const std::string& rep_text) {
  return rep_text + " does not take terrain costs (it assumes one cost everywhere)";
}

std::vector<ResultRow> run_query(const MapContext& ctx, const QueryInput& in, AnyRepresentation& rep,
                                 const std::string& rep_text,
                                 const Heuristic& h, const std::vector<std::string>& smoothings,
                                 const FreeSpace& fs, bool keep_paths, SearchWorkspace* ws,
                                 const RadiusContext* radius, SearchMode search, const Capabilities& caps) {
  const bool disc = radius && radius->disc();
  // A weighted map (docs/terrain.md): rows gain the path's cost beside its length.
  const GridMap* weighted = fs.map().weighted() ? &fs.map().grid : nullptr;
  ResultRow row = identity_row(ctx, in, rep_text, h, search, radius);
  auto rows_for_all = [&](Status st, const std::string& msg) { return rows_for_every_smoothing(row, smoothings, st, msg); };

  // Theta* needs edges that are segments: elsewhere the combination cannot run, whatever the query.
  if (search != SearchMode::astar && !caps.segment_edges)
    return rows_for_all(Status::not_applicable, row.search + " not applicable: " + rep_text + "'s edges are not segments");
  if (weighted && !caps.weights) return rows_for_all(Status::not_applicable, no_terrain_message(rep_text));
  // On a weighted map the metric heuristic is scaled by the least weight: still a lower bound.
  Heuristic scaled = h;
  if (weighted) scaled.weight *= ctx.least_weight;

  // 1. locate: inputs are checked once, here (docs/results.md#query-status: invalid_query when a point is not free).
  Query q;
  q.start = in.start;
  q.goal = in.goal;
  // With a radius (docs/radius.md): a point closer than R - 1e-9 to an obstacle is invalid too.
  auto point_ok = [&](Point p) { return fs.point_free(p) && (!disc || radius->rv->point_clear(p, radius->R)); };
  auto t = Clock::now();
  const bool free = point_ok(q.start) && point_ok(q.goal);
  const bool located = free && rep.locate(q);
  row.locate_us = us_since(t);
  if (!free) {
    const Map& m = fs.map();
    auto outside = [&](Point p) { return !(p.x >= m.min.x && p.y >= m.min.y && p.x <= m.max.x && p.y <= m.max.y); };
    if (outside(q.start)) return rows_for_all(Status::invalid_query, "start outside the map");
    if (outside(q.goal)) return rows_for_all(Status::invalid_query, "goal outside the map");
    if (!disc) return rows_for_all(Status::invalid_query, fs.point_free(q.start) ? "goal not free" : "start not free");
    return rows_for_all(Status::invalid_query, point_ok(q.start) ? "goal lacks clearance R" : "start lacks clearance R");
  }
  if (!located)
    return rows_for_all(Status::error, disc ? "point clear for R but outside the representation's eroded free space"
                                            : "free point not covered by the representation");
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component)
    return rows_for_all(Status::no_path, "");  // different free-space components: no search needed

  // The one segment test of the run's agent: docs/validity.md for a point; for a disc (docs/radius.md)
  // the swept disc keeps clearance R. Theta*'s shortcuts and the los smoother use it.
  const auto point_sees = [&fs](Point a, Point b) { return fs.segment_valid(a, b); };
  const auto disc_sees = [&](Point a, Point b) { return fs.point_free(a) && radius->rv->segment_clear(a, b, radius->R); };
  const VisibleFn sees = disc ? VisibleFn(disc_sees) : VisibleFn(point_sees);

  // 2. search: the shared A* (or Theta*), then the representation's polyline and corridor.
  SearchStats stats;
  t = Clock::now();
  Polyline raw;
  std::vector<PathItem> arcs;  // a path with arcs (visgraph at R > 0: the tangent graph)
  std::optional<Corridor> corridor;
  double cost;
  if (search == SearchMode::astar) {
    cost = ws ? std::as_const(rep).search(q, scaled, stats, *ws) : rep.search(q, scaled, stats);
  } else {
    const AnyAngle mode = search == SearchMode::theta ? AnyAngle::theta : AnyAngle::lazy_theta;
    cost = ws ? std::as_const(rep).search_any_angle(q, scaled, mode, sees, stats, raw, *ws)
              : rep.search_any_angle(q, scaled, mode, sees, stats, raw);
  }
  const bool found = std::isfinite(cost);
  if (found && search == SearchMode::astar) {
    if (disc) arcs = rep.disc_items(q);
    if (arcs.empty()) {
      raw = rep.polyline(q);
      corridor = rep.corridor(q);
    }
  }
  row.search_us = us_since(t);
  row.expansions = stats.expansions;
  row.generated = stats.generated;
  row.los_checks = stats.los_checks;
  // A planner from outside (harness/gppc): its own GetPath time, its errors and its verdict.
  const std::optional<OutsideAnswer> outside = rep.outside_answer();
  if (outside) {
    // SPEC §10: an entry plans for a point agent; a radius is not applicable.
    if (disc) return rows_for_all(Status::not_applicable, rep_text + " plans for a point agent (no radius)");
    row.locate_us = 0;  // SPEC §10: the entry locates inside GetPath
    row.search_us = outside->search_us;
    if (outside->error) return rows_for_all(Status::error, outside->reason);
  }
  if (!found) return rows_for_all(Status::no_path, "");
  if (!arcs.empty()) {
    // A taut path with arcs: the smoothers work on polylines and have nothing to shorten here.
    row.raw_length = path_items_length(arcs);
    row.raw_valid = radius->rv->path_valid_radius(arcs, radius->R);
    std::vector<ResultRow> out;
    for (const auto& mode : smoothings) {
      ResultRow r = row;
      r.smoothing = mode;
      if (mode != "none") mark_not_applicable(r, mode + " not applicable: " + rep_text + " at R > 0 gives taut paths with arcs");
      else finish_arc_row(r, arcs, *row.raw_length, *row.raw_valid, keep_paths, fs);
      out.push_back(std::move(r));
    }
    return out;
  }
  // The one validity test of the run's agent: docs/maps.md for a point, docs/radius.md for a disc.
  auto valid = [&](const Polyline& p) { return disc ? radius->rv->path_valid_radius(items_of(p), radius->R) : fs.path_valid(p); };
  row.raw_length = polyline_length(raw);
  row.raw_valid = valid(raw) && (!outside || outside->valid);
  if (outside && !outside->valid) row.message = outside->reason;
  if (weighted) row.raw_cost = path_cost(*weighted, raw);

  // 3. smooth, 4. validate, 5. one row per smoothing mode.
  std::vector<ResultRow> out;
  for (const auto& mode : smoothings) {
    ResultRow r = row;
    r.smoothing = mode;
    t = Clock::now();
    SmoothingResult sm;
    std::vector<PathItem> disc_funnel;  // funnel for a disc: a path with arcs
    if (disc && mode == "funnel") {
      if (corridor) disc_funnel = funnel_path_radius(raw.front(), raw.back(), *corridor, radius->R);
      else sm.status = SmoothingStatus::not_applicable;
    } else {
      // los for a disc: shortcuts the swept disc allows; on a weighted map: shortcuts no dearer
      // than the piece of path they replace.
      sm = smooth(mode, raw, corridor, sees, weighted);
    }
    r.smooth_us = us_since(t);
    if (sm.status == SmoothingStatus::not_applicable) {
      mark_not_applicable(r, mode + " not applicable: " + rep_text + " has no corridor");
      out.push_back(std::move(r));
      continue;
    }
    if (!disc_funnel.empty()) {
      const double length = path_items_length(disc_funnel);
      const bool ok = radius->rv->path_valid_radius(disc_funnel, radius->R);
      finish_arc_row(r, std::move(disc_funnel), length, ok, keep_paths, fs);
      out.push_back(std::move(r));
      continue;
    }
    r.status = Status::ok;
    r.length = polyline_length(sm.path);
    r.valid = valid(sm.path) && (!outside || outside->valid);
    r.path_points = sm.path.size();
    r.clearance = fs.path_clearance().clearance(sm.path);
    r.turn = path_turn(sm.path);
    if (r.optimal && *r.optimal > 0) r.gap = *r.length / *r.optimal - 1.0;
    if (weighted) {
      r.cost = path_cost(*weighted, sm.path);
      if (r.optimal_cost && *r.optimal_cost > 0) r.cost_gap = *r.cost / *r.optimal_cost - 1.0;
    }
    if (keep_paths) r.path = std::move(sm.path);
    out.push_back(std::move(r));
  }
  return out;
}

MapContext map_context(const Map& m, const std::string& convention) {
  MapContext c{m.name, m.collection, convention};
  if (m.weighted()) {
    c.weighted = true;
    c.terrain = m.terrain;
    c.least_weight = least_weight(m.grid);
  }
  return c;
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
  const RepresentationEntry* e = reference_representation();
  if (!e) return nullptr;
  Params p = Params::parse(e->reference_params);
  return e->build(map, p);
}

}  // namespace navbench
