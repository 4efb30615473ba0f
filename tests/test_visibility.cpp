// The polygon maps' fast paths against their definitions (geometry/visibility.hpp): the corners a
// point sees by triangular expansion must be exactly those FreeSpace::segment_valid accepts, from
// every corner and from free points of every kind (inside, on an edge, on a ring vertex, on a point
// where rings meet), on seeded polygon maps in general position (overlapping obstacles included),
// on grids read as polygons (collinear vertices, pinch points, rows of equal coordinates) and on a
// hand-drawn map with holes and slanted walls.
#include <gtest/gtest.h>

#include <random>

#include <boost/geometry/algorithms/area.hpp>
#include <boost/geometry/algorithms/covered_by.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/algorithms/is_valid.hpp>
#include <boost/geometry/algorithms/union.hpp>
#include <boost/geometry/geometries/linestring.hpp>
#include <vector>

#include "datasets/generate_polygons.hpp"
#include "geometry/exact.hpp"
#include "geometry/free_space.hpp"
#include "geometry/polygons.hpp"
#include "geometry/visibility.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_visibility {

using namespace navbench;

namespace {

std::vector<std::uint32_t> by_definition(const FreeSpace& fs, Point p, std::int64_t skip = -1) {
  std::vector<std::uint32_t> out;
  if (!fs.point_free(p)) return out;
  const auto& c = fs.convex_corners();
  for (std::uint32_t j = 0; j < c.size(); ++j)
    if (std::int64_t(j) != skip && fs.segment_valid(p, c[j].at)) out.push_back(j);
  return out;
}

// Free points of every kind: drawn in the box, ring vertices, edge midpoints and points on edges.
std::vector<Point> probes(const FreeSpace& fs, const Map& m, int n, std::mt19937_64& rng) {
  std::vector<Point> out;
  std::uniform_real_distribution<double> ux(m.min.x - 1, m.max.x + 1), uy(m.min.y - 1, m.max.y + 1);
  for (int k = 0; k < n; ++k) out.push_back({ux(rng), uy(rng)});
  for (int k = 0; k < n; ++k) out.push_back({std::floor(ux(rng)), std::floor(uy(rng))});  // lattice points
  for (const auto& ring : fs.obstacle_rings())
    for (std::size_t i = 0; i < ring.size(); ++i) {
      if (rng() % 7 == 0) out.push_back(ring[i]);
      if (rng() % 11 == 0) {
        const Point a = ring[i], b = ring[(i + 1) % ring.size()];
        out.push_back({0.5 * (a.x + b.x), 0.5 * (a.y + b.y)});
      }
    }
  return out;
}

void check_map(const Map& m, int points, std::mt19937_64& rng, long& compared) {
  const FreeSpace fs(m);
  // Point location against Boost.Geometry's covered_by on the free space's polygons (the points
  // here are exact in doubles: inside, on edges, on vertices, outside).
  const BgMultiPolygon free = polygon_free_space(m.polygons);
  for (const Point p : probes(fs, m, points, rng))
    ASSERT_EQ(fs.point_free(p), boost::geometry::covered_by(BgPoint(p.x, p.y), free)) << m.name << " at " << p.x << "," << p.y;
  const auto& c = fs.convex_corners();
  std::vector<std::uint32_t> got;
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    ASSERT_TRUE(fs.visible_from_corner(i, got)) << m.name;
    const auto want = by_definition(fs, c[i].at, i);
    std::string diff;
    for (std::uint32_t j : want)
      if (!std::binary_search(got.begin(), got.end(), j)) diff += " missed " + std::to_string(c[j].at.x) + "," + std::to_string(c[j].at.y);
    for (std::uint32_t j : got)
      if (!std::binary_search(want.begin(), want.end(), j)) diff += " extra " + std::to_string(c[j].at.x) + "," + std::to_string(c[j].at.y);
    ASSERT_EQ(got, want) << m.name << " from corner " << c[i].at.x << "," << c[i].at.y << diff;
    // Cut to the tangent wedges: the same corners where the line is tangent at c_i.
    ASSERT_TRUE(fs.visible_from_corner(i, got, true));
    auto tangent = [&](std::vector<std::uint32_t> v) {
      std::erase_if(v, [&](std::uint32_t j) {
        return exact::orient2d(c[j].at, c[i].at, c[i].before) * exact::orient2d(c[j].at, c[i].at, c[i].after) < 0;
      });
      return v;
    };
    for (std::uint32_t j : got) ASSERT_TRUE(std::binary_search(want.begin(), want.end(), j)) << m.name;
    ASSERT_EQ(tangent(got), tangent(want)) << m.name << " from corner " << c[i].at.x << "," << c[i].at.y << ", tangent wedges";
    ++compared;
  }
  for (const Point p : probes(fs, m, points, rng)) {
    ASSERT_TRUE(fs.visible_corners(p, got));
    const auto want = by_definition(fs, p);
    std::string diff;
    for (std::uint32_t j : want)
      if (!std::binary_search(got.begin(), got.end(), j)) diff += " missed " + std::to_string(c[j].at.x) + "," + std::to_string(c[j].at.y);
    for (std::uint32_t j : got)
      if (!std::binary_search(want.begin(), want.end(), j)) diff += " extra " + std::to_string(c[j].at.x) + "," + std::to_string(c[j].at.y);
    ASSERT_EQ(got, want) << m.name << " from " << p.x << "," << p.y << diff;
    ++compared;
  }
}

}  // namespace

