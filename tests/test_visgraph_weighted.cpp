// visgraph on weighted maps (docs/terrain.md, representations/visgraph/weighted.cpp): the vertex
// set (convex corners and weight-region corners) on hand-drawn maps, the graph's edges (valid,
// priced by the integral, none with a vertex inside), the search against an independent brute force
// over the same vertices (every valid pair, Dijkstra), the search's cost against the reported
// path's integral, the bounds that hold (never dearer than a valid direct segment, nor than the
// graph over convex corners only), weight 1 everywhere against the unweighted map, the pipeline's
// rows, and the parameters (refused speed-ups, the size cap, unweighted params unchanged).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>

#include "datasets/movingai.hpp"
#include "datasets/terrain.hpp"
#include "geometry/free_space.hpp"
#include "geometry/path_cost.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/pipeline.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "search/planner.hpp"
#include "search/astar.hpp"
#include "search/heuristic.hpp"
#include "support/data.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_visgraph_weighted {

using namespace navbench;

namespace {

// The weight-region corners by their definition, written out independently: grid points where the
// sides separating two passable cells of different weights are some, but not one straight line.
std::vector<Point> region_corners(const GridMap& g) {
  auto lab = [&](int x, int y) { return g.passable(x, y) ? g.weight(x, y) : 0.0; };
  std::vector<Point> out;
  for (int y = 0; y <= g.height; ++y)
    for (int x = 0; x <= g.width; ++x) {
      // Sides: towards -y (cells (x-1,y-1) | (x,y-1)), +y ((x-1,y) | (x,y)), -x ((x-1,y-1) | (x-1,y)), +x.
      const double nw = lab(x - 1, y - 1), ne = lab(x, y - 1), sw = lab(x - 1, y), se = lab(x, y);
      const bool s[4] = {nw && ne && nw != ne, sw && se && sw != se, nw && sw && nw != sw, ne && se && ne != se};
      const int k = s[0] + s[1] + s[2] + s[3];
      if (k == 0 || (k == 2 && ((s[0] && s[1]) || (s[2] && s[3])))) continue;
      out.push_back(Point{double(x), double(y)});
    }
  return out;
}

// Brute force over a vertex set: every pair (vertices, start, goal) whose segment is valid, priced
// by segment_cost, Dijkstra (dense, O(N^2)).
double brute_force(const FreeSpace& fs, const GridMap& g, std::vector<Point> nodes, Point s, Point t) {
  nodes.push_back(s);
  nodes.push_back(t);
  const std::size_t n = nodes.size();
  std::vector<double> d(n, INFINITY);
  std::vector<char> done(n, 0);
  d[n - 2] = 0;
  for (std::size_t it = 0; it < n; ++it) {
    std::size_t u = n;
    for (std::size_t v = 0; v < n; ++v)
      if (!done[v] && std::isfinite(d[v]) && (u == n || d[v] < d[u])) u = v;
    if (u == n) break;
    done[u] = 1;
    if (u == n - 1) break;
    for (std::size_t v = 0; v < n; ++v)
      if (!done[v] && fs.segment_valid(nodes[u], nodes[v])) d[v] = std::min(d[v], d[u] + segment_cost(g, nodes[u], nodes[v]));
  }
  return d[n - 1];
}

struct Solved {
  double cost = INFINITY;
  Polyline path;
};

Solved solve(const VisGraph& vg, Point s, Point t, double least) {
  Query q;
  q.start = s;
  q.goal = t;
  auto as = vg.attach_start(s), ag = vg.attach_goal(t);
  EXPECT_TRUE(as && ag);
  if (!as || !ag) return {};
  q.s = *as;
  q.g = *ag;
  if (q.s.component != q.g.component) return {};
  q.direct = vg.direct(q);
  SearchWorkspace ws;
  SearchStats st;
  Heuristic h = parse_heuristic("euclidean");
  h.weight = least;  // as the pipeline scales it on a weighted map
  const double c = astar(vg, q, h, ws, st);
  if (std::isinf(c)) return {};
  return {c, vg.polyline(q)};
}

Point random_free_point(const FreeSpace& fs, const Map& m, std::mt19937_64& rng, int kind) {
  std::uniform_real_distribution<double> ux(0, m.grid.width), uy(0, m.grid.height);
  for (int tries = 0; tries < 10000; ++tries) {
    Point p{ux(rng), uy(rng)};
    if (kind == 0) p = {std::floor(p.x) + 0.5, std::floor(p.y) + 0.5};  // a cell centre
    if (kind == 1) p = {std::round(p.x), std::round(p.y)};              // a grid corner
    if (fs.point_free(p)) return p;
  }
  ADD_FAILURE() << "no free point";
  return {0.5, 0.5};
}

}  // namespace

