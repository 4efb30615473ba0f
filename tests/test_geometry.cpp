// FreeSpace: the exact validity test (grid bitmap walk vs polygon rtree), exact predicates,
// boundary tracing, components.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include <boost/geometry/algorithms/area.hpp>
#include <boost/geometry/algorithms/covered_by.hpp>
#include <boost/geometry/algorithms/is_valid.hpp>
#include <boost/geometry/geometries/linestring.hpp>

#include "geometry/exact.hpp"
#include "geometry/free_space.hpp"
#include "geometry/grid_rings.hpp"
#include "geometry/polygons.hpp"
#include "datasets/movingai.hpp"

#include "support/data.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_geometry {

using namespace navbench;
using testmaps::grid_from;
using testmaps::random_grid;

namespace {



// Points of every kind a path meets: corners, centres, edge midpoints, quarter points, arbitrary.
Point random_point(const Map& m, std::mt19937_64& rng) {
  const int W = m.grid.width, H = m.grid.height;
  std::uniform_int_distribution<int> kind(0, 4), xs(0, W), ys(0, H);
  std::uniform_real_distribution<double> ux(-0.2, W + 0.2), uy(-0.2, H + 0.2);
  switch (kind(rng)) {
    case 0: return {double(xs(rng)), double(ys(rng))};
    case 1: return {xs(rng) + 0.5, ys(rng) + 0.5};
    case 2: return {double(xs(rng)), ys(rng) + 0.5};
    case 3: {  // the operands of + are not sequenced either: x, its quarter, then y
      const int x = xs(rng), quarter = std::uniform_int_distribution<int>(0, 3)(rng), y = ys(rng);
      return {x + 0.25 * quarter, y + 0.75};
    }
    default: return {ux(rng), uy(rng)};
  }
}

}  // namespace

TEST(Exact, OrientationNearDegenerate) {
  // Kettner et al., "Classroom examples of robustness problems": points within ulps of a line.
  // Reference: coordinates are multiples of 2^-53, so scaled by 2^53 they are integers; int128 is exact.
  const double u = std::ldexp(1.0, -53);
  int disagreements_with_naive = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      const Point p{0.5 + i * u, 0.5 + j * u}, q{12, 12}, r{24, 24};
      auto S = [](double v) { return __int128(std::ldexp(v, 53)); };
      const __int128 det = (S(q.x) - S(p.x)) * (S(r.y) - S(p.y)) - (S(q.y) - S(p.y)) * (S(r.x) - S(p.x));
      const int ref = det > 0 ? 1 : det < 0 ? -1 : 0;
      EXPECT_EQ(exact::orient2d(p, q, r), ref) << i << " " << j;
      EXPECT_EQ(exact::orient2d(q, r, p), ref);
      EXPECT_EQ(exact::orient2d(r, p, q), ref);
      const double naive = (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
      disagreements_with_naive += (naive > 0 ? 1 : naive < 0 ? -1 : 0) != ref;
    }
  EXPECT_GT(disagreements_with_naive, 0);  // the naive formula does fail here: the test has teeth
  const double t[5] = {1e300, 1.0, -1e300, -0.5, -0.5};
  EXPECT_EQ(exact::sign_of_sum(t, 5), 0);
  const double t2[3] = {1e300, 1e-300, -1e300};
  EXPECT_EQ(exact::sign_of_sum(t2, 3), 1);
}