TEST(PolygonVisibility, SeededPolygonMapsMatchTheDefinition) {
  std::mt19937_64 rng(64);
  long compared = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    PolygonMapOptions o;
    o.obstacles = 4 + int(seed % 9);
    o.vertices = 3 + int(seed * 5 % 14);
    o.touching = seed % 3 == 0 ? 60 : seed % 3 == 1 ? 0 : 20;
    o.seed = seed;
    check_map(make_polygon_map(o), 80, rng, compared);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(compared, 1000);
}

TEST(PolygonVisibility, GridsAsPolygonsMatchTheDefinition) {
  // Rectilinear rings: collinear vertices, many rays through vertices and along edges, pinch points.
  std::mt19937_64 rng(640);
  long compared = 0;
  for (int t = 0; t < 24; ++t) {
    const int w = 4 + int(rng() % 18), h = 4 + int(rng() % 14);  // drawn in this order: a call's arguments are not
    Map gm = testmaps::random_grid(w, h, t % 3 == 0 ? 0.4 : 0.2, rng);
    check_map(grid_to_polygon_map(gm), 40, rng, compared);
    if (HasFatalFailure()) return;
  }
  const std::vector<std::vector<std::string>> hand = {
      {"....@.....", "....@.....", "..@@.@@...", "....@.....", "@..@...@..", ".@@....@@.", "..@.@....."},  // pinches
      {"@@@@@@@@", "@......@", "@.@@@@.@", "@.@..@.@", "@....@.@", "@@@@@@@@"},
      {"..@..@..", ".@.@@.@.", "@..@@..@", ".@....@.", "..@..@.."}};
  for (const auto& rows : hand) check_map(grid_to_polygon_map(testmaps::grid_from(rows)), 60, rng, compared);
  EXPECT_GT(compared, 1000);
}