TEST(VisgraphWeighted, VerticesAreConvexAndRegionCorners) {
  // A free 8 x 6 map with a 2 x 2 block of weight 3 inside: its four corners, nothing else.
  Map m = testmaps::grid_from(std::vector<std::string>(6, "........"));
  m.grid.weights.assign(48, 1.0);
  for (int y = 2; y < 4; ++y)
    for (int x = 3; x < 5; ++x) m.grid.weights[std::size_t(y) * 8 + x] = 3;
  {
    Params p;
    const VisGraph vg(m, p);
    EXPECT_TRUE(vg.weighted());
    EXPECT_EQ(vg.corners().size(), 0u);
    ASSERT_EQ(vg.region_corners(), 4u);
    ASSERT_EQ(num_vertices(vg.graph()), 4u);
    std::vector<Point> at;
    for (Vertex v = 0; v < 4; ++v) at.push_back(vg.position(v));
    EXPECT_EQ(at, (std::vector<Point>{{3, 2}, {5, 2}, {3, 4}, {5, 4}}));
    // Four sides and two diagonals, the diagonals through the block: each the integral (3 inside).
    EXPECT_EQ(vg.graph().num_edges(), 12u);
    EXPECT_EQ(vg.pairs(), 6u);
  }
  // A vertical strip of weight 2 from the top edge down to a wall: its two borders end at the
  // map's edge and at the wall (four points); the wall's four convex corners stay vertices.
  Map s = testmaps::grid_from({"........", "........", "........", "..@@@@..", "........"});
  s.grid.weights.assign(40, 1.0);
  for (int y = 0; y < 3; ++y)
    for (int x = 3; x < 5; ++x) s.grid.weights[std::size_t(y) * 8 + x] = 2;
  Params p;
  const VisGraph vg(s, p);
  ASSERT_EQ(vg.corners().size(), 4u);
  ASSERT_EQ(vg.region_corners(), 4u);
  std::vector<Point> at;
  for (Vertex v = 4; v < 8; ++v) at.push_back(vg.position(v));
  EXPECT_EQ(at, (std::vector<Point>{{3, 0}, {5, 0}, {3, 3}, {5, 3}}));
}

// The graph's own integral (a cell walk) against geometry/path_cost's segment_cost: segments
// between grid corners, cell centres and arbitrary points, along and across grid lines, through
// cell corners, over blocked cells (+inf both).
TEST(VisgraphWeighted, IntegralIsSegmentCost) {
  std::mt19937_64 rng(41);
  Map m = testmaps::weighted_grid(24, 18, 0.15, rng);
  Params p;
  const VisGraph vg(m, p);
  std::uniform_int_distribution<int> ux(0, 2 * 24), uy(0, 2 * 18);
  std::uniform_real_distribution<double> rx(0, 24), ry(0, 18);
  int finite = 0;
  for (int k = 0; k < 20000; ++k) {
    Point a, b;
    if (k % 3 == 2) {
      a = {rx(rng), ry(rng)}, b = {rx(rng), ry(rng)};
    } else {  // the half-integer grid (corners and centres); a third of them on one row or column
      a = {ux(rng) / 2.0, uy(rng) / 2.0}, b = {ux(rng) / 2.0, uy(rng) / 2.0};
      if (k % 3 == 1) (k % 2 ? b.x : b.y) = (k % 2 ? a.x : a.y);
    }
    const double want = segment_cost(m.grid, a, b), got = vg.integral(a, b);
    if (std::isinf(want)) {
      EXPECT_TRUE(std::isinf(got)) << a.x << "," << a.y << " " << b.x << "," << b.y;
      continue;
    }
    ++finite;
    EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, want)) << a.x << "," << a.y << " " << b.x << "," << b.y;
  }
  EXPECT_GT(finite, 2000);
}

