// Edge levels and skip edges over the taut-state visibility graph (visgraph:skip=1), after Oh &
// Leong, "Edge N-Level Sparse Visibility Graphs: Fast Optimal Any-Angle Pathfinding Using
// Hierarchical Taut Paths", SoCS 2017 (ENLSVG).
//
// Taut continuation. An arc P->Q followed by Q->W is taut at the corner Q when Q's obstacle lies
// inside the angle PQW (the path wraps the corner), or when P, Q, W are collinear (kept,
// conservatively). Every bend of a Euclidean shortest path is taut: otherwise the path could be
// shortened inside the free cells around Q. The relation is symmetric under reversal (P->Q->W taut
// iff W->Q->P taut), which is all the level argument below needs.
//
// Edge levels (ENLSVG docs/results.md). Peel the graph: an undirected edge gets level k when, in round k, one
// of its two directions has no taut continuation left among the edges not yet given a level; the
// edges never peeled get level W (top). Then along any taut path the finite levels rise strictly,
// stay at W for a while (or not at all) and fall strictly: an edge of finite level k has a direction
// whose every continuation has a lower level, so it cannot lie between two edges of level >= k.
//
// Skip vertices and skip edges (ENLSVG docs/command-line.md). A corner with at least three level-W edges is a skip
// vertex. Any other corner a level-W edge reaches has exactly two, and a taut path along level-W
// edges passes it the only way it can; so each chain of level-W edges between two skip vertices
// becomes one skip arc (its length the chain's, the chain stored to expand the polyline). The
// shared A* searches only the skip arcs: the searched graph holds the skip vertices' states.
//
// Queries. From a query point p, `local` marks the arcs a taut path from p can use before it
// reaches the skip graph, exactly as ENLSVG marks edges from the start: the arcs leaving p's visible
// corners tautly, then continuations of strictly higher level, or of level W through a non-skip
// corner; then a Dijkstra over the marked arcs gives the distance from p to every state reached.
// The start links to every state so reached, the goal (the same marking from the goal, reversed:
// the other taut state) from every state so reached. A shortest path is then: its rising part and
// its level-W part up to its first skip vertex (marked from the start), skip arcs between skip
// vertices, and its level-W part after its last skip vertex and its falling part (marked from the
// goal); a path that meets no skip vertex is a start link and a goal link at one common state.
// Every link is a real path, so the A* returns the exact optimum. Only skip vertices' states are
// linked (no other state has an arc in the searched graph); the common-state paths are found by
// meet() and given to the A* as the direct start-goal link (VisGraph::direct_cost).
//
// Query cost (grid maps). Each state's arcs are kept sorted by angle: they all leave into one
// closed quadrant beside the corner's blocked cell, and the taut continuations of a path arriving
// from any direction are a prefix or a suffix of that order (a closed half-plane of directions), so
// a binary search gives the arcs leaving a seed tautly, and each arc's marking continuations (taut,
// and of higher level or level W through a non-skip corner) are fixed and stored per arc. No arc
// into a corner p sees (a seed's) is marked: the straight segment is the only shortest path from p
// to it. The local distances are label-corrected in FIFO order from the seeds (whose straight
// distances are already final), cheaper than a heap on these small, nearly acyclic graphs.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "geometry/free_space.hpp"
#include "representations/csr_graph.hpp"
#include "representations/representation.hpp"

namespace navbench {

class TautSkipGraph {
 public:
  static constexpr std::uint32_t kTop = std::numeric_limits<std::uint32_t>::max();  // level W

  TautSkipGraph() = default;
  // full: the taut-state graph, vertex v the state v & 1 of corner v >> 1 (visgraph taut=1), each
  // vertex's arcs sorted by target, the reverse of state(i,a)->state(j,b) being (j,-b)->(i,-a).
  // Kept (marked at query time), each vertex's arcs reordered: by angle on grid maps (see above),
  // else by level, highest first, so the marking stops at the first arc too low to continue.
  TautSkipGraph(CsrGraph full, const std::vector<ConvexCorner>& corners);

  bool empty() const { return level_.empty(); }
  // The searched graph: skip arcs between skip vertices' states (same vertex numbering as full).
  const CsrGraph& graph() const { return skip_graph_; }
  // The taut-state graph it was made from (each vertex's arcs reordered, see above).
  const CsrGraph& full_graph() const { return full_; }
  // The level of an arc of full_graph() (kTop: never peeled).
  std::uint32_t level(std::uint32_t arc) const { return level_[arc]; }
  // Distance from p to every state reachable over the arcs marked from p (see above). seeds: the
  // states p links to (visible corners, the state a path from p arrives in) with their distances.
  // Fills out with (state, distance), each state once. Per-thread scratch: thread-safe.
  void local(const std::vector<ConvexCorner>& c, Point p, const std::vector<Link>& seeds,
             std::vector<Link>& out) const;
  // The states of the local path from p to `target` (the seed first, target last), from the
  // same search as local(); empty when target is not reached. d: its length. The last two
  // searches of each thread are kept (keyed by this build and p), so a query's polyline re-reads
  // its start's and goal's searches instead of running them again.
  std::vector<Vertex> local_path(const std::vector<ConvexCorner>& c, Point p,
                                 const std::vector<Link>& seeds, Vertex target, double& d) const;
  // The same as local() by the reference method: every arc of every seed and of every marked arc's
  // head tested by taut() one by one, no angular ranges, no kept search (tests compare the two).
  void local_reference(const std::vector<ConvexCorner>& c, Point p, const std::vector<Link>& seeds,
                       std::vector<Link>& out) const;
  // The shortest path from s to g through a state both searches reach: min over states v reached
  // from s, with v ^ 1 reached from g, of their distances' sum (the search from g reaching v ^ 1,
  // read backwards, leaves v towards g). +inf and kNone when there is none. seeds_*: as for local()
  // (unread when the search is kept).
  std::pair<double, Vertex> meet(const std::vector<ConvexCorner>& c, Point s, const std::vector<Link>& seeds_s,
                                 Point g, const std::vector<Link>& seeds_g) const;
  // A corner that is a skip vertex: the searched graph has arcs at its states.
  bool skip_state(Vertex v) const { return is_skip_[v >> 1] != 0; }
  // Whether this thread keeps the search from p (then local and local_path do not read seeds).
  bool kept(Point p) const { return kept_search(p) != nullptr; }
  // Appends the inner states of the skip arc u -> v (the chain, not u nor v); false if no such arc.
  bool chain(Vertex u, Vertex v, std::vector<Vertex>& out) const;

