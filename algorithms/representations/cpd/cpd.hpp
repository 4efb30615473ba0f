// cpd: a compressed path database on the 8-connected grid (docs/cpd.md). The first move of an
// optimal grid8 path between every two free cells, in a table built once (one Dijkstra per free
// cell, over threads) and compressed by run-length encoding each source's row over a depth-first
// node order (table.hpp; SRC: Strasser, Harabor & Botea, SoCS 2014; Strasser, Botea & Harabor, JAIR
// 54, 2015). A query walks the path one first move at a time, each a binary search in a row: no
// search, and the first move is known after one lookup (first_move(), for planners that hand a
// path out in pieces).
//
// It answers through the representation contract: its graph is grid8's (the same cells, moves,
// attachment and direct link), and table_search() answers every query the shared A* would answer
// exactly (an admissible heuristic) from the table, so its lengths are grid8's optima. A query with a
// heuristic the A* is not exact with (weight > 1) runs that A* over the grid instead.
#pragma once
#include <array>
#include <optional>
#include <string>

#include "representations/cpd/table.hpp"
#include "representations/grid/grid.hpp"

namespace navbench {

class CompressedPathDatabase {
 public:
  using Graph = GridGraph;
  // Grid maps, unweighted (no `weights`: not_applicable on a weighted map); no update() (a changing
  // map rebuilds it); a radius as grid8 meets it, on the map shrunk by R (its own table).
  static constexpr Capabilities kCapabilities{.grid_only = true, .grid8_optimal = true, .point_vertices = true,
                                              .table_search = true, .pieces = true};
  // Opt-in: a sweep's {"every": true} leaves it out (its table costs minutes of build on a large map,
  // one Dijkstra per free cell; docs/cpd.md).
  static constexpr bool kOptIn = true;
  static constexpr std::array kParams{
      ParamDecl{"threads", ParamType::integer, 1, 1, 256, "threads building the table (one Dijkstra per free cell each)"},
      ParamDecl{"order", ParamType::choice, 0, 0, 1, "the node order the rows are run-length encoded over", nullptr,
                cpd::kOrderNames},
      ParamDecl{"max_cells", ParamType::integer, 100000, 1, double(cpd::kMaxCells),
                "largest map it builds a table for, in free cells (the build is refused above)"},
      ParamDecl{"cache", ParamType::text, 0, 0, 0,
                "an existing folder of table files: the map's table read from it when there, written to it after a build"},
      ParamDecl{"piece", ParamType::integer, 1, 0, 1000000,
                "first moves handed out a call (the path in pieces, SPEC §15); 0: the whole path in one call"}};
  // Every path runs between cell centres by grid8 moves, a query point joining its cell's centre
  // straight: the octile heuristic is admissible towards a goal on the half-cell lattice
  // (search/astar.hpp, admissible_for), so such queries are answered from the table too.
  static constexpr bool grid_path_costs = true;

  CompressedPathDatabase(const Map& map, Params& params);

  const Graph& graph() const { return grid_.graph(); }
  auto weights() const { return grid_.weights(); }
  Point position(Vertex v) const { return grid_.position(v); }
  std::optional<Attachment> attach(Point p) const { return grid_.attach(p); }
  bool direct(const Query& q) const { return grid_.direct(q); }
  Polyline polyline(const Query& q) const { return polyline_through_positions(*this, q); }
  BuildStats stats() const;
  void structure(const SegmentSink& emit) const { grid_.structure(emit); }
  // The query from the table: the least start link + path + goal link over the links' cells (each
  // path walked by first moves, pairs in order of their octile bound, stopping when no bound can
  // beat the best), against the direct link. +inf: no path.
  std::optional<double> table_search(Query& q, std::size_t& steps) const;

  // The path in pieces (SPEC §15; representation.hpp's HasRoute), `piece` first moves a call: a
  // query whose points each join one cell (a point inside a cell: every query at the centre
  // convention) is a route, its moves looked up as they are handed out; with several cells on a
  // side (a point on a cell's side or corner) the best pair needs each pair's walked cost, so
  // table_search() answers and the path comes whole, as it does with piece=0 and inside one cell.
  std::optional<bool> route(Query& q) const;
  bool first_piece(Query& q, Polyline& out) const;
  bool next_piece(Query& q, Polyline& out) const;

  // The move (GridEdge::dir) of an optimal path from free cell `from` to free cell `to` of the same
  // component, from != to: one binary search in from's row.
  unsigned first_move(Vertex from, Vertex to) const {
    return table_.first_move(order_.rank_of[from], order_.rank_of[to]);
  }
  // An optimal path from `from` to `to` by first moves, cells from first to last, into `path`; its
  // cost as table.hpp's integer key. Throws std::runtime_error if the table's moves left the grid's
  // moves or did not arrive (a table that is not this map's: never one the cache let through).
  std::uint64_t walk(Vertex from, Vertex to, std::vector<Vertex>& path) const;
  bool reachable(Vertex from, Vertex to) const {
    return order_.component[order_.rank_of[from]] == order_.component[order_.rank_of[to]];
  }

  const cpd::FirstMoveTable& table() const { return table_; }
  const cpd::NodeOrder& order() const { return order_; }
  // The uncompressed first-move table this one stands for: a byte per (source, target) pair of
  // free cells (a move needs 3 bits; SRC's papers count such a table in bytes too).
  std::size_t uncompressed_bytes() const { return order_.size() * order_.size(); }
  bool from_cache() const { return from_cache_; }

 private:
  struct Settings {
    unsigned threads = 1;
    cpd::Order order = cpd::Order::hilbert;
    std::size_t max_cells = 0;
    std::string cache;  // "" = no cache
    std::size_t piece = 1;  // first moves a piece; 0: the whole path at once
  };
  static Settings read(Params& params);
  CompressedPathDatabase(const Map& map, const Settings& s);
  void make_table(const Map& map, const Settings& s);

  Grid8 grid_;
  cpd::NodeOrder order_;
  cpd::FirstMoveTable table_;
  bool from_cache_ = false;
  std::size_t piece_ = 1;
};

}  // namespace navbench
