// The squeeze rule (SPEC §11): FreeSpace built with squeeze = true lets a segment pass a pinch
// point; the exact optimum with squeezing (geometry/squeeze_optimum.hpp) equals a brute-force
// visibility graph over every grid corner on random grids and is never above the optimum without;
// so does visgraph built with pinch=allow (with and without landmarks), searched by the shared A*.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <queue>
#include <random>

#include "datasets/generate.hpp"
#include "geometry/free_space.hpp"
#include "geometry/polygons.hpp"
#include "geometry/squeeze_optimum.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/timed_build.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_squeeze {

using namespace navbench;

namespace {

// Dijkstra over s, g and every free grid corner, every pair joined when the segment is valid.
double brute_force(const FreeSpace& fs, Point s, Point g) {
  const Map& m = fs.map();
  std::vector<Point> v{s, g};
  for (int y = 0; y <= m.grid.height; ++y)
    for (int x = 0; x <= m.grid.width; ++x)
      if (fs.point_free({double(x), double(y)})) v.push_back({double(x), double(y)});
  std::vector<double> dist(v.size(), std::numeric_limits<double>::infinity());
  std::vector<char> done(v.size(), 0);
  dist[0] = 0;
  for (;;) {
    std::size_t u = v.size();
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!done[i] && (u == v.size() || dist[i] < dist[u])) u = i;
    if (u == v.size() || std::isinf(dist[u])) return std::numeric_limits<double>::infinity();
    if (u == 1) return dist[1];
    done[u] = 1;
    for (std::size_t w = 0; w < v.size(); ++w)
      if (!done[w] && !(v[w] == v[u]) && dist[u] + distance(v[u], v[w]) < dist[w] && fs.segment_valid(v[u], v[w]))
        dist[w] = dist[u] + distance(v[u], v[w]);
  }
}

}  // namespace

TEST(Squeeze, SegmentThroughAPinchPointIsValidOnlyWithSqueezing) {
  GridMap g;
  g.width = g.height = 2;
  g.cells = {1, 0, 0, 1};  // free (0,0) and (1,1): corner (1,1) is a pinch point
  const Map m = make_grid_map(g, "pinch", "hand");
  const FreeSpace forbid(m), allow(m, true);
  EXPECT_FALSE(forbid.segment_valid({0.5, 0.5}, {1.5, 1.5}));
  EXPECT_TRUE(allow.segment_valid({0.5, 0.5}, {1.5, 1.5}));
  EXPECT_NE(forbid.component({0.5, 0.5}), forbid.component({1.5, 1.5}));
  EXPECT_EQ(allow.component({0.5, 0.5}), allow.component({1.5, 1.5}));
  EXPECT_FALSE(allow.segment_valid({0.5, 0.5}, {1.5, 0.5}));  // still no crossing of a blocked cell
}

TEST(Squeeze, OptimumEqualsBruteForceAndIsAtMostTheOptimumWithout) {
  std::size_t compared = 0, shorter = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Map m = testmaps::generated_random(seed, 30 + 2 * double(seed), 12);
    const FreeSpace forbid(m), allow(m, true);
    const SqueezeOptimum opt(allow);
    const auto vis = build_optimum_graph(m);
    // visgraph under the squeeze rule, with its default landmarks and without.
    const TimedBuild visq = build_timed(m, parse_rep_option("visgraph:pinch=allow").front());
    const TimedBuild visq0 = build_timed(m, parse_rep_option("visgraph:pinch=allow,alt=0").front());
    ASSERT_TRUE(visq.rep && visq0.rep);
    EXPECT_NE(visq.row.params.find("pinch=allow"), std::string::npos);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> c(0, 2 * m.grid.width);
    for (int q = 0; q < 30;) {
      // Corners, edge midpoints and cell centres.
      const Point s{c(rng) / 2.0, c(rng) / 2.0}, g{c(rng) / 2.0, c(rng) / 2.0};
      if (!allow.point_free(s) || !allow.point_free(g)) continue;
      ++q;
      const double want = brute_force(allow, s, g);
      const auto got = opt.length(s, g);
      const auto from_vis = exact_optimum(*visq.rep, allow, s, g), from_vis0 = exact_optimum(*visq0.rep, allow, s, g);
      if (std::isinf(want)) {
        EXPECT_FALSE(got.has_value());
        EXPECT_FALSE(from_vis.has_value());
        EXPECT_FALSE(from_vis0.has_value());
        continue;
      }
      ASSERT_TRUE(got.has_value()) << s.x << "," << s.y << " " << g.x << "," << g.y;
      EXPECT_NEAR(*got, want, 1e-9) << s.x << "," << s.y << " " << g.x << "," << g.y;
      ASSERT_TRUE(from_vis.has_value() && from_vis0.has_value()) << s.x << "," << s.y << " " << g.x << "," << g.y;
      EXPECT_NEAR(*from_vis, want, 1e-9) << "visgraph:pinch=allow " << s.x << "," << s.y << " " << g.x << "," << g.y;
      EXPECT_NEAR(*from_vis0, want, 1e-9) << "visgraph:pinch=allow,alt=0 " << s.x << "," << s.y << " " << g.x << "," << g.y;
      ++compared;
      if (const auto without = exact_optimum(*vis, forbid, s, g)) {
        EXPECT_LE(*got, *without + 1e-9);
        shorter += *got < *without - 1e-9;
      }
    }
  }
  EXPECT_GT(compared, 150u);
  EXPECT_GT(shorter, 0u);  // squeezing shortens some paths on these maps
}

TEST(Squeeze, VisgraphPinchAllowRefusesWhatItCannotHold) {
  EXPECT_THROW(parse_rep_option("visgraph:pinch=allow,skip=1"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("visgraph:pinch=allow,taut=1"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("visgraph:pinch=allow,table=1"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("visgraph:pinch=allow,block=2"), std::invalid_argument);
  const Map poly = grid_to_polygon_map(testmaps::generated_random(1, 30, 8));  // pinch points are grid corners (SPEC 11)
  const TimedBuild b = build_timed(poly, parse_rep_option("visgraph:pinch=allow").front());
  EXPECT_FALSE(b.rep);
  EXPECT_NE(b.unsupported.find("grid map"), std::string::npos);
}

}  // namespace test_squeeze
