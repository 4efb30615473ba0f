// visgraph: the pruned ("reduced", tangent) visibility graph (Lozano-Pérez & Wesley, "An algorithm
// for planning collision-free paths among polyhedral obstacles", CACM 1979; the tangent pruning as
// in Liu & Arimoto, "Path planning using a tangent graph", IEEE ICRA 1992). Nodes only at convex
// obstacle corners (never at pinch points); an edge only between two nodes that see each other
// (FreeSpace::segment_valid, exact) and whose line is tangent at both ends: each node's two
// neighbouring boundary points lie on one side of the line, or on it. Start and goal join at
// query time (attach) to the nodes they see, with tangency at the node end. The shared A* with the
// Euclidean heuristic then returns the exact Euclidean shortest path (docs/validity.md `optimal`).
//
// Taut states (parameter taut=1, default): each corner is two vertices, "the obstacle is on the
// left / on the right of the path here". A shortest path wraps each corner it bends at, so it
// arrives and leaves with the obstacle on the same side; an edge P->Q therefore leaves P's state
// for the side of P's obstacle and enters Q's state for the side of Q's. The search never follows
// a bend that turns away from the obstacle (the taut-path pruning of Oh & Leong, "Edge N-Level
// Sparse Visibility Graphs", SoCS 2017, here built into the graph), and stays exact. taut=0 gives
// one vertex per corner.
//
// Storage: CSR arrays (offsets / targets / weights), exposed as a Boost.Graph graph modelled in
// place (IncidenceGraph + VertexListGraph), vertex_descriptor = navbench::Vertex.
// Finding what a point sees: on grid maps an exact angular sweep over rows (grid_fov.hpp), so a
// query costs in proportion to the visible region; or, with block=B (0: off; default 2 on grid maps of up to 2^18 cells and 4,096 convex corners, else 0), the
// precomputed candidate list of the point's B x B cell block (block_candidates.hpp), filtered by
// tangency and cell masks, each left over proven by an exact integer segment test (grid_los.hpp):
// a query costs in proportion to its block's list, the build one region sweep per node and the
// memory one entry per (block, node) pair (stats()); on polygon maps the triangular expansion from
// the point (FreeSpace::visible_corners), then tangency, or with points=1 (default on polygon maps
// of up to 2^18 lattice cells) the lists of the lattice points and cell centres precomputed
// (point_lists.hpp: the query points of a mesh made from a grid map read their list, any other
// point expands).
//
// Exact heuristics for the shared A* (each a parameter, so the benchmark shows what it buys and
// costs): alt=K, K landmarks (default 16 without a table and up to 1M tangent pairs, else 0; alt=0 turns them off; ALT,
// Goldberg & Harrelson 2005; landmarks.hpp, K * 8 bytes per vertex); table=1, every corner-to-corner
// distance (the "indirect links" of the seed write-up; representations/distance_table.hpp,
// corners^2 * 6 bytes with the predecessors, refused above table_mb MiB (the distances), default
// 1024; default on up to 1,024 convex corners), with which a query needs no search: the least
// start link + table distance + goal link, the path read back from the predecessors
// (table_search(); on weighted maps the A* aims at the goal places an optimal path can end at,
// search/astar.hpp). Both keep every path optimal (tests/test_visgraph.cpp).
//
// labels=1 (unweighted maps, named only): hub labels over the corners' tangent graph (one vertex
// per corner; hub_labels.hpp: pruned landmark labelling, Akiba, Iwata & Yoshida, SIGMOD 2013; hub
// labels for shortest paths, Abraham, Delling, Goldberg & Werneck, SEA 2011), with which a query,
// like table=1's, needs no search: the least start link + d(a, b) + goal link, d by the labels
// (each corner's list of hubs and distances, both ends' lists folded over the hubs), the path read
// back from the labels' next-corner entries (table_search(), labels_search()). Memory grows with the
// label entries (16 bytes each), not with corners^2: it serves maps above the table's 1,024 corners.
// No skip graph and no landmarks by default (the A* does not run).
//
// skip=1 (default 1 where it applies: taut=1, table=0 and up to 1M tangent pairs): ENLSVG's edge levels and skip edges (Oh &
// Leong, SoCS 2017; skip_graph.hpp). The A* then searches only the skip arcs between skip vertices
// (corners with three or more level-W edges), with landmarks computed on that graph; start and goal
// link, at locate time, to the states reached over the arcs marked from them (a local Dijkstra over
// the rising and level-W arcs of the full graph; only skip vertices' states link, a path through a
// state both ends reach is the direct link, direct_cost()). Exact: tests/test_visgraph.cpp compares
// it with brute force. Costs: the peeling at build time, a level per arc, the skip arcs and their
// chains, and on grid maps each arc's marking continuations (skip_graph.hpp). After an update
// (update()) with defer=1 (the default) the skip graph and its landmarks are owed: the queries
// search the taut-state graph until the rule of skip_owed() has one of them derive both; and so
// are the block lists: the query points attach by the sweep until the rule of lists_owed() has a
// query make them; and with labels=1 the hub labels (labels_owed()) (owed.hpp,
// docs/changing-maps.md). defer=0: the update makes them all.
//
// pinch=allow (grid maps; SPEC §11, the squeeze rule of Uras & Koenig's library and Central64): a
// path may pass through a pinch point. The nodes are then the convex corners plus the pinch points
// and the edges those of geometry/squeeze_optimum.hpp (every node pair tested by the exact validity
// test with squeezing, FreeSpace built with squeeze = true, kept where tangent at a convex corner;
// any line at a pinch point); one vertex per node (taut, skip, table and block are this build's
// rule-forbid machinery: not taken), landmarks as above; a query point links to every node it sees
// (tangent there), tested one by one. Exact under that rule: tests/test_squeeze.cpp compares it
// with brute force. The build is quadratic in the nodes (small and medium maps).
//
// Weighted maps (docs/terrain.md; weighted.cpp): the vertices are the convex obstacle corners plus
// the weight-region corners (steiner=S: and every S-th point of straight borders), every valid pair
// is an edge priced by its exact path-cost integral (pairs with a vertex strictly between them
// left out, as that vertex's two edges cost the same), one vertex per corner; no taut states, skip
// edges or block lists (they rest on Euclidean tautness); landmarks (default 16) and the table
// (only when named) where the least weight is 1. The graph then holds the cheapest path over these vertices, no longer the
// cheapest path of the map. A pair's segment test, pruning and integral are one walk that crosses
// squares of one weight at once (weighted.cpp), so the build's work follows the borders a segment
// passes, not its length (Nav2's speed masks: every cell weighted, long segments).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <boost/graph/graph_concepts.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>