TEST(Rings, TraceMergesEdgesAndSplitsDiagonalTouches) {
  // Two blocked cells touching diagonally in the middle of an open room.
  Map m = grid_from({"....", ".@..", "..@.", "...."});
  FreeSpace fs(m);
  const auto& rings = fs.obstacle_rings();
  ASSERT_EQ(rings.size(), 3u);  // the room's outline and two islands touching at (2,2)
  double area2 = 0;
  int ccw = 0;
  for (const auto& r : rings) {
    area2 += ring_area2(r);
    ccw += ring_area2(r) > 0;
    for (std::size_t i = 0; i < r.size(); ++i)
      for (std::size_t j = i + 1; j < r.size(); ++j) {
        EXPECT_FALSE(r[i] == r[j]) << "ring not simple";
      }
  }
  EXPECT_EQ(ccw, 1);
  EXPECT_EQ(area2 / 2, 14.0);  // free area
  // The room outline has 4 vertices: collinear unit edges merged.
  for (const auto& r : rings) {
    if (ring_area2(r) > 0) {
      EXPECT_EQ(r.size(), 4u);
    }
  }
}

TEST(Rings, ObstaclePolygonsAreValid) {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 40; ++t) {
    Map m = random_grid(9, 7, 0.4, rng);
    for (bool outside : {false, true}) {
      BgMultiPolygon mp = grid_obstacle_polygons(m.grid, outside);
      std::string why;
      EXPECT_TRUE(boost::geometry::is_valid(mp, why)) << why;
      double blocked = 0;
      for (auto c : m.grid.cells) blocked += c == 0;
      const double frame = outside ? (m.grid.width + 2.0) * (m.grid.height + 2) - m.grid.width * m.grid.height : 0;
      EXPECT_DOUBLE_EQ(boost::geometry::area(mp), blocked + frame);
    }
  }
}

TEST(FreeSpaceGrid, HandPickedCases) {
  // (1,1) and (2,2) blocked: the corner (2,2) is a pinch point.
  Map m = grid_from({"....", ".@..", "..@.", "...."});
  FreeSpace fs(m);
  EXPECT_FALSE(fs.segment_valid({1, 3}, {3, 1}));          // diagonally through the pinch
  EXPECT_FALSE(fs.segment_valid({0.5, 0.5}, {3.5, 3.5}));  // through the blocked cells
  EXPECT_TRUE(fs.segment_valid({0, 1}, {4, 1}));           // grazing along the top of (1,1)
  EXPECT_FALSE(fs.segment_valid({0, 2}, {4, 2}));          // along a line through the pinch
  EXPECT_TRUE(fs.segment_valid({0, 2}, {2, 0}));           // touching the convex corner (1,1)
  EXPECT_TRUE(fs.segment_valid({0.5, 1.5}, {1.5, 0.5}));   // the same, between centres
  EXPECT_FALSE(fs.segment_valid({0.5, 1.2}, {1.5, 0.9}));  // clips the corner of (1,1)
  EXPECT_TRUE(fs.segment_valid({0, 0.5}, {0, 3.5}));       // along the map boundary
  EXPECT_FALSE(fs.segment_valid({-0.1, 0.5}, {1, 0.5}));   // starts outside
  EXPECT_FALSE(fs.segment_valid({1, 1}, {2, 2}));          // diagonal of a blocked cell
  EXPECT_TRUE(fs.segment_valid({1, 1}, {2, 1}));           // its top edge
  EXPECT_TRUE(fs.segment_valid({1, 1}, {1, 1}));
  EXPECT_FALSE(fs.segment_valid({1.5, 1.5}, {1.5, 1.5}));
  // Ends at the pinch (2,2): its own cell is (2,1) ((2,2) is blocked).
  EXPECT_TRUE(fs.segment_valid({2, 2}, {3, 1.5}));
  EXPECT_TRUE(fs.segment_valid({3.5, 1.5}, {2, 2}));
  EXPECT_TRUE(fs.segment_valid({2, 2}, {4, 2 - 1e-9}));
  EXPECT_FALSE(fs.segment_valid({2, 2}, {1, 3}));          // into the other free cell
  EXPECT_FALSE(fs.segment_valid({2, 2}, {2, 4}));          // down the line between the blocked cells
  EXPECT_TRUE(fs.segment_valid({2, 2}, {2, 0}));           // up along the edge of (2,1)
  EXPECT_FALSE(fs.segment_valid({2, 2}, {0, 2}));          // along the bottom of (1,1): other side
  EXPECT_EQ(fs.component({2, 2}), fs.component({3.5, 0.5}));
  EXPECT_EQ(fs.component({0.5, 3.5}), fs.component({3.5, 0.5}));  // connected around
  EXPECT_EQ(fs.component({1.5, 1.5}), -1);
  EXPECT_TRUE(fs.point_free({2, 2}));
  EXPECT_TRUE(fs.point_free({4, 4}));
  EXPECT_FALSE(fs.point_free({4, 4.0000001}));
  EXPECT_FALSE(fs.path_valid({{1, 3}, {2, 2}, {3, 1}}));   // through the pinch as a vertex
  EXPECT_TRUE(fs.path_valid({{0.5, 0.5}, {2, 1}, {3.5, 1.5}, {3.5, 3.5}}));
  EXPECT_FALSE(fs.path_valid({{0.5, 0.5}, {2, 1}, {3.5, 3.5}}));  // clips blocked cell (2,2)
  EXPECT_EQ(fs.convex_corners().size(), 6u);               // 8 outer corners minus the pinch
}