// The walk (PolygonVisibility::segment_inside, segment_valid's fast path): every segment it
// certifies lies in the free space and every one it refuses does not, by Boost.Geometry's covered_by
// on the free space's polygons, and it decides a share of the pairs either way (so that a walk that
// decided nothing, or everything, fails here).
TEST(PolygonVisibility, SegmentInsideOnlyWhereFree) {
  std::mt19937_64 rng(65);
  long certified = 0, refused = 0, pairs = 0;
  auto check = [&](const Map& m) {
    const FreeSpace fs(m);
    const PolygonVisibility vis(fs);
    ASSERT_TRUE(vis.usable()) << m.name;
    const BgMultiPolygon free = polygon_free_space(m.polygons);
    const auto pts = probes(fs, m, 60, rng);
    for (std::size_t i = 0; i < pts.size(); ++i)
      for (std::size_t j = i + 1; j < pts.size(); j += 1 + rng() % 7) {
        ++pairs;
        const int w = vis.segment_inside(pts[i], pts[j]);
        if (w == 0) continue;
        (w > 0 ? certified : refused)++;
        boost::geometry::model::linestring<BgPoint> l;
        l.push_back(BgPoint(pts[i].x, pts[i].y));
        l.push_back(BgPoint(pts[j].x, pts[j].y));
        ASSERT_EQ(boost::geometry::covered_by(l, free), w > 0) << m.name << ": " << pts[i].x << "," << pts[i].y << " - " << pts[j].x << "," << pts[j].y;
        ASSERT_EQ(fs.segment_valid(pts[i], pts[j]), w > 0) << m.name;
      }
  };
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    PolygonMapOptions o;
    o.obstacles = 4 + int(seed % 9);
    o.vertices = 3 + int(seed * 5 % 14);
    o.touching = seed % 3 == 0 ? 60 : 20;
    o.seed = seed;
    check(make_polygon_map(o));
    if (HasFatalFailure()) return;
  }
  for (int t = 0; t < 8; ++t) {
    const int w = 6 + int(rng() % 18), h = 6 + int(rng() % 14);  // drawn in this order: a call's arguments are not
    check(grid_to_polygon_map(testmaps::random_grid(w, h, 0.2, rng)));
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(certified, pairs / 20) << certified << " of " << pairs;
  EXPECT_GT(refused, pairs / 20) << refused << " of " << pairs;
  EXPECT_LT(certified + refused, pairs) << "every pair decided";
}

TEST(PolygonVisibility, HandDrawnPolygonsMatchTheDefinition) {
  // Two rooms, slanted walls, a triangle, overlapping obstacles, a hole in the walkable area, an
  // island inside an obstacle's hole.
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {30, 0}, {30, 20}, {0, 20}}, {{22, 12}, {26, 12}, {24, 16}}};
  m.polygons.obstacles.push_back({{{{5, 3}, {12, 5.5}, {9, 11}, {4, 8}}}});
  m.polygons.obstacles.push_back({{{{10, 9}, {16, 9}, {16, 14}, {10, 14}}}});
  m.polygons.obstacles.push_back({{{{14.5, 0}, {15.5, 0}, {15.5, 7}, {14.5, 7.5}}}});
  m.polygons.obstacles.push_back({{{{18, 2}, {27, 3.25}, {19, 4}}}});
  m.polygons.obstacles.push_back({{{{3, 14}, {8, 14}, {8, 19}, {3, 19}}, {{4, 15}, {7, 15}, {7, 18}, {4, 18}}}});
  m.polygons.obstacles.push_back({{{{20, 6}, {21, 6}, {21, 20}, {20, 20}}}});  // cuts the map in two
  m.max = {30, 20};
  std::mt19937_64 rng(6400);
  long compared = 0;
  check_map(m, 400, rng, compared);
  EXPECT_GT(compared, 400);
}

TEST(PolygonVisibility, GridMapsHaveNoTriangulation) {
  const Map gm = testmaps::grid_from({"....", ".@..", "...."});
  const FreeSpace fs(gm);
  std::vector<std::uint32_t> out;
  EXPECT_FALSE(fs.visible_corners({0.5, 0.5}, out));
  EXPECT_FALSE(fs.visible_from_corner(0, out));
}

