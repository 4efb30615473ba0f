// Clearance and turning of a path (geometry/path_quality.hpp) against brute force: every obstacle
// edge without buckets, fine sampling with the exact point clearance, and closed-form cases (a
// path touching a corner, a disc path grazing a corner at radius R, a quarter arc).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "datasets/generate.hpp"
#include "geometry/clearance.hpp"
#include "geometry/distance.hpp"
#include "geometry/free_space.hpp"
#include "geometry/path_quality.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_path_quality {

using namespace navbench;

namespace {

// Every ring edge, no buckets.
double brute_clearance(const FreeSpace& fs, const Polyline& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& ring : fs.obstacle_rings())
    for (std::size_t i = 0; i < ring.size(); ++i)
      for (std::size_t k = 1; k < p.size(); ++k)
        best = std::min(best, segment_segment_distance(p[k - 1], p[k], ring[i], ring[(i + 1) % ring.size()]));
  return best;
}

// Heading changes by dot products, in degrees.
double brute_turn(const Polyline& p) {
  double total = 0;
  for (std::size_t i = 2; i < p.size(); ++i) {
    const double ax = p[i - 1].x - p[i - 2].x, ay = p[i - 1].y - p[i - 2].y;
    const double bx = p[i].x - p[i - 1].x, by = p[i].y - p[i - 1].y;
    const double c = (ax * bx + ay * by) / (std::hypot(ax, ay) * std::hypot(bx, by));
    total += std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / M_PI;
  }
  return total;
}

}  // namespace

// Random polylines through the free space of random maps: the bucketed clearance equals the
// all-edges one, and fine sampling with the exact point clearance agrees within its step.
TEST(PathQuality, ClearanceMatchesBruteForce) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    GenerateOptions o;
    o.kind = seed % 2 ? "random" : "cave";
    o.width = 40;
    o.height = 32;
    o.density = seed % 2 ? 15 : 45;
    o.seed = seed;
    const Map m = make_grid_map(generate_map(o), "r");
    FreeSpace fs(m);
    const GridClearance gc(m.grid);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> x(0.0, 40.0), y(0.0, 32.0);
    int checked = 0;
    for (int attempt = 0; attempt < 4000 && checked < 60; ++attempt) {
      Polyline p;
      const int n = 2 + int(rng() % 4);
      while (int(p.size()) < n) {
        const Point q{x(rng), y(rng)};
        if (fs.point_free(q) && (p.empty() || fs.segment_valid(p.back(), q))) p.push_back(q);
        else if (p.empty()) continue;
        else break;
      }
      if (int(p.size()) < n) continue;
      ++checked;
      const double c = fs.path_clearance().clearance(p);
      EXPECT_EQ(c, brute_clearance(fs, p));
      double sampled = std::numeric_limits<double>::infinity();
      const double step = 0.01;
      for (std::size_t k = 1; k < p.size(); ++k) {
        const int pieces = std::max(1, int(std::ceil(distance(p[k - 1], p[k]) / step)));
        for (int i = 0; i <= pieces; ++i) {
          const double t = double(i) / pieces;
          sampled = std::min(sampled, gc.point_clearance({p[k - 1].x + t * (p[k].x - p[k - 1].x), p[k - 1].y + t * (p[k].y - p[k - 1].y)}));
        }
      }
      EXPECT_LE(c, sampled + 1e-12);
      EXPECT_GE(c, sampled - step / 2 - 1e-12);
      EXPECT_NEAR(path_turn(p), brute_turn(p), 1e-9);
    }
    EXPECT_GE(checked, 20);
  }
}