// corner_squares (grid_los.hpp): per cell and direction the side of the largest square of one
// label from that cell towards the direction, against brute force on small tables of few labels.
TEST(VisgraphWeighted, CornerSquaresAreTheLargest) {
  std::mt19937_64 rng(43);
  for (int t = 0; t < 40; ++t) {
    const int pw = 3 + int(rng() % 30), ph = 3 + int(rng() % 30);
    std::vector<double> lab(std::size_t(pw) * ph);
    const unsigned labels = 1 + unsigned(t % 4);
    for (double& l : lab) l = double(rng() % labels);
    for (int k = 0; k < 3; ++k) {  // a few blocks of one label, so that large squares occur
      const int x0 = int(rng() % unsigned(pw)), y0 = int(rng() % unsigned(ph)), r = int(rng() % 12);
      for (int y = y0; y < std::min(ph, y0 + r); ++y)
        for (int x = x0; x < std::min(pw, x0 + r); ++x) lab[std::size_t(y) * pw + x] = 7;
    }
    const auto sq = corner_squares(lab, pw, ph);
    for (int q = 0; q < 4; ++q) {
      const int sx = q & 1 ? 1 : -1, sy = q & 2 ? 1 : -1;
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
          auto uniform = [&](int k) {
            for (int j = 0; j < k; ++j)
              for (int i = 0; i < k; ++i) {
                const int cx = x + sx * i, cy = y + sy * j;
                if (cx < 0 || cy < 0 || cx >= pw || cy >= ph || lab[std::size_t(cy) * pw + cx] != lab[std::size_t(y) * pw + x]) return false;
              }
            return true;
          };
          int want = 1;
          while (uniform(want + 1)) ++want;
          ASSERT_EQ(sq[std::size_t(q)][std::size_t(y) * pw + x], want) << "cell " << x << "," << y << " direction " << sx << "," << sy;
        }
    }
  }
}

// Open ground: a large map of few weights in rectangles, sparse blocked cells and pinch points,
// where the exact walk (lattice_integral) crosses squares of one weight at once. Between points of
// the half-integer lattice (corners and centres; along diagonals through grid points, steep and
// shallow, every direction) and arbitrary points, the integral is segment_cost's. And on a map
// whose every cell has its own weight (more than 65,536: no square table) too.
TEST(VisgraphWeighted, IntegralIsSegmentCostOnOpenGround) {
  std::mt19937_64 rng(47);
  auto open_map = [&](int w, int h, bool distinct) {
    Map m = testmaps::random_grid(w, h, distinct ? 0.0 : 0.002, rng);
    GridMap& g = m.grid;
    g.weights.assign(g.cells.size(), 1.0);
    if (distinct) {
      for (std::size_t i = 0; i < g.weights.size(); ++i) g.weights[i] = 1 + double(i) * 1e-5;
    } else {
      const double levels[] = {1.5, 2, 3, 5};
      for (int k = 0; k < 12; ++k) {
        const int x0 = int(rng() % unsigned(w)), y0 = int(rng() % unsigned(h));
        const int x1 = std::min(w, x0 + 5 + int(rng() % unsigned(w / 3))), y1 = std::min(h, y0 + 5 + int(rng() % unsigned(h / 3)));
        for (int y = y0; y < y1; ++y)
          for (int x = x0; x < x1; ++x) g.weights[std::size_t(y) * w + x] = levels[k % 4];
      }
      for (int k = 0; k < 8; ++k) {  // pinch points
        const int x = 1 + int(rng() % unsigned(w - 2)), y = 1 + int(rng() % unsigned(h - 2));
        g.cells[std::size_t(y) * w + x] = 0, g.cells[std::size_t(y + 1) * w + x + 1] = 0;
      }
      for (std::size_t i = 0; i < g.cells.size(); ++i)
        if (!g.cells[i]) g.weights[i] = 1;
    }
    m = make_grid_map(g, "open");
    m.terrain = "test";
    return m;
  };
  for (int t = 0; t < 4; ++t) {
    const bool distinct = t == 3;
    const int w = distinct ? 300 : 150 + 40 * t, h = distinct ? 240 : 110 + 30 * t;
    Map m = open_map(w, h, distinct);
    Params p = Params::parse(distinct ? "" : "alt=0");
    const VisGraph vg(m, p);
    std::uniform_int_distribution<int> ux(0, 2 * w), uy(0, 2 * h);
    std::uniform_real_distribution<double> rx(0, w), ry(0, h);
    int finite = 0, long_segments = 0;
    for (int k = 0; k < (distinct ? 2000 : 20000); ++k) {
      Point a{ux(rng) / 2.0, uy(rng) / 2.0}, b{ux(rng) / 2.0, uy(rng) / 2.0};
      if (k % 4 == 1) {  // along a direction of small integers: through grid points when a is one
        const int dx = int(rng() % 7) - 3, dy = int(rng() % 7) - 3, n = 1 + int(rng() % 200);
        a = {std::round(a.x), std::round(a.y)};
        b = {std::clamp(a.x + dx * n, 0.0, double(w)), std::clamp(a.y + dy * n, 0.0, double(h))};
      }
      if (k % 4 == 3) b = {rx(rng), ry(rng)};
      const double want = segment_cost(m.grid, a, b), got = vg.integral(a, b);
      if (std::isinf(want)) {
        EXPECT_TRUE(std::isinf(got)) << a.x << "," << a.y << " " << b.x << "," << b.y;
        continue;
      }
      ++finite;
      long_segments += distance(a, b) > 50;
      ASSERT_NEAR(got, want, 1e-12 * std::max(1.0, want)) << a.x << "," << a.y << " " << b.x << "," << b.y;
    }
    EXPECT_GT(finite, distinct ? 1500 : 10000);
    EXPECT_GT(long_segments, finite / 2);
  }
}

