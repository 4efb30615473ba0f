// The weighted reference optimum is a bound (geometry/steiner_reference.hpp, docs/terrain.md; SPEC
// §8: `cost_gap` down to -0.001). On seeded 64 x 64 weighted maps with obstacles inside weighted
// regions -- `generate costs --kind regions` over random maps, and this file's discs of weights 1, 2
// and 5 sprinkled with blocked cells and small blocks -- the reference is never above the exact cost
// of a valid path found otherwise by more than 0.1 %: weighted visgraph's and an independent
// Steiner-point graph's (k points per side of every cell, chords inside each cell; no pieces, no
// refinement). The refinement never raises the graph's cost, and doubling m lowers each map's mean
// reference by less than 0.1 %.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <queue>
#include <random>
#include <string>

#include "datasets/terrain.hpp"
#include "geometry/free_space.hpp"
#include "geometry/path_cost.hpp"
#include "geometry/steiner_reference.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "search/astar.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_weighted_reference {

using namespace navbench;

namespace {

using testmaps::free_cells;

constexpr int kSide = 64;

// `navbench generate costs --kind regions` (datasets/terrain.cpp) over a random map: discs of 1, 3
// and 5 over a base of 2, the map's obstacles inside them.
Map regions_map(std::uint64_t seed, double blocked) {
  std::mt19937_64 rng(seed);
  Map m = testmaps::random_grid(kSide, kSide, blocked, rng);
  CostLayerOptions o;
  o.kind = "regions";
  o.seed = seed;
  m.grid.weights = generate_cost_layer(m.grid, o);
  m.terrain = "regions seed " + std::to_string(seed);
  return m;
}

// Discs of weight 2 and 5 (and cheaper ones of 1 inside them) over a base of 1, then blocked cells
// sprinkled everywhere and a few 1 x 2 to 3 x 3 blocks: obstacles inside every weighted region,
// with pinch corners and narrow gaps among them.
Map sprinkled_map(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GridMap g;
  g.width = g.height = kSide;
  g.cells.assign(std::size_t(kSide) * kSide, 1);
  g.weights.assign(g.cells.size(), 1.0);
  const double kinds[] = {2, 5, 5, 2, 1};
  for (int k = 0; k < 14; ++k) {
    const double cx = double(rng() % kSide), cy = double(rng() % kSide), r = 3 + double(rng() % 10);
    const double v = kinds[rng() % 5];
    for (int y = 0; y < kSide; ++y)
      for (int x = 0; x < kSide; ++x)
        if ((x + 0.5 - cx) * (x + 0.5 - cx) + (y + 0.5 - cy) * (y + 0.5 - cy) <= r * r) g.weights[std::size_t(y) * kSide + x] = v;
  }
  std::bernoulli_distribution single(0.08);
  for (auto& c : g.cells) c = single(rng) ? 0 : 1;
  for (int k = 0; k < 30; ++k) {
    const int bw = 1 + int(rng() % 3), bh = 1 + int(rng() % 3), bx = int(rng() % (kSide - bw)), by = int(rng() % (kSide - bh));
    for (int y = by; y < by + bh; ++y)
      for (int x = bx; x < bx + bw; ++x) g.cells[std::size_t(y) * kSide + x] = 0;
  }
  for (std::size_t i = 0; i < g.cells.size(); ++i)
    if (!g.cells[i]) g.weights[i] = 1;
  Map m = make_grid_map(g, "sprinkled");
  m.terrain = "sprinkled seed " + std::to_string(seed);
  return m;
}

// An independent Steiner-point graph: on every side of every free cell k equal steps (corners
// included, pinch corners left out, SPEC §1), each point joined to every point of each free cell it
// bounds -- a chord through the cell at its weight, or along one side to its neighbours there at the
// cheaper cell's weight (segment_cost). Each edge is a valid segment priced exactly, so the least cost
// (Dijkstra) is the cost of a valid path.
class CellSteiner {
 public:
  CellSteiner(const GridMap& g, int k) : g_(g), k_(k), stride_(g.width * k + 1) {}

  double shortest(Point s, Point t) const {
    const int W = g_.width, H = g_.height, k = k_;
    const long n = long(stride_) * (long(H) * k + 1);
    std::vector<double> d(std::size_t(n) + 1, INFINITY);  // lattice points, then the goal
    using Item = std::pair<double, long>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    const int tx = int(t.x), ty = int(t.y);
    const auto relax = [&](long v, double c) {
      if (c < d[std::size_t(v)]) d[std::size_t(v)] = c, open.push({c, v});
    };
    // From point p (lattice index self, or -1 for the start) over cell (cx, cy)'s boundary.
    const auto through = [&](Point p, long self, double dp, int cx, int cy) {
      const double w = g_.weight(cx, cy);
      for (int j = 0; j < 4 * k; ++j) {
        const auto [X, Y] = boundary(cx, cy, j);
        const long v = long(Y) * stride_ + X;
        if (v == self || (X % k == 0 && Y % k == 0 && pinch(X / k, Y / k))) continue;
        const Point q{double(X) / k, double(Y) / k};
        const bool line = (p.x == q.x && (p.x == cx || p.x == cx + 1)) || (p.y == q.y && (p.y == cy || p.y == cy + 1));
        if (line && std::abs(p.x - q.x) + std::abs(p.y - q.y) > 1.0 / k * (1 + 1e-12)) continue;  // neighbours only
        relax(v, dp + (line ? segment_cost(g_, p, q) : w * distance(p, q)));
      }
      if (cx == tx && cy == ty) relax(n, dp + segment_cost(g_, p, t));
    };
    through(s, -1, 0, int(s.x), int(s.y));
    while (!open.empty()) {
      const auto [dv, v] = open.top();
      open.pop();
      if (dv > d[std::size_t(v)]) continue;
      if (v == n) return dv;
      const int X = int(v % stride_), Y = int(v / stride_);
      const Point p{double(X) / k, double(Y) / k};
      for (int cy = (Y - 1) / k; cy <= Y / k && cy < H; ++cy)
        for (int cx = (X - 1) / k; cx <= X / k && cx < W; ++cx)
          if (cx >= 0 && cy >= 0 && g_.passable(cx, cy) && p.x >= cx && p.x <= cx + 1 && p.y >= cy && p.y <= cy + 1)
            through(p, v, dv, cx, cy);
    }
    return INFINITY;
  }

