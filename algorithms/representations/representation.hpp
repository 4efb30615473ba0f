// The adapter contract every navigation representation satisfies (docs/adding-a-representation.md).
//
// A representation is built once per map (all heavy work there) and then answers queries through
// the one shared A* (search/astar.hpp). It provides
//   - a Boost.Graph view of its built graph (IncidenceGraph + VertexListGraph, vertex descriptors
//     are 32-bit indices 0..num_vertices-1) with an edge-weight property map and vertex positions;
//   - attach(point): how a query point joins that graph (the per-query overlay: a
//     virtual start/goal vertex linked to the listed vertices);
//   - direct(query): whether start may link straight to goal (same cell / triangle, or visible);
//   - polyline(query): the vertex path back to a geometric polyline, start first, goal last;
//   - corridor(query), optionally: the portals of the convex cells the path crosses (for the funnel);
//   - stats(): numbers for the build CSV.
// and declares what it does (`static constexpr Capabilities kCapabilities`, capabilities.hpp) and
// its parameters (`static constexpr std::array kParams` of ParamDecl, params.hpp), once, on its type.
#pragma once
#include <concepts>
#include <optional>
#include <string>
#include <vector>

#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/graph_traits.hpp>

#include "geometry/map.hpp"
#include "geometry/point.hpp"
#include "representations/capabilities.hpp"
#include "representations/params.hpp"
#include "representations/types.hpp"