// Every valid pair without a vertex inside is an edge, both ways, at its integral; no other. The
// vertices: the convex corners, then the region corners that are not convex corners.
void check_edges(const Map& m, std::size_t& vertices, std::size_t& regions) {
  const FreeSpace fs(m);
  Params p;
  const VisGraph vg(m, p);
  const std::size_t n = num_vertices(vg.graph());
  vertices = n, regions = vg.region_corners();
  std::vector<Point> want;
  for (const ConvexCorner& c : fs.convex_corners()) want.push_back(c.at);
  const std::size_t convex = want.size();
  for (const Point& q : region_corners(m.grid))
    if (std::find(want.begin(), want.begin() + std::ptrdiff_t(convex), q) == want.begin() + std::ptrdiff_t(convex)) want.push_back(q);
  ASSERT_EQ(n, want.size());
  for (Vertex v = 0; v < n; ++v) EXPECT_EQ(vg.position(v), want[v]);
  auto inside = [&](Point a, Point b) {
    for (const Point& q : want)
      if (!(q == a) && !(q == b) && std::abs((b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)) == 0 &&
          std::min(a.x, b.x) <= q.x && q.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= q.y && q.y <= std::max(a.y, b.y))
        return true;
    return false;
  };
  std::size_t pairs = 0;
  for (Vertex u = 0; u < n; ++u) {
    std::vector<std::pair<Vertex, double>> out;
    for (auto [e, end] = out_edges(u, vg.graph()); e != end; ++e) out.push_back({target(*e, vg.graph()), get(vg.weights(), *e)});
    std::vector<std::pair<Vertex, double>> expect;
    for (Vertex v = 0; v < n; ++v)
      if (v != u && fs.segment_valid(want[u], want[v]) && !inside(want[u], want[v]))
        expect.push_back({v, segment_cost(m.grid, want[u], want[v])});
    ASSERT_EQ(out.size(), expect.size()) << "vertex " << u << " at " << want[u].x << "," << want[u].y;
    for (std::size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(out[i].first, expect[i].first);
      // One value for both directions: the integral of u->v up to its rounding.
      EXPECT_NEAR(out[i].second, expect[i].second, 1e-12 * expect[i].second);
    }
    pairs += out.size();
  }
  EXPECT_EQ(pairs, 2 * vg.pairs());
}

TEST(VisgraphWeighted, EdgesAreValidPricedAndUnpruned) {
  std::mt19937_64 rng(21);
  std::size_t n = 0, r = 0;
  for (int k = 0; k < 5; ++k) check_edges(testmaps::weighted_grid(26, 20, 0.2, rng), n, r);
}

