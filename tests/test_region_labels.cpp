// region-labels against visgraph's exact optimum: every kind of free point (lattice points, cell
// centres, points elsewhere, the map's far edge, pinch points), both layouts and every block size,
// the shared A* taking the direct link, a build on several threads, the memory budget; on real maps
// every scenario query of arena and a spread of den520d's.
#include <gtest/gtest.h>

#include <random>

#include "datasets/movingai.hpp"
#include "geometry/polygons.hpp"
#include "representations/region_labels/region_labels.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "search/astar.hpp"
#include "search/heuristic.hpp"

#include "support/data.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_region_labels {

using namespace navbench;
using testmaps::grid_from;
using testmaps::random_grid;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const char* const kVariants[] = {"points=1,region=1", "points=1,region=2", "points=0,region=1", "points=0,region=2", "points=0,region=4"};

// The exact optimum by visgraph's plain search (+inf: no path; -1: a point is not free).
double optimum(const VisGraph& vg, Point s, Point g) {
  auto as = vg.attach_start(s), ag = vg.attach_goal(g);
  if (!as || !ag) return -1;
  Query q;
  q.start = s, q.goal = g, q.s = *as, q.g = *ag;
  q.direct = vg.direct(q);
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component) return kInf;
  SearchWorkspace ws;
  ws.reserve(num_vertices(vg.graph()) + 2);
  SearchStats st;
  return astar(vg, q, parse_heuristic("euclidean"), ws, st);
}

struct Answer {
  bool located = false;
  double cost = kInf, length = kInf;
  Polyline path;
};

// region-labels' answer the way the pipeline asks for it: attach, direct, the table search (or,
// with a heuristic it does not stand for, the shared A*), the polyline.
Answer answer(const RegionLabels& r, Point s, Point g, const char* heuristic = "euclidean") {
  Answer a;
  auto as = r.attach(s), ag = r.attach(g);
  if (!as || !ag) return a;
  a.located = true;
  Query q;
  q.start = s, q.goal = g, q.s = *as, q.g = *ag;
  q.direct = r.direct(q);
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component) return a;
  SearchWorkspace ws;
  ws.reserve(num_vertices(r.graph()) + 2);
  SearchStats st;
  a.cost = astar(r, q, parse_heuristic(heuristic), ws, st);
  if (std::isfinite(a.cost)) a.path = r.polyline(q), a.length = polyline_length(a.path);
  return a;
}

// Query points of every kind on map m: lattice points (the far edge included), cell centres,
// points on cell sides, points anywhere.
// (On a polygon map the lattice of its box: integer points and unit squares' centres.)
std::vector<Point> sample_points(const Map& m, std::mt19937_64& rng, int n) {
  const int X0 = int(std::floor(m.min.x)), Y0 = int(std::floor(m.min.y)), X1 = int(std::ceil(m.max.x)), Y1 = int(std::ceil(m.max.y));
  std::vector<Point> out;
  std::uniform_int_distribution<int> ux(X0, X1), uy(Y0, Y1);
  std::uniform_real_distribution<double> rx(X0, X1), ry(Y0, Y1);
  for (int i = 0; i < n; ++i) {
    switch (i % 6) {
      case 0: case 1: out.push_back({double(ux(rng)), double(uy(rng))}); break;                   // lattice
      case 2: out.push_back({std::min(ux(rng), X1 - 1) + 0.5, std::min(uy(rng), Y1 - 1) + 0.5}); break;  // centre
      case 3: out.push_back({double(i % 2 ? X1 : ux(rng)), double(i % 2 ? uy(rng) : Y1)}); break;  // far edge
      case 4: out.push_back({ux(rng) + 0.5, double(uy(rng))}); break;                             // a cell side's middle
      default: out.push_back({rx(rng), ry(rng)}); break;                                          // anywhere
    }
  }
  return out;
}