TEST(FreeSpaceGrid, ComponentsArePinchAware) {
  // Two rooms meeting only at the pinch (2,2): different components.
  Map m = grid_from({"..@@", "..@@", "@@..", "@@.."});
  FreeSpace fs(m);
  EXPECT_EQ(fs.component_count(), 2);
  EXPECT_NE(fs.component({0.5, 0.5}), fs.component({3.5, 3.5}));
  EXPECT_EQ(fs.component({2, 2}), fs.component({3.5, 3.5}));  // own cell (2,2)
  EXPECT_FALSE(fs.segment_valid({1, 1}, {3, 3}));
  EXPECT_TRUE(fs.segment_valid({2, 2}, {3, 3}));
  EXPECT_FALSE(fs.segment_valid({2, 2}, {1, 1}));
  Map m2 = grid_from({"@@..", "@@..", "..@@", "..@@"});
  FreeSpace fs2(m2);
  EXPECT_EQ(fs2.component({2, 2}), fs2.component({3.5, 0.5}));  // own cell (2,1)
  EXPECT_TRUE(fs2.segment_valid({2, 2}, {3, 1}));
  EXPECT_FALSE(fs2.segment_valid({2, 2}, {1, 3}));
}

// The grid free space's components and convex corners against their definitions, cell by cell and
// point by point, on random maps with and without squeezing (SPEC §11): components of 4-connected
// free cells (with squeezing also diagonal steps between two blocked cells), numbered by their
// first cell in row-major order; a convex corner wherever exactly one of the four cells around an
// inner grid point is blocked, in row-major order of the points, with its obstacle wedge and the
// component of a free cell beside it.
TEST(FreeSpaceGrid, ComponentsAndCornersMatchTheirDefinitions) {
  std::mt19937_64 rng(144);
  for (const bool squeeze : {false, true})
    for (const unsigned density : {10u, 35u, 55u}) {
      SCOPED_TRACE(std::to_string(density) + (squeeze ? " squeeze" : ""));
      GridMap g;
      g.width = 37, g.height = 23;
      for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < density ? 0 : 1);
      const Map m = make_grid_map(g, "fsdef", "test");
      const FreeSpace fs(m, squeeze);
      const int W = g.width, H = g.height;
      auto freec = [&](int x, int y) { return x >= 0 && y >= 0 && x < W && y < H && g.passable(x, y); };
      std::vector<int> label(std::size_t(W * H), -1);
      int n = 0;
      for (int s = 0; s < W * H; ++s) {
        if (label[std::size_t(s)] >= 0 || !freec(s % W, s / W)) continue;
        std::vector<int> todo{s};
        label[std::size_t(s)] = n;
        while (!todo.empty()) {
          const int c = todo.back(), x = c % W, y = c / W;
          todo.pop_back();
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              if (dx == 0 && dy == 0) continue;
              const bool diagonal = dx != 0 && dy != 0;
              if (diagonal && (!squeeze || freec(x + dx, y) || freec(x, y + dy))) continue;
              if (!freec(x + dx, y + dy) || label[std::size_t((y + dy) * W + x + dx)] >= 0) continue;
              label[std::size_t((y + dy) * W + x + dx)] = n;
              todo.push_back((y + dy) * W + x + dx);
            }
        }
        ++n;
      }
      ASSERT_EQ(fs.component_count(), n);
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) ASSERT_EQ(fs.component({x + 0.5, y + 0.5}), label[std::size_t(y * W + x)]) << x << "," << y;
      std::vector<ConvexCorner> want;
      for (int y = 1; y < H; ++y)
        for (int x = 1; x < W; ++x) {
          const bool f[4] = {freec(x - 1, y - 1), freec(x, y - 1), freec(x - 1, y), freec(x, y)};
          if (f[0] + f[1] + f[2] + f[3] != 3) continue;
          const int b = !f[0] ? 0 : !f[1] ? 1 : !f[2] ? 2 : 3;
          const int qx = (b & 1) ? 1 : -1, qy = (b & 2) ? 1 : -1;
          ConvexCorner c;
          c.at = {double(x), double(y)};
          const Point ex{x + double(qx), double(y)}, ey{double(x), y + double(qy)};
          c.before = qx * qy > 0 ? ex : ey;
          c.after = qx * qy > 0 ? ey : ex;
          c.component = label[std::size_t((b == 3 ? y - 1 : y) * W + (b == 3 ? x - 1 : x))];
          want.push_back(c);
        }
      const auto& got = fs.convex_corners();
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_TRUE(got[i].at == want[i].at && got[i].before == want[i].before && got[i].after == want[i].after) << i;
        EXPECT_EQ(got[i].component, want[i].component) << i;
      }
    }
}