// The build's work on a large open weighted map (the Nav2 speed masks' case: every cell weighted,
// few obstacles, long segments between the vertices): every valid pair is still an edge at its
// integral (check_edges; pinch points and vertices on the segments included), and the pairs'
// walks (the segment test and the integral) take a bounded number of steps per pair, not one per
// cell crossed: the segments average hundreds of cells, which a cell-by-cell walk would visit one
// by one (twice).
TEST(VisgraphWeighted, BuildWorkDoesNotGrowWithSegmentLength) {
  std::mt19937_64 rng(53);
  GridMap g;
  g.width = 900, g.height = 700;
  g.cells.assign(std::size_t(g.width) * g.height, 1);
  g.weights.assign(g.cells.size(), 1.0);
  auto rect = [&](int x0, int y0, int x1, int y1, double weight, bool blocked) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        g.weights[std::size_t(y) * g.width + x] = blocked ? 1 : weight;
        g.cells[std::size_t(y) * g.width + x] = blocked ? 0 : 1;
      }
  };
  const double levels[] = {1.5, 2, 3, 5};
  for (int k = 0; k < 16; ++k) {  // (one draw per declarator: the order is fixed)
    const int x0 = int(rng() % 800), y0 = int(rng() % 600), x1 = x0 + 20 + int(rng() % 80), y1 = y0 + 20 + int(rng() % 80);
    rect(x0, y0, x1, y1, levels[k % 4], false);
  }
  for (int k = 0; k < 3; ++k) {
    const int x0 = 50 + int(rng() % 750), y0 = 50 + int(rng() % 550), x1 = x0 + 10 + int(rng() % 30), y1 = y0 + 10 + int(rng() % 30);
    rect(x0, y0, x1, y1, 1, true);
  }
  for (int k = 0; k < 6; ++k) {  // pinch points: two blocked cells meeting at a corner
    const int x = 20 + int(rng() % 860), y = 20 + int(rng() % 660);
    rect(x, y, x + 1, y + 1, 1, true);
    rect(x + 1, y + 1, x + 2, y + 2, 1, true);
  }
  Map m = make_grid_map(g, "open-weighted");
  m.terrain = "test";
  std::size_t n = 0, regions = 0;
  check_edges(m, n, regions);
  Params p;
  const VisGraph vg(m, p);
  double length = 0;  // the mean L1 length of the vertex pairs, in cells
  for (Vertex u = 0; u < n; ++u)
    for (Vertex v = u + 1; v < n; ++v)
      length += std::abs(vg.position(u).x - vg.position(v).x) + std::abs(vg.position(u).y - vg.position(v).y);
  length /= double(n) * double(n - 1) / 2;
  const double steps = double(vg.pair_walk_steps()) / double(vg.pair_tests());
  std::cout << "[ visgraph weighted ] " << n << " vertices (" << regions << " region corners), " << vg.pair_tests()
            << " pairs tested, mean length " << length << " cells, " << steps << " walk steps a pair\n";
  EXPECT_GT(regions, 30u);
  EXPECT_GT(vg.pair_tests(), 2000u);
  EXPECT_GT(length, 400);
  EXPECT_LT(steps, 40);  // a cell walk: about 2 x length
}

// The same on a window of a real map with terrain (wc3/icecrown, swamp 2 and water 5): long
// borders, open ground, the candidates of the build's region sweeps against every pair.
TEST(VisgraphWeightedData, EdgesOnRealTerrain) {
  const std::string path = testdata::path("movingai/wc3/icecrown.map");
  NAVBENCH_REQUIRE_DATA(path);
  std::ifstream in(path);
  const TerrainTable t = parse_terrain("S=2,W=5");
  const GridMap full = read_movingai_map(in, path, &t);
  for (const auto& [x0, y0] : {std::pair{200, 200}, std::pair{40, 300}, std::pair{330, 60}}) {
    GridMap g;
    g.width = 128, g.height = 112;
    for (int y = y0; y < y0 + g.height; ++y)
      for (int x = x0; x < x0 + g.width; ++x) {
        g.cells.push_back(full.passable(x, y));
        g.weights.push_back(full.passable(x, y) ? full.weight(x, y) : 1.0);
      }
    Map m = make_grid_map(g, "icecrown-window");
    m.terrain = "S=2,W=5";
    ASSERT_TRUE(m.grid.weighted());
    std::size_t n = 0, r = 0;
    check_edges(m, n, r);
    std::cout << "window " << x0 << "," << y0 << ": " << n << " vertices, " << r << " region corners\n";
    EXPECT_GT(r, 20u);  // a window with terrain borders
  }
}

