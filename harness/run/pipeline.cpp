#include "harness/run/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
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

// The rows of an outcome that is not a path (docs/results.md#query-status): no_path with the
// planner's reason, error with its reason or, for a point it does not cover, the agent's.
std::vector<ResultRow> unanswered_rows(const QueryContext& c, const ResultRow& row, const Outcome& o) {
  switch (o.status) {
    case PlanStatus::no_path: return rows_for_every_smoothing(row, c.smoothings, Status::no_path, o.message);
    case PlanStatus::not_covered: return rows_for_every_smoothing(row, c.smoothings, Status::error, c.space.not_covered_message());
    case PlanStatus::error: return rows_for_every_smoothing(row, c.smoothings, Status::error, o.message);
    case PlanStatus::found: break;
  }
  throw std::logic_error("unanswered_rows of a found path");
}

// The planner's request for this context's queries: its search, the cost model's heuristic, the
// agent's segment test, the query's observer and workspace (kept here: the request points into it).
struct RequestOf {
  struct Sees {
    const AgentSpace* space;
    bool operator()(Point a, Point b) const { return space->sees(a, b); }
  };
  Heuristic heuristic;
  Sees test;
  VisibleFn sees;
  Request request;
  explicit RequestOf(const QueryContext& c)
      : heuristic(c.cost.scale(c.heuristic)), test{&c.space}, sees(test), request{c.search, &heuristic, &sees, c.trace, c.ws} {}
  RequestOf(const RequestOf&) = delete;
  RequestOf& operator=(const RequestOf&) = delete;
};

// 1. locate: inputs are checked once, here (docs/results.md#query-status). The agent says whether a
// point is valid (free; for a disc also clear by R), the planner whether it covers it. Returns the
// rows when the query ends here.
std::optional<std::vector<ResultRow>> locate(const QueryContext& c, const Request& r, Query& q, ResultRow& row) {
  const auto t = base::Clock::now();
  const bool valid = c.space.point_ok(q.start) && c.space.point_ok(q.goal);
  // A planner for a point agent only (capability point_only, SPEC §10) is not asked at R > 0.
  const bool applies = valid && !(c.caps.point_only && c.space.disc());
  std::optional<Outcome> ended = applies ? c.rep->locate(q, r) : std::nullopt;
  row.locate_us = base::us_since(t);
  if (!valid) return rows_for_every_smoothing(row, c.smoothings, Status::invalid_query, c.space.invalid_query_message(q.start, q.goal));
  if (!applies) return rows_for_every_smoothing(row, c.smoothings, Status::not_applicable, c.rep_text + " plans for a point agent (no radius)");
  if (ended) {
    row.max_step_us = row.locate_us;  // the planner was asked: its one call (SPEC §15)
    return unanswered_rows(c, row, *ended);
  }
  return std::nullopt;
}

// SPEC §15 (docs/results.md#real-time-columns): the real-time columns from the times of the
// planner's calls, the same rule for every planner. The first call is locate with the planner's
// first piece (plan()), each further piece a call of its own (next_piece(), or an entry's GetPath
// calls timed in its process); no pieces: one call, the whole query. first_move_us: until a piece
// left the path with two points (its first segment known); first20_us: until the path known was
// 20 long (the 2023 driver's PATH_FIRST_STEP_LENGTH: 20 straight moves); both the whole answer when
// never (a shorter path), and only for a path found. max_step_us: the longest call.
void realtime_columns(ResultRow& row, const Outcome& o) {
  const bool found = o.status == PlanStatus::found;
  const std::vector<PathPiece> whole{{o.path.size(), row.search_us}};
  const std::vector<PathPiece>& pieces = o.pieces.empty() ? whole : o.pieces;
  double elapsed = row.locate_us, longest = 0, length = 0;
  std::size_t measured = 1;  // o.path's first `measured` points are in `length`
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    elapsed += pieces[i].us;
    longest = std::max(longest, pieces[i].us + (i == 0 ? row.locate_us : 0.0));
    if (!found) continue;
    const bool last = i + 1 == pieces.size();
    const std::size_t known = std::min(pieces[i].points, o.path.size());
    for (; measured < known; ++measured) length += distance(o.path[measured - 1], o.path[measured]);
    if (!row.first_move_us && (known >= 2 || last)) row.first_move_us = elapsed;
    if (!row.first20_us && (length >= kFirstStepsLength - 1e-6 || last)) row.first20_us = elapsed;
  }
  row.max_step_us = longest;
}

