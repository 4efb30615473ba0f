// The reference optimum for weighted maps, `optimal_cost` (docs/terrain.md, "The reference optimum"): the least
// path cost C (geometry/path_cost.hpp) over a Steiner-point graph, searched exactly. It is an upper
// bound on the true weighted-region optimum (its paths are valid paths of the map) and converges to
// it as the point density m grows (Aleksandrov, Lanthier, Maheshwari & Sack, "An epsilon-
// approximation algorithm for weighted shortest paths on polyhedral surfaces", SWAT 1998;
// Mitchell & Papadimitriou, "The weighted region problem", JACM 1991, for why no exact algorithm).
//
// The graph:
// - Pieces: the free cells covered by axis-aligned rectangles of one weight (greedy: a row run
//   grown downward, sides capped at max_side cells). A piece is convex and of one weight, so a
//   straight segment inside it is valid and costs weight x length.
// - Points on every piece's boundary: on each unit cell side, both ends and the midpoint; a side
//   where the weight changes (two free cells of different weights, or free against blocked or
//   outside) gets an even number n >= m of equal steps, so points are at most 1/m apart and the
//   midpoint is one of them. Points are shared by the pieces that touch them. A pinch corner (two
//   diagonally opposite cells blocked) is a point of its own cell's piece only (FreeSpace's "own
//   sector": cell (x, y), else (x, y - 1)), so no path crosses between the two free cells there.
// - Edges (implicit): between any two points of one piece not on one side of it (a chord through
//   the piece, weight x length); along a side only between neighbours, priced by segment_cost (the
//   cheaper cell beside the side). The start and goal join every point of their own piece (and each
//   other when they share it), priced by segment_cost.
// - Search: A* with h = the larger of Euclidean distance x the map's least weight and the ALT
//   landmark bound (both admissible and consistent), an optional upper bound that prunes (e.g.
//   octile_optimal_cost), exact on the graph: graph_cost is the least C over the graph.
// - Refinement (optional, on by default): the graph's path then relaxes by Snell's law, each inner
//   point sliding along the cell side it lies on to its least-cost place between its neighbours
//   (coordinate descent on a convex function of the positions, the local refinement of Steiner
//   schemes: Mata & Mitchell, "A new algorithm for computing shortest paths in weighted planar
//   subdivisions", SoCG 1997, and Aleksandrov et al.). Between sweeps a point is dropped when the
//   segment joining its neighbours is valid and no dearer (cost-aware string pulling: a path stuck
//   on a corner where pieces meet diagonally, or on points in a row along a side, goes straight).
//   It never raises C (beyond 1e-12 relative of rounding) and keeps the path valid (a segment in
//   one piece is valid; any other is checked exactly by FreeSpace). It removes most of the snapping
//   to discrete points (at weight borders and at the artificial sides between pieces of one
//   weight), so `cost` is below the graph's optimum and still an upper bound on the true one; with
//   it m = 2 meets the convergence rule (docs/terrain.md: doubling m moves the mean by < 0.1 %), without it the inflation map needs m > 4.
// Every cell side's midpoint and ends are points, so every grid8 step (centre to centre, crossing a
// side's midpoint or a corner) has a chord no dearer inside each piece: the result is <=
// octile_optimal_cost.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "geometry/free_space.hpp"
#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

// The default point density, m = 2: every side's ends and midpoint where the weight changes (sides
// of one weight get 6 steps, below). With the refinement, doubling it moves the mean reference cost
// of the default job's weighted maps by less than the 0.1 % that rule allows (docs/terrain.md;
// harness/bench/bench_steiner.cpp); the graph alone would need m >= 8.
inline constexpr int kDefaultSteinerM = 2;

struct SteinerOptions {
  int m = kDefaultSteinerM;  // points at most 1/m apart on sides where the weight changes
  // Steps on a side between two free cells of one weight (even, >= 2): 2 is its ends and midpoint,
  // as the rule asks at least; more points there let straight paths through areas of one weight, which cross
  // many small pieces, snap less. The refinement keeps the graph's way round each obstacle, so where
  // two ways round a small obstacle differ by less than the graph's snapping error the graph may pick
  // the dearer one, and the reference ends above a valid path found otherwise. 6 by default: with 2,
  // and still with 4 on maps with blocked cells inside weighted regions, that went past the 0.1 %
  // SPEC §8 allows; with 6 it did not (docs/terrain.md, tests/test_weighted_reference.cpp).
  int uniform_steps = 6;
  // The longest side of a piece, in cells: a piece's points are all joined to each other, so a
  // settled point relaxes about its pieces' perimeters x 2m edges; the cap bounds that, at the
  // price of artificial sides a straight path must snap to.
  int max_side = 8;
  bool refine = true;  // Snell refinement of the graph's path (below)
  // ALT landmarks (Goldberg & Harrelson, SODA 2005): graph distances from this many points, chosen
  // farthest-first, make the heuristic max(Euclidean x least weight, |d_l(p) - d_l(goal)|); each
  // costs one full Dijkstra at build and 4 bytes per point. 0..16; 4 cut the queries several
  // times over for a longer build (docs/measurements.md).
  int landmarks = 4;
};