// A vertex on a pinch point (SPEC §1, docs/validity.md): an inner vertex may be reached from either
// free cell if the path leaves into the cell it came from; a path's start and goal there follow the
// owner rule. The same answers on the map's polygon form (its sectors meeting at the point).
TEST(FreeSpaceGrid, PinchVertexRule) {
  // (1,1) and (2,2) blocked: the pinch (2,2) joins free cells (2,1) (its owner) and (1,2).
  Map m = grid_from({"....", ".@..", "..@.", "...."});
  Map pm = grid_to_polygon_map(m);
  const FreeSpace grid_fs(m), poly_fs(pm);
  for (const FreeSpace* fs : {&grid_fs, &poly_fs}) {
    SCOPED_TRACE(fs == &grid_fs ? "grid" : "polygon");
    // Inner vertex, touching from the other cell (1,2) and turning back into it: valid.
    EXPECT_TRUE(fs->path_valid({{1.5, 2.5}, {2, 2}, {1.2, 2.8}}));
    EXPECT_TRUE(fs->path_valid({{0, 2}, {2, 2}, {2, 3.5}}));       // along both walls of (1,2), as den520d's
    EXPECT_TRUE(fs->path_valid({{2, 3.5}, {2, 2}, {0.5, 2.5}}));   // (127,61) -> (127,58) -> (124,59)
    EXPECT_TRUE(fs->path_valid({{2.5, 1.5}, {2, 2}, {3, 1.2}}));   // the same in the owner cell
    EXPECT_TRUE(fs->path_valid({{1.5, 2.5}, {2, 2}, {2, 2}, {1.2, 2.8}}));  // a repeated vertex is one vertex
    // Crossing from one free cell to the other through the vertex: invalid, in both directions
    // and along the walls.
    EXPECT_FALSE(fs->path_valid({{1.5, 2.5}, {2, 2}, {2.5, 1.5}}));
    EXPECT_FALSE(fs->path_valid({{2.5, 1.5}, {2, 2}, {1.5, 2.5}}));
    EXPECT_FALSE(fs->path_valid({{0, 2}, {2, 2}, {4, 2}}));
    EXPECT_FALSE(fs->path_valid({{2, 0}, {2, 2}, {2, 4}}));
    EXPECT_FALSE(fs->path_valid({{1.5, 2.5}, {2, 2}, {2, 2}, {2.5, 1.5}}));
    // Start or goal on the pinch: only through the owner cell (2,1).
    EXPECT_TRUE(fs->path_valid({{2, 2}, {2.5, 1.5}, {3.5, 2.5}}));
    EXPECT_FALSE(fs->path_valid({{2, 2}, {1.5, 2.5}, {0.5, 3.5}}));
    EXPECT_TRUE(fs->path_valid({{3.5, 0.5}, {2, 2}}));
    EXPECT_FALSE(fs->path_valid({{0.5, 3.5}, {1.5, 2.5}, {2, 2}}));
    EXPECT_FALSE(fs->path_valid({{2, 2}, {2, 2}, {1.5, 2.5}}));
    // A segment on its own is a path from one end to the other: the owner rule at both.
    EXPECT_FALSE(fs->segment_valid({1.5, 2.5}, {2, 2}));
    EXPECT_TRUE(fs->segment_valid({2.5, 1.5}, {2, 2}));
  }
  // The other orientation: (2,1) and (1,2) blocked, the pinch (2,2) joins (2,2) (owner) and (1,1).
  Map m2 = grid_from({"....", "..@.", ".@..", "...."});
  const FreeSpace fs2(m2);
  EXPECT_TRUE(fs2.path_valid({{1.5, 1.5}, {2, 2}, {2, 0.5}}));    // in (1,1) and back along its wall
  EXPECT_TRUE(fs2.path_valid({{2, 0.5}, {2, 2}, {0.5, 2}}));      // along both walls of (1,1)
  EXPECT_FALSE(fs2.path_valid({{1.5, 1.5}, {2, 2}, {2.5, 2.5}}));
  EXPECT_FALSE(fs2.path_valid({{2, 0.5}, {2, 2}, {2, 3.5}}));
  EXPECT_FALSE(fs2.path_valid({{2, 2}, {1.5, 1.5}}));
  EXPECT_TRUE(fs2.path_valid({{2, 2}, {2.5, 2.5}}));
}