  std::size_t skip_corners() const { return skip_corners_; }
  std::uint32_t levels() const { return levels_; }  // rounds of peeling (finite levels 1..levels)
  std::size_t memory_bytes() const;

  // The taut test at corner q coming from a and going to b (exact predicates).
  static bool taut(Point a, const ConvexCorner& q, Point b);

 private:
  struct Scratch;
  // The constructor's steps (skip_graph.cpp), in order.
  struct Arcs;
  void peel_levels(const Arcs& a);
  void mark_skip_vertices(const Arcs& a);
  void make_skip_arcs(const Arcs& a);
  void keep_full_graph(const Arcs& a);
  void make_successors();
  // The search from p: a kept one when this thread ran it last or last but one, else a new run.
  const Scratch& run(const std::vector<ConvexCorner>& c, Point p, const std::vector<Link>& seeds,
                     bool reference = false) const;
  // Grid maps: the arcs of state v (kept sorted by angle) that continue tautly a path arriving at
  // v's corner along the direction (dx, dy), as an arc index range [first, second) (see run()).
  std::pair<std::uint32_t, std::uint32_t> taut_range(Vertex v, double dx, double dy) const;
  const Scratch* kept_search(Point p) const;
  static Scratch* kept_slots();
  static std::uint64_t& kept_clock();
  // The taut test at corner q between corners a and b: on grid maps (every corner integral, its
  // obstacle a cell quadrant) by three cross products, exact in doubles; else by taut().
  bool taut_corners(std::uint32_t a, std::uint32_t q, std::uint32_t b, const std::vector<ConvexCorner>& c) const {
    if (!grid_) return taut(c[a].at, c[q], c[b].at);
    return a != b && taut_quadrant(cq_[a].x, cq_[a].y, cq_[q], cq_[b]);
  }
  // The same from a query point p to corner b: the cross products are exact when p's coordinates
  // are multiples of 1/2 (cell corners and centres); any other point takes the exact predicates.
  bool taut_point(Point p, std::uint32_t q, std::uint32_t b, const std::vector<ConvexCorner>& c) const {
    if (!grid_ || p.x * 2 != std::floor(p.x * 2) || p.y * 2 != std::floor(p.y * 2) || std::abs(p.x) > (1 << 20) ||
        std::abs(p.y) > (1 << 20))
      return taut(p, c[q], c[b].at);
    return !(p == c[b].at) && taut_quadrant(p.x, p.y, cq_[q], cq_[b]);
  }
  struct CornerQ {
    double x, y, qx, qy;  // position, and the diagonal direction into its blocked cell
  };
  static bool taut_quadrant(double px, double py, const CornerQ& Q, const CornerQ& B) {
    const double ax = px - Q.x, ay = py - Q.y, bx = B.x - Q.x, by = B.y - Q.y;
    const double o = ax * by - ay * bx;
    if (o == 0) return true;  // collinear (or p at q): kept
    // Both lines are tangent at q, so the quadrant is inside the cone from a to b iff its diagonal
    // (qx, qy) is: the same turn from a to the diagonal and from the diagonal to b as from a to b.
    const double c1 = ax * Q.qy - ay * Q.qx, c2 = Q.qx * by - Q.qy * bx;
    return o > 0 ? c1 >= 0 && c2 >= 0 : c1 <= 0 && c2 <= 0;
  }
  std::vector<CornerQ> cq_;
  bool grid_ = false;
  // The taut-state graph. Grid maps: each vertex's arcs by angle, and per arc the arcs the marking
  // continues with (succ_[succ_begin_[e] .. [e + 1])); other maps: arcs by level, highest first.
  CsrGraph full_;
  std::vector<std::uint32_t> succ_begin_, succ_;  // grid maps only
  std::vector<std::uint32_t> level_;  // per arc of full_
  std::vector<std::uint8_t> is_skip_;  // per corner: a skip vertex
  CsrGraph skip_graph_;
  std::vector<std::uint32_t> chain_begin_;  // per skip arc: its chain is chain_[chain_begin_[k] .. [k+1])
  std::vector<Vertex> chain_;
  std::size_t skip_corners_ = 0;
  std::uint32_t levels_ = 0;
  std::uint64_t id_ = 0;  // unique per build: the key of the kept searches
};

}  // namespace navbench