// A query point links to every vertex it sees without another vertex strictly between them, at the
// integral: cell centres (found through the sweep's region), grid corners and arbitrary points.
TEST(VisgraphWeighted, AttachLinksEveryVisibleVertex) {
  std::mt19937_64 rng(31);
  std::size_t links = 0;
  for (int k = 0; k < 5; ++k) {
    Map m = testmaps::weighted_grid(40, 32, 0.12 + 0.04 * k, rng);
    const FreeSpace fs(m);
    Params p;
    const VisGraph vg(m, p);
    const std::size_t n = num_vertices(vg.graph());
    for (int q = 0; q < 60; ++q) {
      const Point s = random_free_point(fs, m, rng, q % 3);
      const auto a = vg.attach(s);
      ASSERT_TRUE(a);
      std::vector<std::pair<Vertex, double>> got;
      for (const Link& l : a->links) got.push_back({l.vertex, l.cost});
      std::sort(got.begin(), got.end());
      std::vector<std::pair<Vertex, double>> want;
      for (Vertex v = 0; v < n; ++v) {
        const Point Q = vg.position(v);
        if (!fs.segment_valid(s, Q)) continue;
        bool between = false;
        for (Vertex u = 0; u < n && !between; ++u) {
          const Point U = vg.position(u);
          between = !(U == s) && !(U == Q) && (Q.x - s.x) * (U.y - s.y) == (Q.y - s.y) * (U.x - s.x) &&
                    std::min(s.x, Q.x) <= U.x && U.x <= std::max(s.x, Q.x) && std::min(s.y, Q.y) <= U.y &&
                    U.y <= std::max(s.y, Q.y);
        }
        // Arbitrary points are not pruned (their segments' lattice points are not enumerated).
        if (between && q % 3 != 2) continue;
        want.push_back({v, segment_cost(m.grid, s, Q)});
      }
      ASSERT_EQ(got.size(), want.size()) << s.x << "," << s.y;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].first, want[i].first);
        EXPECT_NEAR(got[i].second, want[i].second, 1e-12 * want[i].second);
      }
      links += got.size();
    }
  }
  EXPECT_GT(links, 1000u);
}

// The search finds the cheapest path over the vertex set (brute force: every valid pair, no
// pruning), its cost is the reported path's integral, the path is valid, never dearer than the
// direct segment when that is valid nor than the graph over convex corners only (regions=0), and
// every speed-up setting gives the same cost.
TEST(VisgraphWeighted, CheapestOverItsVerticesAndCostIsThePathIntegral) {
  std::mt19937_64 rng(7);
  int direct_valid = 0, cheaper_than_corners = 0;
  for (int k = 0; k < 8; ++k) {
    const double base = k == 7 ? 1.5 : 1;  // the last map's least weight is 1.5: alt and table off
    Map m = testmaps::weighted_grid(30, 24, 0.18, rng, {.base = base});
    const FreeSpace fs(m);
    const double least = least_weight(m.grid);
    std::vector<Point> nodes;
    for (const ConvexCorner& c : fs.convex_corners()) nodes.push_back(c.at);
    for (const Point& q : region_corners(m.grid))
      if (std::find(nodes.begin(), nodes.end(), q) == nodes.end()) nodes.push_back(q);
    std::vector<std::unique_ptr<VisGraph>> graphs;
    for (const char* text : {"", "table=1", "alt=0,table=0"}) {
      Params p = Params::parse(text);
      if (base != 1 && std::string(text) == "table=1") p = Params::parse("table=0");  // refused there
      graphs.push_back(std::make_unique<VisGraph>(m, p));
    }
    Params p0 = Params::parse("regions=0");
    const VisGraph corners_only(m, p0);
    EXPECT_EQ(corners_only.region_corners(), 0u);
    if (base == 1) {
      EXPECT_NE(graphs[0]->landmarks(), nullptr);  // landmarks by default
      EXPECT_EQ(graphs[0]->distance_table(), nullptr);
      EXPECT_NE(graphs[1]->distance_table(), nullptr);
    } else {
      EXPECT_EQ(graphs[0]->distance_table(), nullptr);
      EXPECT_EQ(graphs[0]->landmarks(), nullptr);
    }
    for (int q = 0; q < 20; ++q) {
      const Point s = random_free_point(fs, m, rng, q % 3), t = random_free_point(fs, m, rng, (q + 1) % 3);
      const double want = brute_force(fs, m.grid, nodes, s, t);
      for (const auto& vg : graphs) {
        const Solved got = solve(*vg, s, t, least);
        if (!std::isfinite(want)) {
          EXPECT_FALSE(std::isfinite(got.cost));
          continue;
        }
        ASSERT_TRUE(std::isfinite(got.cost)) << s.x << "," << s.y << " -> " << t.x << "," << t.y;
        EXPECT_NEAR(got.cost, want, 1e-9 * want);
        EXPECT_TRUE(fs.path_valid(got.path));
        EXPECT_EQ(got.path.front(), s);
        EXPECT_EQ(got.path.back(), t);
        EXPECT_NEAR(got.cost, path_cost(m.grid, got.path), 1e-9 * want);
        EXPECT_GE(got.cost, least * distance(s, t) * (1 - 1e-12));
        if (fs.segment_valid(s, t)) {
          EXPECT_LE(got.cost, segment_cost(m.grid, s, t) * (1 + 1e-12));
        }
      }
      if (!std::isfinite(want)) continue;
      direct_valid += fs.segment_valid(s, t);
      const Solved c = solve(corners_only, s, t, least);
      ASSERT_TRUE(std::isfinite(c.cost));
      EXPECT_NEAR(c.cost, path_cost(m.grid, c.path), 1e-9 * c.cost);
      EXPECT_LE(want, c.cost * (1 + 1e-12));  // more vertices: never dearer
      cheaper_than_corners += want < c.cost * (1 - 1e-9);
    }
  }
  EXPECT_GT(direct_valid, 0);
  EXPECT_GT(cheaper_than_corners, 0);  // the region corners pay off somewhere
}

