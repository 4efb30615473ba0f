// A built representation behind one small virtual interface (AnyRepresentation). The adapter that
// puts a type modelling the Representation concept behind it, bound to the one shared A*, is in
// search/adapter.hpp; the harness holds only this interface, so its headers need neither Boost.Graph
// nor the search (a caller that searches includes search/workspace.hpp and search/heuristic.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"
#include "representations/types.hpp"

namespace navbench {

// The search of a query (docs/path-quality.md#any-angle-search): the shared A*, or Theta* and Lazy
// Theta* (search/theta.hpp), the same A* with the parent shortcut, on representations whose edges
// are segments. The column `search` (harness/run/description.hpp: to_string, parse_search_list).
enum class SearchMode { astar, theta, lazy_theta, detour };

struct Heuristic;        // search/heuristic.hpp
class VisibleFn;         // smoothing/smoothing.hpp: the segment test of the run's agent
struct SearchStats;      // search/workspace.hpp
class SearchWorkspace;   // search/workspace.hpp
class SearchObserver;    // search/observer.hpp

// What a planner from outside (harness/gppc, SPEC §10) said about the calling thread's last search:
// its own GetPath time, and an error, or its verdict on the path it returned.
struct OutsideAnswer {
  bool error = false;
  std::string reason;  // error: why; else why the path is invalid ("" when valid)
  bool valid = true;
  double search_us = 0;
};

// What a planner from outside's build row adds (harness/gppc, SPEC §10; the build columns of the
// group `entry`, docs/results.md): PreprocessMap's and PrepareForSearch's times taken in the
// entry's process, the bytes it wrote under its preprocessing prefix, and the largest peak resident
// memory (VmHWM) of its processes on this map so far.
struct OutsideBuild {
  double preprocess_ms = 0, prepare_ms = 0;
  std::uint64_t stored_bytes = 0, peak_rss_bytes = 0;
};

// A built representation behind one small virtual interface: a handful of virtual calls per query,
// while the A* inside search() is compiled for the concrete graph.
class AnyRepresentation {
 public:
  virtual ~AnyRepresentation() = default;
  // Joins start and goal to the graph; false when a point is not in the representation's free space.
  virtual bool locate(Query& q) const = 0;
  // The shared A*; returns the path cost (+inf when unreachable) and fills q.path. `observer`: the
  // query's observer (search/observer.hpp; SPEC §12), nullptr for none: the search then runs the
  // code compiled without one.
  virtual double search(Query& q, const Heuristic& h, SearchStats& stats, SearchObserver* observer = nullptr) = 0;
  // The same with the caller's search memory: the built representation is only read, so threads
  // each holding their own workspace may search it at once (`--threads N`).
  virtual double search(Query& q, const Heuristic& h, SearchStats& stats, SearchWorkspace& ws,
                        SearchObserver* observer = nullptr) const = 0;
  // Theta* or Lazy Theta* (search/theta.hpp; mode theta or lazy_theta) with `visible` as the segment test: fills `path` (a
  // polyline through the chain of parents) and returns its length, +inf when unreachable. Meant for
  // representations whose edges are the segments between their vertices' points (their registry
  // entry declares segment_edges); on others the polyline need not follow the graph's edges.
  virtual double search_any_angle(Query& q, const Heuristic& h, SearchMode mode, VisibleFn visible, SearchStats& stats,
                                  Polyline& path, SearchObserver* observer = nullptr) = 0;
  virtual double search_any_angle(Query& q, const Heuristic& h, SearchMode mode, VisibleFn visible, SearchStats& stats,
                                  Polyline& path, SearchWorkspace& ws, SearchObserver* observer = nullptr) const = 0;
  // For observers (search traces): the built graph's vertex count n (the overlay's start is n, its
  // goal n + 1), a vertex's point, and the outline of the cell a vertex stands for (grid cells:
  // their square), false when it stands for none (portals, corners).
  virtual std::size_t graph_vertices() const = 0;
  virtual Point vertex_point(Vertex v) const = 0;
  virtual bool vertex_outline(Vertex v, std::vector<Point>& out) const = 0;
  // A workspace sized for this representation (what the built-in one is, for one more thread).
  virtual std::unique_ptr<SearchWorkspace> new_workspace() const = 0;
  virtual Polyline polyline(const Query& q) const = 0;
  virtual std::optional<Corridor> corridor(const Query& q) const = 0;
  virtual BuildStats stats() const = 0;
  virtual std::size_t workspace_bytes() const = 0;
  // Sizes the built-in search workspace for the graph as it is now. The harness calls it after a
  // build or update is timed and before the first query, so neither a build's time nor a query's
  // pays for search memory (a search grows the workspace itself when this was not called). The
  // workspace is the search's, not the representation's: build_ms, rebuild_us and memory_bytes
  // leave it out alike (a 1024 x 1024 grid's is ~38 MB, ~0.1 s of first-touch page faults here).
  virtual void prepare() = 0;
  // The map's cells changed (m holds the new state): update in place and return true, or return
  // false when the representation has no incremental update (the caller rebuilds it).
  virtual bool update(const Map& m, const std::vector<CellChange>& changed) = 0;
  // True when update() may leave a structure other than a fresh build's (HasApproximateUpdate).
  virtual bool update_is_approximate() const = 0;
  // The line segments that draw the structure, each handed to `emit` in turn (none when the
  // representation offers no drawing); structure() collects them.
  virtual void visit_structure(const SegmentSink& emit) const = 0;
  std::vector<Segment> structure() const {
    std::vector<Segment> out;
    visit_structure([&out](const Segment& s) { out.push_back(s); });
    return out;
  }
  // A path with arcs (docs/radius.md) for the found path, when the representation has one (the tangent
  // graph of a disc agent); empty otherwise: its path is polyline().
  virtual std::vector<PathItem> disc_items(const Query& q) const = 0;
  // The representation's own search (`--search detour`; its capability own_search); others never
  // receive this call (their rows are not_applicable).
  virtual OwnAnswer own_search(Point start, Point goal) const = 0;
  // Why a representation that may miss a path answered no_path for q (HasMissReason, capability
  // may_miss): the row's message; "" for the others.
  virtual std::string miss_reason(const Query&) const { return {}; }
  // A planner from outside: its answer to this thread's last search; nullopt for navbench's own.
  virtual std::optional<OutsideAnswer> outside_answer() const { return std::nullopt; }
  // A planner from outside: its build's own figures (read again after the queries: the peak memory
  // grows while it answers); nullopt for navbench's own.
  virtual std::optional<OutsideBuild> outside_build() const { return std::nullopt; }
};

}  // namespace navbench