 private:
  // Point j of 4k around cell (cx, cy)'s boundary, in lattice units (1/k).
  std::pair<int, int> boundary(int cx, int cy, int j) const {
    const int k = k_, i = j % k, X = cx * k, Y = cy * k;
    switch (j / k) {
      case 0: return {X + i, Y};
      case 1: return {X + k, Y + i};
      case 2: return {X + k - i, Y + k};
      default: return {X, Y + k - i};
    }
  }
  bool pinch(int x, int y) const {
    const bool a = g_.passable(x - 1, y - 1), b = g_.passable(x, y - 1), c = g_.passable(x - 1, y), e = g_.passable(x, y);
    return (a && e && !b && !c) || (b && c && !a && !e);
  }
  const GridMap& g_;
  int k_;
  int stride_;
};

// Weighted visgraph's path from s to t (as tests/test_visgraph_weighted.cpp solves it): its exact
// cost when the path is valid, +inf otherwise.
double visgraph_cost(const VisGraph& vg, const FreeSpace& fs, const GridMap& g, Point s, Point t) {
  Query q;
  q.start = s;
  q.goal = t;
  auto as = vg.attach_start(s), ag = vg.attach_goal(t);
  if (!as || !ag) return INFINITY;
  q.s = *as;
  q.g = *ag;
  if (q.s.component != q.g.component) return INFINITY;
  q.direct = vg.direct(q);
  SearchWorkspace ws;
  SearchStats st;
  Heuristic h = parse_heuristic("euclidean");
  h.weight = least_weight(g);
  if (std::isinf(astar(vg, q, h, ws, st))) return INFINITY;
  const Polyline path = vg.polyline(q);
  return fs.path_valid(path) ? path_cost(g, path) : INFINITY;
}

// Checks one map over `queries` seeded queries between cell centres of one component; returns the
// least (path cost / reference - 1) seen, over every other path.
double check_map(const Map& m, int queries, std::uint64_t seed) {
  const FreeSpace fs(m);
  // The reference as the runs build it, and at twice its m (without landmarks, which cost most of a
  // build and change only the search's speed, SteinerOptions).
  SteinerOptions doubled;
  doubled.m = 2 * kDefaultSteinerM;
  doubled.landmarks = 0;
  const SteinerReference ref(m.grid), twice(m.grid, doubled);
  Params plain;
  const VisGraph vg(m, plain);
  const CellSteiner cells4(m.grid, 4);
  const auto cells = free_cells(m.grid);
  std::mt19937_64 rng(seed);
  double least_gap = INFINITY, sum = 0, sum_twice = 0;
  int done = 0;
  for (int tries = 0; done < queries && tries < 50 * queries; ++tries) {
    const auto [sx, sy] = cells[rng() % cells.size()];
    const auto [gx, gy] = cells[rng() % cells.size()];
    const Point s{sx + 0.5, sy + 0.5}, t{gx + 0.5, gy + 0.5};
    if (fs.component(s) != fs.component(t) || std::abs(sx - gx) + std::abs(sy - gy) < kSide / 2) continue;
    ++done;
    const auto r = ref.shortest(s, t), r2 = twice.shortest(s, t);
    if (!r || !r2) {
      ADD_FAILURE() << m.terrain << ": no reference " << sx << "," << sy << " -> " << gx << "," << gy;
      continue;
    }
    EXPECT_TRUE(fs.path_valid(r->path));
    EXPECT_NEAR(r->cost, path_cost(m.grid, r->path), 1e-9 * r->cost);
    // The refinement never raises the graph's cost (docs/terrain.md).
    EXPECT_LE(r->cost, r->graph_cost * (1 + 1e-12)) << m.terrain << " " << sx << "," << sy << " -> " << gx << "," << gy;
    sum += r->cost, sum_twice += r2->cost;
    const std::pair<const char*, double> others[] = {{"visgraph", visgraph_cost(vg, fs, m.grid, s, t)},
                                                     {"cell Steiner k=4", cells4.shortest(s, t)}};
    for (const auto& [name, c] : others) {
      EXPECT_TRUE(std::isfinite(c)) << name;
      EXPECT_LE(r->cost, c * (1 + 1e-3)) << m.terrain << " " << name << " " << sx << "," << sy << " -> " << gx << "," << gy;
      least_gap = std::min(least_gap, c / r->cost - 1);
    }
  }
  EXPECT_EQ(done, queries) << m.terrain;
  // Doubling m lowers the map's mean reference by less than 0.1 % (the convergence rule).
  EXPECT_GT(sum_twice / sum - 1, -1e-3) << m.terrain;
  return least_gap;
}

}  // namespace

TEST(WeightedReference, IsABoundOnMapsWithObstaclesInsideRegions) {
  double least = INFINITY;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Map a = regions_map(seed, 0.06 + 0.02 * double(seed % 6));
    least = std::min(least, check_map(a, 4, seed));
    const Map b = sprinkled_map(100 + seed);
    least = std::min(least, check_map(b, 4, 100 + seed));
  }
  std::cout << "[ weighted ] least (other path's cost / reference - 1) over 24 maps: " << least << "\n";
}

}  // namespace test_weighted_reference
