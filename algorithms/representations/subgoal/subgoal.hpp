// subgoal (table=1 up to 1,024 subgoals, else levels=16) / subgoal:levels=1 / subgoal:levels=2: subgoal graphs over an 8-connected grid (Uras, Koenig & Hernández,
// "Subgoal Graphs for Optimal Pathfinding in Eight-Neighbor Grids", ICAPS 2013; Uras & Koenig,
// "Identifying Hierarchies for Fast Optimal Search", AAAI 2014; the GPPC 2012/2014 entries).
//
// Subgoals are the free cells at the convex corners of blocked cells (a cell whose diagonal
// neighbour is blocked while the two cells between them are free). Two cells are h-reachable when
// the octile distance between them is the length of a shortest grid8 path (no corner cutting);
// direct-h-reachable when, in addition, no such path passes through another subgoal. The simple
// subgoal graph (levels=1) links every subgoal to its direct-h-reachable subgoals, found with the
// paper's clearance scan (GetDirectHReachable). A query point joins the subgoals that are
// direct-h-reachable from its cell (plus a direct start-goal link when the goal cell is); each edge
// stands for a diagonal-first (or straight-first) octile path, so every path is a grid8 path.
//
// levels=2 splits subgoals into global and local ones, in the manner of the paper's two-level
// graph (TSG) and its N-level generalisation (Uras & Koenig 2014): locals are contracted out of the
// searched graph one by one (shortcuts between neighbours where no witness path is as short, as in
// contraction hierarchies, Geisberger et al. 2008), each keeping its edges to the neighbours left
// at that moment (its upward edges). The searched graph holds the globals' edges and each local's
// upward edges (directed), so a search climbs from the start's subgoals lazily, as the N-level
// query of Uras & Koenig 2014 does; the goal links to its direct-h-reachable subgoals and to
// everything upward of the locals among them (the descent, seen from the goal). See contraction.cpp.
//
// ch=1: the simple subgoal graph in a contraction hierarchy, every subgoal contracted (Uras &
// Koenig, "Subgoal Graphs in Contraction Hierarchies", SoCS 2018, the GPPC 2019 entry SGCH), each
// query a bidirectional upward search from the start's and the goal's direct-h-reachable subgoals
// (table_search(): the exact answer without the shared A*). See ch.cpp.
//
// labels=1: hub labels over the simple subgoal graph (representations/hub_labels.hpp: pruned landmark
// labelling, Akiba, Iwata & Yoshida, SIGMOD 2013), each query answered from them without a search
// as from the table: the least start link + d(a, b) + goal link, d by the labels (labels_search()).
// The grid-track counterpart of visgraph's labels=1; memory grows with the label entries (a few
// hundred per subgoal on large maps) instead of the table's subgoals^2.
//
// table=1 (the default on maps of up to 1,024 subgoals): the simple subgoal graph's all-pairs
// distances answer a query without a search, as visgraph's corner table does (distance_table.hpp).
//
// update() (docs/changing-maps.md) rescans only the subgoals and cells whose clearance scan read a cell near a
// change, repairs the all-pairs table (table=1) and derives the graph (and ch=1's hierarchy) again;
// with levels >= 2 it leaves the contraction owed, derived by the query that passes the rule of
// owed_search() (query.cpp); see update.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/distance_table.hpp"
#include "representations/hub_labels.hpp"
#include "representations/landmarks.hpp"
#include "representations/owed.hpp"
#include "representations/representation.hpp"