// steiner=S adds border points to the vertices: a superset, so never dearer; the search's cost
// is still the reported path's integral, the paths valid; and on some queries strictly cheaper.
TEST(VisgraphWeighted, SteinerPointsNeverDearer) {
  std::mt19937_64 rng(13);
  int cheaper = 0;
  for (int k = 0; k < 4; ++k) {
    Map m = testmaps::weighted_grid(36, 28, 0.1, rng);
    const FreeSpace fs(m);
    Params p0, p2 = Params::parse("steiner=2"), p1 = Params::parse("steiner=1");
    const VisGraph corners(m, p0), every2(m, p2), every1(m, p1);
    EXPECT_GT(num_vertices(every2.graph()), num_vertices(corners.graph()));
    EXPECT_GT(num_vertices(every1.graph()), num_vertices(every2.graph()));
    for (int q = 0; q < 20; ++q) {
      const Point s = random_free_point(fs, m, rng, 0), t = random_free_point(fs, m, rng, 0);
      const Solved a = solve(corners, s, t, 1), b = solve(every2, s, t, 1), c = solve(every1, s, t, 1);
      ASSERT_EQ(std::isfinite(a.cost), std::isfinite(c.cost));
      if (!std::isfinite(a.cost)) continue;
      EXPECT_LE(c.cost, a.cost * (1 + 1e-12));
      EXPECT_NEAR(b.cost, path_cost(m.grid, b.path), 1e-9 * b.cost);
      EXPECT_NEAR(c.cost, path_cost(m.grid, c.path), 1e-9 * c.cost);
      EXPECT_TRUE(fs.path_valid(c.path));
      cheaper += c.cost < a.cost * (1 - 1e-9);
    }
  }
  EXPECT_GT(cheaper, 0);
}