// Every pair of sampled points: located exactly where visgraph locates, the same optimum (1e-9
// relative), a valid path of that length. Returns the pairs with a path.
int compare(const Map& m, const RegionLabels& r, const VisGraph& vg, const std::vector<Point>& pts, const std::string& what) {
  const FreeSpace fs(m);
  int paths = 0;
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (std::size_t j = 0; j < pts.size(); j += 3) {
      const Point s = pts[i], g = pts[(i + j) % pts.size()];
      const double want = optimum(vg, s, g);
      const Answer got = answer(r, s, g);
      EXPECT_EQ(got.located, want >= 0) << what << " (" << s.x << "," << s.y << ") -> (" << g.x << "," << g.y << ")";
      if (want < 0 || !got.located) continue;
      if (std::isinf(want)) {
        EXPECT_TRUE(std::isinf(got.cost)) << what << " (" << s.x << "," << s.y << ") -> (" << g.x << "," << g.y << ")";
        continue;
      }
      ++paths;
      EXPECT_NEAR(got.length, want, 1e-9 * std::max(1.0, want)) << what << " (" << s.x << "," << s.y << ") -> (" << g.x << "," << g.y << ")";
      EXPECT_NEAR(got.cost, got.length, 1e-9 * std::max(1.0, want)) << what;
      EXPECT_TRUE(fs.path_valid(got.path)) << what << " (" << s.x << "," << s.y << ") -> (" << g.x << "," << g.y << ")";
      if (::testing::Test::HasFailure()) return paths;
    }
  return paths;
}

// A w x w map of k blocked rectangles (few corners, so cheap labels, but many lattice points).
Map rectangles(int w, int k, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> at(0, w - 1), sz(2, w / 6);
  GridMap g;
  g.width = g.height = w;
  g.cells.assign(std::size_t(w) * w, 1);
  for (int i = 0; i < k; ++i) {
    const int x0 = at(rng), y0 = at(rng), sx = sz(rng), sy = sz(rng);
    for (int y = y0; y < std::min(w, y0 + sy); ++y)
      for (int x = x0; x < std::min(w, x0 + sx); ++x) g.cells[std::size_t(y) * w + x] = 0;
  }
  return make_grid_map(g, "rectangles");
}

}  // namespace