// The issue's case on den520d: (127,58) is a pinch point; the path touches it from the free cell
// that is not its owner and turns back into that cell. Valid since the rule for inner vertices.
// A real map: the suite is a *Data one (docs/testing.md, label data).
TEST(FreeSpaceGridData, Den520dPinchTouchedFromTheOtherCell) {
  const std::string path = testdata::path("movingai/dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  const Map m = load_movingai_map(path);
  const FreeSpace fs(m);
  EXPECT_TRUE(fs.path_valid({{127, 61}, {127, 58}, {124, 59}}));
  EXPECT_TRUE(fs.path_valid({{124, 59}, {127, 58}, {127, 61}}));
  EXPECT_FALSE(fs.segment_valid({127, 58}, {124, 59}));  // as a path's start: not the owner cell
}

TEST(FreeSpaceGrid, LongSegmentsExactAtCorners) {
  // A long diagonal exactly through lattice corners next to blocked cells, and one a hair off.
  GridMap g;
  g.width = g.height = 300;
  g.cells.assign(300 * 300, 1);
  for (int i = 1; i < 299; i += 3) g.cells[std::size_t(i) * 300 + i + 1] = 0;  // cells (i+1, i)
  Map m = make_grid_map(g);
  FreeSpace fs(m);
  EXPECT_TRUE(fs.segment_valid({0, 0}, {300, 300}));  // touches the corners (i+1, i+1)
  EXPECT_TRUE(fs.segment_valid({0.5, 0.5}, {299.5, 299.5}));
  EXPECT_FALSE(fs.segment_valid({0, 0}, {300, 300 - 1e-12}));  // dips into cell (2,1) and others
  EXPECT_TRUE(fs.segment_valid({0, 1e-12}, {300, 300}));
}

TEST(FreeSpace, GridAndPolygonVersionsAgree) {
  std::mt19937_64 rng(12345);
  long compared = 0, valid = 0;
  for (int t = 0; t < 60; ++t) {
    const int w = 6 + int(rng() % 9), h = 5 + int(rng() % 8);  // drawn in this order: a call's arguments are not
    Map gm = random_grid(w, h, t % 3 == 0 ? 0.45 : 0.3, rng);
    Map pm = grid_to_polygon_map(gm);
    FreeSpace fg(gm), fp(pm);
    for (int i = 0; i < 1500; ++i) {
      const Point a = random_point(gm, rng), b = random_point(gm, rng);
      const bool vg = fg.segment_valid(a, b);
      ASSERT_EQ(vg, fp.segment_valid(a, b)) << "map " << t << " (" << a.x << "," << a.y << ")-(" << b.x << "," << b.y << ")";
      ASSERT_EQ(vg, fg.segment_valid(b, a));
      ASSERT_EQ(fg.point_free(a), fp.point_free(a)) << a.x << "," << a.y;
      ++compared;
      valid += vg;
    }
    // Components: the same partition of free points.
    std::vector<Point> pts;
    for (int i = 0; i < 60; ++i) pts.push_back(random_point(gm, rng));
    for (const Point& p : pts)
      for (const Point& q : pts) {
        const auto a = fg.component(p), b = fg.component(q), c = fp.component(p), d = fp.component(q);
        ASSERT_EQ(a < 0, c < 0);
        if (a >= 0 && b >= 0) {
          ASSERT_EQ(a == b, c == d) << p.x << "," << p.y << " " << q.x << "," << q.y;
        }
      }
    EXPECT_EQ(fg.component_count(), fp.component_count());
    // Convex corners: the same points.
    auto key = [](const std::vector<ConvexCorner>& v) {
      std::vector<std::pair<double, double>> k;
      for (auto& c : v) k.push_back({c.at.x, c.at.y});
      std::sort(k.begin(), k.end());
      return k;
    };
    EXPECT_EQ(key(fg.convex_corners()), key(fp.convex_corners()));
  }
  EXPECT_GT(valid, compared / 20);  // both outcomes are well represented
  EXPECT_LT(valid, compared - compared / 20);
}

TEST(FreeSpacePolygon, IrregularObstacles) {
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};
  m.polygons.obstacles.push_back({{{{2, 2}, {5, 3}, {3, 6}}}});               // triangle
  m.polygons.obstacles.push_back({{{{4, 4}, {7, 4}, {7, 7}, {4, 7}}}});       // overlaps the triangle
  m.polygons.obstacles.push_back({{{{8, 1}, {9, 1}, {9, 2}}}});               // thin sliver
  m.max = {10, 10};
  FreeSpace fs(m);
  EXPECT_TRUE(fs.segment_valid({0, 0}, {10, 10}) == false);   // through the union
  EXPECT_TRUE(fs.segment_valid({1, 9}, {9, 9}));
  EXPECT_TRUE(fs.segment_valid({7, 7}, {10, 10}));            // starts at a convex corner, leaves outward
  EXPECT_TRUE(fs.segment_valid({4, 7}, {7, 7}));              // along an edge
  EXPECT_FALSE(fs.segment_valid({4, 6}, {7, 6}));             // inside
  EXPECT_TRUE(fs.segment_valid({8, 0}, {10, 2}));             // grazes the sliver's corner (9,1)
  EXPECT_FALSE(fs.point_free({5, 5}));
  EXPECT_TRUE(fs.point_free({4, 7}));
  EXPECT_EQ(fs.component({1, 1}), fs.component({9, 9}));
  EXPECT_GE(fs.convex_corners().size(), 7u);
  // Inside the square, next to where it overlaps the triangle.
  EXPECT_FALSE(fs.point_free({4.2, 4.5}));
}