// Weight 1 everywhere (a weights array of ones): every path is as short as the unweighted map's
// exact visgraph path (ties may pick another path of that length), and its cost is its length.
TEST(VisgraphWeighted, WeightOneIsTheUnweightedOptimum) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 4; ++k) {
    Map plain = testmaps::random_grid(40, 30, 0.3, rng);
    Map ones = plain;
    ones.grid.weights.assign(ones.grid.cells.size(), 1.0);
    ones.terrain = "S=1";
    const FreeSpace fs(plain);
    Params p1, p2;
    const VisGraph a(plain, p1), b(ones, p2);
    EXPECT_FALSE(a.weighted());
    EXPECT_TRUE(b.weighted());
    EXPECT_EQ(b.region_corners(), 0u);
    EXPECT_EQ(num_vertices(b.graph()), a.corners().size());
    for (int q = 0; q < 30; ++q) {
      const Point s = random_free_point(fs, plain, rng, q % 2), t = random_free_point(fs, plain, rng, 0);
      const Solved sa = solve(a, s, t, 1), sb = solve(b, s, t, 1);
      ASSERT_EQ(std::isfinite(sa.cost), std::isfinite(sb.cost));
      if (!std::isfinite(sa.cost)) continue;
      EXPECT_NEAR(sb.cost, sa.cost, 1e-9 * sa.cost);
      EXPECT_NEAR(polyline_length(sb.path), polyline_length(sa.path), 1e-9 * sa.cost);
      EXPECT_NEAR(path_cost(ones.grid, sb.path), polyline_length(sb.path), 1e-9 * sa.cost);
    }
  }
}

TEST(VisgraphWeighted, Parameters) {
  std::mt19937_64 rng(3);
  Map m = testmaps::weighted_grid(20, 16, 0.15, rng);
  for (const char* bad : {"taut=1", "skip=1", "block=2"}) {
    Params p = Params::parse(bad);
    EXPECT_THROW({ VisGraph x(m, p); }, UnsupportedMap) << bad;
  }
  // The build records what ran: one vertex per corner, no skip edges or block lists.
  Params p;
  const VisGraph vg(m, p);
  for (const char* want : {"block=0", "skip=0", "taut=0", "regions=1", "steiner=0", "max_nodes=8192", "table=0", "alt=16"})
    EXPECT_NE(p.canonical().find(want), std::string::npos) << p.canonical();
  // The cap: above max_nodes vertices the region corners are left out (and the params say so);
  // named regions=1, or more convex corners than max_nodes, is refused, naming the count.
  const std::size_t convex = vg.corners().size();
  ASSERT_GT(vg.region_corners(), 0u);
  Params capped = Params::parse("max_nodes=" + std::to_string(convex + vg.region_corners() - 1));
  const VisGraph vc(m, capped);
  EXPECT_EQ(vc.region_corners(), 0u);
  EXPECT_EQ(num_vertices(vc.graph()), convex);
  EXPECT_NE(capped.canonical().find("regions=0"), std::string::npos) << capped.canonical();
  Params exact_fit = Params::parse("max_nodes=" + std::to_string(convex + vg.region_corners()));
  EXPECT_EQ(VisGraph(m, exact_fit).region_corners(), vg.region_corners());
  for (const std::string& text : {"regions=1,max_nodes=" + std::to_string(convex + vg.region_corners() - 1),
                                 "max_nodes=" + std::to_string(convex - 1)}) {
    Params small = Params::parse(text);
    try {
      VisGraph x(m, small);
      ADD_FAILURE() << "not refused: " << text;
    } catch (const UnsupportedMap& e) {
      EXPECT_NE(std::string(e.what()).find("max_nodes="), std::string::npos) << e.what();
    }
  }
  // A least weight above 1: alt and table would overestimate in the scaled A*, refused when named.
  Map dear = testmaps::weighted_grid(20, 16, 0.15, rng, {.base = 2});
  Params alt = Params::parse("alt=4"), table = Params::parse("table=1"), plain_dear;
  EXPECT_THROW({ VisGraph x(dear, alt); }, UnsupportedMap);
  EXPECT_THROW({ VisGraph x(dear, table); }, UnsupportedMap);
  const VisGraph d(dear, plain_dear);
  EXPECT_EQ(d.landmarks(), nullptr);
  EXPECT_NE(plain_dear.canonical().find("alt=0"), std::string::npos);
  // On an unweighted map the weighted keys are accepted when given and the params stay as before.
  Map plain = testmaps::random_grid(20, 16, 0.15, rng);
  Params a, b = Params::parse("regions=0,max_nodes=5");
  const VisGraph va(plain, a), vb(plain, b);
  EXPECT_EQ(a.canonical().find("regions"), std::string::npos);
  EXPECT_EQ(a.canonical().find("max_nodes"), std::string::npos);
  EXPECT_EQ(va.graph().num_edges(), vb.graph().num_edges());
  EXPECT_FALSE(va.weighted());
}

}  // namespace test_visgraph_weighted