// Random paths with arcs (docs/radius.md items: a, @c, b): the bucketed clearance equals the
// all-edges minimum, and fine sampling along segments and arcs agrees within its step; the turn
// equals the one of the arc drawn as many chords.
TEST(PathQuality, PathsWithArcsMatchBruteForce) {
  GenerateOptions o;
  o.kind = "random";
  o.width = o.height = 30;
  o.density = 12;
  o.seed = 9;
  const Map m = make_grid_map(generate_map(o), "r");
  FreeSpace fs(m);
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto boundary_distance = [&](Point p) {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& ring : fs.obstacle_rings())
      for (std::size_t i = 0; i < ring.size(); ++i) best = std::min(best, point_segment_distance(p, ring[i], ring[(i + 1) % ring.size()]));
    return best;
  };
  for (int k = 0; k < 40; ++k) {
    const Point c{3 + 24 * u(rng), 3 + 24 * u(rng)};
    const double r = 0.2 + 2 * u(rng), a0 = 2 * M_PI * u(rng), sweep = (u(rng) - 0.5) * 0.95 * 2 * M_PI / 2;  // < 90° either way
    const Point a{c.x + r * std::cos(a0), c.y + r * std::sin(a0)}, b{c.x + r * std::cos(a0 + sweep), c.y + r * std::sin(a0 + sweep)};
    const Point before{a.x - 3 * std::sin(a0) * (sweep > 0 ? -1 : 1), a.y + 3 * std::cos(a0) * (sweep > 0 ? -1 : 1)};
    const std::vector<PathItem> path = {{before, false}, {a, false}, {c, true}, {b, false}};
    Arc arc;
    ASSERT_TRUE(make_arc(a, c, b, arc));
    double all = std::numeric_limits<double>::infinity();
    for (const auto& ring : fs.obstacle_rings())
      for (std::size_t i = 0; i < ring.size(); ++i) {
        const Point e0 = ring[i], e1 = ring[(i + 1) % ring.size()];
        all = std::min({all, segment_segment_distance(before, a, e0, e1), arc_segment_distance(arc, e0, e1)});
      }
    const double got = fs.path_clearance().clearance(path);
    EXPECT_EQ(got, all);
    double sampled = std::numeric_limits<double>::infinity();
    const int n = 2000;
    for (int i = 0; i <= n; ++i) {
      const double t = double(i) / n;
      sampled = std::min({sampled, boundary_distance({before.x + t * (a.x - before.x), before.y + t * (a.y - before.y)}),
                          boundary_distance({c.x + r * std::cos(a0 + t * sweep), c.y + r * std::sin(a0 + t * sweep)})});
    }
    const double step = std::max(distance(before, a), r * std::abs(sweep)) / n;
    EXPECT_LE(got, sampled + 1e-12);
    EXPECT_GE(got, sampled - step / 2 - 1e-12);
    // With a straight exit along the tangent at b, the chords turn from the entry to the exit
    // direction exactly as the arc does.
    const double sg = sweep > 0 ? 1.0 : -1.0, e = a0 + sweep;
    const Point after{b.x - 3 * sg * std::sin(e), b.y + 3 * sg * std::cos(e)};
    std::vector<PathItem> walked = path;
    walked.push_back({after, false});
    Polyline chords{before, a};
    for (int i = 1; i <= 500; ++i) chords.push_back({c.x + r * std::cos(a0 + sweep * i / 500), c.y + r * std::sin(a0 + sweep * i / 500)});
    chords.push_back(after);
    EXPECT_NEAR(path_turn(walked), path_turn(chords), 1e-6);
    EXPECT_NEAR(path_turn(walked), std::abs(sweep) * 180 / M_PI, 1e-6);
  }
}

TEST(PathQuality, TouchingACornerIsZeroExactly) {
  const Map m = testmaps::grid_from({"........", "........", "...@....", "........", "........"});
  FreeSpace fs(m);
  // Through the blocked cell's corner (4, 3) in the middle of a segment, and ending at (3, 2).
  EXPECT_EQ(fs.path_clearance().clearance(Polyline{{2.0, 1.0}, {6.0, 5.0}}), 0.0);
  EXPECT_EQ(fs.path_clearance().clearance(Polyline{{0.5, 0.5}, {3.0, 2.0}}), 0.0);
  EXPECT_DOUBLE_EQ(fs.path_clearance().clearance(Polyline{{0.5, 0.5}, {7.5, 0.5}}), 0.5);  // the map's edge
}

// A disc path of radius R around the convex corner (5, 5) of the blocked cell [4,5] x [4,5]: its
// straight pieces run at distance R from the cell's sides and its arc at R from the corner.
TEST(PathQuality, DiscPathGrazingAtR) {
  std::vector<std::string> rows(20, std::string(20, '.'));
  rows[4][4] = '@';
  const Map m = testmaps::grid_from(rows);
  FreeSpace fs(m);
  for (double R : {0.3, 0.5, 1.5}) {
    const std::vector<PathItem> path = {{{5 + R, 2}, false}, {{5 + R, 5}, false}, {{5, 5}, true}, {{5, 5 + R}, false}, {{2, 5 + R}, false}};
    EXPECT_NEAR(fs.path_clearance().clearance(path), R, 1e-9);
    EXPECT_NEAR(path_turn(path), 90.0, 1e-9);  // up, a quarter arc counter-clockwise, then left
    // The same arc as many short chords turns the same in the limit.
    Polyline fine{{5 + R, 2}};
    for (int i = 0; i <= 1000; ++i) {
      const double a = M_PI / 2 * i / 1000;
      fine.push_back({5 + R * std::cos(a), 5 + R * std::sin(a)});
    }
    fine.push_back({2, 5 + R});
    EXPECT_NEAR(path_turn(fine), 90.0, 1e-6);
    EXPECT_NEAR(brute_turn(fine), 90.0, 1e-6);
  }
}

}  // namespace test_path_quality
