#include "harness/run/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "geometry/path_quality.hpp"
#include "base/timing.hpp"
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
void finish_arc_row(ResultRow& r, std::vector<PathItem> items, double length, bool valid, const QueryContext& c) {
  r.status = Status::ok;
  r.clearance = c.space.free().path_clearance().clearance(items);
  r.turn = path_turn(items);
  r.length = length;
  r.valid = valid;
  r.path_points = 0;
  for (const PathItem& it : items) r.path_points += !it.arc_centre;
  if (r.optimal && *r.optimal > 0) r.gap = *r.length / *r.optimal - 1.0;
  if (c.keep_paths) r.items = std::move(items);
}

// An ok row for a polyline: its length, validity for the agent, quality and cost.
void finish_row(ResultRow& r, Polyline path, const QueryContext& c) {
  r.status = Status::ok;
  r.length = polyline_length(path);
  r.valid = c.space.path_valid(path);
  r.path_points = path.size();
  r.clearance = c.space.free().path_clearance().clearance(path);
  r.turn = path_turn(path);
  if (r.optimal && *r.optimal > 0) r.gap = *r.length / *r.optimal - 1.0;
  c.cost.fill_path(r, path);
  if (c.keep_paths) r.path = std::move(path);
}

// The message of a no_path row of a representation that may miss a path (docs/results.md#query-status):
// its own reason, never empty.
std::string missed(const QueryContext& c, const Query& q) {
  std::string why = c.rep->miss_reason(q);
  return why.empty() ? c.rep_text + " found no path (it may miss one that exists)" : why;
}

// 1. locate: inputs are checked once, here (docs/results.md#query-status). The agent says whether a
// point is valid (free; for a disc also clear by R), the representation whether it covers it.
// Returns the rows when the query ends here.
std::optional<std::vector<ResultRow>> locate(const QueryContext& c, Query& q, ResultRow& row) {
  auto rows_for_all = [&](Status st, const std::string& msg) { return rows_for_every_smoothing(row, c.smoothings, st, msg); };
  const auto t = base::Clock::now();
  const bool valid = c.space.point_ok(q.start) && c.space.point_ok(q.goal);
  // A search of the representation's own (Detour's) places the points itself.
  const bool located = valid && (c.search == SearchMode::detour || c.rep->locate(q));
  row.locate_us = base::us_since(t);
  if (!valid) return rows_for_all(Status::invalid_query, c.space.invalid_query_message(q.start, q.goal));
  // A representation that may miss a path (capability may_miss: Recast's mesh, a sampling roadmap)
  // may not reach a free point: a missed path with its reason, never a point moved onto it.
  if (!located && c.caps.may_miss) return rows_for_all(Status::no_path, missed(c, q));
  if (!located)
    return rows_for_all(Status::error, c.space.disc() ? "point clear for R but outside the representation's eroded free space"
                                                      : "free point not covered by the representation");
  // Different components: no search needed (for a may-miss representation its own components).
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component)
    return rows_for_all(Status::no_path, c.caps.may_miss ? missed(c, q) : "");
  return std::nullopt;
}

// 2'. the representation's own search (--search detour): its path from start to goal, no corridor
// (Detour's findStraightPath already pulled it taut through its corridor).
Found own_search(const QueryContext& c, const Query& q, ResultRow& row) {
  Found f;
  const auto t = base::Clock::now();
  OwnAnswer a = c.rep->own_search(q.start, q.goal);
  row.search_us = base::us_since(t);
  row.generated = a.nodes;
  f.found = a.status == OwnAnswer::Status::found;
  if (f.found) f.raw = std::move(a.path);
  if (a.status == OwnAnswer::Status::error) f.error = a.reason.empty() ? "the search failed" : a.reason;
  else if (a.status == OwnAnswer::Status::no_path) row.message = a.reason;
  return f;
}