TEST(FreeSpacePolygon, BadInputIsRejected) {
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {10, 0}, {0, 10}, {10, 10}}};  // bow tie
  EXPECT_THROW(FreeSpace{m}, std::invalid_argument);
}

TEST(Exact, OrientationOnGridLikeAndArbitraryCoordinates) {
  // Multiples of 1/256 (the fast exact path) and arbitrary doubles (the expansion path), with many
  // exactly collinear triples; reference: int128 on coordinates scaled to integers.
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<long> big(-(1L << 20), (1L << 20)), t(-3, 3);
  int zeros = 0;
  for (int i = 0; i < 20000; ++i) {
    const long ax = big(rng), ay = big(rng), bx = big(rng), by = big(rng);
    long cx = big(rng), cy = big(rng);
    if (i % 2) {  // exactly collinear, or one unit off
      const long k = t(rng);
      cx = ax + k * (bx - ax);
      cy = ay + k * (by - ay);
      if (i % 4 == 1) cx += 1;
    }
    for (int scale : {8, 30}) {  // 2^-8 units (fast path) and 2^-30 units (expansions)
      const double u = std::ldexp(1.0, -scale);
      const Point a{ax * u, ay * u}, b{bx * u, by * u}, c{cx * u, cy * u};
      const __int128 det = __int128(bx - ax) * (cy - ay) - __int128(by - ay) * (cx - ax);
      const int ref = det > 0 ? 1 : det < 0 ? -1 : 0;
      ASSERT_EQ(exact::orient2d(a, b, c), ref) << i;
      ASSERT_EQ(exact::orient2d_exact(a, b, c), ref) << i;
      zeros += ref == 0;
    }
  }
  EXPECT_GT(zeros, 1000);
}

