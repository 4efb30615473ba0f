// Geometry for a disc agent (SPEC §6): the exact clearance grid, the disc test and the distances of
// segments and arcs, each against an independent slow reference (brute force over every obstacle
// square; dense sampling).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "geometry/clearance.hpp"
#include "geometry/distance.hpp"
#include "geometry/free_space.hpp"

using namespace navbench;

namespace {

Map grid_from(const std::vector<std::string>& rows) {
  GridMap g;
  g.height = int(rows.size());
  g.width = int(rows[0].size());
  for (auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return make_grid_map(g, "hand");
}

Map random_grid(int w, int h, double blocked, std::mt19937_64& rng) {
  GridMap g;
  g.width = w;
  g.height = h;
  std::bernoulli_distribution b(blocked);
  for (int i = 0; i < w * h; ++i) g.cells.push_back(b(rng) ? 0 : 1);
  return make_grid_map(g, "random");
}

// Reference: squared distance from p to the obstacle, by brute force over every blocked square
// (per-axis interval distances) and the map's border. Exact on half-integer points.
double brute_clearance_sq(const GridMap& g, Point p) {
  if (!(p.x >= 0 && p.y >= 0 && p.x <= g.width && p.y <= g.height)) return 0;
  const double b = std::min(std::min(p.x, g.width - p.x), std::min(p.y, g.height - p.y));
  double best = b * b;
  for (int i = 0; i < g.width * g.height; ++i) {
    if (g.cells[std::size_t(i)]) continue;
    const int x = i % g.width, y = i / g.width;
    const double dx = std::max({0.0, x - p.x, p.x - (x + 1)});
    const double dy = std::max({0.0, y - p.y, p.y - (y + 1)});
    best = std::min(best, dx * dx + dy * dy);
  }
  return best;
}
double brute_clearance(const GridMap& g, Point p) { return std::sqrt(brute_clearance_sq(g, p)); }

}  // namespace

// ------------------------------------------------------------------------------------------------
// Clearance grid

TEST(Clearance, ExactAgainstBruteForceOnRandomGrids) {
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<int> size(1, 14);
  std::uniform_real_distribution<double> dens(0.0, 0.6);
  int nonzero = 0;
  for (int t = 0; t < 300; ++t) {
    Map m = random_grid(size(rng), size(rng), dens(rng), rng);
    const GridMap& g = m.grid;
    GridClearance cl(g);
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) {
        ASSERT_EQ(cl.centre_sq(x, y), brute_clearance_sq(g, {x + 0.5, y + 0.5})) << t << " centre " << x << "," << y;
        nonzero += cl.centre_sq(x, y) > 0.25;
      }
    for (int y = 0; y <= g.height; ++y)
      for (int x = 0; x <= g.width; ++x)
        ASSERT_EQ(cl.corner_sq(x, y), brute_clearance_sq(g, {double(x), double(y)})) << t << " corner " << x << "," << y;
  }
  EXPECT_GT(nonzero, 1000);  // far-away cells, not only neighbours of walls
}

TEST(Clearance, LargeOpenMapAndRowJumps) {
  // Few obstacles on a wide map: long distances, the envelope's breakpoints far apart.
  std::mt19937_64 rng(5);
  Map m = random_grid(157, 93, 0.002, rng);
  GridClearance cl(m.grid);
  std::uniform_int_distribution<int> xs(0, 156), ys(0, 92);
  for (int k = 0; k < 3000; ++k) {
    const int x = xs(rng), y = ys(rng);
    ASSERT_EQ(cl.centre_sq(x, y), brute_clearance_sq(m.grid, {x + 0.5, y + 0.5}));
    ASSERT_EQ(cl.corner_sq(x, y), brute_clearance_sq(m.grid, {double(x), double(y)}));
    int nb = x;
    while (nb < 157 && m.grid.passable(nb, y)) ++nb;
    ASSERT_EQ(cl.next_blocked(x, y), nb);
  }
  EXPECT_EQ(cl.next_blocked(157, 0), 157);
}