struct SteinerPath {
  double cost = 0;        // C of path (up to rounding)
  double graph_cost = 0;  // the graph's least cost, before the refinement (cost <= graph_cost)
  Polyline path;          // start ... goal, valid (FreeSpace::path_valid)
  long expansions = 0;    // points settled by the search
  int sweeps = 0;         // refinement sweeps made
};

class SteinerReference {
 public:
  // Reusable search memory (one per thread): reset in O(1) per query by a generation stamp.
  class Workspace {
   public:
    Workspace();
    ~Workspace();
    Workspace(Workspace&&) noexcept;
    Workspace& operator=(Workspace&&) noexcept;
    std::size_t memory_bytes() const;

   private:
    friend class SteinerReference;
    struct Impl;
    std::unique_ptr<Impl> impl_;
  };

  // Builds pieces and points once; g must outlive the reference. Throws std::invalid_argument
  // when m < 1, max_side < 1, uniform_steps is odd or < 2, or landmarks is not in 0..16.
  explicit SteinerReference(const GridMap& g, const SteinerOptions& o = {});
  SteinerReference(const GridMap& g, int m) : SteinerReference(g, SteinerOptions{m}) {}

  // The least cost path from s to g; nullopt when either point is not free, they lie in different
  // components, or no path costs at most upper_bound. Const and thread-safe: the first overload
  // uses a workspace of the calling thread.
  std::optional<SteinerPath> shortest(Point s, Point g,
                                      double upper_bound = std::numeric_limits<double>::infinity()) const;
  std::optional<SteinerPath> shortest(Point s, Point g, Workspace& ws,
                                      double upper_bound = std::numeric_limits<double>::infinity()) const;

  // The refinement shortest() applies (when enabled) to a path of this map: cost and path change,
  // graph_cost stays. Rounds of descent (a worklist of points whose neighbours moved; in all at most
  // max_sweeps x the path's points visits) and a dropping pass, until a pass drops nothing (at most
  // max_rounds).
  void refine(SteinerPath& p, int max_sweeps = 200, int max_rounds = 20) const;

  const SteinerOptions& options() const { return o_; }
  int m() const { return o_.m; }
  std::size_t points() const { return px_.size(); }
  std::size_t pieces() const { return pieces_.size(); }
  // Sum of the piece boundary lengths in points: a settled point relaxes its pieces' entries.
  std::size_t entries() const { return entries_.size(); }
  std::size_t memory_bytes() const;

 private:
  struct Refiner;  // refine()'s point moves (steiner_refine.cpp)
  struct Piece {
    std::int32_t x0, y0, x1, y1;  // cells [x0, x1) x [y0, y1)
    double w;
    std::uint32_t begin, end;      // its boundary points in entries_
  };
  // A point of a piece's boundary, in order around it (clockwise on screen, from the top-left
  // corner). side: bit 0 top, 1 right, 2 bottom, 3 left (a corner has two). next_cost: C of the
  // way along the side to the next entry when both lie on one side, +inf otherwise.
  struct Entry {
    double x, y, next_cost;
    std::int32_t point;
    std::uint8_t side;
  };

  // Grid corner (x, y) is a pinch: exactly two diagonally opposite cells around it blocked.
  static bool pinch(const GridMap& g, int x, int y);
  // Calls f(q, cost, entry of q) for every edge p-q of the graph between points.
  template <class F>
  void for_each_edge(std::int32_t p, F&& f) const;
  // Graph distances from point `source` to every point (+inf where unreachable).
  std::vector<double> distances_from(std::int32_t source) const;
  // The constructor's steps (steiner_reference.cpp), in order.
  void make_pieces();
  void label_components();
  void make_boundaries();
  void index_members();
  void make_landmarks();

  // The cell whose piece a query point joins (its own cell at a pinch corner); -1 when p is not free.
  std::int64_t locate(Point p) const;

  const GridMap& g_;
  SteinerOptions o_;
  double wmin_;
  std::vector<std::int32_t> piece_of_;      // per cell, -1 blocked
  std::vector<std::int32_t> component_;     // per cell, 4-connected free components, -1 blocked
  std::vector<Piece> pieces_;
  std::vector<Entry> entries_;
  std::vector<double> px_, py_;             // point coordinates
  std::vector<std::uint32_t> member_begin_; // point -> its (piece, index) pairs in members_
  std::vector<std::pair<std::int32_t, std::uint32_t>> members_;
  static constexpr int kMaxLandmarks = 16;
  std::size_t landmarks_ = 0;
  std::vector<float> land_;  // point-major: land_[p * landmarks_ + l]
  double land_margin_ = 0;   // float rounding of the stored distances, taken off the heuristic
  std::unique_ptr<Map> map_;        // a copy of the grid for fs_ (refinement only)
  std::unique_ptr<FreeSpace> fs_;   // the exact validity test of segments that leave a piece
};

}  // namespace navbench
