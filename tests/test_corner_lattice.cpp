// The corner lattice (SPEC §11, representations/grid/corner_lattice.hpp): grid4/grid8 with
// lattice=corner against an independent Dijkstra written from the definition of the lattice and of
// the squeeze rule, on random grids under both rules; Theta* and Lazy Theta* on it give valid paths
// never shorter than the exact optimum, under both rules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <queue>
#include <random>

#include "datasets/generate.hpp"
#include "geometry/free_space.hpp"
#include "geometry/squeeze_optimum.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_corner_lattice {

using namespace navbench;

namespace {

bool free_cell(const Map& m, int x, int y) { return m.grid.passable(x, y); }

// Dijkstra over (corner, sector) from the definition: a diagonal move crosses one cell and needs it
// free; a straight move runs along a side and needs a free cell beside it. At a pinch corner (two
// diagonally opposite free cells, the other two blocked) under `forbid`, the state remembers which
// of its two free cells the path is in (sector 0: its own cell, SPEC §1: cell (x, y), else
// (x, y - 1)); a move at that corner must touch the sector's cell. The goal is reached in sector 0.
double lattice_dijkstra(const Map& m, Point s, Point g, bool diagonal, bool squeeze) {
  const int W = m.grid.width + 1, H = m.grid.height + 1;
  auto pinch_cells = [&](int x, int y) -> std::optional<std::pair<std::pair<int, int>, std::pair<int, int>>> {
    const bool nw = free_cell(m, x - 1, y - 1), ne = free_cell(m, x, y - 1), sw = free_cell(m, x - 1, y),
               se = free_cell(m, x, y);
    if (squeeze) return std::nullopt;
    if (nw && se && !ne && !sw) return std::pair{std::pair{x, y}, std::pair{x - 1, y - 1}};
    if (ne && sw && !nw && !se) return std::pair{std::pair{x, y - 1}, std::pair{x - 1, y}};
    return std::nullopt;
  };
  // The free cells a move from (x, y) by (dx, dy) touches.
  auto touched = [&](int x, int y, int dx, int dy) {
    std::vector<std::pair<int, int>> out;
    auto add = [&](int cx, int cy) {
      if (free_cell(m, cx, cy)) out.emplace_back(cx, cy);
    };
    if (dx != 0 && dy != 0) add(std::min(x, x + dx), std::min(y, y + dy));
    else if (dx != 0) add(std::min(x, x + dx), y - 1), add(std::min(x, x + dx), y);
    else add(x - 1, std::min(y, y + dy)), add(x, std::min(y, y + dy));
    return out;
  };
  // The sector of corner (x, y) a move touching `cells` is in; -1 when it touches neither free cell.
  auto sector = [&](int x, int y, const std::vector<std::pair<int, int>>& cells) {
    const auto p = pinch_cells(x, y);
    if (!p) return 0;
    for (const auto& c : cells) {
      if (c == p->first) return 0;
      if (c == p->second) return 1;
    }
    return -1;
  };
  const int sx = int(s.x), sy = int(s.y), gx = int(g.x), gy = int(g.y);
  std::vector<double> dist(std::size_t(W) * std::size_t(H) * 2, std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  auto id = [&](int x, int y, int sec) { return (std::size_t(y) * std::size_t(W) + std::size_t(x)) * 2 + std::size_t(sec); };
  dist[id(sx, sy, 0)] = 0;
  open.push({0.0, id(sx, sy, 0)});
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;
    const int sec = int(u % 2), x = int(u / 2 % std::size_t(W)), y = int(u / 2 / std::size_t(W));
    if (x == gx && y == gy && sec == 0) return d;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || (!diagonal && dx != 0 && dy != 0)) continue;
        const int nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
        const auto cells = touched(x, y, dx, dy);
        if (cells.empty() || sector(x, y, cells) != sec) continue;
        const int nsec = sector(nx, ny, cells);
        const double nd = d + ((dx != 0 && dy != 0) ? M_SQRT2 : 1.0);
        if (nd < dist[id(nx, ny, nsec)]) {
          dist[id(nx, ny, nsec)] = nd;
          open.push({nd, id(nx, ny, nsec)});
        }
      }
  }
  return std::numeric_limits<double>::infinity();
}

// Random corners with a free cell around them.
std::vector<std::pair<Point, Point>> corner_queries(const Map& m, std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> x(0, m.grid.width), y(0, m.grid.height);
  auto corner = [&] {
    for (;;) {
      const int cx = x(rng), cy = y(rng);
      if (free_cell(m, cx - 1, cy - 1) || free_cell(m, cx, cy - 1) || free_cell(m, cx - 1, cy) || free_cell(m, cx, cy))
        return Point{double(cx), double(cy)};
    }
  };
  std::vector<std::pair<Point, Point>> out;
  while (int(out.size()) < n) out.emplace_back(corner(), corner());
  return out;
}

}  // namespace

