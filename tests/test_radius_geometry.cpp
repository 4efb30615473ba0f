// Geometry for a disc agent (docs/radius.md): the exact clearance grid, the disc test and the validity
// test for paths with segments and arcs, each against an independent slow reference (brute force
// over every obstacle square; dense sampling along the path).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "geometry/clearance.hpp"
#include "geometry/distance.hpp"
#include "geometry/free_space.hpp"
#include "geometry/polygons.hpp"
#include "geometry/radius_validity.hpp"

#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_radius_geometry {

using namespace navbench;
using testmaps::grid_from;
using testmaps::random_grid;

namespace {



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

// Reference: the smallest clearance (clear(p), the distance from p to the obstacle) over points
// every <= 1e-3 along a segment (arc_c == nullptr) or along the arc a -(c)-> b the shorter way.
// The true minimum is within 5e-4 below it.
template <class Clear>
double sampled_min_clearance(const Clear& clear, Point a, Point b, const Point* arc_c = nullptr) {
  double best = 1e300;
  if (!arc_c) {
    const int n = int(std::ceil(distance(a, b) / 1e-3)) + 1;
    for (int k = 0; k <= n; ++k) {
      const double t = double(k) / n;
      best = std::min(best, clear(Point{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}));
    }
    return best;
  }
  const Point c = *arc_c;
  const double r = distance(a, c), th0 = std::atan2(a.y - c.y, a.x - c.x);
  const double sweep = std::atan2((a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x),
                                  (a.x - c.x) * (b.x - c.x) + (a.y - c.y) * (b.y - c.y));
  const int n = int(std::ceil(r * std::abs(sweep) / 1e-3)) + 1;
  for (int k = 0; k <= n; ++k) {
    const double th = th0 + sweep * k / n;
    best = std::min(best, clear(Point{c.x + r * std::cos(th), c.y + r * std::sin(th)}));
  }
  return std::min({best, clear(a), clear(b)});
}

std::vector<PathItem> seg(Point a, Point b) { return {{a}, {b}}; }
std::vector<PathItem> arc(Point a, Point c, Point b) { return {{a}, {c, true}, {b}}; }

}  // namespace

// ------------------------------------------------------------------------------------------------
// Clearance grid