namespace navbench {

// The C++20 concept checked at registration (which also requires a constructor R(map, params);
// the tangent graph of a disc agent is built as R(map, radius) instead).
template <class R>
concept Representation =
    requires(const R& r, Point p, const Query& q, Vertex v) {
      typename R::Graph;
      { r.graph() } -> std::same_as<const typename R::Graph&>;
      { r.weights() };
      { r.position(v) } -> std::convertible_to<Point>;
      { r.attach(p) } -> std::same_as<std::optional<Attachment>>;
      { r.direct(q) } -> std::same_as<bool>;
      { r.polyline(q) } -> std::same_as<Polyline>;
      { r.stats() } -> std::same_as<BuildStats>;
    } &&
    std::same_as<typename boost::graph_traits<typename R::Graph>::vertex_descriptor, Vertex>;

// Optional: the cost of the direct start-goal link when it is not the straight segment |start - goal|
// (a subgoal graph's direct link is an octile path between the two cells). Without it the shared
// A* prices the direct link as the segment.
template <class R>
concept HasDirectCost = requires(const R& r, const Query& q) {
  { r.direct_cost(q) } -> std::convertible_to<double>;
};

template <class R>
concept HasCorridor = requires(const R& r, const Query& q) {
  { r.corridor(q) } -> std::same_as<std::optional<Corridor>>;
};

// Optional (docs/changing-maps.md): bring the built representation up to date in place after the map's cells
// changed (`m` already holds the new values); false = cannot, the harness rebuilds it instead.
template <class R>
concept HasUpdate = requires(R& r, const Map& m, const std::vector<CellChange>& changed) {
  { r.update(m, changed) } -> std::same_as<bool>;
};

// Optional: an update() whose result answers like a fresh build (same reachability, valid paths)
// but may be a different structure (quadtree: cells merged again locally, so other cells than a
// fresh build's greedy merge) declares `.update_approximate = true` in its kCapabilities. The
// viewer, which promises the answers of `navbench run` on the edited map, rebuilds such a
// representation instead; `navbench run --dynamic` uses the update.
template <class R>
concept HasApproximateUpdate = HasUpdate<R> && requires { requires R::kCapabilities.update_approximate; };

// Optional: an update() that may leave part of the structure owed to the queries, made later by a
// rule the type states (declared `.update_deferred = true`; subgoal's contraction, visgraph's skip
// graph and block lists, docs/changing-maps.md), offers derive_owed(): does it now, so the
// structure is a fresh build's (Planner::settle_owed(); the update battery compares it then).
template <class R>
concept HasOwedWork = requires(R& r) { r.derive_owed(); };

// Optional: every edge is the straight segment between its vertices' points, both ways, so Theta*
// (search/theta.hpp) may replace a parent chain by a segment: declare `.segment_edges = true` in
// its kCapabilities. Theta* is compiled only for such types.
template <class R>
concept HasSegmentEdges = requires { requires R::kCapabilities.segment_edges; };

// Optional (docs/terrain.md): a representation built on a weighted map prices a straight segment by
// the map's path-cost integral: `bool weighted() const` and `double segment_cost(Point, Point) const`
// (the length when not weighted). Theta*'s shortcuts use it.
template <class R>
concept HasSegmentCost = requires(const R& r, Point a) {
  { r.weighted() } -> std::same_as<bool>;
  { r.segment_cost(a, a) } -> std::same_as<double>;
};

// Optional: the representation's structure as line segments (grid cell borders, quadtree cells,
// triangle edges, graph edges), for the path pictures of scripts/pathviz.py, the viewer and a
// trace's structure layer: each segment handed to `emit` in turn.
template <class R>
concept HasStructure = requires(const R& r, const SegmentSink& emit) { r.structure(emit); };

// Optional: a path with arcs (the tangent graph of a disc agent, docs/radius.md) for the found path.
template <class R>
concept HasDiscItems = requires(const R& r, const Query& q) {
  { r.disc_items(q) } -> std::same_as<std::vector<PathItem>>;
};

// Optional: a search of the representation's own (recast: Detour's findPath and findStraightPath),
// run for `--search detour` instead of the shared A*; declared as the feature own_search.
template <class R>
concept HasOwnSearch = requires(const R& r, Point p) {
  { r.own_search(p, p) } -> std::same_as<OwnAnswer>;
};

// Optional: why the representation answered `no_path` for a query, as the row's message says it;
// required exactly of a representation declaring may_miss (capabilities.hpp). The pipeline asks it
// when a point did not attach (`q` then holds the start and goal only), when the attachments'
// components differ, and when the search found no path (`q` holds both attachments). Recast: a
// free point no polygon holds, with how many walkable voxels its partition put in no region; prm:
// no sample connects the start, or start and goal in different roadmap components.
template <class R>
concept HasMissReason = requires(const R& r, const Query& q) {
  { r.miss_reason(q) } -> std::same_as<std::string>;
};

// Optional: role-specific attachments (visgraph: start links only to the states a path from it
// arrives in, goal links only from the states that leave towards it); used instead of attach().
template <class R>
concept HasRoleAttach = requires(const R& r, Point p) {
  { r.attach_start(p) } -> std::same_as<std::optional<Attachment>>;
  { r.attach_goal(p) } -> std::same_as<std::optional<Attachment>>;
};

// Optional (SPEC §15; declared as the capability pieces): the path handed out in pieces, first
// moves first. After the search (q.path its vertices) or a route (below), first_piece(q, out)
// appends the path's first piece to the empty `out` and returns whether more follow; each
// next_piece(q, out) appends the next piece. Joined, with repeated points merged, the pieces are
// polyline(q). State between the calls lives in q.walk.
template <class R>
concept HasPieces = requires(const R& r, Query& q, Polyline& out) {
  { r.first_piece(q, out) } -> std::same_as<bool>;
  { r.next_piece(q, out) } -> std::same_as<bool>;
};

// Optional, with HasPieces: a route walked piece by piece in place of the search, when the
// representation has one for the query (cpd: a first-move table, one start cell and one goal cell):
// nullopt: none (the search answers); false: no path; true: q.walk is set, and after the last
// piece q.walk.cost is the path's cost and q.walk.steps the vertices walked (the row's expansions).
template <class R>
concept HasRoute = HasPieces<R> && requires(const R& r, Query& q) {
  { r.route(q) } -> std::same_as<std::optional<bool>>;
};

// The polyline most representations use: start, the positions of the path vertices, goal.
template <class R>
Polyline polyline_through_positions(const R& r, const Query& q) {
  Polyline out;
  out.reserve(q.path.size() + 2);
  out.push_back(q.start);
  for (Vertex v : q.path) out.push_back(r.position(v));
  out.push_back(q.goal);
  return out;
}

}  // namespace navbench
