// The path of one query, as one straight pipeline (docs/architecture.md#one-query):
//   locate(ctx) -> plan(ctx) -> judge: smooth(ctx) -> rows(ctx)
// Each stage asks the query context: the agent and its space (validity, segment test), the cost
// model (heuristic scale, cost columns, not_applicable), the planner (search/planner.hpp) and its
// declared capabilities; the judge reads only the planner's Outcome. None branches on the kind of
// planner or on a representation's name.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/agent_space.hpp"
#include "harness/run/cost_model.hpp"
#include "harness/run/description.hpp"
#include "harness/run/traces.hpp"
#include "geometry/radius_validity.hpp"
#include "search/planner.hpp"

namespace navbench {

// What the rows of one map share (kept once per map, not per query: a million-query scenario
// stays small in memory).
struct MapContext {
  std::string map, collection, convention;
};
// The context of a map's rows.
MapContext map_context(const Map& m, const std::string& convention);

// One query of a scenario: its points, the identity columns of its rows and the oracles' answers
// (harness/run/oracles.hpp).
struct QueryInput {
  Point start, goal;
  long scen_index = 0;
  int bucket = 0;
  double sx = 0, sy = 0, gx = 0, gy = 0;   // as in the scenario file
  std::optional<double> octile_optimal;    // the scenario's optimum (grid maps)
  std::optional<double> optimal;           // exact optimum (visgraph, tangent graph), when known
  std::optional<double> octile_optimal_cost;  // weighted maps: the least cost of an 8-connected path (docs/terrain.md)
  std::optional<double> optimal_cost;         // weighted maps: the Steiner-point reference optimum (docs/terrain.md)
};

// The query context: everything a query's rows depend on besides its points. Made once per pass of
// a unit (map, representation, search, heuristic) and read by every query of it, on any thread
// (each with its own `ws`).
struct QueryContext {
  const MapContext& map;
  // The agent (its rows' column `radius` is space.agent().column()), free space and validity test.
  const AgentSpace& space;
  const CostModel& cost;
  const std::string& rep_text;
  const Heuristic& heuristic;
  const std::vector<std::string>& smoothings;
  // The built planner (search/planner.hpp): only read, with `ws` one workspace per thread. Null only
  // for the rows of a representation that was not built (identity_row, rows_for_every_smoothing).
  const Planner* rep = nullptr;
  // A*, or Theta* / Lazy Theta* where the representation's edges are segments (caps.segment_edges),
  // or Detour's query (caps.own_search); elsewhere the rows are not_applicable.
  SearchMode search = SearchMode::astar;
  Capabilities caps = {};  // what the planner declares (its registry entry)
  bool keep_paths = false;
  Workspace* ws = nullptr;  // made by rep->workspace(); nullptr: the planner's own (one thread)
  // The query's search trace (harness/run/traces.hpp; docs/traces.md), nullptr for none: a traced
  // query runs on a copy of its pass's context with this set; the caller finishes the trace.
  SearchObserver* trace = nullptr;
};

// SPEC §15 (docs/results.md#real-time-columns): first20_us runs until the path known is this long,
// 20 straight moves (the GPPC 2023 driver's PATH_FIRST_STEP_LENGTH, its 20steps_cost).
inline constexpr double kFirstStepsLength = 20.0;

// The columns a query's rows share whatever happens to it (map, query, configuration).
ResultRow identity_row(const QueryContext& ctx, const QueryInput& in);
// One row per smoothing mode, each a copy of `row` with that status and message.
std::vector<ResultRow> rows_for_every_smoothing(const ResultRow& row, const std::vector<std::string>& smoothings,
                                                Status status, const std::string& message);
// Why the context cannot answer any query (its rows are not_applicable): a search the
// representation's edges do not allow, or a cost model it does not take. nullopt when it can.
std::optional<std::string> not_applicable(const QueryContext& ctx);

// Why smoothing `mode` cannot apply to any path of the context (its rows are not_applicable whatever
// the query, as not_applicable's): a smoother that needs a corridor (SmootherInfo::needs_corridor)
// after a search that gives none. Only the shared A* on a representation that declares a corridor
// (caps.corridor) gives one; Theta*'s, Detour's (findStraightPath has already pulled its path
// through its own corridor) and a planner from outside's paths come without. nullopt when it applies.
std::optional<std::string> smoothing_not_applicable(const QueryContext& ctx, const std::string& mode);

// A query between its timed stages (locate, plan: start_query) and its judging (validity, quality,
// smoothing, the rows: finish_query), so that a block of queries can be timed back to back before
// any is judged, as a planner from outside answers its batch (`--batch`, docs/command-line.md).
// `done`: the rows when the query ended before planning. Both stages mark the rows of a smoothing
// mode that cannot apply (smoothing_not_applicable) not_applicable, whatever the planner answered;
// when no mode applies, the query ends before locating.
struct PendingQuery {
  ResultRow row;
  ResultRow identity;  // the row before locate: the row of a mode that cannot apply, whatever was found
  std::optional<std::vector<ResultRow>> done;
  Outcome outcome;     // the planner's answer, all the judge reads
};
PendingQuery start_query(const QueryContext& ctx, const QueryInput& in);
std::vector<ResultRow> finish_query(const QueryContext& ctx, PendingQuery&& p);
// Runs one query and returns one row per smoothing mode (start_query, then finish_query).
std::vector<ResultRow> run_query(const QueryContext& ctx, const QueryInput& in);

// With repetitions > 1 (docs/command-line.md --repetitions): each stage's time of `rows` becomes the
// median over them and `again`, the other repetitions' rows of the same query.
void median_times(std::vector<ResultRow>& rows, const std::vector<std::vector<ResultRow>>& again);

// --repetitions N > 1 (docs/command-line.md): runs the query N - 1 more times on `ctx` (paths not
// kept, untraced) and sets each stage's time of `rows`, run_query's first answer, to the median of
// the N runs (median_times). Nothing for N <= 1.
void repeat_for_medians(QueryContext ctx, const QueryInput& in, int reps, std::vector<ResultRow>& rows);

// The (start, goal) of queries[from, to) in the order a pass asks its searches: each query `reps`
// times in a row (a query's repetitions follow its first run). A planner from outside is told them
// ahead (the facet AnswersAhead), so that its repetitions and threads are batched like its first pass.
std::vector<std::pair<Point, Point>> asked(const std::vector<QueryInput>& queries, std::size_t from, std::size_t to, int reps);

}  // namespace navbench
