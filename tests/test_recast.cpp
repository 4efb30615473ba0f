// recast (docs/recast.md): the mesh Recast builds, read back from Detour, and Detour's own query.
// With contour simplification off (max_error=0) the mesh is the free space of a grid map at cell
// size 1: its polygons tile exactly the free cells and no polygon edge crosses an obstacle, so every
// path is valid; with RecastDemo's 1.3 voxels the mesh cuts corners and the validity test sees it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "geometry/free_space.hpp"
#include "representations/recast/detour_query.hpp"
#include "representations/recast/recast.hpp"
#include "support/maps.hpp"

namespace navbench {
namespace test_recast {

// A 40 x 40 map of separated axis-aligned rectangles.
Map rectangles() {
  std::vector<std::string> rows(40, std::string(40, '.'));
  const int rects[][4] = {{3, 3, 6, 4}, {15, 5, 5, 9}, {28, 3, 7, 6}, {5, 18, 10, 5}, {22, 20, 4, 12}, {32, 25, 5, 5}, {8, 30, 9, 6}};
  for (const auto& r : rects)
    for (int y = r[1]; y < r[1] + r[3]; ++y)
      for (int x = r[0]; x < r[0] + r[2]; ++x) rows[std::size_t(y)][std::size_t(x)] = '@';
  return testmaps::grid_from(rows, "test");
}

double signed_area(const std::vector<Point>& c) {
  double a = 0;
  for (std::size_t i = 0; i < c.size(); ++i) a += c[i].x * c[(i + 1) % c.size()].y - c[(i + 1) % c.size()].x * c[i].y;
  return a / 2;
}

RecastMesh build(const Map& m, const std::string& params) {
  Params p = Params::parse(params);
  return RecastMesh(m, p);
}

// Sum of polygon areas, and how many polygon edges the exact segment test rejects.
struct MeshFacts {
  double area = 0;
  int bad_edges = 0;
  bool convex_ccw = true;
};
MeshFacts facts(const RecastMesh& r, const FreeSpace& fs) {
  MeshFacts f;
  for (const auto& poly : r.mesh().polygons()) {
    const auto& c = poly.corners;
    f.area += signed_area(c);
    for (std::size_t i = 0; i < c.size(); ++i) {
      const Point a = c[i], b = c[(i + 1) % c.size()], d = c[(i + 2) % c.size()];
      if (!fs.segment_valid(a, b)) ++f.bad_edges;
      if ((b.x - a.x) * (d.y - b.y) - (b.y - a.y) * (d.x - b.x) < 0) f.convex_ccw = false;
    }
  }
  return f;
}

long free_cells(const Map& m) {
  long n = 0;
  for (auto v : m.grid.cells) n += v;
  return n;
}

TEST(Recast, WithoutSimplificationTheMeshIsTheFreeSpace) {
  for (const char* params : {"max_error=0", "max_error=0,tile=0", "max_error=0,tile=16", "max_error=0,partition=monotone",
                             "max_error=0,partition=layers", "max_error=0,cs=0.5"}) {
    const Map m = rectangles();
    const FreeSpace fs(m);
    const RecastMesh r = build(m, params);
    const MeshFacts f = facts(r, fs);
    EXPECT_DOUBLE_EQ(f.area, double(free_cells(m))) << params;
    EXPECT_EQ(f.bad_edges, 0) << params;
    EXPECT_TRUE(f.convex_ccw) << params;
    EXPECT_GT(r.mesh().portals().size(), 0u) << params;
  }
}

TEST(Recast, SimplificationCutsCornersAndTheTestSeesIt) {
  const Map m = rectangles();
  const FreeSpace fs(m);
  const MeshFacts f = facts(build(m, ""), fs);  // RecastDemo's max_error 1.3
  EXPECT_GT(f.bad_edges, 0) << "the default simplification no longer cuts a corner: the test lost its case";
  EXPECT_GT(f.area, double(free_cells(m)));
}

TEST(Recast, EveryFreePointOfTheExactMeshLocatesAndPortalsJoinTwoPolygons) {
  const Map m = rectangles();
  const RecastMesh r = build(m, "max_error=0,tile=16");
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 40; ++x) {
      const Point p{x + 0.5, y + 0.5};
      EXPECT_EQ(r.locate(p) >= 0, m.grid.passable(x, y)) << x << "," << y;
    }
  for (const DetourPortal& p : r.mesh().portals()) {
    EXPECT_NE(p.from, p.to);
    EXPECT_GT(distance(p.left, p.right), 0);
  }
}

// Detour's own query on the exact mesh: every path starts and ends at the query points, is valid,
// and is no shorter than the straight line.
TEST(Recast, DetourPathsOnTheExactMeshAreValid) {
  const Map m = rectangles();
  const FreeSpace fs(m);
  for (const char* params : {"max_error=0", "max_error=0,tile=16"}) {
    const RecastMesh r = build(m, params);
    const DetourQuery q(r.mesh());
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> c(0, 39);
    int found = 0;
    for (int i = 0; i < 200; ++i) {
      const Point s{c(rng) + 0.5, c(rng) + 0.5}, g{c(rng) + 0.5, c(rng) + 0.5};
      if (!fs.point_free(s) || !fs.point_free(g)) continue;
      const DetourAnswer a = q.find(s, g);
      ASSERT_EQ(a.status, DetourAnswer::Status::found) << a.reason;
      ++found;
      ASSERT_GE(a.path.size(), 2u);
      EXPECT_EQ(a.path.front(), s);
      EXPECT_EQ(a.path.back(), g);
      EXPECT_TRUE(fs.path_valid(a.path)) << params << " query " << i;
      EXPECT_GE(polyline_length(a.path), distance(s, g) - 1e-9);
      for (std::size_t k = 1; k < a.path.size(); ++k) EXPECT_GT(distance(a.path[k - 1], a.path[k]), 0) << "repeated point";
    }
    EXPECT_GT(found, 100);
  }
}

TEST(Recast, APointTheMeshDoesNotReachIsNoPathNeverMoved) {
  // Two 3 x 3 islands: with min_region 8 (64 voxels) Recast drops both, so no polygon is left.
  const Map m = testmaps::grid_from({"...@@@...", "...@@@...", "...@@@..."});
  const RecastMesh r = build(m, "");
  EXPECT_EQ(r.mesh().polygons().size(), 0u);
  EXPECT_FALSE(r.attach({1.5, 1.5}).has_value());
  const DetourAnswer a = DetourQuery(r.mesh()).find({1.5, 1.5}, {7.5, 1.5});
  EXPECT_EQ(a.status, DetourAnswer::Status::no_path);
  EXPECT_NE(a.reason.find("does not reach"), std::string::npos);
  EXPECT_TRUE(a.unreached);
  // The row says what the mesh left out (RecastMesh::unreached_note, the pipeline's message and
  // Detour's reason): no voxel of the 18 walkable ones is in a region.
  EXPECT_EQ(r.unreached_note(), "Recast's regions hold 0 of 18 walkable voxels, 0.0 %");
  EXPECT_NE(r.own_search({1.5, 1.5}, {7.5, 1.5}).reason.find("(Recast's regions hold 0 of 18"), std::string::npos);
  // Kept with min_region=0; the islands are not connected.
  const RecastMesh kept = build(m, "min_region=0,max_error=0");
  EXPECT_EQ(kept.unreached_note(), "");
  EXPECT_GE(kept.locate({1.5, 1.5}), 0);
  EXPECT_EQ(DetourQuery(kept.mesh()).find({1.5, 1.5}, {7.5, 1.5}).status, DetourAnswer::Status::no_path);
}

TEST(Recast, TheNodePoolRunningOutIsAnError) {
  // A serpentine of 1-wide corridors: many polygons in one path, a pool of 16 nodes.
  std::vector<std::string> rows;
  for (int i = 0; i < 15; ++i) {
    rows.push_back(std::string(31, '.'));
    std::string wall(31, '@');
    wall[i % 2 ? 0 : 30] = '.';
    rows.push_back(wall);
  }
  rows.push_back(std::string(31, '.'));
  const Map m = testmaps::grid_from(rows, "test");
  // Monotone partitioning: watershed keeps no region narrower than 3 voxels (next test).
  const RecastMesh r = build(m, "max_error=0,min_region=0,pool=16,max_edge=4,partition=monotone");
  const DetourAnswer a = DetourQuery(r.mesh()).find({0.5, 0.5}, {0.5, 30.5});
  EXPECT_EQ(a.status, DetourAnswer::Status::error);
  EXPECT_NE(a.reason.find("node pool"), std::string::npos) << a.reason;
}

// Recast's watershed partition floods from the voxels farthest from the border (its distance
// field) downwards, and not at all when no voxel is 2 or more from the border: a tile whose walkable
// area is strips 1 or 2 voxels wide (a maze at radius 0) gets no region and no polygon. The monotone
// and layer partitions keep it (docs/recast.md).
TEST(Recast, WatershedKeepsNothingWhereEveryVoxelTouchesTheBorder) {
  const Map m = testmaps::grid_from({"@@@@@@@@@@@@", "............", "@@@@@@@@@@@@", "............", "............"});
  const FreeSpace fs(m);
  const RecastMesh watershed = build(m, "max_error=0,min_region=0");
  EXPECT_EQ(watershed.mesh().polygons().size(), 0u);
  EXPECT_EQ(watershed.mesh().walkable_voxels(), 36u);
  EXPECT_EQ(watershed.unreached_note(), "Recast's regions hold 0 of 36 walkable voxels, 0.0 %");
  for (const char* p : {"max_error=0,min_region=0,partition=monotone", "max_error=0,min_region=0,partition=layers"}) {
    const RecastMesh r = build(m, p);
    EXPECT_DOUBLE_EQ(facts(r, fs).area, double(free_cells(m))) << p;
    EXPECT_EQ(r.unreached_note(), "") << p;
  }
  // One voxel 2 from the border is enough: then every strip gets its region.
  const Map wider = testmaps::grid_from({"@@@@@@@@@@@@", "............", "@@@@@@@@@@@@", "............", "............", "@@@@@@@@@@@@",
                          "............", "............", "............"});
  EXPECT_DOUBLE_EQ(facts(build(wider, "max_error=0,min_region=0"), FreeSpace(wider)).area, double(free_cells(wider)));
}

TEST(Recast, BadParametersAreOneLineErrors) {
  const Map m = rectangles();
  for (const char* bad : {"cs=0", "cs=-1", "partition=voronoi", "max_error=-1", "nvp=7", "nvp=2", "tile=-4", "pool=0", "colour=1",
                          "radius=-0.5", "radius=inf"}) {
    try {
      build(m, bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

// An agent radius through Recast's erosion: walkableRadius = ceil(R / cs) voxels, so the mesh
// shrinks by whole voxels. With max_error=0 at cs=1 the cells next to an obstacle (side by side)
// leave the mesh at any R > 0, and cells 2 or more from every obstacle stay at R <= 1.
TEST(Recast, RadiusErodesWholeVoxelsRoundedUp) {
  RecastConfig c;
  for (const auto& [r, cs, voxels] : std::vector<std::tuple<double, double, int>>{
           {0, 1, 0}, {0.2, 1, 1}, {1, 1, 1}, {1.01, 1, 2}, {0.6, 0.2, 3}, {0.3, 0.1, 3}, {0.61, 0.2, 4}}) {
    c.radius = r, c.cs = cs;
    EXPECT_EQ(c.radius_voxels(), voxels) << r << " / " << cs;
  }
  const Map m = rectangles();
  const FreeSpace fs(m);
  for (const char* params : {"max_error=0,radius=0.4", "max_error=0,radius=1", "max_error=0,radius=1,tile=16", "max_error=0,radius=0.75,cs=0.5"}) {
    const RecastMesh r = build(m, params);
    EXPECT_LT(facts(r, fs).area, double(free_cells(m))) << params;
    for (int y = 0; y < 40; ++y)
      for (int x = 0; x < 40; ++x) {
        if (!m.grid.passable(x, y)) continue;
        bool beside = false, near = false;
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            const bool blocked = !m.grid.passable(x + dx, y + dy);
            if (blocked && std::abs(dx) + std::abs(dy) == 1) beside = true;
            if (blocked) near = true;
          }
        if (beside) { EXPECT_LT(r.locate({x + 0.5, y + 0.5}), 0) << params << " " << x << "," << y; }
        if (!near) { EXPECT_GE(r.locate({x + 0.5, y + 0.5}), 0) << params << " " << x << "," << y; }
      }
  }
}

// Terrain costs through Recast's area types: each polygon lies in one terrain (max_error=0, cs=1),
// Detour's filter prices it by its area's cost, and a path avoids dear terrain as the weights say.
TEST(Recast, TerrainCostsAreAreaTypesPricedByTheFilter) {
  // A 30 x 12 room; the middle rows 4..7 weigh 50 except a cheap gap at the right end.
  std::vector<std::string> rows(12, std::string(30, '.'));
  Map m = testmaps::grid_from(rows, "test");
  m.grid.weights.assign(m.grid.cells.size(), 1.0);
  for (int y = 4; y < 8; ++y)
    for (int x = 0; x < 26; ++x) m.grid.weights[std::size_t(y) * 30 + std::size_t(x)] = 50;
  m.terrain = "band";
  const RecastMesh r = build(m, "max_error=0,min_region=0");
  const AreaTable& t = r.mesh().areas();
  EXPECT_TRUE(t.exact());
  EXPECT_EQ(t.used(), 2);
  EXPECT_EQ(t.costs()[1], 1.0f);
  EXPECT_EQ(t.costs()[2], 50.0f);
  const auto& polys = r.mesh().polygons();
  for (std::size_t i = 0; i < polys.size(); ++i) {
    Point c{0, 0};
    for (const Point& p : polys[i].corners) c.x += p.x / double(polys[i].corners.size()), c.y += p.y / double(polys[i].corners.size());
    EXPECT_EQ(r.mesh().area(i), t.area(m.grid.weight(int(c.x), int(c.y)))) << "polygon " << i;
  }
  // From below the band to above it: the straight crossing costs 4 x 50 in the band (over 200), the
  // way round through the cheap gap (about 55) is longer but cheaper, and Detour takes it.
  const DetourAnswer a = DetourQuery(r.mesh()).find({3.5, 1.5}, {3.5, 10.5});
  ASSERT_EQ(a.status, DetourAnswer::Status::found) << a.reason;
  double rightmost = 0;
  for (const Point& p : a.path) rightmost = std::max(rightmost, p.x);
  EXPECT_GE(rightmost, 26) << "Detour crossed the dear band";
  // Unweighted, every area costs 1 (Detour's own default: a cost of 0 would make findPath a greedy
  // search on its heuristic alone), and it goes straight.
  Map plain = m;
  plain.grid.weights.clear();
  const RecastMesh rp = build(plain, "max_error=0,min_region=0");
  for (float c : rp.mesh().areas().costs()) EXPECT_EQ(c, 1.0f);
  const DetourAnswer b = DetourQuery(rp.mesh()).find({3.5, 1.5}, {3.5, 10.5});
  ASSERT_EQ(b.status, DetourAnswer::Status::found);
  EXPECT_NEAR(polyline_length(b.path), 9, 1e-4);
}

// More distinct weights than the 63 areas: 63 bins of equal ratio, each costing its geometric middle.
TEST(Recast, ManyWeightsAreBinnedIntoSixtyThreeAreas) {
  GridMap g;
  g.width = 100, g.height = 1;
  g.cells.assign(100, 1);
  for (int x = 0; x < 100; ++x) g.weights.push_back(1 + 0.04 * x);  // 1 .. 4.96, 100 distinct
  const AreaTable t(g);
  EXPECT_FALSE(t.exact());
  EXPECT_EQ(t.used(), 63);
  const double ratio = std::pow(4.96, 1.0 / 63);
  for (double w : g.weights) {
    const int a = t.area(w);
    ASSERT_GE(a, 1);
    ASSERT_LE(a, 63);
    EXPECT_LE(std::abs(std::log(t.costs()[std::size_t(a)] / w)), std::log(ratio) / 2 + 1e-6) << w;
  }
  EXPECT_EQ(t.area(1), 1);
  EXPECT_EQ(t.area(4.96), 63);
}

// A cost layer whose weight changes from every cell to the next (an inflation costmap's rings): each
// voxel then borders a voxel of another area, which is the border for the watershed's distance
// field, so no region is seeded and the mesh is empty; the rows say so (docs/recast.md). The layer
// partition builds the mesh of the whole free space, polygons of one area each.
TEST(Recast, AreasChangingEveryCellLeaveTheWatershedNoRegion) {
  std::vector<std::string> rows(24, std::string(24, '.'));
  Map m = testmaps::grid_from(rows, "test");
  for (int y = 0; y < 24; ++y)
    for (int x = 0; x < 24; ++x) m.grid.weights.push_back(1 + 0.1 * (x % 2) + 0.2 * (y % 2));  // 4 weights in a checkerboard
  const RecastMesh watershed = build(m, "max_error=0");
  EXPECT_EQ(watershed.mesh().areas().used(), 4);
  EXPECT_EQ(watershed.mesh().polygons().size(), 0u);
  EXPECT_EQ(watershed.unreached_note(), "Recast's regions hold 0 of 576 walkable voxels, 0.0 %");
  const DetourAnswer a = DetourQuery(watershed.mesh()).find({2.5, 2.5}, {20.5, 20.5});
  EXPECT_EQ(a.status, DetourAnswer::Status::no_path);
  const RecastMesh layers = build(m, "max_error=0,min_region=0,partition=layers");
  EXPECT_EQ(layers.unreached_note(), "");
  EXPECT_DOUBLE_EQ(facts(layers, FreeSpace(m)).area, 576.0);
}

// Changing maps: the tiles a change touches are rebuilt in place, and the mesh equals a fresh
// build of the same map: the same polygons with the same Detour ids and areas, the same portals,
// and the same answers from the shared A*'s graph and from Detour.
TEST(Recast, AnUpdateEqualsAFreshBuild) {
  std::mt19937 rng(3);
  std::vector<std::string> rows(70, std::string(90, '.'));
  for (auto& row : rows)
    for (char& c : row) c = rng() % 100 < 8 ? '@' : '.';
  for (const char* params : {"tile=16", "max_error=0,min_region=0,tile=16", "max_error=0,tile=16,radius=1,partition=monotone"}) {
    Map m = testmaps::grid_from(rows, "test");
    RecastMesh r = build(m, params);
    const int tiles = 6 * 5;
    for (int step = 0; step < 6; ++step) {
      std::vector<CellChange> ch;
      const int x0 = int(rng() % 86), y0 = int(rng() % 66), v = int(rng() % 2);
      for (int y = y0; y < y0 + 4; ++y)
        for (int x = x0; x < x0 + 4; ++x)
          if (m.grid.passable(x, y) != bool(v)) {
            m.grid.cells[std::size_t(y) * 90 + std::size_t(x)] = std::uint8_t(v);
            ch.push_back({x, y, std::uint8_t(v)});
          }
      const DetourMesh fresh(m, r.mesh().config());  // a fresh build of the new map
      ASSERT_TRUE(r.update(m, ch));
      const int rebuilt = r.mesh().rebuilt();
      EXPECT_GE(rebuilt, ch.empty() ? 0 : 1);
      EXPECT_LE(rebuilt, 9) << "a 4 x 4 block touches at most 3 x 3 tiles of 16";
      EXPECT_LT(rebuilt, tiles);
      const DetourMesh& a = r.mesh();
      const DetourMesh& b = fresh;
      ASSERT_EQ(a.polygons().size(), b.polygons().size()) << params << " step " << step;
      for (std::size_t i = 0; i < a.polygons().size(); ++i) {
        EXPECT_EQ(a.polygons()[i].ref, b.polygons()[i].ref);
        EXPECT_EQ(a.polygons()[i].corners, b.polygons()[i].corners);
        EXPECT_EQ(a.area(i), b.area(i));
      }
      ASSERT_EQ(a.portals().size(), b.portals().size());
      for (std::size_t i = 0; i < a.portals().size(); ++i) {
        EXPECT_EQ(a.portals()[i].from, b.portals()[i].from);
        EXPECT_EQ(a.portals()[i].to, b.portals()[i].to);
        EXPECT_EQ(a.portals()[i].left, b.portals()[i].left);
        EXPECT_EQ(a.portals()[i].right, b.portals()[i].right);
      }
      EXPECT_EQ(a.data_bytes(), b.data_bytes());
      EXPECT_EQ(a.warnings(), b.warnings());
      EXPECT_EQ(a.tiles(), b.tiles());
      const DetourQuery qa(a), qb(b);
      for (int q = 0; q < 30; ++q) {
        const Point s{rng() % 90 + 0.5, rng() % 70 + 0.5}, g{rng() % 90 + 0.5, rng() % 70 + 0.5};
        const DetourAnswer da = qa.find(s, g), db = qb.find(s, g);
        EXPECT_EQ(da.status, db.status);
        EXPECT_EQ(da.path, db.path) << params << " step " << step << " query " << q;
      }
    }
  }
}

TEST(Recast, UpdatesDeclineOtherMaps) {
  Map m = rectangles();
  RecastMesh r = build(m, "");
  Map other = testmaps::grid_from({"....", "...."}, "test");
  EXPECT_FALSE(r.update(other, {{0, 0, 0}}));
}

}  // namespace test_recast
}  // namespace navbench