namespace navbench {

namespace subgoal_detail {
struct ChEdge;
}

class SubgoalGraph : public BuiltGraph<CsrGraph>, public StoredPositions {
 public:
  // Parameters: table=1 (default up to 1,024 subgoals unless levels, alt or active is named): the
  // simple subgoal graph's all-pairs distances, each query answered from them (table_search());
  // levels=1 (simple subgoal graph), 2 (two-level), up to 16 (N-level: N-1 local layers; the
  // default without the table); reach=1 (default up to 2^20 cells, 2^18 with labels) / 0: per-cell lists of
  // direct-h-reachable subgoals for locate, or the clearance scan per query; alt=K: K ALT landmarks
  // (default 16 without the table; 0: the octile heuristic alone), active=M of them per query
  // (default 4; 0: all); ch=1 and labels=1: see above.
  SubgoalGraph(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): what it does, and its parameters (the
  // automatic defaults as said above).
  static constexpr Capabilities kCapabilities{.grid_only = true, .grid8_optimal = true, .point_vertices = true,
                                              .update_in_place = true, .update_deferred = true, .table_search = true, .pieces = true};
  static constexpr std::array kParams{
      ParamDecl{"table", ParamType::flag, 0, 0, 1, "all-pairs distances of the simple graph: a query needs no search", "1 up to 1,024 subgoals unless levels, alt, active, ch or labels is named"},
      ParamDecl{"ch", ParamType::flag, 0, 0, 1, "contraction hierarchy over the simple graph, bidirectional upward query (SGCH)"},
      ParamDecl{"labels", ParamType::flag, 0, 0, 1, "hub labels over the simple graph: a query needs no search"},
      ParamDecl{"labels_mb", ParamType::integer, 1024, 1, 1 << 20, "largest hub labels (MiB); the build is refused above"},
      ParamDecl{"levels", ParamType::integer, 0, 1, 16, "1 simple, 2 two-level, more N-level", "16; 1 with the table, ch or labels"},
      ParamDecl{"reach", ParamType::flag, 0, 0, 1, "per-cell lists of direct-h-reachable subgoals for locate", "1 up to 2^20 cells, 2^18 with labels"},
      ParamDecl{"alt", ParamType::integer, 0, 0, 64, "ALT landmarks on the simple graph (0: none)", "16; 0 with the table or ch"},
      ParamDecl{"active", ParamType::integer, 4, 0, 64, "landmarks evaluated per query (0: all)"},
      ParamDecl{"defer", ParamType::flag, 1, 0, 1,
                "changing maps: an update leaves the N-level contraction and the hub labels owed to the queries (ski rental; 0: the update makes them)"}};
  static constexpr std::array kClashes{
      ParamClash{"table", 1, "levels", 2, 16, "subgoal: table=1 is over the simple subgoal graph; it takes levels=1"},
      ParamClash{"ch", 1, "table", 1, 1, "subgoal: ch=1 and table=1 are two ways to answer without the shared A*; name one"},
      ParamClash{"ch", 1, "levels", 2, 16, "subgoal: ch=1 contracts every subgoal; it takes no levels"},
      ParamClash{"labels", 1, "table", 1, 1, "subgoal: labels=1 and table=1 are two ways to answer without the shared A*; name one"},
      ParamClash{"labels", 1, "ch", 1, 1, "subgoal: labels=1 and ch=1 are two ways to answer without the shared A*; name one"},
      ParamClash{"labels", 1, "levels", 2, 16, "subgoal: labels=1 is over the simple subgoal graph; it takes levels=1"}};
  // Every path is a grid8 path: octile and Chebyshev heuristics are admissible (search/astar.hpp).
  static constexpr bool grid_path_costs = true;
  // table=1: the query answered from the all-pairs table without a search (query.cpp); labels=1:
  // from the hub labels (labels_search()); ch=1: the
  // contraction hierarchy's bidirectional query (ch.cpp); nullopt otherwise (the shared A* searches).
  std::optional<double> table_search(Query& q, std::size_t& steps) const;

  // The goal's links (with the upward closure, levels >= 2); also right for a start.
  std::optional<Attachment> attach(Point p) const { return attach_as(p, true); }
  // Role-specific links: the start needs only its direct-h-reachable subgoals (the searched
  // graph climbs from them), the goal the closure.
  std::optional<Attachment> attach_start(Point p) const { return attach_as(p, false); }
  std::optional<Attachment> attach_goal(Point p) const { return attach_as(p, true); }
  // ALT landmark distances (alt=K, see the constructor; nullptr with alt=0), over the simple
  // subgoal graph, whose distances are the grid's (landmarks.hpp).
  const Landmarks* landmarks() const { return landmarks_.k() ? &landmarks_ : nullptr; }
  bool direct(const Query& q) const;
  // The cost of the direct start-goal link: an octile path between the two cells, not a segment.
  double direct_cost(const Query& q) const;
  Polyline polyline(const Query& q) const;
  // The path in pieces (SPEC §15; representation.hpp's HasPieces): after the search over the
  // subgoal graph, the first piece is the start's side and the abstract path's first edge refined
  // (its first moves); the second refines the rest and adds the goal's side.
  bool first_piece(Query& q, Polyline& out) const;
  bool next_piece(Query& q, Polyline& out) const;
  BuildStats stats() const;
  // docs/changing-maps.md: brings the graph up to date after `changed` cells of m (the map it was built on, its
  // cells already new) changed; the result equals a fresh build of m. False for another map's size.
  bool update(const Map& m, const std::vector<CellChange>& changed);

  // For tests and the build report.
  bool is_subgoal(int x, int y) const { return vertex_at(x, y) >= 0; }
  std::size_t num_subgoals() const { return pos_.size(); }
  std::size_t num_global() const;
  bool is_local(Vertex v) const { return !local_.empty() && local_[v]; }
  int levels() const { return levels_; }
  bool table() const { return table_on_; }
  bool ch() const { return ch_; }
  // The all-pairs table over the simple subgoal graph (table=1; nullptr without), for tests. (Not
  // named distance_table(): the shared A* would take it as its heuristic, search/astar.hpp, where
  // subgoal's searches keep the octile one.)
  const DistanceTable* all_pairs_table() const { return table_.empty() ? nullptr : &table_; }
  // Hub labels over the simple subgoal graph (labels=1; nullptr without).
  const HubLabels* hub_labels() const { return labels_.empty() ? nullptr : &labels_; }
  // Clearance scans the last update ran: subgoals and (reach=1) cells (all of them on the first).
  std::size_t last_rescanned() const { return upd_.rescanned; }
  // reach=1: free non-subgoal cells whose list an update dropped (kStale) instead of scanning them
  // again; a query from such a cell scans it (as reach=0 does). 0 before the first update.
  std::size_t stale_cells() const { return upd_.stale; }
  // levels >= 2 after an update: whether the contraction is owed (update.cpp, docs/changing-maps.md):
  // the searched graph is the simple subgoal graph until the queries since the update have settled
  // more vertices than the last contraction's witness searches did, then the query that passes
  // that count derives it (table_search()).
  bool contraction_owed() const { return owed_.owed(); }
  // labels=1, defer=1, after an update: the hub labels are owed (update.cpp): the queries search
  // the simple subgoal graph with the shared A* (exact), their expansions paid (searched()), until
  // they pass the price of the last labels' making (HubLabels::settled(), vertices settled); the
  // query that finds them due makes them (table_search(), in its own time).
  bool labels_owed() const { return labels_owed_.owed(); }
  std::uint64_t labels_price() const { return labels_owed_.price(); }
  std::uint64_t labels_paid() const { return labels_owed_.paid(); }
  // Derives now what an update left owed, the contraction and the labels (as the rule's query
  // would; HasOwedWork).
  void derive_owed() {
    if (owed_.owed()) derive_contraction();
    derive_labels();
  }
  // Vertices the last contraction's witness searches settled (levels >= 2), and those the owed
  // state's queries have settled since the last update (the rule's two sides).
  std::uint64_t contraction_settled() const { return contraction_settled_; }
  std::uint64_t owed_settled() const { return owed_.paid(); }
  // The shared A*'s report of one search on graph() (search/astar.hpp, HasSearchReport): while the
  // contraction is owed, its expansions are added to owed_settled().
  void searched(std::size_t expansions) const;
  // Per graph entry: 0 = its octile path runs diagonal-first from the source, 1 = straight-first
  // (a shortcut's: 0, refined through its local).
  std::uint8_t edge_shape(std::uint32_t entry) const { return shape_[entry]; }

 private:
  using Cell = std::uint32_t;  // index into the padded grid (one blocked border cell all round)
  static constexpr std::uint32_t kNone = ~std::uint32_t(0);
  // reach_at_ of a cell whose list an update did not scan again (update.cpp): reach() scans it.
  static constexpr std::uint32_t kStale = kNone - 1;

  Cell cell(int x, int y) const { return Cell((y + 1) * pw_ + (x + 1)); }
  int cx(Cell c) const { return int(c % unsigned(pw_)) - 1; }
  int cy(Cell c) const { return int(c / unsigned(pw_)) - 1; }
  std::int32_t vertex_at(int x, int y) const {
    return (x < 0 || y < 0 || x >= w_ || y >= h_) ? -1 : vertex_[cell(x, y)];
  }
  bool free(Cell c) const { return free_[c] != 0; }
  // Whether cell c is a subgoal, from the bitset (subgoal_bits_): what vertex_[c] >= 0 says, in an
  // array 32 times smaller, so that the clearance scan's many tests stay in cache.
  bool is_sg(Cell c) const { return (subgoal_bits_[c >> 6] >> (c & 63)) & 1; }
  // subgoal_bits_ from vertex_ (after every change to the subgoals).
  void set_subgoal_bits();
  // A diagonal step from c by (dx, dy) without cutting a corner.
  bool diag_ok(Cell c, int dx, int dy) const {
    return free_[c + dx] && free_[c + dy * pw_] && free_[c + dx + dy * pw_];
  }
  // The same test for a free cell c from the clearances alone (h, v: the directions of dx and dy):
  // a free cell's clearance towards a neighbour is 0 exactly when that neighbour is blocked
  // (fill_clearances), and the diagonal cell is the vertical neighbour of c + dx. The clearance
  // scan reads these clearances anyway, so a step reads one array instead of two.
  bool diag_clear(Cell c, int dx, int h, int v) const {
    return clear_[c][h] != 0 && clear_[c][v] != 0 && clear_[Cell(std::int64_t(c) + dx)][v] != 0;
  }
  // How far a clearance scan from a cell read, per quadrant (dy > 0) * 2 + (dx > 0): the cells it
  // read lie in the boxes from the cell to (x +- x[q], y +- y[q]) (update()).
  struct Extent {
    std::uint16_t x[4], y[4];
  };
  // Subgoals direct-h-reachable from cell c (c itself excluded): the paper's clearance scan.
  template <class F>
  void direct_h_reachable(Cell c, F&& out) const;
  // The same scan; with Track, also the extent of the cells it read.
  template <bool Track, class F>
  void scan(Cell c, F&& out, Extent* ext) const;
  bool corner(Cell c) const;                 // a subgoal's test (Definition 1), c free
  void fill_clearances(std::span<const int> lines, bool rows);  // clear_ along rows (E, W) or columns (S, N)
  void label_components();
  struct EdgeShape {  // free_shape of graph edges, shortcut by the scans' lists when kept
    const SubgoalGraph& g;
    std::vector<Vertex> mark{};
    Vertex current = kNone;
    int operator()(Vertex u, Vertex v);
  };
  // The searched graph from the simple subgoal graph's edges: CSR, shapes, the contraction.
  // old_of_new (an update's): per subgoal its id before the update (-1: new), for the parts
  // repaired in place.
  void finish(std::vector<CsrGraph::WeightedEdge> edges, const std::vector<std::int32_t>* old_of_new = nullptr);
  // Whether cell t is direct-h-reachable from cell s under the same scan (t need not be a subgoal).
  bool reaches(Cell s, Cell t) const;
  // Whether the diagonal-first (shape 0) or straight-first (shape 1) octile path from a to b is
  // free (no blocked cell, no corner cut); -1 when neither is.
  int free_shape(Cell a, Cell b) const;
  Polyline side(Point p, Vertex v) const;  // query.cpp: a query point's cells to its path end
  void append_path_edge(const Query& q, std::size_t k, Polyline& out) const;
  // Appends the turn point and b's centre of the octile path a -> b of the given shape.
  void append_octile(Polyline& out, Cell a, Cell b, int shape) const {
    append_octile_xy(out, cx(a), cy(a), cx(b), cy(b), shape);
  }
  // The same between cells (ax, ay) and (bx, by).
  static void append_octile_xy(Polyline& out, int ax, int ay, int bx, int by, int shape);
  // Appends the cells of the graph edge a -> b (a's centre already in out), refining shortcuts.
  void append_edge(Polyline& out, Vertex a, Vertex b) const;
  // The free cells whose closed square holds p (grid8's rule, pinch points included).
  int cells_of(Point p, Cell out[4]) const;
  double octile(Cell a, Cell b) const;
  // The same from two points' coordinate differences (whole numbers, as between cell centres; the
  // one formula, octile() calls it): the query's hot loops take them from pos_, without the
  // divisions cx() and cy() make.
  static double octile_d(double dx, double dy) {
    dx = std::abs(dx), dy = std::abs(dy);
    return (std::max(dx, dy) - std::min(dx, dy)) + std::min(dx, dy) * M_SQRT2;
  }
  Point centre(Cell c) const { return {cx(c) + 0.5, cy(c) + 0.5}; }
  // Best direct start-goal connection: cost and cells (cost +inf when there is none).
  struct DirectPlan {
    double cost;
    Cell s, g;
    bool same_cell;
  };
  DirectPlan plan_direct(const Query& q, bool need_free_shape) const;
  // One stored edge a -> b of the graph.
  struct EdgeRef {
    std::uint32_t index;  // CSR entry
    bool reversed;        // stored as b -> a
  };
  std::optional<EdgeRef> find_edge(Vertex a, Vertex b) const;
  // What a query point reaches: the subgoals direct-h-reachable from its cells (pred -1, from
  // cells_of's cell `cell`), then (levels=2) everything upward of the locals among them (pred =
  // index of the entry it came from). Each vertex once, at its least cost.
  struct Reach {
    Vertex v;
    double cost;
    std::int32_t pred;
    std::int8_t cell;
  };
  void reach(Point p, bool closure, std::vector<Reach>& out) const;
  std::optional<Attachment> attach_as(Point p, bool closure) const;
  void build_two_level();
  // The searched graph from the contraction's lists (contraction.cpp): a global's edges, a local's upward ones.
  void store_two_level(const std::vector<std::vector<subgoal_detail::ChEdge>>& adj,
                       const std::vector<std::vector<subgoal_detail::ChEdge>>& up);
  // ch=1 (ch.cpp): contracts every subgoal, stores the hierarchy (store_ch), answers a query.
  void build_ch();
  void store_ch(const std::vector<std::vector<subgoal_detail::ChEdge>>& up);
  std::optional<double> ch_search(Query& q, std::size_t& steps) const;
  // labels=1: the query answered from the hub labels.
  double labels_search(Query& q, std::size_t& steps) const;
  // levels >= 2 with the contraction owed (query.cpp): nullopt either way, the shared A* then
  // searching the simple subgoal graph (graph_ while owed), or, once the rule says so, the
  // contracted graph, the contraction derived and the query's links made again.
  std::optional<double> owed_search(Query& q, std::size_t& steps) const;
  void derive_contraction();

  int w_ = 0, h_ = 0, pw_ = 0, levels_ = 1, alt_ = 0, active_ = 0, labels_mb_ = 1024;
  bool table_on_ = false, ch_ = false;
  // levels >= 2: the contraction owed since an update (finish()), at the price of the last
  // contraction's witness searches (contraction_settled()), the queries paying in settled
  // vertices (owed.hpp).
  OwedWork owed_;
  std::uint64_t contraction_settled_ = 0;
  // labels=1: the labels owed since an update (finish()), made by derive_labels() over graph_.
  void derive_labels();
  OwedWork labels_owed_;
  bool defer_ = true;  // defer=0: an update makes the contraction and the labels itself
  Landmarks landmarks_;
  DistanceTable table_;                       // table=1: over the simple subgoal graph, made by finish()
  HubLabels labels_;                          // labels=1: over the simple subgoal graph, made by finish()
  bool labels_on_ = false;
  std::vector<std::uint8_t> free_;            // padded grid, 1 = free
  // Per padded cell, E, W, S, N: steps to the first subgoal or last free cell; the four of a cell side
  // by side, so that the clearance scan reads one cache line where it needs two or four of them.
  std::vector<std::array<std::uint16_t, 4>> clear_;
  std::vector<std::int32_t> vertex_;          // padded cell -> subgoal vertex or -1
  std::vector<std::uint64_t> subgoal_bits_;   // padded cell -> 1 bit: a subgoal (is_sg())
  std::vector<std::int32_t> component_;       // padded cell -> 4-connected free component or -1
  std::vector<Cell> cell_of_;                 // vertex -> padded cell
  // reach=1: per free non-subgoal cell its direct-h-reachable subgoals, packed (see the packed reach lists in
  // internal.hpp): reach_at_[cell] is where its list starts in reach_data_ (a count, then the
  // sorted ids as deltas in one or two 16-bit units); equal lists of neighbouring cells are stored once.
  // After an update, kStale for the cells whose list it would have had to scan again (update.cpp).
  std::vector<std::uint32_t> reach_at_;
  std::vector<std::uint16_t> reach_data_;
  // Appends cell c's list (ids, sorted here) to reach_data_, sharing an equal earlier list of the
  // previous cell written or of the cell above.
  void put_reach(Cell c, std::vector<Vertex>& ids, std::uint32_t& prev);
  // Calls f(v) for each subgoal in cell c's stored list.
  template <class F>
  void for_reach(Cell c, F&& f) const;
  // pos_ (inherited): vertex -> cell centre.
  std::vector<std::uint8_t> local_;           // vertex -> local (levels=2)
  std::vector<std::uint32_t> rank_;           // vertex -> contraction order (locals), kNone for globals
  std::vector<Vertex> by_rank_;               // contraction order -> local (levels >= 2)
  // What only update() keeps (update.cpp), from the first update on: per subgoal the cells its
  // scan reported, in scan order (CSR), and per subgoal / per cell (reach=1) the extent of the
  // cells its scan read.
  struct UpdateState {
    bool tracked = false;
    std::vector<std::uint32_t> scan_off;
    std::vector<Cell> scan_to;
    std::vector<Extent> sg_ext;               // vertex -> extent
    std::vector<Extent> cell_ext;             // reach=1: padded cell -> extent (free non-subgoal cells)
    std::size_t rescanned = 0;
    std::size_t stale = 0;  // reach=1: cells whose reach_at_ is kStale
  };
  UpdateState upd_;
  // update()'s steps (update.cpp): D, the changed cells grown by one, and whether a scan read it.
  struct ChangeRegion;
  void renumber_subgoals(const ChangeRegion& d, std::vector<std::int32_t>& old_of_new, std::vector<std::int32_t>& new_of_old);
  void update_clearances(const ChangeRegion& d);
  std::size_t rescan_subgoals(const ChangeRegion& d, const std::vector<std::int32_t>& old_of_new);
  std::size_t rescan_reach(const ChangeRegion& d, const std::vector<std::int32_t>& new_of_old);
  // graph_ (inherited), the searched graph: the globals' edges, the locals' upward edges (levels >= 2).
  std::vector<std::uint8_t> shape_;           // per graph_ entry: octile path shape from the source
  std::vector<std::uint32_t> via_;            // per graph_ entry: the local a shortcut bypasses, or kNone
  std::vector<std::uint32_t> ch_up_end_;      // ch=1: per subgoal, the end of its upward entries in graph_
  // Query-time scratch lives per thread (`--threads N` searches one build from several threads):
  // reach()'s vertex -> entry slots (-1 = none) and the last two reach() results of attach()
  // (start and goal), so polyline() need not redo them. Keyed by id_, unique per build.
  struct Reached {
    Point p{-1, -1};
    bool closure = false;
    std::vector<Reach> r;
  };
  struct Scratch {
    std::uint64_t owner = 0;
    std::vector<std::int32_t> slot;
    std::vector<std::uint64_t> pending;  // reach()'s closure queue: one bit per local rank, all clear between calls
    std::vector<std::uint64_t> summary;  // one bit per nonzero word of pending
    Reached reached[2];
    int next = 0;
    std::vector<Vertex> stale_ids;  // reach(): a stale cell's scan, sorted as its list would be
    // ch_search(): per direction (0 from the start, 1 from the goal) the distances (+inf between
    // queries), predecessors (-1: a link), open list (a binary heap, lazy deletion); the vertices touched.
    std::vector<double> ch_dist[2];
    std::vector<std::int32_t> ch_pred[2];
    std::vector<std::pair<double, Vertex>> ch_open[2];
    std::vector<Vertex> ch_touched;
    // labels_search(): the last path read from the labels and, per step, its edge's shape bits
    // (HubLabels::path's steps), so that polyline() draws it without finding its edges.
    std::vector<std::uint8_t> label_steps;
  };
  Scratch& scratch() const;
  static std::uint64_t next_build_id();  // unique per build and per update
  std::uint64_t id_ = 0;
};

}  // namespace navbench