TEST(Clearance, ExactAgainstBruteForceOnRandomGrids) {
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<int> size(1, 14);
  std::uniform_real_distribution<double> dens(0.0, 0.6);
  int nonzero = 0;
  for (int t = 0; t < 300; ++t) {
    const int w = size(rng), h = size(rng);  // drawn in this order (a call's arguments are not: scripts/check-random-draws)
    const double density = dens(rng);
    Map m = random_grid(w, h, density, rng);
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

TEST(Clearance, BlockedCountAgainstBruteForce) {
  std::mt19937_64 rng(31);
  for (int t = 0; t < 200; ++t) {
    Map m = random_grid(1 + t % 13, 1 + t % 9, 0.3, rng);
    const GridMap& g = m.grid;
    GridClearance cl(g);
    std::uniform_int_distribution<int> xs(0, g.width - 1), ys(0, g.height - 1);
    for (int k = 0; k < 50; ++k) {
      int x0 = xs(rng), x1 = xs(rng), y0 = ys(rng), y1 = ys(rng);
      if (x0 > x1) std::swap(x0, x1);
      if (y0 > y1) std::swap(y0, y1);
      int want = 0;
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) want += !g.passable(x, y);
      ASSERT_EQ(cl.blocked_count(x0, y0, x1, y1), want) << t << ": " << x0 << "," << y0 << " - " << x1 << "," << y1;
    }
    EXPECT_EQ(cl.blocked_count(0, 0, -1, g.height - 1), 0);  // empty ranges
  }
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

// ------------------------------------------------------------------------------------------------
// Validity for R > 0 against dense sampling

namespace {

struct Tally {
  int valid = 0, invalid = 0, skipped = 0;
};

// Compares path_valid_radius on one piece with the sampled reference, where the reference is sure.
template <class Clear>
void check_piece(const std::vector<const RadiusValidity*>& rvs, const Clear& clear, const std::vector<PathItem>& path,
                 double R, Tally& t, const std::string& what) {
  const bool is_arc = path.size() == 3;
  const double ref = is_arc ? sampled_min_clearance(clear, path[0].p, path[2].p, &path[1].p)
                            : sampled_min_clearance(clear, path[0].p, path[1].p);
  if (std::abs(ref - R) <= 1e-3) {
    ++t.skipped;
    return;
  }
  const bool want = ref > R;
  for (const RadiusValidity* rv : rvs)
    ASSERT_EQ(rv->path_valid_radius(path, R), want) << what << (rv->clearance() ? " grid" : " polygon") << " R " << R
                                                    << " sampled " << ref;
  (want ? t.valid : t.invalid)++;
}

Point on_circle(Point c, double r, double th) { return {c.x + r * std::cos(th), c.y + r * std::sin(th)}; }

}  // namespace

TEST(RadiusValidity, SegmentsAgainstSampling) {
  std::mt19937_64 rng(42);
  Tally tally;
  const double radii[] = {0.3, 0.5, 1.5};
  for (int t = 0; t < 120; ++t) {
    Map m = random_grid(4 + t % 7, 4 + t % 5, 0.12, rng);
    const GridMap& g = m.grid;
    FreeSpace fs(m);
    RadiusValidity rv(fs);
    // The same free space as a polygon map: the rtree version must give the same answers.
    const Map pm = grid_to_polygon_map(m);
    FreeSpace pfs(pm);
    RadiusValidity prv(pfs);
    auto clear = [&](Point p) { return brute_clearance(g, p); };
    std::uniform_real_distribution<double> ux(-0.2, g.width + 0.2), uy(-0.2, g.height + 0.2), ur(0.05, 1.2), len(0, 3);
    std::uniform_int_distribution<int> kind(0, 3), qx(0, 2 * g.width), qy(0, 2 * g.height);
    for (int k = 0; k < 30; ++k) {
      const double R = kind(rng) == 0 ? ur(rng) : radii[k % 3];
      Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
      if (kind(rng) == 0) a = {qx(rng) * 0.5, qy(rng) * 0.5}, b = {qx(rng) * 0.5, qy(rng) * 0.5};  // centres, corners
      if (kind(rng) == 1) {  // short segments, mostly inside free space
        const double th = ux(rng);
        b = {a.x + len(rng) * std::cos(th), a.y + len(rng) * std::sin(th)};
      }
      if (kind(rng) == 2) b.y = a.y;  // axis-parallel
      check_piece({&rv, &prv}, clear, seg(a, b), R, tally, "segment " + std::to_string(t) + "/" + std::to_string(k));
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(tally.valid, 300);
  EXPECT_GT(tally.invalid, 1000);
  EXPECT_LT(tally.skipped, (tally.valid + tally.invalid) / 10);
}

// The grid test skips row blocks without a blocked cell near the segment (the summed-area count):
// on tall maps with sparse walls its answer must equal the test of every blocked square (same
// segment_box_distance, the border at the ends), tangent segments touching at R +- 5e-9 included
// (the line filter before the exact distance skips a square only when it surely passes).
TEST(RadiusValidity, SegmentRowBlocksAgainstEverySquare) {
  std::mt19937_64 rng(77);
  int valid = 0, invalid = 0;
  for (int t = 0; t < 40; ++t) {
    Map m = random_grid(20 + t % 17, 30 + t % 23, 0.01 + 0.01 * (t % 4), rng);
    const GridMap& g = m.grid;
    FreeSpace fs(m);
    RadiusValidity rv(fs);
    auto every_square = [&](Point a, Point b, double R) {
      const double lim = R - kRadiusTolerance;
      for (const Point& p : {a, b})
        if (!(std::min(std::min(p.x, g.width - p.x), std::min(p.y, g.height - p.y)) >= lim)) return false;
      for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x)
          if (!g.passable(x, y) && segment_box_distance(a, b, x, y, x + 1, y + 1) < lim) return false;
      return true;
    };
    std::uniform_real_distribution<double> ux(0, g.width), uy(0, g.height), ur(0.05, 2.0), th(0, 2 * std::numbers::pi);
    std::uniform_int_distribution<int> xs(1, g.width - 1), ys(1, g.height - 1);
    for (int k = 0; k < 300; ++k) {
      const double R = k % 4 == 0 ? ur(rng) : (k % 4 == 1 ? 0.5 : 1.5);
      const Point a{ux(rng), uy(rng)};
      Point b{ux(rng), uy(rng)};
      const Point c{double(xs(rng)), double(ys(rng))};
      if (k % 3 == 0) b = on_circle(c, R, th(rng));  // at R from a grid corner
      if (k % 3 == 1 && distance(a, c) > R + 1e-6) {
        // Tangent from a to the circle of radius R - 5e-9, R or R + 5e-9 about c: the segment comes
        // within rounding of lim (the line filter must keep the square it nearly touches).
        const double rt = R + 5e-9 * double(int(k % 5) - 2), d = distance(a, c), cs = rt / d;
        const double sn = std::sqrt(1 - cs * cs), vx = (a.x - c.x) / d, vy = (a.y - c.y) / d, sg = k % 2 ? 1 : -1;
        b = {c.x + rt * (cs * vx - sg * sn * vy), c.y + rt * (cs * vy + sg * sn * vx)};
      }
      const bool want = every_square(a, b, R);
      ASSERT_EQ(rv.segment_clear(a, b, R), want) << t << "/" << k << ": " << a.x << "," << a.y << " - " << b.x << ","
                                                 << b.y << " R " << R;
      (want ? valid : invalid)++;
    }
  }
  EXPECT_GT(valid, 1000);
  EXPECT_GT(invalid, 3000);
}

TEST(RadiusValidity, ArcsAgainstSampling) {
  std::mt19937_64 rng(43);
  Tally tally;
  for (int t = 0; t < 120; ++t) {
    Map m = random_grid(5 + t % 6, 5 + t % 4, 0.1, rng);
    const GridMap& g = m.grid;
    FreeSpace fs(m);
    RadiusValidity rv(fs);
    // The same free space as a polygon map: the rtree version must give the same answers.
    const Map pm = grid_to_polygon_map(m);
    FreeSpace pfs(pm);
    RadiusValidity prv(pfs);
    auto clear = [&](Point p) { return brute_clearance(g, p); };
    std::uniform_real_distribution<double> ux(0, g.width), uy(0, g.height), ur(0.1, 1.6), ang(-3.1, 3.1);
    std::uniform_int_distribution<int> kind(0, 2), qx(0, g.width), qy(0, g.height);
    for (int k = 0; k < 25; ++k) {
      const double R = ur(rng);
      // Centres anywhere, or at grid corners with radius R: the arcs of Chew's tangent graph.
      Point c{ux(rng), uy(rng)};
      double r = ur(rng);
      if (kind(rng) == 0) c = {double(qx(rng)), double(qy(rng))}, r = R;
      const double t0 = ang(rng), sw = ang(rng);
      const auto path = arc(on_circle(c, r, t0), c, on_circle(c, r, t0 + sw));
      check_piece({&rv, &prv}, clear, path, R, tally, "arc " + std::to_string(t) + "/" + std::to_string(k));
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(tally.valid, 150);
  EXPECT_GT(tally.invalid, 1000);
  EXPECT_LT(tally.skipped, (tally.valid + tally.invalid) / 10);
}

TEST(RadiusValidity, IrregularPolygonMapAgainstSampling) {
  // Walkable: a pentagon with a triangular hole; one obstacle quadrilateral; slanted edges, a
  // reflex corner. Reference clearance: FreeSpace::point_free, then brute force over every edge.
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {9.3, 0.4}, {10.1, 6.2}, {5.2, 8.9}, {0.3, 7.1}}, {{2, 2}, {3.7, 2.4}, {2.6, 4.1}}};
  m.polygons.obstacles.push_back({{{{6, 3}, {8.2, 3.5}, {7.1, 5.9}, {6.4, 5.0}}}});
  m.max = {10.1, 8.9};
  FreeSpace fs(m);
  RadiusValidity rv(fs);
  ASSERT_EQ(rv.clearance(), nullptr);
  std::vector<std::pair<Point, Point>> edges;
  for (const auto& ring : fs.obstacle_rings())
    for (std::size_t i = 0; i < ring.size(); ++i) edges.push_back({ring[i], ring[(i + 1) % ring.size()]});
  auto clear = [&](Point p) {
    if (!fs.point_free(p)) return 0.0;
    double best = 1e300;
    for (auto& [s, t] : edges) {
      const double dx = t.x - s.x, dy = t.y - s.y;
      const double u = std::clamp(((p.x - s.x) * dx + (p.y - s.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
      best = std::min(best, std::hypot(p.x - (s.x + u * dx), p.y - (s.y + u * dy)));
    }
    return best;
  };
  std::mt19937_64 rng(45);
  std::uniform_real_distribution<double> ux(-0.2, 10.3), uy(-0.2, 9.1), ur(0.1, 1.5), ang(-3.1, 3.1), len(0, 3);
  Tally segs, arcs;
  for (int k = 0; k < 1500; ++k) {
    const double R = ur(rng);
    const Point a{ux(rng), uy(rng)};
    const double th = ang(rng);
    const Point b = k % 2 ? Point{ux(rng), uy(rng)} : Point{a.x + len(rng) * std::cos(th), a.y + len(rng) * std::sin(th)};
    check_piece({&rv}, clear, seg(a, b), R, segs, "segment " + std::to_string(k));
    const double r = k % 3 ? ur(rng) : R, t0 = ang(rng), sw = ang(rng);
    check_piece({&rv}, clear, arc(on_circle(a, r, t0), a, on_circle(a, r, t0 + sw)), R, arcs, "arc " + std::to_string(k));
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(segs.valid, 100);
  EXPECT_GT(segs.invalid, 500);
  EXPECT_GT(arcs.valid, 100);
  EXPECT_GT(arcs.invalid, 500);
  // Hand cases: a disc and an arc round the obstacle's convex vertex (6, 3) at distance exactly R.
  EXPECT_TRUE(rv.path_valid_radius({{{5.5, 3}}}, 0.5));
  EXPECT_FALSE(rv.path_valid_radius({{{5.5, 3}}}, 0.5 + 1e-6));
  EXPECT_TRUE(rv.path_valid_radius(arc({5.5, 3}, {6, 3}, {6, 2.5}), 0.5));
  EXPECT_FALSE(rv.path_valid_radius(arc({5.5, 3}, {6, 3}, {6, 2.5}), 0.5 + 1e-6));
  EXPECT_FALSE(rv.path_valid_radius({{{2.5, 3}}}, 0.1));                    // inside the hole
  EXPECT_FALSE(rv.path_valid_radius(seg({2.5, 3}, {2.5, 3.05}), 0.01));     // inside the hole, far from its edges
  EXPECT_FALSE(rv.path_valid_radius(seg({7, 4}, {7.1, 4.1}), 0.01));        // inside the obstacle
}

TEST(RadiusValidity, RadiusZeroIsFreeSpaceSegmentValid) {
  std::mt19937_64 rng(44);
  for (int t = 0; t < 60; ++t) {
    Map m = random_grid(6, 5, 0.3, rng);
    FreeSpace fs(m);
    RadiusValidity rv(fs);
    std::uniform_int_distribution<int> qx(0, 12), qy(0, 10);
    std::uniform_real_distribution<double> ux(-0.1, 6.1), uy(-0.1, 5.1);
    for (int k = 0; k < 200; ++k) {
      const Point a = k % 2 ? Point{qx(rng) * 0.5, qy(rng) * 0.5} : Point{ux(rng), uy(rng)};
      const Point b = k % 3 ? Point{qx(rng) * 0.5, qy(rng) * 0.5} : Point{ux(rng), uy(rng)};
      ASSERT_EQ(rv.path_valid_radius(seg(a, b), 0), fs.segment_valid(a, b));
      // A segment valid for a tiny disc is valid for the point agent.
      if (rv.path_valid_radius(seg(a, b), 1e-6)) {
        ASSERT_TRUE(fs.segment_valid(a, b));
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Hand cases

TEST(RadiusValidity, CorridorExactly2RWide) {
  // Rows 1 and 2 free: a corridor [1, 3] in y, 2 wide, walls at y = 1 and y = 3.
  Map m = grid_from({"@@@@@@@@@@", "..........", "..........", "@@@@@@@@@@"});
  FreeSpace fs(m);
  RadiusValidity rv(fs);
  EXPECT_TRUE(rv.path_valid_radius(seg({1, 2}, {9, 2}), 1.0));
  EXPECT_TRUE(rv.path_valid_radius(seg({1, 2 + 1e-10}, {9, 2 + 1e-10}), 1.0));  // within the tolerance
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 2 + 1e-6}, {9, 2 + 1e-6}), 1.0));
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 2 - 1e-6}, {9, 2 - 1e-6}), 1.0));
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 2}, {9, 2 + 1e-6}), 1.0));       // tilted by a hair
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 2}, {9, 2}), 1.0 + 1e-6));        // a hair too wide
  EXPECT_FALSE(rv.path_valid_radius(seg({0.999999, 2}, {9, 2}), 1.0));       // the map's left border
  EXPECT_TRUE(rv.path_valid_radius({{{1, 2}}}, 1.0));
  EXPECT_TRUE(rv.clearance()->disc_free({5, 2}, 1.0));
  EXPECT_FALSE(rv.clearance()->disc_free({5, 2.000001}, 1.0));
  // A corridor one cell wide, R = 0.5: down the middle of the cells.
  Map m1 = grid_from({"@@@@@@", "......", "@@@@@@"});
  FreeSpace fs1(m1);
  RadiusValidity rv1(fs1);
  EXPECT_TRUE(rv1.path_valid_radius(seg({0.5, 1.5}, {5.5, 1.5}), 0.5));
  EXPECT_FALSE(rv1.path_valid_radius(seg({0.5, 1.5 + 1e-6}, {5.5, 1.5 + 1e-6}), 0.5));
  EXPECT_EQ(rv1.clearance()->centre_sq(3, 1), 0.25);
}