TEST(Clearance, PointClearanceAndDiscFreeAgainstBruteForce) {
  std::mt19937_64 rng(21);
  int free_cases = 0, blocked_cases = 0;
  for (int t = 0; t < 200; ++t) {
    Map m = random_grid(2 + t % 11, 2 + t % 7, 0.25, rng);
    const GridMap& g = m.grid;
    GridClearance cl(g);
    std::uniform_real_distribution<double> ux(-0.3, g.width + 0.3), uy(-0.3, g.height + 0.3), ur(0.0, 2.5);
    std::uniform_int_distribution<int> kind(0, 3), qx(0, 4 * g.width), qy(0, 4 * g.height);
    for (int k = 0; k < 200; ++k) {
      // Arbitrary points, and quarter-lattice points (on edges, at corners) where ties are exact.
      const Point p = kind(rng) ? Point{ux(rng), uy(rng)} : Point{qx(rng) * 0.25, qy(rng) * 0.25};
      const double ref = brute_clearance(g, p);
      ASSERT_NEAR(cl.point_clearance(p), ref, 1e-12) << p.x << "," << p.y;
      // R exactly at the clearance (kept above the point agent's 1e-9), or random.
      const double R = std::max(kind(rng) == 0 ? ref : ur(rng), 1e-6);
      if (std::abs(ref - (R - kRadiusTolerance)) < 1e-12) continue;
      const bool want = ref >= R - kRadiusTolerance;
      ASSERT_EQ(cl.disc_free(p, R), want) << p.x << "," << p.y << " R " << R;
      (want ? free_cases : blocked_cases)++;
    }
  }
  EXPECT_GT(free_cases, 2000);
  EXPECT_GT(blocked_cases, 2000);
}

TEST(Clearance, DiscAtRadiusZeroIsThePointAgent) {
  Map m = grid_from({"....", ".@..", "..@.", "...."});
  GridClearance cl(m.grid);
  FreeSpace fs(m);
  for (double y = -0.5; y <= 4.5; y += 0.25)
    for (double x = -0.5; x <= 4.5; x += 0.25) EXPECT_EQ(cl.disc_free({x, y}, 0), fs.point_free({x, y})) << x << "," << y;
}

// ------------------------------------------------------------------------------------------------
// Distances

TEST(Distance, SegmentBoxAndArcAgainstSampling) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-2, 3), ang(-3.1, 3.1), rad(0.1, 2);
  for (int k = 0; k < 3000; ++k) {
    const Point a{u(rng), u(rng)}, b{u(rng), u(rng)};
    const double bx = std::floor(u(rng)), by = std::floor(u(rng));
    // Segment to box, sampled.
    double ref = 1e300;
    for (int s = 0; s <= 4000; ++s) {
      const double t = s / 4000.0;
      ref = std::min(ref, point_box_distance({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}, bx, by, bx + 1, by + 1));
    }
    const double d = segment_box_distance(a, b, bx, by, bx + 1, by + 1);
    ASSERT_LE(d, ref + 1e-12);
    ASSERT_GE(d, ref - distance(a, b) / 4000 - 1e-12);
    // Arc to box, sampled.
    const Point c{u(rng), u(rng)};
    const double r = rad(rng), t0 = ang(rng), sw = ang(rng);
    Arc A;
    ASSERT_TRUE(make_arc({c.x + r * std::cos(t0), c.y + r * std::sin(t0)}, c,
                         {c.x + r * std::cos(t0 + sw), c.y + r * std::sin(t0 + sw)}, A));
    ref = 1e300;
    for (int s = 0; s <= 4000; ++s) {
      const double th = t0 + sw * s / 4000.0;
      ref = std::min(ref, point_box_distance({c.x + r * std::cos(th), c.y + r * std::sin(th)}, bx, by, bx + 1, by + 1));
    }
    const double da = arc_box_distance(A, bx, by, bx + 1, by + 1);
    ASSERT_LE(da, ref + 1e-9) << k;
    ASSERT_GE(da, ref - r * std::abs(sw) / 4000 - 1e-9) << k;
  }
}

TEST(Distance, ArcsRejectedBySpec) {
  Arc A;
  EXPECT_FALSE(make_arc({1, 0}, {0, 0}, {-1, 0}, A));          // half turn: the shorter way is undefined
  EXPECT_FALSE(make_arc({1, 0}, {0, 0}, {0, 1.001}, A));       // ends at different radii
  EXPECT_TRUE(make_arc({1, 0}, {0, 0}, {0, 1 + 1e-12}, A));   // within 1e-9 x r
  EXPECT_EQ(A.turn, 1);
  EXPECT_TRUE(make_arc({1, 0}, {0, 0}, {0, -1}, A));
  EXPECT_EQ(A.turn, -1);
}