TEST(RegionLabels, MatchesVisGraphOnRandomGrids) {
  std::mt19937_64 rng(80);
  int paths = 0;
  for (int t = 0; t < 12; ++t) {
    // Height drawn before width: the maps GCC made when both were drawn in the call's arguments
    // (right to left there), now the same under every compiler (docs/testing.md#random-inputs).
    const int h = 6 + int(rng() % 12);
    const int w = 8 + int(rng() % 14);
    const Map m = random_grid(w, h, t % 3 == 0 ? 0.4 : 0.25, rng);
    Params pv = Params::parse("alt=0,block=0,skip=0,table=0");
    const VisGraph vg(m, pv);
    const std::vector<Point> pts = sample_points(m, rng, 36);
    for (const char* v : kVariants) {
      Params p = Params::parse(v);
      const RegionLabels r(m, p);
      paths += compare(m, r, vg, pts, std::string(v) + " on map " + std::to_string(t));
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(paths, 3000);
}

// Pinch points (two diagonal cells blocked: the rule forbid), walls a point sees along, a map
// whose far edge is free, corridors one cell wide.
TEST(RegionLabels, MatchesVisGraphOnHandDrawnMaps) {
  const std::vector<std::vector<std::string>> maps = {
      {"....@....", "...@.@...", "..@...@..", "...@.@...", "....@....", "........."},
      {"..@..@..", "..@..@..", "........", "@@@..@@@", "........", "..@.....", ".....@.."},
      {".@.@.@.@", "@.@.@.@.", ".@.@.@.@", "........"},
      {"........", ".@@@@@@.", ".@....@.", ".@.@@.@.", ".@.@@...", ".@......", "........"}};
  std::mt19937_64 rng(7);
  int paths = 0;
  for (std::size_t t = 0; t < maps.size(); ++t) {
    const Map m = grid_from(maps[t]);
    Params pv = Params::parse("alt=0,block=0,skip=0,table=0");
    const VisGraph vg(m, pv);
    std::vector<Point> pts;
    for (int y = 0; y <= m.grid.height; ++y)
      for (int x = 0; x <= m.grid.width; ++x) pts.push_back({double(x), double(y)});
    for (const Point p : sample_points(m, rng, 24)) pts.push_back(p);
    for (const char* v : kVariants) {
      Params p = Params::parse(v);
      const RegionLabels r(m, p);
      paths += compare(m, r, vg, pts, std::string(v) + " on hand map " + std::to_string(t));
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(paths, 1000);
}

// Polygon maps: grids read as polygons, a mesh of a grid's cells (as Polyanya's meshes are), and
// slanted obstacles off the lattice, a hole and two components.
TEST(RegionLabels, MatchesVisGraphOnPolygonMaps) {
  std::mt19937_64 rng(18);
  std::vector<Map> maps;
  for (int t = 0; t < 3; ++t) maps.push_back(grid_to_polygon_map(random_grid(10 + 2 * t, 8 + t, 0.3, rng)));
  if (auto mesh = testmaps::cells_mesh_map(random_grid(14, 10, 0.25, rng))) maps.push_back(*mesh);
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {30, 0}, {30, 20}, {0, 20}}, {{22, 12}, {26, 12}, {24, 16}}};
  m.polygons.obstacles.push_back({{{{5, 3}, {12, 5.5}, {9, 11}, {4, 8}}}});
  m.polygons.obstacles.push_back({{{{14.5, 0}, {15.5, 0}, {15.5, 7}, {14.5, 7.5}}}});
  m.polygons.obstacles.push_back({{{{3, 14}, {8, 14}, {8, 19}, {3, 19}}, {{4, 15}, {7, 15}, {7, 18}, {4, 18}}}});
  m.polygons.obstacles.push_back({{{{20, 6}, {21, 6}, {21, 20}, {20, 20}}}});  // cuts the map in two
  m.max = {30, 20};
  maps.push_back(m);
  int paths = 0;
  for (std::size_t t = 0; t < maps.size(); ++t) {
    Params pv = Params::parse("alt=0,table=0,points=0");
    const VisGraph vg(maps[t], pv);
    const std::vector<Point> pts = sample_points(maps[t], rng, 36);
    for (const char* v : {"points=1,region=2", "points=0,region=1", "points=0,region=4,threads=2"}) {
      Params p = Params::parse(v);
      const RegionLabels r(maps[t], p);
      paths += compare(maps[t], r, vg, pts, std::string(v) + " on polygon map " + std::to_string(t));
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(paths, 1500);
}

// The shared A* with a heuristic the table answer does not stand for (octile overestimates
// any-angle paths) takes the direct link, which is the labels' answer: the same path.
TEST(RegionLabels, SharedSearchTakesTheDirectLink) {
  std::mt19937_64 rng(3);
  const Map m = random_grid(20, 16, 0.3, rng);
  Params p = Params::parse("");
  const RegionLabels r(m, p);
  const std::vector<Point> pts = sample_points(m, rng, 30);
  int compared = 0;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const Answer a = answer(r, pts[i], pts[i + 1]), b = answer(r, pts[i], pts[i + 1], "octile*2");
    ASSERT_EQ(a.located, b.located);
    if (!std::isfinite(a.cost)) continue;
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.path, b.path);
    ++compared;
  }
  EXPECT_GT(compared, 10);
}

// The build on several threads makes the same lists as on one.
TEST(RegionLabels, ThreadsBuildTheSameLabels) {
  std::mt19937_64 rng(11);
  const Map m = random_grid(40, 30, 0.25, rng);
  for (const char* v : {"points=1", "points=0,region=2"}) {
    Params p1 = Params::parse(v), p3 = Params::parse(std::string(v) + ",threads=3");
    const RegionLabels one(m, p1), three(m, p3);
    EXPECT_EQ(one.entries(), three.entries()) << v;
    EXPECT_EQ(one.vias(), three.vias()) << v;
    EXPECT_EQ(one.stats().memory_bytes, three.stats().memory_bytes) << v;
    for (const Point s : sample_points(m, rng, 20)) {
      const Answer a = answer(one, s, {0, 0}), b = answer(three, s, {0, 0});
      EXPECT_EQ(a.cost, b.cost) << v;
    }
  }
}

// budget_mb: the memory the representation keeps. Given alone, it takes the fastest setting whose
// lists fit (points=1, then points=0 at region 2, 3, 4), answering as visgraph does; the build is
// refused with one line when even the coarsest does not fit, or the labels alone do not.
TEST(RegionLabels, BudgetChoosesTheSetting) {
  std::mt19937_64 rng(5);
  const Map m = rectangles(200, 14, 3);
  auto mem = [&](const char* v) {
    Params p = Params::parse(v);
    return RegionLabels(m, p).stats().memory_bytes;
  };
  const std::size_t fine = mem("points=1"), coarse = mem("points=0,region=4");
  ASSERT_GT(fine, coarse + (4u << 20)) << "the map's settings must differ by some MiB";
  Params pv = Params::parse("");
  const VisGraph vg(m, pv);
  const std::vector<Point> pts = sample_points(m, rng, 24);
  // Room for points=1: it is taken.
  {
    const std::size_t mb = (fine >> 20) + 2;
    Params p = Params::parse("budget_mb=" + std::to_string(mb));
    const RegionLabels r(m, p);
    EXPECT_TRUE(r.point_lists());
    EXPECT_LE(r.stats().memory_bytes, mb << 20);
  }
  // Between the two: a points=0 setting, within the budget, the same answers.
  {
    const std::size_t mb = ((fine + coarse) / 2) >> 20;
    Params p = Params::parse("budget_mb=" + std::to_string(mb));
    const RegionLabels r(m, p);
    EXPECT_FALSE(r.point_lists());
    EXPECT_LE(r.stats().memory_bytes, mb << 20);
    // The build's record names the setting built.
    EXPECT_NE(p.canonical().find("points=0,region=" + std::to_string(r.region())), std::string::npos) << p.canonical();
    EXPECT_GT(compare(m, r, vg, pts, "budget_mb=" + std::to_string(mb) + " (region " + std::to_string(r.region()) + ")"), 20);
  }
  // Given with region, only points is chosen.
  {
    Params p = Params::parse("budget_mb=" + std::to_string(((fine + coarse) / 2) >> 20) + ",region=4");
    const RegionLabels r(m, p);
    EXPECT_FALSE(r.point_lists());
    EXPECT_EQ(r.region(), 4);
  }
}

TEST(RegionLabels, BuildsAboveTheBudgetAreRefused) {
  const Map m = rectangles(200, 14, 3);
  Params pc = Params::parse("points=0,region=4");
  const std::size_t coarse = RegionLabels(m, pc).stats().memory_bytes;
  ASSERT_GT(coarse, 2u << 20);
  // Below the coarsest setting's lists: refused, naming it and the budget.
  Params p = Params::parse("budget_mb=" + std::to_string((coarse >> 20) - 1));
  try {
    RegionLabels r(m, p);
    ADD_FAILURE() << "built within " << (coarse >> 20) - 1 << " MiB: " << r.stats().memory_bytes;
  } catch (const UnsupportedMap& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("points=0,region=4"), std::string::npos) << what;
    EXPECT_NE(what.find("budget_mb"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  // A setting given that does not fit is refused too (no other is tried).
  Params p1 = Params::parse("points=1,budget_mb=" + std::to_string((coarse >> 20) + 1));
  EXPECT_THROW(RegionLabels(m, p1), UnsupportedMap);
  Params p2 = Params::parse("budget_mb=1");
  EXPECT_THROW(RegionLabels(m, p2), UnsupportedMap);
}

// Every scenario query of arena and every 4th of den520d, both layouts, equal to visgraph's.
TEST(RegionLabelsData, ScenarioQueriesEqualVisGraph) {
  for (const char* name : {"movingai/dao/arena.map", "movingai/dao/den520d.map"}) {
    const std::string path = testdata::path(name);
    NAVBENCH_REQUIRE_DATA(path);
    const Map m = load_movingai_map(path);
    const Scenario sc = load_scenario(path + ".scen");
    Params pv = Params::parse("");
    const VisGraph vg(m, pv);
    const std::size_t stride = sc.lines.size() > 500 ? 4 : 1;
    for (const char* v : {"points=1", "points=0,region=4"}) {
      Params p = Params::parse(v);
      const RegionLabels r(m, p);
      std::size_t n = 0;
      for (std::size_t i = 0; i < sc.lines.size(); i += stride, ++n) {
        const auto& l = sc.lines[i];
        const Point s{l.sx, l.sy}, g{l.gx, l.gy};
        const double want = optimum(vg, s, g);
        const Answer got = answer(r, s, g);
        ASSERT_NEAR(got.length, want, 1e-9 * std::max(1.0, want)) << name << " " << v << " query " << i;
      }
      EXPECT_GT(n, 150u);
    }
  }
}

}  // namespace test_region_labels