TEST(RadiusValidity, PinchPoint) {
  // (1,1) and (2,2) blocked: the corner (2,2) is a pinch point.
  Map m = grid_from({".....", ".@...", "..@..", ".....", "....."});
  FreeSpace fs(m);
  RadiusValidity rv(fs);
  EXPECT_FALSE(rv.path_valid_radius(seg({1.5, 2.5}, {2.5, 1.5}), 0.3));  // through the pinch
  EXPECT_FALSE(rv.path_valid_radius(seg({1.5, 2.5}, {2.5, 1.5}), 0));    // the point agent neither
  EXPECT_FALSE(rv.path_valid_radius(seg({1.5, 2.5}, {2.5, 1.5}), 1e-10));
  EXPECT_EQ(rv.clearance()->corner_sq(2, 2), 0.0);
  // Past the pinch at its corner's clearance sqrt(1/2) from (3,3): fine for R = 0.5.
  EXPECT_TRUE(rv.path_valid_radius(seg({3.5, 3.5}, {4.5, 2.5}), 0.5));
  EXPECT_FALSE(rv.path_valid_radius(seg({1.5, 3.5}, {3.5, 1.5}), 0.3));  // diagonal through the pinch region
}

TEST(RadiusValidity, TouchingAtExactlyR) {
  // One blocked cell [3,4] x [3,4] in an open 8 x 8 map.
  std::vector<std::string> rows(8, "........");
  rows[3][3] = '@';
  Map m = grid_from(rows);
  FreeSpace fs(m);
  RadiusValidity rv(fs);
  EXPECT_TRUE(rv.path_valid_radius(seg({1, 2.5}, {6, 2.5}), 0.5));            // along the top edge at R
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 2.5 + 1e-6}, {6, 2.5 + 1e-6}), 0.5));
  EXPECT_TRUE(rv.path_valid_radius(seg({4.75, 1}, {4.75, 7}), 0.75));         // along the right edge
  EXPECT_FALSE(rv.path_valid_radius(seg({4.75, 1}, {4.75, 7}), 0.75 + 1e-6));
  // x + y = 5 passes the corner (3,3) at distance sqrt(1/2).
  const double R = std::sqrt(0.5);
  EXPECT_TRUE(rv.path_valid_radius(seg({1, 4}, {4, 1}), R));
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 4}, {4, 1}), R + 1e-6));
  // Ending exactly at distance R from the corner, pointing at it.
  EXPECT_TRUE(rv.path_valid_radius(seg({1, 1}, {3 - 0.6, 3 - 0.8}), 1.0));
  EXPECT_FALSE(rv.path_valid_radius(seg({1, 1}, {3 - 0.6, 3 - 0.8}), 1.0 + 1e-6));
}

