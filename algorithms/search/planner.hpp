// A planner: whatever answers a query, behind one narrow interface (docs/adding-a-planner.md).
//
// The harness holds every built planner as a Planner and reads one Outcome per query:
//   - navbench's graph representations, all through one implementation, GraphPlanner<R>
//     (search/graph_planner.hpp): the shared A*, Theta* and Lazy Theta* over the Representation concept;
//   - a representation's own query beside its graph's (OwnQuery<R>: recast's Detour findPath);
//   - a competition entry answering in a child process (harness/gppc/planner.cpp).
// Six calls: prepare and figures (after a build), workspace (search memory for one more thread),
// locate, plan (-> Outcome), update; what only some planners have (a graph an observer or the viewer
// draws, queries taken ahead in batches) are facets, found through facets(): a planner without a graph
// implements nothing about one. No Boost here, so the harness's headers stay light.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"
#include "representations/types.hpp"

namespace navbench {

// The search of a query, the column `search` (harness/run/description.hpp: to_string, parse_search_list):
// the shared A*, Theta* and Lazy Theta* (docs/path-quality.md#any-angle-search) of a graph planner, or
// Detour's query (docs/recast.md), the search of recast's OwnQuery planner.
enum class SearchMode { astar, theta, lazy_theta, detour };

struct Heuristic;       // search/heuristic.hpp
class VisibleFn;        // smoothing/smoothing.hpp: the segment test of the run's agent
class SearchObserver;   // search/observer.hpp

// Counters of one search (Warthog-style metrics), the rows' expansions, generated and los_checks.
struct SearchStats {
  std::size_t expansions = 0;  // vertices taken off the open list
  std::size_t generated = 0;   // vertices first reached (Detour's query: the nodes it generated)
  std::size_t los_checks = 0;  // segment tests of Theta* and Lazy Theta* (search/theta.hpp); 0 for A*
};

// How a planner's answer to one query ended: one status for every way it can fail.
enum class PlanStatus {
  found,        // a path: Outcome::path, or Outcome::arcs
  no_path,      // none: there is none, or (a planner that may miss a path, capability may_miss) it found
                // none; `message` says why (a row no_path with that message)
  not_covered,  // a point free for the agent is not in the planner's free space (a row `error` with the
                // agent's message, AgentSpace::not_covered_message)
  error,        // the planner failed (Detour's node pool ran out, an entry crashed or broke a limit):
                // `message` says why (a row `error`)
};

// One piece of a path handed out in pieces (SPEC §15): once it was given, the path's first `points`
// points were known; the call that gave it took `us`.
struct PathPiece {
  std::size_t points = 0;
  double us = 0;
};

// What a planner answered to one query: everything the pipeline's judge reads (harness/run/pipeline.cpp).
struct Outcome {
  PlanStatus status = PlanStatus::no_path;
  // no_path and error: why; found: the planner's own verdict when it judged its path invalid ("" else)
  std::string message;
  Polyline path;                     // found: start first, goal last (empty when the path has arcs)
  std::vector<PathItem> arcs;        // found, a disc on its tangent graph: the taut path with arcs (docs/radius.md)
  std::optional<Corridor> corridor;  // the convex cells the path crosses, where the planner has them (the funnel)
  double cost = kInf;                // the planner's own cost of its path (a search's g at the goal)
  bool valid = true;                 // the planner's own verdict on its path (an entry's, harness/gppc/judge.hpp)
  SearchStats stats;
  // Times the planner measured itself, which replace the harness's clocks around its calls: an entry
  // times GetPath in its own process and locates inside it (SPEC §10).
  std::optional<double> locate_us, search_us;
  // A path handed out in pieces, first moves first (SPEC §15). `more`: plan() gave a first piece and
  // the harness asks next_piece() for the rest, timing each call. `pieces`: how it came, one per call
  // (filled by the harness; a planner that times its calls elsewhere, as an entry does in its process,
  // fills it itself); empty: the path came whole from the call that returned it.
  bool more = false;
  std::vector<PathPiece> pieces;
};

// Search memory for one thread: a planner's own kind (SearchWorkspace for a graph planner), made by its
// workspace(); a planner is handed only workspaces it made.
class Workspace {
 public:
  virtual ~Workspace() = default;
};

// What a query asks of the planner besides its points: the same for a whole pass of a unit.
struct Request {
  SearchMode search = SearchMode::astar;
  const Heuristic* heuristic = nullptr;  // the cost model's heuristic (scaled on weighted maps)
  const VisibleFn* sees = nullptr;       // the agent's segment test (Theta*'s shortcuts)
  SearchObserver* observer = nullptr;    // the query's observer (search/observer.hpp, a trace), nullptr for none
  Workspace* ws = nullptr;               // the caller's search memory (one per thread); nullptr: the planner's own
};

// What a planner measured of its own build, beside the structure's sizes: an entry's PreprocessMap
// and PrepareForSearch times taken in its process, the bytes it stored, its processes' peak resident
// memory (the build rows' group `entry`, docs/results.md).
struct MeasuredBuild {
  double preprocess_ms = 0, prepare_ms = 0;
  std::uint64_t stored_bytes = 0, peak_rss_bytes = 0;
};
struct BuildFigures {
  BuildStats stats;                       // vertices, edges, memory_bytes
  std::optional<MeasuredBuild> measured;  // a planner that measures its own build (an entry); nullopt else
};

// Facet: the graph a planner searches, as an observer numbers it (search/observer.hpp: 0..n-1 the
// built graph's vertices, n the start, n + 1 the goal): the trace writer and the viewer's recorder.
class GraphView {
 public:
  virtual std::size_t vertices() const = 0;
  virtual Point point(Vertex v) const = 0;
  // The outline of the cell a vertex stands for (grid cells: their square), false when none.
  virtual bool outline(Vertex v, std::vector<Point>& out) const = 0;

