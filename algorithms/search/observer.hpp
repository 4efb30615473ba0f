// The one observer interface of the shared searches (SPEC §12, DESIGN "Observers and outside
// planners"): A*, Theta* and Lazy Theta* (search/astar.hpp, search/theta.hpp) report source,
// generate, update, expand, close and end, each with the vertex, its parent, g and f (h = f - g),
// to a SearchObserver attached per query. The searches take the observer as a template argument:
// NoObserver (the default) has no state and empty inline calls guarded by `if constexpr`, so a
// search with none attached compiles to the code it was before (no call, no test per event);
// Observed forwards to a SearchObserver through one virtual call per event, paid only by the
// traced queries. Vertex ids are the overlay's (search/query_graph.hpp): 0..n-1 the built
// graph's, n the start, n + 1 the goal.
#pragma once
#include <concepts>
#include <cstddef>
#include <vector>

#include "representations/types.hpp"

namespace navbench {

// Optional on a representation: the outline of the cell vertex v stands for (grid cells), appended
// to `out`, for the traces' drawings; none where vertices are portals or corners.
template <class R>
concept HasVertexOutline = requires(const R& r, Vertex v, std::vector<Point>& out) { r.vertex_outline(v, out); };

class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  // The search starts at `v` (the start), f = h(start). n: the built graph's vertex count.
  virtual void source(Vertex v, std::size_t n, double f) = 0;
  // v is reached for the first time (counted in SearchStats::generated), from parent p.
  virtual void generate(Vertex v, Vertex p, double g, double f) = 0;
  // v, already reached, gets a lower g through parent p.
  virtual void update(Vertex v, Vertex p, double g, double f) = 0;
  // v is taken off the open list (counted in SearchStats::expansions).
  virtual void expand(Vertex v, Vertex p, double g, double f) = 0;
  // v's out-edges have all been looked at.
  virtual void close(Vertex v, Vertex p, double g, double f) = 0;
  // The search ended: the goal's cost, +inf when unreachable.
  virtual void end(double cost) = 0;
  // The query was answered without a search (an all-pairs table: visgraph's and subgoal's
  // table=1); `steps` is what the row counts as expansions (the table walk).
  virtual void table_answer(double cost, std::size_t steps) = 0;
  // The path the planner made of what it found (the row's path before smoothing; a path with arcs
  // by its points), reported when it found one: a trace's end event draws it.
  virtual void path(const Polyline&) {}
};

// No observer: every call is a no-op the compiler drops; `enabled` lets a search skip the work of
// gathering an event's values.
struct NoObserver {
  static constexpr bool enabled = false;
  void source(Vertex, std::size_t, double) const {}
  void generate(Vertex, Vertex, double, double) const {}
  void update(Vertex, Vertex, double, double) const {}
  void expand(Vertex, Vertex, double, double) const {}
  void close(Vertex, Vertex, double, double) const {}
  void end(double) const {}
  void table_answer(double, std::size_t) const {}
};

// An attached observer (never null).
struct Observed {
  static constexpr bool enabled = true;
  SearchObserver* o;
  void source(Vertex v, std::size_t n, double f) const { o->source(v, n, f); }
  void generate(Vertex v, Vertex p, double g, double f) const { o->generate(v, p, g, f); }
  void update(Vertex v, Vertex p, double g, double f) const { o->update(v, p, g, f); }
  void expand(Vertex v, Vertex p, double g, double f) const { o->expand(v, p, g, f); }
  void close(Vertex v, Vertex p, double g, double f) const { o->close(v, p, g, f); }
  void end(double cost) const { o->end(cost); }
  void table_answer(double cost, std::size_t steps) const { o->table_answer(cost, steps); }
};

}  // namespace navbench