TEST(RadiusValidity, ArcHuggingACorner) {
  // Blocked cell [3,4] x [3,4]; its corner (3,3) is convex. Down the left side at distance R, around
  // the corner on the circle of radius R, then along the top side: the tangent path of Chew 1985.
  std::vector<std::string> rows(8, "........");
  rows[3][3] = '@';
  Map m = grid_from(rows);
  FreeSpace fs(m);
  RadiusValidity rv(fs);
  const double R = 0.5;
  const std::vector<PathItem> hug = {{{3 - R, 6}}, {{3 - R, 3}}, {{3, 3}, true}, {{3, 3 - R}}, {{7, 3 - R}}};
  EXPECT_TRUE(rv.path_valid_radius(hug, R));
  EXPECT_FALSE(rv.path_valid_radius(hug, R + 1e-6));
  // The same turn as a straight cut (the chord) clips the disc into the corner.
  EXPECT_FALSE(rv.path_valid_radius({{{3 - R, 6}}, {{3 - R, 3}}, {{3, 3 - R}}, {{7, 3 - R}}}, R));
  // The arc the other way round from (3 - R, 3) to (3, 3 - R) would be the long way: not "shorter".
  // An arc of the circle of radius R around the corner on the obstacle's side cuts into it.
  EXPECT_FALSE(rv.path_valid_radius(arc({3 + R, 3}, {3, 3}, {3, 3 + R}), 0.1));
  // Arc radius a hair smaller than R: too close.
  const double r = R - 1e-6;
  EXPECT_FALSE(rv.path_valid_radius(arc({3 - r, 3}, {3, 3}, {3, 3 - r}), R));
  EXPECT_TRUE(rv.path_valid_radius(arc({3 - r, 3}, {3, 3}, {3, 3 - r}), r));
  // The arc's bulge matters, not only its ends: leftmost point x = 0.5 at the map's border.
  const Point c{1, 4};
  const auto bulge = arc(on_circle(c, 0.5, 0.75 * std::numbers::pi), c, on_circle(c, 0.5, 1.25 * std::numbers::pi));
  EXPECT_TRUE(rv.path_valid_radius(bulge, 0.5));
  EXPECT_FALSE(rv.path_valid_radius(bulge, 0.6));
  EXPECT_TRUE(rv.path_valid_radius(seg(bulge[0].p, bulge[2].p), 0.6));  // the chord stays clear
}

TEST(RadiusValidity, MalformedPaths) {
  Map m = grid_from({"....", "....", "....", "...."});
  FreeSpace fs(m);
  RadiusValidity rv(fs);
  EXPECT_FALSE(rv.path_valid_radius({}, 0.5));
  EXPECT_FALSE(rv.path_valid_radius({{{2, 2}, true}}, 0.5));
  EXPECT_FALSE(rv.path_valid_radius({{{1, 2}}, {{2, 2}, true}, {{2, 2}, true}, {{3, 2}}}, 0.5));
  EXPECT_FALSE(rv.path_valid_radius(arc({1.5, 2}, {2, 2}, {2.5, 2}), 0.5));  // half turn
  EXPECT_THROW(rv.path_valid_radius(seg({1, 1}, {2, 2}), -1), std::invalid_argument);
  EXPECT_THROW(rv.path_valid_radius(arc({1.5, 2}, {2, 2}, {2, 1.5}), 0), std::invalid_argument);
  EXPECT_TRUE(rv.path_valid_radius(arc({2, 2}, {2, 2}, {2, 2}), 0));  // a zero arc of the point agent
}

}  // namespace test_radius_geometry