#include "geometry/free_space.hpp"
#include "geometry/squeeze_optimum.hpp"
#include "geometry/path_cost.hpp"
#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/distance_table.hpp"
#include "representations/params.hpp"
#include "representations/landmarks.hpp"
#include "representations/owed.hpp"
#include "representations/representation.hpp"
#include "representations/visgraph/block_candidates.hpp"
#include "representations/visgraph/grid_fov.hpp"
#include "representations/visgraph/point_lists.hpp"
#include "representations/visgraph/grid_los.hpp"
#include "representations/hub_labels.hpp"
#include "representations/visgraph/skip_graph.hpp"

namespace navbench {

// The visibility graph's arcs are the shared CSR graph (representations/csr_graph.hpp).
class VisGraph : public BuiltGraph<CsrGraph>, public StoredPositions {
 public:
  // Keeps a reference to map: it must outlive the representation.
  VisGraph(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): what it does, and its parameters (the
  // automatic defaults as the comment above says; on weighted maps taut, skip and block are 0).
  static constexpr Capabilities kCapabilities{.radius = RadiusSupport::tangent_graph, .exact = true, .point_vertices = true,
                                              .weights = true, .update_in_place = true, .update_deferred = true,
                                              .table_search = true};
  // The optimum's reference (the registry's first exact entry) is the plain variant (no block lists,
  // skip edges, landmarks or table): exact like every variant and the cheapest to build, as it is
  // built once per map for few queries.
  static constexpr const char* kReferenceParams = "alt=0,block=0,skip=0,table=0";
  static constexpr std::array kParams{
      ParamDecl{"taut", ParamType::flag, 0, 0, 1, "taut states only (corner entered and left on one side)", "1; 0 on weighted maps"},
      ParamDecl{"table", ParamType::flag, 0, 0, 1, "all-pairs distance table: a query needs no search", "1 up to 1,024 corners unless alt or skip is named"},
      ParamDecl{"table_mb", ParamType::integer, 1024, 1, 1 << 20, "largest table (MiB of distances); refused above"},
      ParamDecl{"labels", ParamType::flag, 0, 0, 1, "hub labels over the corners: a query needs no search"},
      ParamDecl{"labels_mb", ParamType::integer, 1024, 1, 1 << 20, "largest hub labels (MiB); the build is refused above"},
      ParamDecl{"block", ParamType::integer, 0, 0, 1024, "attach by candidate lists per block of cells (0: angular sweep)", "2 on grids up to 2^18 cells and 4,096 corners, else 0"},
      ParamDecl{"points", ParamType::flag, 0, 0, 1, "polygon maps: attach lattice points and cell centres by precomputed lists (0: expansion)",
                "1 on polygon maps up to 2^18 lattice cells, else 0"},
      ParamDecl{"skip", ParamType::flag, 0, 0, 1, "ENLSVG skip graph: search the skip arcs only", "1 with taut, no table and up to 1M tangent pairs"},
      ParamDecl{"alt", ParamType::integer, 0, 0, 64, "ALT landmarks (0: none); with labels=1 over the corners, bounding the query's links",
                "16 with labels=1, or without a table and up to 1M tangent pairs; else 0"},
      ParamDecl{"regions", ParamType::flag, 0, 0, 1, "weighted maps: weight-region corners as vertices", "1 while all vertices fit max_nodes"},
      ParamDecl{"max_nodes", ParamType::integer, 8192, 1, 1 << 24, "weighted maps: most vertices; refused above"},
      ParamDecl{"steiner", ParamType::integer, 0, 0, 1 << 15, "weighted maps: points per weight-region border side"},
      ParamDecl{"pinch", ParamType::choice, 0, 0, 1, "grid maps: a path through a pinch point forbidden or allowed (SPEC 11)",
                nullptr, "forbid,allow"},
      ParamDecl{"defer", ParamType::flag, 1, 0, 1,
                "changing maps: an update leaves the skip graph, block lists and hub labels owed to the queries (ski rental; 0: the update makes them)"}};
  static constexpr std::array kClashes{
      ParamClash{"skip", 1, "taut", 0, 0, "visgraph: skip=1 needs taut=1 (levels are over taut states)"},
      ParamClash{"skip", 1, "table", 1, 1, "visgraph: skip=1 does not combine with table=1"},
      ParamClash{"labels", 1, "skip", 1, 1, "visgraph: labels=1 does not combine with skip=1"},
      ParamClash{"labels", 1, "table", 1, 1, "visgraph: labels=1 does not combine with table=1"},
      ParamClash{"labels", 1, "pinch", 1, 1, "visgraph: labels=1 does not combine with pinch=allow"},
      ParamClash{"pinch", 1, "taut", 1, 1, "visgraph: pinch=allow takes taut=0 (one vertex per node)"},
      ParamClash{"pinch", 1, "skip", 1, 1, "visgraph: pinch=allow does not combine with skip=1"},
      ParamClash{"pinch", 1, "table", 1, 1, "visgraph: pinch=allow does not combine with table=1"},
      ParamClash{"pinch", 1, "block", 1, 1024, "visgraph: pinch=allow does not combine with block > 0"}};

  // Links to every node the point sees (tangent at the node), both taut states of a node: right
  // for a start and for a goal alike. nullopt when p is not free.
  std::optional<Attachment> attach(Point p) const;
  // The same, pruned by role: a start links to the state it arrives in, a goal from the state
  // that leaves towards it. Exact when used for their role only.
  std::optional<Attachment> attach_start(Point p) const { return attach_role(p, +1); }
  std::optional<Attachment> attach_goal(Point p) const { return attach_role(p, -1); }
  bool direct(const Query& q) const;
  // Weighted maps (docs/terrain.md): segments cost their path-cost integral, else their length.
  bool weighted() const { return weighted_ != nullptr; }
  double segment_cost(Point a, Point b) const { return weighted_ ? integral(a, b) : distance(a, b); }
  // Weighted maps: the path-cost integral of a-b (navbench::segment_cost's semantics, the same cut
  // parameters), by a cell walk over a padded weight table instead of locating each piece's cell
  // anew (weighted.cpp). Inside the map only.
  // steps: when given, the walk's steps (cells, and squares of one weight crossed whole) are added.
  double integral(Point a, Point b, std::uint64_t* steps = nullptr) const;
  // Weighted maps: the vertex pairs the build tested (one component, each pair once), and the
  // steps their walks took (cells and squares crossed: pair_cost()'s walk, or along a grid line
  // the segment test's and the integral's): what the build's time grows with besides the pairs
  // (tests: it must not grow with the segments' length).
  std::uint64_t pair_tests() const { return pair_tests_; }
  std::uint64_t pair_walk_steps() const { return pair_walk_steps_; }
  // Weighted maps: how many vertices are weight-region corners (vertex ids after the convex
  // corners' ids; 0 on an unweighted map).
  std::size_t region_corners() const { return region_corners_; }
  // The cost of the direct start-goal link: with skip=1 the better of the straight segment (when
  // clear) and the best path through a state both local searches reach (see attach_role).
  double direct_cost(const Query& q) const;
  Polyline polyline(const Query& q) const;
  // table=1 on an unweighted map (the table with predecessors, no skip graph): the query answered
  // from the table alone, without A* (query.cpp): fills q.path and returns the cost (+inf: no
  // path); steps counts the corners walked. nullopt when it does not apply (the caller runs A*).
  // With labels=1 (unweighted maps) the same from the hub labels (labels_search()).
  // While the skip graph is owed it applies the rule of skip_owed() (nullopt: the A* answers).
  std::optional<double> table_search(Query& q, std::size_t& steps) const;
  BuildStats stats() const;
  // docs/changing-maps.md (grid maps; m is the map it was built on, holding the new cells): sweeps again only the
  // nodes whose swept cells lie within a cell of a changed cell (only towards the changed cells,
  // sweep_toward_change), keeps the other nodes' pairs, repairs the all-pairs table
  // (DistanceTable::update), and derives the rest anew (update.cpp), except, with defer=1 (the
  // default), the skip graph and its landmarks (skip_owed()) and the block lists (lists_owed()),
  // left owed to the queries. With defer=0 the update makes them: the block lists by carrying the
  // kept nodes' entries over (BlockCandidates). The result equals a fresh build's (once
  // derive_owed(): its answers at once). false on polygon maps, or when the new map takes another
  // default block size (the caller rebuilds).
  bool update(const Map& m, const std::vector<CellChange>& changed);
  // skip=1 after an update (docs/changing-maps.md): the skip graph and its landmarks are owed. The
  // searched graph is then the taut-state graph (exact, without the skip arcs' speed-up), with
  // the Euclidean bound, until the shared A*'s searches on it since the update (searched()) have
  // paid more than deriving them costs (skip_price()); the query that passes that count derives
  // them (table_search(), in its own time) and is answered on the skip graph.
  bool skip_owed() const { return skip_owed_.owed(); }
  // The taut-state graph (with taut=1): graph() without skip=1 or while the skip graph is owed,
  // else the skip graph's input (its rows in another order).
  const CsrGraph& taut_graph() const { return skip_.empty() ? graph_ : skip_.full_graph(); }
  // skip=1: the price of deriving the skip graph from the current taut graph, in arcs an A*
  // expansion reads (skip_price(g), build.cpp); what the owed searches have paid since the
  // update, in the same units (searched()).
  std::uint64_t skip_price() const { return skip_owed_.price(); }
  std::uint64_t owed_paid() const { return skip_owed_.paid(); }
  // block > 0, defer=1, after an update (docs/changing-maps.md): the block lists are owed. A query
  // point then attaches by the angular sweep (exact, as with block=0), each sweep paying one unit,
  // until the sweeps since the lists became owed number more than making them costs
  // (lists_price(), in sweeps); the query that finds them due makes them (table_search(), in its
  // own time), from every node's sweep, as a build does.
  bool lists_owed() const { return lists_owed_.owed(); }
  std::uint64_t lists_price() const { return lists_owed_.price(); }
  std::uint64_t lists_paid() const { return lists_owed_.paid(); }
  // labels=1, defer=1, after an update: the hub labels and their landmarks are owed. The queries
  // then search the taut-state graph with the shared A* and the Euclidean bound (exact), each
  // search's expansions paid (searched()), until they pass the price of the last labels' making
  // (HubLabels::settled(), vertices settled); the query that finds them due makes them
  // (table_search(), in its own time) and is answered from them.
  bool labels_owed() const { return labels_owed_.owed(); }
  std::uint64_t labels_price() const { return labels_owed_.price(); }
  std::uint64_t labels_paid() const { return labels_owed_.paid(); }
  // Derives what an update left owed now (the skip graph and its landmarks, the block lists, the
  // hub labels and theirs, as a fresh build has them); nothing when nothing is owed. The queries'
  // rules call it; tests compare the result.
  void derive_owed();
  // The shared A*'s report of one search on graph() (search/astar.hpp): while the skip graph is
  // owed, its arcs read (expansions times the taut graph's mean out-degree) are added to
  // owed_paid().
  void searched(std::size_t expansions) const;
  // The per-block candidate lists (empty with block=0).
  const BlockCandidates& block_candidates() const { return blocks_; }
  // Nodes the last update swept again (all of them on the first update).
  std::size_t swept_nodes() const { return upd_.swept; }
  // Of those, the nodes swept only towards the changed cells (update.cpp).
  std::size_t partly_swept_nodes() const { return upd_.partly; }

  const FreeSpace& free_space() const { return fs_; }
  const GridFov& grid_fov() const { return fov_; }  // grid maps: the sweep's tables
  const std::vector<ConvexCorner>& corners() const { return fs_.convex_corners(); }
  bool taut() const { return shift_ == 1; }
  // Built with pinch=allow (a grid map's free space with squeezing).
  bool squeeze() const { return sq_ != nullptr; }
  // ALT landmark distances (parameter alt=K, K landmarks, default 16; nullptr with alt=0).
  const Landmarks* landmarks() const { return landmarks_.k() ? &landmarks_ : nullptr; }
  // Corner-to-corner distances (parameter table=1; nullptr without).
  const DistanceTable* distance_table() const { return table_.empty() ? nullptr : &table_; }
  // Hub labels over the corners (parameter labels=1; nullptr without).
  const HubLabels* hub_labels() const { return labels_.empty() ? nullptr : &labels_; }
  // Undirected node pairs joined (each pair is two arcs of the graph).
  std::size_t pairs() const { return pairs_; }
  // skip=1: corners that are skip vertices, and the rounds of edge-level peeling (0 without skip).
  std::size_t skip_corners() const { return skip_.skip_corners(); }
  std::uint32_t levels() const { return skip_.levels(); }
  // skip=1 (derived): the level of arc `arc` of taut_graph() (TautSkipGraph::kTop: the top level).
  std::uint32_t skip_level(std::uint32_t arc) const { return skip_.level(arc); }

  // skip=1: the states reached from p over the arcs marked from it, with distances (what a start
  // links to); reference: by testing every arc with the exact predicates (for tests).
  std::vector<Link> skip_reach(Point p, bool reference) const {
    std::vector<Link> out;
    if (reference) skip_.local_reference(corners(), p, seeds(p), out);
    else skip_.local(corners(), p, seeds(p), out);
    return out;
  }

  // The nodes p sees with the tangency rule at the node end (indices into corners()), each once.
  std::vector<std::uint32_t> visible_tangent_nodes(Point p) const;
  void visible_tangent_nodes(Point p, std::vector<std::uint32_t>& out) const;  // into out (cleared first)

 private:
  // Weighted maps (weighted.cpp): the build, and a query point's links to every vertex it sees.
  void build_weighted(const Map& map, Params& params);
  void weighted_edges(std::size_t n);  // build_weighted's edges and CSR graph
  void weight_tables(const GridMap& grid);  // build_weighted's wpad_, wpal_ and wcell_
  std::optional<Attachment> attach_weighted(Point p) const;
  // Weighted maps: integral() between two points of the half-integer lattice, neither coordinate
  // the same at both ends: an exact walk in integers, across squares of one weight. kPair (two
  // vertices, no pinch point): it also answers the segment test, +inf when the segment is not
  // valid (through a blocked cell or a pinch point), and sets *vertex_inside (returning +inf)
  // when it passes through another vertex.
  template <bool kPair>
  double lattice_walk(Point a, Point b, std::uint64_t* steps, bool* vertex_inside) const;
  bool pair_point(std::int64_t x, std::int64_t y, bool diagonal, bool* vertex_inside) const;
  // Weighted maps, the build: the cost of the edge between vertices i and j (one component), none
  // when their segment is not valid or passes through another vertex.
  std::optional<double> pair_cost(std::uint32_t i, std::uint32_t j, std::uint64_t* steps) const;
  // Weighted maps: a vertex lies strictly inside the segment a-b (a, b on the half-integer grid).
  bool vertex_between(Point a, Point b) const;
  // Weighted maps: the vertices on the corners of the cells the sweep's region from the free point
  // p holds (a superset of those p sees, GridFov::region), each once, into out (cleared first).
  void region_vertices(Point p, std::vector<std::uint32_t>& out) const;
  std::optional<Attachment> attach_role(Point p, int role) const;
  // labels=1: the query answered from the hub labels (table_search()).
  double labels_search(Query& q, std::size_t& steps) const;
  // pinch=allow: the build over SqueezeOptimum's graph, and a point's links to every node it sees.
  static bool pinch_allowed(const Map& map, Params& params);
  void build_squeeze(Params& params);
  std::optional<Attachment> attach_squeeze(Point p) const;
  // The grid tables for the current corners (sweep, segment test, tangency signs); an update
  // passes the corners before it and the changed cells (the sweep's tables repaired, GridFov::update).
  void grid_tables(const GridMap& grid, const std::vector<ConvexCorner>* old = nullptr,
                   const std::vector<CellChange>* changed = nullptr);
  void count_changed_rows(const GridMap& g, const std::vector<CellChange>& changed);  // update()'s first step
  struct ScanScratch {
    std::vector<std::uint32_t> sure, maybe;
    std::vector<GridFov::Span> spans;
    bool want_spans = false;
  };
  // Node i's tangent sweep: appends to `joined` the pairs (i, j) it forms with every node j that
  // take(j) accepts; t.spans receives the sweep's spans when t.want_spans (with_sure: sure spans too);
  // within: the sweep limited to those directions (GridFov::scan_tangent; take() must keep them alone).
  template <class Take>
  void scan_node(std::uint32_t i, ScanScratch& t, bool with_sure, Take take,
                 std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined,
                 const GridFov::Directions* within = nullptr) const;
  // update(): node k (old id i) swept again towards the changed cells only (update.cpp).
  void sweep_toward_change(std::uint32_t k, std::size_t i, const std::vector<ConvexCorner>& old,
                           const std::vector<std::int32_t>& to_new, const std::vector<std::uint8_t>& rescan,
                           GridFov::Directions& toward, ScanScratch& t,
                           std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined,
                           std::vector<std::pair<std::uint16_t, std::uint16_t>>& env, std::vector<std::int32_t>& env_row0,
                           std::vector<GridFov::Span>* spans = nullptr, std::vector<std::uint32_t>* redo = nullptr) const;
  // Everything derived from the node pairs: the graph, skip graph, landmarks, table. old_of_new
  // (an update's): per corner its id before the update (-1: new), for the parts repaired in place;
  // with skip=1 an update leaves the skip graph and landmarks owed (skip_owed()).
  void finish(Params& params, bool table, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined,
              const std::vector<std::int32_t>* old_of_new = nullptr);
  // skip=1: the states p links to in the full graph (its visible corners, the state a path from p
  // arrives in; both states when p is at the corner), with their distances.
  std::vector<Link> seeds(Point p) const;
  // skip=1: the states of the local path between a query point p and the link vertex v (start
  // side: p first; goal side: p first too, the path read backwards), matching the link's cost.
  std::vector<Vertex> end_path(Point p, const std::vector<Link>& links, Vertex v, bool goal_side) const;
  // skip=1: the best path between q's ends through a state both local searches reach (cost, the
  // state as reached from the start; +inf and ~0 when none).
  std::pair<double, Vertex> meet(const Query& q) const;
  // Side of corner c's obstacle relative to the directed line a->b: +1 left, -1 right.
  static int side(const ConvexCorner& c, Point a, Point b);
  // side(k, p, k.at) for a node k that p sees with the line tangent at k; half_grid: p is on a
  // grid map's half-integer lattice (half_grid(p)), where a sign test in doubles is exact.
  static int arrival_side(const ConvexCorner& k, Point p, bool half_grid);
  bool half_grid(Point p) const;
  Vertex state(std::uint32_t node, int obstacle_side) const {
    return shift_ ? Vertex(2 * node + (obstacle_side > 0 ? 0 : 1)) : Vertex(node);
  }

  const Map* map_;
  const GridMap* weighted_ = nullptr;  // the weighted grid, nullptr on unweighted maps
  std::size_t region_corners_ = 0;
  std::vector<std::int32_t> vcomp_;    // weighted maps: per vertex its free-space component
  std::vector<std::int32_t> vat_;      // weighted maps: (W+1) x (H+1) grid points -> vertex id or -1
  // Weighted maps: the vertices per horizontal grid line y, in increasing x (line_[line_off_[y] ..
  // line_off_[y + 1] - 1]), where attach looks up the vertices of the region a point may see.
  std::vector<std::uint32_t> line_off_, line_;
  // Weighted maps: (W + 2) x (H + 2) cell weights, the border and blocked cells +inf; the
  // different weights; and for the directions (+1, -1) and (+1, +1), per cell its weight's index
  // (high 16 bits) and the side of the square of one weight ahead of it (low 16 bits;
  // corner_squares, grid_los.hpp), which lattice_walk() crosses at once (it walks towards +x;
  // empty above 65,536 weights). Stored by tiles of 4 x 4 cells (64 bytes, one cache line;
  // tile_index): a walk reads a few cells of each tile it meets.
  std::vector<double> wpad_, wpal_;
  std::array<std::vector<std::uint32_t>, 2> wcell_;
  std::array<std::size_t, 2> wcell_off_{};  // where the table starts in wcell_[q]: a 64-byte boundary
  std::size_t wtiles_x_ = 0;
  static std::size_t tile_index(std::size_t tiles_x, int px, int py) {  // padded cell (px, py)
    return ((std::size_t(py) >> 2) * tiles_x + (std::size_t(px) >> 2)) * 16 + ((std::size_t(py) & 3) << 2) + (std::size_t(px) & 3);
  }
  std::uint64_t pair_tests_ = 0, pair_walk_steps_ = 0;  // weighted maps: the build's (pair_tests())
  FreeSpace fs_;
  GridFov fov_;
  BlockCandidates blocks_;  // block=B > 0 on grid maps
  PointLists points_;       // points=1 on polygon maps
  GridLos los_;             // grid maps: the integer segment test from a query point to a node
  // FreeSpace::segment_valid(a, b), by the integer cell walk when it answers (grid maps, one end
  // on the half-integer lattice and the other a grid corner that is no pinch point: the corner
  // convention's queries), which costs a walk over the cells the segment crosses instead of the
  // R-tree's boundary edges near the segment's bounding box.
  bool segment_clear(Point a, Point b) const {
    if (map_->kind == MapKind::grid && !sq_) {  // the cell walk holds the rule forbid
      GridLos::Result r = los_.test_to_corner(a, b);
      if (r == GridLos::unknown) r = los_.test_to_corner(b, a);
      if (r != GridLos::unknown) return r == GridLos::visible;
    }
    return fs_.segment_valid(a, b);
  }
  bool visible(Point p, std::uint32_t node) const {
    const GridLos::Result r = los_.test(p, corners()[node].at);
    return r == GridLos::unknown ? fs_.segment_valid(p, corners()[node].at) : r == GridLos::visible;
  }
  // Per node: its position and qx * qy of its blocked cell's quadrant. A point p makes the line
  // p-node tangent at the node iff (p.x - x) * (p.y - y) * qxy <= 0 (grid corners: the two
  // boundary neighbours are one step along each axis), a sign test without a predicate.
  struct NodeQuad {
    double x, y;
    int qxy;
  };
  std::vector<NodeQuad> quad_;  // grid maps
  std::unique_ptr<SqueezeOptimum> sq_;  // pinch=allow: the nodes, edges and tautness rule (after fs_)
  // tangent_at(node, p) on a grid map, by signs (exact: the sign of a difference of doubles is).
  bool tangent_quad(Point p, std::uint32_t node) const {
    const NodeQuad& k = quad_[node];
    const double dx = p.x - k.x, dy = p.y - k.y;
    return !((dx > 0 && dy > 0) || (dx < 0 && dy < 0) ? k.qxy > 0 : (dx != 0 && dy != 0 && k.qxy < 0));
  }
  int shift_ = 1;  // 1: two taut states per node; 0: one vertex per node
  // skip=1 after an update: the skip graph and landmarks owed (skip_owed(); owed.hpp), and the
  // landmarks' count to derive then; the derivation's price (skip_price()).
  static std::uint64_t skip_price(const CsrGraph& taut);
  OwedWork skip_owed_;
  int owed_alt_ = 0;
  // block > 0, defer=1, after an update: the block lists owed (lists_owed()), at the price of
  // making them (lists_price(n) for n corners, in query sweeps); made by derive_lists().
  static std::uint64_t lists_price(std::size_t corners);
  void derive_lists();
  void sweep_all(std::vector<std::pair<std::uint32_t, std::uint32_t>>* joined);  // build.cpp
  void derive_skip();  // the skip graph and landmarks when owed
  OwedWork lists_owed_;
  // labels=1 after an update: the labels and their landmarks owed (labels_owed()), made by
  // derive_labels() from the corners' graph kept meanwhile, with owed_label_alt_ landmarks.
  void derive_labels();
  OwedWork labels_owed_;
  CsrGraph owed_corners_;
  int owed_label_alt_ = 0;
  bool defer_ = true;
  std::size_t pairs_ = 0;
  // graph_ (inherited), the searched graph: the taut-state graph, or with skip=1 the skip graph.
  TautSkipGraph skip_;
  Landmarks landmarks_;
  Landmarks label_landmarks_;  // labels=1: over the corners (one vertex each), for labels_search's bound
  DistanceTable table_;
  HubLabels labels_;
  // pos_ (inherited), per vertex: read by the heuristic in the search loop, kept inline.
  Params params_;           // as given; update() takes the defaults of the new map from them
  int block_ = 0, table_mb_ = 1024, labels_mb_ = 1024;
  // What only update() keeps (update.cpp), from the first update on: per node its partners, and
  // the rows its sweep read (from env_row0, one [x0, x1] per row, x0 > x1 for none); and its
  // scratch: changed cells grown by one (bit 1 freed, 2 blocked, zero between updates), rows
  // holding one, per such row prefix counts of either kind.
  struct UpdateState {
    bool tracked = false;
    std::size_t swept = 0;
    std::vector<std::uint32_t> adj_off, adj;
    std::vector<std::uint32_t> env_off;
    std::vector<std::int32_t> env_row0;
    std::vector<std::pair<std::uint16_t, std::uint16_t>> env;
    std::vector<std::uint8_t> grown, row_hit;
    std::vector<int> hit_rows;
    std::vector<std::pair<std::uint16_t, std::uint16_t>> runs;  // per row holding one, its runs of grown cells
    std::vector<std::pair<std::uint32_t, std::uint32_t>> run_at;  // per row: its runs in `runs` (rows with row_hit)
    std::size_t partly = 0;
    std::vector<std::uint32_t> freed, blocked;
  };
  UpdateState upd_;
};

}  // namespace navbench