TEST(FreeSpacePolygon, AgreesWithBoostCoveredByOnRandomSegments) {
  // An independent oracle for irregular polygons: Boost.Geometry's covered_by(segment, free space).
  // Random double endpoints almost surely miss vertices and pinch points, where the two differ
  // by design (the pinch-point rule, docs/maps.md#pinch-points); elsewhere they must agree.
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(0, 30), v(0, 20), r(0.5, 3.0);
  int agree = 0, inside = 0;
  for (int t = 0; t < 8; ++t) {
    Map m;
    m.kind = MapKind::polygon;
    m.polygons.walkable.rings = {{{0, 0}, {30, 0}, {30, 20}, {0, 20}}};
    for (int k = 0; k < 7; ++k) {  // random star-shaped obstacles, some overlapping
      const double cx = u(rng), cy = v(rng);
      std::vector<Point> ring;
      for (int i = 0; i < 7; ++i) {
        const double a = 2 * M_PI * i / 7, rad = r(rng);
        ring.push_back({cx + rad * std::cos(a), cy + rad * std::sin(a)});
      }
      m.polygons.obstacles.push_back({{ring}});
    }
    m.max = {30, 20};
    FreeSpace fs(m);
    const BgMultiPolygon free = polygon_free_space(m.polygons);
    for (int i = 0; i < 2000; ++i) {
      const Point a{u(rng), v(rng)};
      const Point b = i % 2 ? Point{u(rng), v(rng)} : Point{a.x + r(rng) - 1.75, a.y + r(rng) - 1.75};
      boost::geometry::model::linestring<BgPoint> seg{{a.x, a.y}, {b.x, b.y}};
      const bool want = boost::geometry::covered_by(seg, free);
      ASSERT_EQ(fs.segment_valid(a, b), want) << t << ": " << a.x << "," << a.y << " " << b.x << "," << b.y;
      ASSERT_EQ(fs.point_free(a), boost::geometry::covered_by(BgPoint(a.x, a.y), free));
      ++agree;
      inside += want;
    }
  }
  EXPECT_GT(inside, agree / 10);
  EXPECT_LT(inside, agree - agree / 10);
}

}  // namespace test_geometry