// 2. plan: the planner's answer under the request, timed around its calls (each piece of a path
// handed out in pieces on its own, search_us their sum) unless it measured itself (an entry, in its
// process); then the real-time columns (SPEC §15).
Outcome plan(const QueryContext& c, const Request& r, Query& q, ResultRow& row) {
  const auto t = base::Clock::now();
  Outcome o = c.rep->plan(q, r);
  if (o.more) {
    std::vector<PathPiece> pieces{{o.path.size(), base::us_since(t)}};
    while (o.more) {
      const auto t1 = base::Clock::now();
      c.rep->next_piece(q, r, o);
      pieces.push_back({o.path.size(), base::us_since(t1)});
    }
    if (o.pieces.empty()) o.pieces = std::move(pieces);
  }
  row.search_us = base::us_since(t);
  // A path in pieces: the sum of its calls, as an entry's GetPath calls are summed (the harness's
  // clock reads between two calls are no call's).
  if (o.pieces.size() > 1) {
    row.search_us = 0;
    for (const PathPiece& piece : o.pieces) row.search_us += piece.us;
  }
  if (o.locate_us) row.locate_us = *o.locate_us;
  if (o.search_us) row.search_us = *o.search_us;
  if (o.pieces.size() > 1 && !c.caps.pieces)
    throw std::logic_error(c.rep_text + " handed out its path in pieces without declaring the capability pieces");
  row.expansions = o.stats.expansions;
  row.generated = o.stats.generated;
  row.los_checks = o.stats.los_checks;
  realtime_columns(row, o);
  return o;
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

// 3. smooth and 4. the row of one smoothing mode, as the agent smooths (AgentSpace::smooth: for a
// disc the funnel gives a path with arcs, los takes the shortcuts the swept disc allows; on a
// weighted map those no dearer than the piece of path they replace).
ResultRow smooth_row(const QueryContext& c, const ResultRow& row, const std::string& mode, const Outcome& o) {
  ResultRow r = row;
  r.smoothing = mode;
  const auto t = base::Clock::now();
  AgentSpace::Smoothed sm = c.space.smooth(mode, o.path, o.corridor, c.cost.weights());
  r.smooth_us = base::us_since(t);
  if (sm.status == SmoothingStatus::not_applicable) {
    // The mode applies (smoothing_not_applicable decided that before the query): a found path without
    // its corridor is the planner's failure, counted unsolved, never not_applicable (SPEC §3).
    r.status = Status::error;
    r.message = mode + ": " + c.rep_text + " gave no corridor for the path its search found";
  } else if (!sm.arcs.empty()) {
    const double length = path_items_length(sm.arcs);
    const bool ok = c.space.path_valid(sm.arcs);
    finish_arc_row(r, std::move(sm.arcs), length, ok, c);
  } else {
    finish_row(r, std::move(sm.path), c);
    if (!o.valid) r.valid = false;  // the planner's own verdict beside the exact test
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

namespace {

// What a search needs of a planner (docs/path-quality.md, docs/recast.md), and why its rows are
// not_applicable without it: Theta* needs edges that are segments, Detour's query a search of the
// planner's own; whatever the query.
std::optional<std::string> search_refused(const QueryContext& c) {
  switch (c.search) {
    case SearchMode::astar: return std::nullopt;
    case SearchMode::theta:
    case SearchMode::lazy_theta:
      if (c.caps.segment_edges) return std::nullopt;
      return std::string(to_string(c.search)) + " not applicable: " + c.rep_text + "'s edges are not segments";
    case SearchMode::detour:
      if (c.caps.own_search) return std::nullopt;
      return std::string(to_string(c.search)) + " not applicable: " + c.rep_text + " has no search of its own (recast has Detour's)";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> not_applicable(const QueryContext& c) {
  if (auto why = search_refused(c)) return why;
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
  const RequestOf r(c);
  Query q;
  q.start = in.start;
  q.goal = in.goal;
  if (auto rows = locate(c, r.request, q, p.row)) {
    p.done = mark_inapplicable_smoothings(c, std::move(*rows), p.identity);
    return p;
  }
  p.outcome = plan(c, r.request, q, p.row);
  return p;
}

namespace {

// finish_query's judging of what the planner answered (its Outcome alone): validity, quality,
// smoothing, one row per mode.
std::vector<ResultRow> judge(const QueryContext& c, PendingQuery& p) {
  ResultRow& row = p.row;
  const Outcome& o = p.outcome;
  if (o.status != PlanStatus::found) return unanswered_rows(c, row, o);
  if (!o.arcs.empty()) return arc_rows(c, row, o.arcs);
  row.raw_length = polyline_length(o.path);
  row.raw_valid = c.space.path_valid(o.path) && o.valid;
  if (!o.valid) row.message = o.message;
  c.cost.fill_raw(row, o.path);
  std::vector<ResultRow> out;
  for (const auto& mode : c.smoothings) out.push_back(smooth_row(c, row, mode, o));
  return out;
}

}  // namespace

std::vector<ResultRow> finish_query(const QueryContext& c, PendingQuery&& p) {
  if (p.done) return std::move(*p.done);
  return mark_inapplicable_smoothings(c, judge(c, p), p.identity);
}

std::vector<ResultRow> run_query(const QueryContext& c, const QueryInput& in) { return finish_query(c, start_query(c, in)); }

void median_times(std::vector<ResultRow>& rows, const std::vector<std::vector<ResultRow>>& again) {
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (double ResultRow::*f : {&ResultRow::locate_us, &ResultRow::search_us, &ResultRow::smooth_us}) {
      std::vector<double> v{rows[k].*f};
      for (const auto& a : again) v.push_back(a[k].*f);
      rows[k].*f = median(v);
    }
    // The real-time columns (SPEC §15), over the repetitions that have them (all, or none: the same query).
    for (std::optional<double> ResultRow::*f : {&ResultRow::first_move_us, &ResultRow::first20_us, &ResultRow::max_step_us}) {
      std::vector<double> v;
      if (rows[k].*f) v.push_back(*(rows[k].*f));
      for (const auto& a : again)
        if (a[k].*f) v.push_back(*(a[k].*f));
      if (!v.empty()) rows[k].*f = median(v);
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