TEST(PolygonFreeSpace, ObstaclesApartAsHolesMatchTheOverlay) {
  // polygon_free_space takes an obstacle that touches nothing as a hole without Boost.Geometry's
  // overlay: the same free space as the overlay of every obstacle (area, polygons, rings), and the
  // same answers of the validity test.
  namespace bg = boost::geometry;
  std::mt19937_64 rng(6401);
  for (std::uint64_t seed = 1; seed <= 9; ++seed) {
    PolygonMapOptions o;
    o.obstacles = 9 + int(seed * 7 % 30);
    o.vertices = 3 + int(seed % 9);
    o.touching = int(seed % 3) * 30;
    o.seed = seed;
    Map m = make_polygon_map(o);
    if (seed % 2 == 0) m.polygons.walkable.rings.push_back({{70, 70}, {70, 90}, {90, 90}, {90, 70}});  // a hole
    const BgMultiPolygon fast = polygon_free_space(m.polygons);
    BgMultiPolygon all, ref;
    for (const auto& ob : m.polygons.obstacles) {
      BgMultiPolygon next;
      bg::union_(all, BgMultiPolygon{to_bg(ob)}, next);
      all = std::move(next);
    }
    bg::difference(BgMultiPolygon{to_bg(m.polygons.walkable)}, all, ref);
    std::size_t rings_fast = 0, rings_ref = 0;
    for (const auto& p : fast) rings_fast += 1 + p.inners().size();
    for (const auto& p : ref) rings_ref += 1 + p.inners().size();
    ASSERT_EQ(fast.size(), ref.size()) << m.name;
    ASSERT_EQ(rings_fast, rings_ref) << m.name;
    ASSERT_NEAR(bg::area(fast), bg::area(ref), 1e-9 * bg::area(ref)) << m.name;
    std::string reason;
    ASSERT_TRUE(bg::is_valid(fast, reason)) << m.name << ": " << reason;
    const FreeSpace fs(m);
    std::uniform_real_distribution<double> u(-2, m.max.x + 2);
    for (int k = 0; k < 300; ++k) {
      const Point p{u(rng), u(rng)};
      ASSERT_EQ(fs.point_free(p), bg::covered_by(BgPoint(p.x, p.y), ref)) << m.name;
    }
  }
}
TEST(PolygonFreeSpace, ManyObstaclesMatchOneOverlay) {
  // Thousands of obstacles: clusters that enclose islands holding other obstacles (the case a
  // test of boxes against the walkable area alone got wrong), against one overlay of them all.
  namespace bg = boost::geometry;
  for (std::uint64_t seed : {1, 2}) {
    PolygonMapOptions o;
    o.vertices = 12;
    o.obstacles = 1500;
    o.touching = seed == 1 ? 0 : 25;
    o.seed = seed;
    const Map m = make_polygon_map(o);
    const BgMultiPolygon fast = polygon_free_space(m.polygons);
    std::vector<BgMultiPolygon> parts;
    for (const auto& ob : m.polygons.obstacles) parts.push_back(BgMultiPolygon{to_bg(ob)});
    while (parts.size() > 1) {
      std::vector<BgMultiPolygon> next((parts.size() + 1) / 2);
      for (std::size_t i = 0; i + 1 < parts.size(); i += 2) bg::union_(parts[i], parts[i + 1], next[i / 2]);
      if (parts.size() % 2) next.back() = std::move(parts.back());
      parts = std::move(next);
    }
    BgMultiPolygon ref;
    bg::difference(BgMultiPolygon{to_bg(m.polygons.walkable)}, parts[0], ref);
    std::size_t rings_fast = 0, rings_ref = 0;
    for (const auto& p : fast) rings_fast += 1 + p.inners().size();
    for (const auto& p : ref) rings_ref += 1 + p.inners().size();
    EXPECT_GT(ref.size(), 1u) << m.name << ": no island, the case is not tested";
    ASSERT_EQ(fast.size(), ref.size()) << m.name;
    ASSERT_EQ(rings_fast, rings_ref) << m.name;
    ASSERT_NEAR(bg::area(fast), bg::area(ref), 1e-9 * bg::area(ref)) << m.name;
    ASSERT_TRUE(bg::is_valid(fast)) << m.name;
  }
}

}  // namespace test_visibility