TEST(CornerLattice, AStarEqualsIndependentDijkstraUnderBothSqueezeRules) {
  std::size_t compared = 0, differ_by_rule = 0;
  for (const char* name : {"grid8", "grid4"})
    for (bool squeeze : {false, true})
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        SCOPED_TRACE(std::string(name) + (squeeze ? " allow" : " forbid") + " seed " + std::to_string(seed));
        const Map m = testmaps::generated_random(seed, 25 + 3 * double(seed), 28);
        const AgentSpace space(m, Agent{}, squeeze);
        const CostModel cost;
        const RepresentationEntry* e = find_representation(name);
        ASSERT_NE(e, nullptr);
        Params p = Params::parse(std::string("lattice=corner,pinch=") + (squeeze ? "allow" : "forbid"));
        auto rep = e->build(m, p);
        rep->prepare();
        const MapContext ctx{m.name, m.collection, "corner"};
        for (const char* hname : {"octile", "euclidean"}) {
          const Heuristic h = parse_heuristic(hname);
          for (const auto& [s, g] : corner_queries(m, seed * 7 + squeeze, 40)) {
            const double want = lattice_dijkstra(m, s, g, name == std::string("grid8"), squeeze);
            QueryInput in;
            in.start = s;
            in.goal = g;
            const std::string text = name;
            const std::vector<std::string> smoothings{"none"};
            const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = text, .heuristic = h,
                                         .smoothings = smoothings, .rep = rep.get(), .caps = e->caps},
                                        in);
            if (std::isinf(want)) {
              EXPECT_EQ(rows[0].status, Status::no_path) << s.x << "," << s.y << " " << g.x << "," << g.y;
              continue;
            }
            ASSERT_EQ(rows[0].status, Status::ok) << rows[0].message;
            EXPECT_NEAR(*rows[0].length, want, 1e-9) << s.x << "," << s.y << " " << g.x << "," << g.y;
            if (!squeeze) { EXPECT_TRUE(*rows[0].valid) << s.x << "," << s.y << " " << g.x << "," << g.y; }
            if (squeeze && std::abs(want - lattice_dijkstra(m, s, g, name == std::string("grid8"), false)) > 1e-9)
              ++differ_by_rule;
            ++compared;
          }
        }
      }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(differ_by_rule, 0u);  // the maps hold pinch points that the rule changes
}

TEST(CornerLattice, ThetaIsValidAndNeverBelowTheOptimumUnderBothSqueezeRules) {
  const Heuristic h = parse_heuristic("euclidean");
  std::size_t rows_checked = 0;
  for (bool squeeze : {false, true})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(std::string(squeeze ? "allow" : "forbid") + " seed " + std::to_string(seed));
      const Map m = testmaps::generated_random(seed, 30, 32);
      // The agent's space under the rule: the validity test and Theta*'s line of sight.
      const AgentSpace space(m, Agent{}, squeeze);
      const CostModel cost;
      const FreeSpace forbid(m), allow(m, true);
      const auto visgraph = build_optimum_graph(m);
      const SqueezeOptimum squeezed(allow);
      const RepresentationEntry* e = find_representation("grid8");
      Params p = Params::parse(squeeze ? "lattice=corner,pinch=allow" : "lattice=corner");
      auto rep = e->build(m, p);
      rep->prepare();
      const MapContext ctx{m.name, m.collection, "corner"};
      for (const auto& [s, g] : corner_queries(m, seed, 40)) {
        QueryInput in;
        in.start = s;
        in.goal = g;
        in.optimal = squeeze ? squeezed.length(s, g) : exact_optimum(*visgraph, forbid, s, g);
        for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta}) {
          const std::string text = "grid8";
          const std::vector<std::string> smoothings{"none", "los"};
          const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = text, .heuristic = h,
                                       .smoothings = smoothings, .rep = rep.get(), .search = mode, .caps = e->caps},
                                      in);
          for (const ResultRow& r : rows) {
            if (!in.optimal) {
              EXPECT_EQ(r.status, Status::no_path);
              continue;
            }
            ASSERT_EQ(r.status, Status::ok) << r.message;
            EXPECT_TRUE(*r.valid) << s.x << "," << s.y << " " << g.x << "," << g.y;
            EXPECT_GE(*r.length, *in.optimal - 1e-9);
            ++rows_checked;
          }
        }
      }
    }
  EXPECT_GT(rows_checked, 600u);
}

}  // namespace test_corner_lattice