 protected:
  ~GraphView() = default;
};

// Facet: a drawing of the planner's structure (the viewer, `navbench structure`, a trace's structure
// layer), each segment handed to `emit` in turn.
class Drawing {
 public:
  virtual void visit_structure(const SegmentSink& emit) const = 0;

 protected:
  ~Drawing() = default;
};

// Facet: a planner that answers queries ahead (an entry: its GetPath calls back to back in batches, as
// the competition's driver runs them, docs/outside-planners.md#4-what-is-measured-and-how). Told the
// (start, goal) of the queries about to be asked through one workspace (nullptr: the planner's own),
// in order — with --repetitions N each query N times in a row —; a query asked otherwise is answered
// alone.
class AnswersAhead {
 public:
  virtual void expect_queries(const std::vector<std::pair<Point, Point>>& queries, const Workspace* ws) const = 0;

 protected:
  ~AnswersAhead() = default;
};

// The facets a planner has (null: it has none of that kind).
struct Facets {
  const GraphView* graph = nullptr;
  const Drawing* drawing = nullptr;
  const AnswersAhead* ahead = nullptr;
};

class Planner {
 public:
  virtual ~Planner() = default;
  // After a build or an update is timed and before the first query: sizes the planner's own search
  // memory, so that neither a build's time nor a query's pays for it (untimed; build_ms, rebuild_us
  // and memory_bytes leave it out alike).
  virtual void prepare() = 0;
  // The build's figures (the build row); an entry's peak memory grows while it answers, so the run
  // reads them again after the queries.
  virtual BuildFigures figures() const = 0;
  // Search memory for one more thread (--threads N: one each; the planner is only read then).
  virtual std::unique_ptr<Workspace> workspace() const = 0;
  // Joins the query's points, both free for the agent, to the planner (a graph planner: the links of
  // its overlay graph): nullopt when planning goes on, else the query's outcome (not_covered; no_path
  // for points it knows apart, with its reason when it may miss a path).
  virtual std::optional<Outcome> locate(Query& q, const Request& r) const = 0;
  // Plans the located query: the whole path, or with Outcome::more its first piece.
  virtual Outcome plan(Query& q, const Request& r) const = 0;
  // The next piece of a path handed out in pieces: appends to o.path, clears o.more with the last one.
  virtual void next_piece(Query& q, const Request& r, Outcome& o) const {
    (void)q, (void)r;
    o.more = false;
  }
  // The map's cells changed (m holds the new state): updates in place and returns true, or returns
  // false and the harness rebuilds it (then the rebuild is what the update costs).
  virtual bool update(const Map& m, const std::vector<CellChange>& changed) {
    (void)m, (void)changed;
    return false;
  }
  // Does now what the last update left owed to the queries (a representation that declares
  // update_deferred: its derive_owed(), docs/changing-maps.md), so the structure is a fresh build's;
  // nothing when nothing is owed. For a caller that wants no deferred work in the queries to come.
  virtual void settle_owed() {}
  virtual Facets facets() const { return {}; }
};

// The segments of a planner's drawing, all at once (none when it has no drawing).
inline std::vector<Segment> structure(const Planner& p) {
  std::vector<Segment> out;
  if (const Drawing* d = p.facets().drawing) d->visit_structure([&out](const Segment& s) { out.push_back(s); });
  return out;
}

// Thrown by a planner's build that died on a map it does support (an entry whose PreprocessMap or
// PrepareForSearch crashed, threw or broke a limit): the run gives every query of that map an `error`
// row with this reason instead of skipping the map as an UnsupportedMap.
struct BuildFailed : UnsupportedMap {
  using UnsupportedMap::UnsupportedMap;
};

}  // namespace navbench