// 2. search: the context's search (the shared A*, or Theta* with the agent's segment test) under
// the cost model's heuristic, then the representation's path and corridor.
Found search(const QueryContext& c, Query& q, ResultRow& row) {
  if (c.search == SearchMode::detour) return own_search(c, q, row);
  const Heuristic h = c.cost.scale(c.heuristic);
  const AgentSpace& space = c.space;
  const auto sees = [&space](Point a, Point b) { return space.sees(a, b); };
  SearchStats stats;
  Found f;
  const auto t = base::Clock::now();
  double cost;
  if (c.search == SearchMode::astar) {
    cost = c.ws ? std::as_const(*c.rep).search(q, h, stats, *c.ws, c.trace) : c.rep->search(q, h, stats, c.trace);
  } else {
    cost = c.ws ? std::as_const(*c.rep).search_any_angle(q, h, c.search, sees, stats, f.raw, *c.ws, c.trace)
                : c.rep->search_any_angle(q, h, c.search, sees, stats, f.raw, c.trace);
  }
  f.found = std::isfinite(cost);
  if (f.found && c.search == SearchMode::astar) {
    if (space.disc()) f.arcs = c.rep->disc_items(q);
    if (f.arcs.empty()) {
      f.raw = c.rep->polyline(q);
      f.corridor = c.rep->corridor(q);
    }
  }
  row.search_us = base::us_since(t);
  if (c.trace && f.found) {  // the search's path; a path with arcs by its points (the arcs' centres left out)
    Polyline drawn = f.raw;
    for (const PathItem& it : f.arcs)
      if (!it.arc_centre) drawn.push_back(it.p);
    c.trace->path(drawn);
  }
  row.expansions = stats.expansions;
  row.generated = stats.generated;
  row.los_checks = stats.los_checks;
  f.outside = c.rep->outside_answer();
  if (f.outside) {
    row.locate_us = 0;  // SPEC §10: the entry locates inside GetPath
    row.search_us = f.outside->search_us;  // timed next to GetPath inside the entry's process
    if (f.outside->error) f.found = false;
  }
  return f;
}

// A taut path with arcs (visgraph at R > 0: the tangent graph): the smoothers work on polylines and
// have nothing to shorten here.
std::vector<ResultRow> arc_rows(const QueryContext& c, ResultRow& row, const std::vector<PathItem>& arcs) {
  row.raw_length = path_items_length(arcs);
  row.raw_valid = c.space.path_valid(arcs);
  std::vector<ResultRow> out;
  for (const auto& mode : c.smoothings) {
    ResultRow r = row;
    r.smoothing = mode;
    if (mode != "none") mark_not_applicable(r, mode + " not applicable: " + c.rep_text + " at R > 0 gives taut paths with arcs");
    else finish_arc_row(r, arcs, *row.raw_length, *row.raw_valid, c);
    out.push_back(std::move(r));
  }
  return out;
}

// 3. smooth and 4. the row of one smoothing mode. The funnel for a disc gives a path with arcs; los
// for a disc takes the shortcuts the swept disc allows, on a weighted map those no dearer than the
// piece of path they replace.
ResultRow smooth_row(const QueryContext& c, const ResultRow& row, const std::string& mode, const Found& f) {
  ResultRow r = row;
  r.smoothing = mode;
  const AgentSpace& space = c.space;
  const auto t = base::Clock::now();
  SmoothingResult sm;
  std::vector<PathItem> disc_funnel;
  if (space.disc() && mode == "funnel") {
    if (f.corridor) disc_funnel = funnel_path_radius(f.raw.front(), f.raw.back(), *f.corridor, space.R());
    else sm.status = SmoothingStatus::not_applicable;
  } else {
    sm = smooth(mode, f.raw, f.corridor, [&space](Point a, Point b) { return space.sees(a, b); }, c.cost.weights());
  }
  r.smooth_us = base::us_since(t);
  if (sm.status == SmoothingStatus::not_applicable) {
    // The mode applies (smoothing_not_applicable decided that before the query): a found path without
    // its corridor is the representation's failure, counted unsolved, never not_applicable (SPEC §3).
    r.status = Status::error;
    r.message = mode + ": " + c.rep_text + " gave no corridor for the path its search found";
  } else if (!disc_funnel.empty()) {
    const double length = path_items_length(disc_funnel);
    const bool ok = space.path_valid(disc_funnel);
    finish_arc_row(r, std::move(disc_funnel), length, ok, c);
  } else {
    finish_row(r, std::move(sm.path), c);
    if (f.outside && !f.outside->valid) r.valid = false;  // the entry's own verdict beside the exact test
  }
  return r;
}

}  // namespace

