// The compressed first-move table of the 8-connected grid (cpd.hpp): for every free cell s and every
// free cell t, a move of an optimal grid8 path from s to t, each source's row run-length encoded
// over a node order that makes the runs long. This is SRC, the compressed path database of
// Strasser, Harabor & Botea, "Fast First-Move Queries through Run-Length Encoding" (SoCS 2014),
// and of Strasser, Botea & Harabor, "Compressing Optimal Paths with Run Length Encoding" (JAIR 54,
// 2015): one Dijkstra per source computes, for every target, the set of its optimal first moves;
// the row is then cut greedily into the fewest runs whose targets share an optimal move (the
// intersection of the sets along the run stays non-empty: a target with several optimal moves
// takes the one that extends the run before it, as SRC's rows are made from such sets, and the
// source and the targets it cannot reach take any move); a query is a binary search in a row.
//
// The graph is grid8's (representations/grid/grid.hpp): octile costs, a diagonal move only when both
// orthogonal cells are free. Directions are GridEdge::dir: 0..3 E, W, S, N (cost 1), 4..7 SE, NE,
// SW, NW (cost sqrt 2).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "representations/grid/grid.hpp"

namespace navbench::cpd {

// The order of the free cells over which rows are encoded (the columns of the table). A row's runs
// are the stretches of targets that share an optimal first move; targets of one move lie in a few
// angular sectors around the source, so an order that keeps cells near each other in the plane
// near each other in the order makes the runs long.
//   hilbert: the order of the cells along a Hilbert curve over the map (Hilbert, "Ueber die stetige
//            Abbildung einer Linie auf ein Flaechenstueck", Math. Ann. 38, 1891): every aligned
//            square of 2^k cells is one stretch of the order (a recursive cut of the plane). The
//            default: on den520d half the runs of dfs, on brc202d two thirds (docs/cpd.md).
//   dfs:     the preorder of a depth-first search over the grid's moves, started from each unvisited
//            free cell in row-major order (the papers' DFS order, SoCS 2014; as the CPD code of the
//            2023 competition archive's gppc_suboptCPD makes it, compute_real_dfs_order): each
//            free-space component is one block of the order.
//   rows:    row-major order of the free cells (the papers' input order), for comparison.
enum class Order : std::uint8_t { hilbert = 0, dfs = 1, rows = 2 };
inline constexpr const char* kOrderNames = "hilbert,dfs,rows";
const char* to_string(Order o);

// The free cells in order: rank -> cell and cell -> rank, and each rank's free-space component
// (8-connected without corner cutting, which is 4-connected: docs/maps.md).
struct NodeOrder {
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> cell_of;    // rank -> cell id (y * width + x)
  std::vector<std::uint32_t> rank_of;    // cell id -> rank, kNone for a blocked cell
  std::vector<std::uint32_t> component;  // rank -> component number (0, 1, ... by the first cell in row-major order)
  std::size_t size() const { return cell_of.size(); }
  std::size_t memory_bytes() const {
    return (cell_of.capacity() + rank_of.capacity() + component.capacity()) * sizeof(std::uint32_t);
  }
};
// The order of the map's free cells (g: the map's grid8 moves).
NodeOrder make_order(const GridMap& map, const GridGraph& g, Order o);

// Exact octile costs as integers: a path of a straight and b diagonal moves costs
// a * kStraight + b * kDiagonal, kDiagonal = round(sqrt(2) * 2^40). Sums are exact, and two paths
// compare as their true costs a + b sqrt(2) do, ties included, while the diagonal counts differ by
// less than 1.2 million (|(a - a') + (b - b') sqrt 2| >= 1 / (2.9 |b - b'|) for b != b', and the
// rounding moves a difference by at most 0.27 * 2^-40 * |b - b'|; equal keys with b != b' need
// b - b' to be a multiple of 2^38, as kDiagonal is 4 times an odd number). A shortest path has fewer
// moves than free cells, so kMaxCells bounds them, and a key stays below 2^61.
inline constexpr std::uint64_t kStraight = std::uint64_t(1) << 40;
inline constexpr std::uint64_t kDiagonal = 1554944255988ull;
inline constexpr std::size_t kMaxCells = 1'000'000;
inline double octile_cost(std::uint64_t key) { return double(key) / double(kStraight); }

class FirstMoveTable {
 public:
  // One entry of a row: the first target rank of a run (high 28 bits) and its move (low 4 bits).
  using Entry = std::uint32_t;
  static constexpr unsigned kMoveBits = 4;