ResultRow identity_row(const QueryContext& c, const QueryInput& in) {
  ResultRow row;
  row.map = c.map.map;
  row.collection = c.map.collection;
  row.convention = c.map.convention;
  row.pinch = c.space.free().squeeze() ? "allow" : "forbid";  // written only under --pinch allow
  row.scen_index = in.scen_index;
  row.bucket = in.bucket;
  row.sx = in.sx, row.sy = in.sy, row.gx = in.gx, row.gy = in.gy;
  row.octile_optimal = in.octile_optimal;
  row.representation = c.rep_text;
  row.heuristic = c.heuristic.text;
  row.optimal = in.optimal;
  row.radius = c.space.agent().column();
  row.search = to_string(c.search);
  c.cost.fill_identity(row, in);
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

std::optional<std::string> not_applicable(const QueryContext& c) {
  // Theta* needs edges that are segments: elsewhere the combination cannot run, whatever the query.
  if (c.search == SearchMode::detour) {
    if (c.caps.own_search) return std::nullopt;
    return std::string("detour not applicable: ") + c.rep_text + " has no search of its own (recast has Detour's)";
  }
  if (c.search != SearchMode::astar && !c.caps.segment_edges)
    return std::string(to_string(c.search)) + " not applicable: " + c.rep_text + "'s edges are not segments";
  return c.cost.not_applicable(c.caps, c.rep_text);
}

std::optional<std::string> smoothing_not_applicable(const QueryContext& c, const std::string& mode) {
  const auto& list = smoothers();
  const auto it = std::find_if(list.begin(), list.end(), [&](const SmootherInfo& s) { return s.name == mode; });
  if (it == list.end() || !it->needs_corridor) return std::nullopt;
  if (!c.caps.corridor) return mode + " not applicable: " + c.rep_text + " has no corridor";
  if (c.search != SearchMode::astar)
    return mode + " not applicable: the " + to_string(c.search) + " search of " + c.rep_text + " gives no corridor";
  return std::nullopt;
}

namespace {

// A smoothing mode that cannot apply to the context is not_applicable on every query, whatever its
// search found (never a no_path, error or invalid_query row, and the one reason on every query):
// its row becomes `base`, the query's identity row (no search counts or times), with that status.
std::vector<ResultRow> mark_inapplicable_smoothings(const QueryContext& c, std::vector<ResultRow> rows, const ResultRow& base) {
  for (ResultRow& r : rows) {
    if (auto why = smoothing_not_applicable(c, r.smoothing)) {
      std::string mode = std::move(r.smoothing);
      r = base;
      r.smoothing = std::move(mode);
      r.status = Status::not_applicable;
      r.message = std::move(*why);
    }
  }
  return rows;
}

bool any_smoothing_applies(const QueryContext& c) {
  return std::any_of(c.smoothings.begin(), c.smoothings.end(), [&](const std::string& m) { return !smoothing_not_applicable(c, m); });
}

}  // namespace

PendingQuery start_query(const QueryContext& c, const QueryInput& in) {
  PendingQuery p{.row = identity_row(c, in)};
  p.identity = p.row;
  if (auto why = not_applicable(c)) {
    p.done = rows_for_every_smoothing(p.row, c.smoothings, Status::not_applicable, *why);
    return p;
  }
  if (!any_smoothing_applies(c)) {  // nothing to search for: every row not_applicable, its mode's reason
    p.done = mark_inapplicable_smoothings(c, rows_for_every_smoothing(p.row, c.smoothings, Status::no_path, ""), p.identity);
    return p;
  }
  Query q;
  q.start = in.start;
  q.goal = in.goal;
  if (auto rows = locate(c, q, p.row)) {
    p.done = mark_inapplicable_smoothings(c, std::move(*rows), p.identity);
    return p;
  }
  p.found = search(c, q, p.row);
  p.query = std::move(q);
  return p;
}

namespace {

// finish_query's judging of what the search found: validity, quality, smoothing, one row per mode.
std::vector<ResultRow> judge(const QueryContext& c, PendingQuery& p) {
  ResultRow& row = p.row;
  const Found& f = p.found;
  // SPEC §10: an entry plans for a point agent; a radius is not applicable.
  if (f.outside && c.space.disc())
    return rows_for_every_smoothing(row, c.smoothings, Status::not_applicable, c.rep_text + " plans for a point agent (no radius)");
  if (f.outside && f.outside->error) return rows_for_every_smoothing(row, c.smoothings, Status::error, f.outside->reason);
  if (!f.error.empty()) return rows_for_every_smoothing(row, c.smoothings, Status::error, f.error);
  if (!f.found) {
    if (c.caps.may_miss && row.message.empty()) row.message = missed(c, p.query);
    return rows_for_every_smoothing(row, c.smoothings, Status::no_path, row.message);
  }
  if (!f.arcs.empty()) return arc_rows(c, row, f.arcs);
  row.raw_length = polyline_length(f.raw);
  row.raw_valid = c.space.path_valid(f.raw) && (!f.outside || f.outside->valid);
  if (f.outside && !f.outside->valid) row.message = f.outside->reason;
  c.cost.fill_raw(row, f.raw);
  std::vector<ResultRow> out;
  for (const auto& mode : c.smoothings) out.push_back(smooth_row(c, row, mode, f));
  return out;
}

}  // namespace

std::vector<ResultRow> finish_query(const QueryContext& c, PendingQuery&& p) {
  if (p.done) return std::move(*p.done);
  return mark_inapplicable_smoothings(c, judge(c, p), p.identity);
}

std::vector<ResultRow> run_query(const QueryContext& c, const QueryInput& in) { return finish_query(c, start_query(c, in)); }

void median_times(std::vector<ResultRow>& rows, const std::vector<std::vector<ResultRow>>& again) {
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (double ResultRow::*f : {&ResultRow::locate_us, &ResultRow::search_us, &ResultRow::smooth_us}) {
      std::vector<double> v{rows[k].*f};
      for (const auto& a : again) v.push_back(a[k].*f);
      std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
      rows[k].*f = v[v.size() / 2];
    }
  }
}

void repeat_for_medians(QueryContext ctx, const QueryInput& in, int reps, std::vector<ResultRow>& rows) {
  if (reps <= 1) return;
  ctx.keep_paths = false;
  ctx.trace = nullptr;
  std::vector<std::vector<ResultRow>> again;
  for (int r = 1; r < reps; ++r) again.push_back(run_query(ctx, in));
  median_times(rows, again);
}

std::vector<std::pair<Point, Point>> asked(const std::vector<QueryInput>& queries, std::size_t from, std::size_t to, int reps) {
  std::vector<std::pair<Point, Point>> ends;
  ends.reserve((to - from) * std::size_t(reps));
  for (std::size_t i = from; i < to; ++i)
    for (int r = 0; r < reps; ++r) ends.emplace_back(queries[i].start, queries[i].goal);
  return ends;
}

MapContext map_context(const Map& m, const std::string& convention) { return {m.name, m.collection, convention}; }

}  // namespace navbench