  FirstMoveTable() = default;
  // The table of g's free cells in `order`, one Dijkstra per source, sources shared out to
  // `threads` threads. Throws std::invalid_argument above kMaxCells free cells.
  FirstMoveTable(const GridGraph& g, const NodeOrder& order, unsigned threads);
  // A table read back (cache.cpp): rows as stored, checked by the reader.
  FirstMoveTable(std::vector<std::uint64_t> row_begin, std::vector<Entry> entries)
      : begin_(std::move(row_begin)), entries_(std::move(entries)) {}

  // The move (0..7, GridEdge::dir) of an optimal path from rank s to rank t: a binary search in
  // s's row for the last run starting at or before t. s and t in one component, s != t (for
  // s == t or different components it is any move).
  unsigned first_move(std::uint32_t s, std::uint32_t t) const {
    const Entry* b = entries_.data() + begin_[s];
    const Entry* e = entries_.data() + begin_[s + 1];
    const Entry key = (t << kMoveBits) | ((1u << kMoveBits) - 1);
    // upper_bound by hand: the last entry <= key (the row's first entry starts at rank 0)
    std::size_t n = std::size_t(e - b);
    while (n > 1) {
      const std::size_t half = n / 2;
      b = b[half] <= key ? b + half : b;
      n -= half;
    }
    return *b & ((1u << kMoveBits) - 1);
  }

  std::size_t rows() const { return begin_.empty() ? 0 : begin_.size() - 1; }
  std::size_t runs() const { return entries_.size(); }
  std::span<const Entry> row(std::uint32_t s) const {
    return {entries_.data() + begin_[s], std::size_t(begin_[s + 1] - begin_[s])};
  }
  const std::vector<std::uint64_t>& row_begin() const { return begin_; }
  const std::vector<Entry>& entries() const { return entries_; }
  // The table's bytes: 4 per run and 8 per row (its start).
  std::size_t memory_bytes() const { return begin_.capacity() * sizeof(std::uint64_t) + entries_.capacity() * sizeof(Entry); }
  friend bool operator==(const FirstMoveTable&, const FirstMoveTable&) = default;

 private:
  std::vector<std::uint64_t> begin_;  // row s is entries_[begin_[s] .. begin_[s + 1])
  std::vector<Entry> entries_;
};

// One source's work, for the table and for a sample of rows (bench_cpd: a map too large to build
// whole): its Dijkstra's memory, and what the row came to. The search runs over ranks, not cells:
// its arrays hold the free cells only, in the order (on the Hilbert order a cell's neighbours are
// mostly near it in memory), and the row is read off them in place.
class RowBuilder {
 public:
  RowBuilder(const GridGraph& g, const NodeOrder& order);
  // Appends the row of rank s to `out` (its runs) and returns how many runs it has.
  std::size_t build(std::uint32_t s, std::vector<FirstMoveTable::Entry>& out);
  // Each target's set of optimal first moves after build(s) (bit d: move d), 0xFF for s itself and
  // for targets in other components (any move); by rank.
  const std::vector<std::uint8_t>& moves() const { return first_; }

 private:
  void dijkstra(std::uint32_t source);
  std::vector<std::uint8_t> move_mask_;  // by rank: the grid's moves out of the cell (GridEdge::dir bits)
  std::vector<std::uint32_t> next_;     // by rank, 8 each: the rank a move leads to
  std::uint64_t cost_[8];
  std::vector<std::uint64_t> dist_;     // by rank
  std::vector<std::uint8_t> first_;     // by rank: the optimal first moves found
  std::vector<std::pair<std::uint64_t, std::uint32_t>> queue_[2];  // by edge cost: straight, diagonal
};

}  // namespace navbench::cpd
