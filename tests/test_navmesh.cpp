// navmesh / navmesh-vertices: the triangulation covers exactly the free space, point location agrees
// with a brute-force scan, corridors are right on hand-made maps, pinch points are respected, and
// on real Moving AI maps every query grid8 solves is solved with a valid path.
//
// Validity is checked here with an exact grid test written for this file (independent of the code
// under test): every coordinate in these tests is a multiple of 1/8 below 2^11, so every product
// below is exact in double.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>
#include <set>

#include "datasets/movingai.hpp"
#include "geometry/free_space.hpp"
#include "representations/grid/grid.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "search/astar.hpp"
#include "smoothing/smoothing.hpp"

#include "support/data.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_navmesh {

using namespace navbench;
using testmaps::grid_from;

namespace {


double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Does the segment a-b (t in [0,1]) meet the open box (x0,x1) x (y0,y1)? Exact: the t-interval
// bounds are compared as fractions.
bool segment_meets_open_box(Point a, Point b, double x0, double y0, double x1, double y1) {
  struct Bound {
    double num, den;
    bool closed;
  };
  Bound lo[3] = {{0, 1, true}}, hi[3] = {{1, 1, true}};
  int n = 1;
  auto axis = [&](double p, double d, double m0, double m1) {
    if (d == 0) return m0 < p && p < m1;
    if (d > 0) lo[n] = {m0 - p, d, false}, hi[n++] = {m1 - p, d, false};
    else lo[n] = {p - m1, -d, false}, hi[n++] = {p - m0, -d, false};
    return true;
  };
  if (!axis(a.x, b.x - a.x, x0, x1) || !axis(a.y, b.y - a.y, y0, y1)) return false;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double L = lo[i].num * hi[j].den, H = hi[j].num * lo[i].den;
      if (lo[i].closed && hi[j].closed ? L > H : L >= H) return false;
    }
  return true;
}

// The exact validity test of docs/maps.md on a grid map, written independently for this test.
class GridChecker {
 public:
  explicit GridChecker(const GridMap& g) : g_(g) {}

  bool point_free(Point p) const {
    if (!(p.x >= 0 && p.y >= 0 && p.x <= g_.width && p.y <= g_.height)) return false;
    const int x1 = int(std::floor(p.x)), y1 = int(std::floor(p.y));
    const int x0 = p.x == x1 ? x1 - 1 : x1, y0 = p.y == y1 ? y1 - 1 : y1;
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        if (g_.passable(x, y)) return true;
    return false;
  }
  // Quick reject: all four corners of the cell strictly on one side of the segment's line.
  static bool line_misses_cell(Point a, Point b, int x, int y) {
    const double c[4] = {cross(a, b, {double(x), double(y)}), cross(a, b, {x + 1.0, double(y)}),
                         cross(a, b, {double(x), y + 1.0}), cross(a, b, {x + 1.0, y + 1.0})};
    return (c[0] > 0 && c[1] > 0 && c[2] > 0 && c[3] > 0) || (c[0] < 0 && c[1] < 0 && c[2] < 0 && c[3] < 0);
  }
  bool pinch(int x, int y) const {
    const bool a = g_.passable(x - 1, y - 1), b = g_.passable(x, y - 1), c = g_.passable(x - 1, y), d = g_.passable(x, y);
    return (a && d && !b && !c) || (b && c && !a && !d);
  }
  // The segment keeps out of every blocked cell's interior and passes through no pinch point.
  bool segment_valid(Point a, Point b) const {
    if (!point_free(a) || !point_free(b)) return false;
    const int xa = int(std::floor(std::min(a.x, b.x))) - 1, xb = int(std::floor(std::max(a.x, b.x))) + 1;
    const int ya = int(std::floor(std::min(a.y, b.y))) - 1, yb = int(std::floor(std::max(a.y, b.y))) + 1;
    for (int y = ya; y <= yb; ++y)
      for (int x = xa; x <= xb; ++x) {
        if (!g_.passable(x, y) && !line_misses_cell(a, b, x, y) && segment_meets_open_box(a, b, x, y, x + 1, y + 1))
          return false;
        if (pinch(x, y)) {
          const Point c{double(x), double(y)};
          const double dot = (c.x - a.x) * (b.x - a.x) + (c.y - a.y) * (b.y - a.y);
          const double len2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
          if (cross(a, b, c) == 0 && dot > 0 && dot < len2) return false;  // pinch inside the segment
        }
      }
    return true;
  }
  // Every segment valid, and a path turning at a pinch point leaves on the side it came from.
  bool path_valid(Polyline p) const {
    if (p.empty()) return false;
    p.erase(std::unique(p.begin(), p.end()), p.end());  // a repeated point is no turn
    for (std::size_t i = 0; i + 1 < p.size(); ++i)
      if (!segment_valid(p[i], p[i + 1])) return false;
    if (p.size() == 1) return point_free(p[0]);
    for (std::size_t i = 1; i + 1 < p.size(); ++i) {
      const Point c = p[i];
      if (c.x != std::floor(c.x) || c.y != std::floor(c.y) || !pinch(int(c.x), int(c.y))) continue;
      // the free quadrant whose closed square holds the direction towards the neighbour
      auto side = [&](Point n) {
        const bool east = n.x > c.x || (n.x == c.x && g_.passable(int(c.x), n.y > c.y ? int(c.y) : int(c.y) - 1));
        const bool south = n.y > c.y || (n.y == c.y && g_.passable(n.x > c.x ? int(c.x) : int(c.x) - 1, int(c.y)));
        return int(east) * 2 + int(south);
      };
      if (side(p[i - 1]) != side(p[i + 1])) return false;
    }
    return true;
  }

 private:
  const GridMap& g_;
};

// The harness's exact test (FreeSpace, which also enforces docs/maps.md's pinch ownership: a path may
// touch a pinch point only from the side that owns it) and, on grid maps, the independent one above.
class Validity {
 public:
  explicit Validity(const Map& m) : fs_(m) {
    if (m.kind == MapKind::grid) grid_.emplace(m.grid);
  }
  bool path_valid(const Polyline& p) const { return fs_.path_valid(p) && (!grid_ || grid_->path_valid(p)); }

 private:
  FreeSpace fs_;
  std::optional<GridChecker> grid_;
};

// Does the closed triangle t hold p? (exact on the 1/8 lattice)
bool triangle_holds(const FreeSpaceTriangulation& tri, std::uint32_t t, Point p, bool* strictly = nullptr) {
  const auto& pts = tri.points();
  const auto& c = tri.corners(t);
  const double o0 = cross(pts[c[0]], pts[c[1]], p), o1 = cross(pts[c[1]], pts[c[2]], p), o2 = cross(pts[c[2]], pts[c[0]], p);
  if (strictly) *strictly = o0 > 0 && o1 > 0 && o2 > 0;
  return o0 >= 0 && o1 >= 0 && o2 >= 0;
}

// Separating-axis test: do the open triangle and the open unit cell (x, y) overlap?
bool triangle_overlaps_cell(const std::array<Point, 3>& tr, int x, int y) {
  const std::array<Point, 4> box{Point{double(x), double(y)}, {x + 1.0, double(y)}, {x + 1.0, y + 1.0}, {double(x), y + 1.0}};
  std::vector<Point> axes{{1, 0}, {0, 1}};
  for (int i = 0; i < 3; ++i) axes.push_back({tr[(i + 1) % 3].y - tr[i].y, tr[i].x - tr[(i + 1) % 3].x});
  for (Point n : axes) {
    double a0 = 1e300, a1 = -1e300, b0 = 1e300, b1 = -1e300;
    for (Point p : tr) a0 = std::min(a0, n.x * p.x + n.y * p.y), a1 = std::max(a1, n.x * p.x + n.y * p.y);
    for (Point p : box) b0 = std::min(b0, n.x * p.x + n.y * p.y), b1 = std::max(b1, n.x * p.x + n.y * p.y);
    if (a1 <= b0 || b1 <= a0) return false;
  }
  return true;
}

// The domain triangles tile exactly the free cells: no triangle overlaps a blocked cell or leaves
// the map, and their areas add up to the number of free cells (so nothing free is left out).
void expect_tiles_free_space(const Map& m) {
  const FreeSpaceTriangulation tri(m);
  const auto& pts = tri.points();
  double twice_area = 0;
  for (std::uint32_t t = 0; t < tri.num_triangles(); ++t) {
    const auto& c = tri.corners(t);
    const std::array<Point, 3> tr{pts[c[0]], pts[c[1]], pts[c[2]]};
    const double a2 = cross(tr[0], tr[1], tr[2]);
    ASSERT_GT(a2, 0) << "triangle " << t << " not counter-clockwise";
    twice_area += a2;
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (Point p : tr) {
      ASSERT_TRUE(p.x >= 0 && p.y >= 0 && p.x <= m.grid.width && p.y <= m.grid.height);
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    for (int y = int(y0); y < int(y1); ++y)
      for (int x = int(x0); x < int(x1); ++x)
        ASSERT_FALSE(!m.grid.passable(x, y) && triangle_overlaps_cell(tr, x, y)) << "triangle " << t << " cell " << x << "," << y;
    for (int i = 0; i < 3; ++i) {  // neighbours are mutual and share the edge
      const std::int32_t u = tri.neighbor(t, i);
      if (u < 0) continue;
      ASSERT_EQ(tri.component(t), tri.component(std::uint32_t(u)));
      const std::set<std::uint32_t> e{c[(i + 1) % 3], c[(i + 2) % 3]};
      int shared = 0;
      for (std::uint32_t k : tri.corners(std::uint32_t(u))) shared += int(e.count(k));
      ASSERT_EQ(shared, 2);
    }
  }
  const double free_cells = double(std::count(m.grid.cells.begin(), m.grid.cells.end(), 1));
  EXPECT_EQ(twice_area, 2 * free_cells);
}

// Random points on the 1/8 lattice (many on grid lines and triangle edges): locate() agrees with a
// scan over all triangles.
void expect_locate_matches_scan(const Map& m, int samples, unsigned seed) {
  const FreeSpaceTriangulation tri(m);
  const GridChecker check(m.grid);
  std::mt19937 rng(seed);
  int free_points = 0, on_edges = 0;
  for (int s = 0; s < samples; ++s) {
    // a third of the points on cell corners / grid lines, where edges and vertices are
    const int div = s % 3 == 0 ? 1 : s % 3 == 1 ? 2 : 8;
    const Point p{double(rng() % (m.grid.width * div + 3)) / div - 1.0 / div,
                  double(rng() % (m.grid.height * div + 3)) / div - 1.0 / div};
    std::vector<std::uint32_t> holders;
    bool strict_any = false;
    for (std::uint32_t t = 0; t < tri.num_triangles(); ++t) {
      bool strict = false;
      if (triangle_holds(tri, t, p, &strict)) holders.push_back(t), strict_any |= strict;
    }
    const std::int32_t got = tri.locate(p);
    if (!check.point_free(p)) {
      ASSERT_TRUE(holders.empty()) << p.x << "," << p.y;
      ASSERT_EQ(got, -1) << p.x << "," << p.y;
      continue;
    }
    ++free_points;
    ASSERT_FALSE(holders.empty()) << "free point in no triangle: " << p.x << "," << p.y;
    ASSERT_GE(got, 0) << p.x << "," << p.y;
    ASSERT_TRUE(std::count(holders.begin(), holders.end(), std::uint32_t(got))) << p.x << "," << p.y;
    if (strict_any) ASSERT_EQ(holders.size(), 1u) << "interior point in two triangles: " << p.x << "," << p.y;
    else ++on_edges;
  }
  EXPECT_GT(free_points, samples / 4);
  EXPECT_GT(on_edges, 0);
}

template <class R>
struct Solved {
  bool located = false;
  double cost = SearchWorkspace::kInf;
  Query q;
};

template <class R>
Solved<R> solve(const R& rep, Point s, Point g, SearchWorkspace& ws) {
  Solved<R> out;
  out.q.start = s;
  out.q.goal = g;
  auto a = rep.attach(s);
  auto b = rep.attach(g);
  if (!a || !b) return out;
  out.located = true;
  out.q.s = *a;
  out.q.g = *b;
  out.q.direct = rep.direct(out.q);
  SearchStats st;
  out.cost = astar(rep, out.q, parse_heuristic("euclidean"), ws, st);
  return out;
}

// Corridor checks independent of the implementation: consecutive portals run through the path's
// midpoints in order, each portal's left end is counter-clockwise of the walk (the point before it
// sees right then left turning left), and the funnel through it is valid and no longer than the raw
// path.
void expect_corridor_consistent(const NavMesh& nm, const Query& q, const Validity* check) {
  const auto corr = nm.corridor(q);
  ASSERT_TRUE(corr.has_value());
  const Polyline raw = nm.polyline(q);
  std::size_t at = 0;  // raw[1 .. size-2] are the portal midpoints of the path
  for (const Portal& p : *corr) {
    const Point mid{(p.left.x + p.right.x) / 2, (p.left.y + p.right.y) / 2};
    ++at;
    while (at + 1 < raw.size() && !(raw[at] == mid)) ++at;
    ASSERT_LT(at + 1, raw.size()) << "portal midpoint not on the path in order";
    ASSERT_GE(cross(raw[at - 1], p.right, p.left), 0) << "portal handedness";
    ASSERT_LE(cross(raw[at + 1], p.right, p.left), 0) << "portal handedness";
  }
  const Polyline f = funnel_path(q.start, q.goal, *corr);
  EXPECT_LE(polyline_length(f), polyline_length(raw) + 1e-9);
  if (check) {
    EXPECT_TRUE(check->path_valid(f));
  }
}

std::string dataset(const std::string& rel) { return testdata::path("movingai/" + rel); }

}  // namespace

// ------------------------------------------------------------------------------------------------
// Triangulation

TEST(NavMeshTriangulation, TilesFreeSpaceOnHandMaps) {
  expect_tiles_free_space(grid_from({"....."}));
  expect_tiles_free_space(grid_from({".@@", ".@@", "..."}));
  expect_tiles_free_space(grid_from({".@", "@."}));  // pinch point
  expect_tiles_free_space(grid_from({".....", ".@...", "..@..", "....."}));
  expect_tiles_free_space(grid_from({"@@@", "@.@", "@@@"}));
  expect_tiles_free_space(grid_from({"@@@", "@@@"}));  // nothing free
}

TEST(NavMeshTriangulation, TilesFreeSpaceOnRandomMaps) {
  for (unsigned seed = 1; seed <= 6; ++seed) expect_tiles_free_space(testmaps::random_grid_percent(37, 23, 15 * int(seed % 4), seed));
}

TEST(NavMeshTriangulationData, TilesFreeSpaceOnDen520d) {
  const std::string path = dataset("dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  expect_tiles_free_space(load_movingai_map(path));
}

TEST(NavMeshTriangulation, LocateMatchesBruteForce) {
  for (unsigned seed = 1; seed <= 4; ++seed) expect_locate_matches_scan(testmaps::random_grid_percent(40, 30, 30, seed), 3000, seed);
  expect_locate_matches_scan(grid_from({".@", "@."}), 300, 7);
  expect_locate_matches_scan(grid_from({".....", ".@...", "..@..", "....."}), 600, 8);
}

TEST(NavMeshTriangulationData, LocateMatchesBruteForceOnRealMap) {
  const std::string path = dataset("dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  expect_locate_matches_scan(load_movingai_map(path), 400, 3);
}

TEST(NavMeshTriangulation, OutsidePointsAreNotLocated) {
  const FreeSpaceTriangulation tri(grid_from({"..@", "..."}));
  EXPECT_EQ(tri.locate({2.5, 0.5}), -1);  // blocked cell
  EXPECT_EQ(tri.locate({-0.5, 0.5}), -1);
  EXPECT_EQ(tri.locate({1.5, 2.5}), -1);
  EXPECT_EQ(tri.locate({NAN, 0.5}), -1);
  EXPECT_EQ(tri.locate({INFINITY, 0.5}), -1);
  EXPECT_GE(tri.locate({2.5, 1.0}), 0);  // on the blocked cell's free boundary
  EXPECT_GE(tri.locate({3.0, 2.0}), 0);  // map corner
  const FreeSpaceTriangulation none(grid_from({"@@", "@@"}));
  EXPECT_EQ(none.num_triangles(), 0u);
  EXPECT_EQ(none.locate({1, 1}), -1);
}

TEST(NavMeshTriangulation, PinchSplitsComponents) {
  const FreeSpaceTriangulation tri(grid_from({".@", "@."}));
  EXPECT_EQ(tri.num_components(), 2);
  const std::int32_t at_pinch = tri.locate({1, 1});
  ASSERT_GE(at_pinch, 0);
  // the pinch point joins the side of the direction (+1,+1): cell (1,1)
  EXPECT_EQ(tri.component(std::uint32_t(at_pinch)), tri.component(std::uint32_t(tri.locate({1.5, 1.5}))));
}

// ------------------------------------------------------------------------------------------------
// navmesh

TEST(NavMesh, StraightCorridorHasOneKnownPortal) {
  // A 5x1 corridor is two triangles; walking in +x their diagonal is the one portal, with its
  // y = 1 end counter-clockwise (left) of the walk.
  const Map m = grid_from({"....."});
  Params p;
  const NavMesh nm(m, p);
  EXPECT_EQ(num_vertices(nm.graph()), 1u);
  SearchWorkspace ws;
  auto r = solve(nm, {0.125, 0.5}, {4.875, 0.5}, ws);
  ASSERT_TRUE(r.located);
  ASSERT_FALSE(r.q.direct);
  EXPECT_NEAR(r.cost, polyline_length(nm.polyline(r.q)), 1e-12);
  const auto corr = nm.corridor(r.q);
  ASSERT_TRUE(corr && corr->size() == 1);
  EXPECT_EQ((*corr)[0].left.y, 1.0);
  EXPECT_EQ((*corr)[0].right.y, 0.0);
  EXPECT_EQ((*corr)[0].left.x + (*corr)[0].right.x, 5.0);
  // the other way round the ends swap
  auto back = solve(nm, {4.875, 0.5}, {0.125, 0.5}, ws);
  const auto corr2 = nm.corridor(back.q);
  ASSERT_TRUE(corr2 && corr2->size() == 1);
  EXPECT_EQ((*corr2)[0].left.y, 0.0);
  // same triangle: direct, empty corridor
  auto same = solve(nm, {0.125, 0.5}, {0.25, 0.5}, ws);
  EXPECT_TRUE(same.q.direct);
  EXPECT_NEAR(same.cost, 0.125, 1e-15);
  EXPECT_TRUE(same.q.path.empty());
  EXPECT_EQ(nm.corridor(same.q)->size(), 0u);
}

TEST(NavMesh, LShapedCorridorFunnelsThroughTheInnerCorner) {
  // Arm 1 is x in [0,1], arm 2 is y in [2,3]: from one arm's end to the other's, the shortest path
  // in the corridor bends at the inner corner (1,2).
  const Map m = grid_from({".@@", ".@@", "..."});
  for (bool merge : {false, true}) {
    Params p = Params::parse(merge ? "merge=1" : "");
    const NavMesh nm(m, p);
    SearchWorkspace ws;
    const Point s{0.5, 0.25}, g{2.75, 2.5};
    auto r = solve(nm, s, g, ws);
    ASSERT_TRUE(std::isfinite(r.cost));
    const Validity check(m);
    EXPECT_TRUE(check.path_valid(nm.polyline(r.q)));
    const auto corr = nm.corridor(r.q);
    ASSERT_TRUE(corr && !corr->empty());
    expect_corridor_consistent(nm, r.q, &check);
    const Polyline f = funnel_path(s, g, *corr);
    EXPECT_NEAR(polyline_length(f), distance(s, {1, 2}) + distance({1, 2}, g), 1e-9);
  }
}

TEST(NavMesh, PinchPointIsNotAPassage) {
  // Cells (1,2) and (2,1) touch only at the pinch corner (2,2); the path must go round.
  const Map m = grid_from({".....", ".@...", "..@..", "....."});
  const Validity check(m);
  for (const char* params : {"", "merge=1"}) {
    Params p = Params::parse(params);
    const NavMesh nm(m, p);
    SearchWorkspace ws;
    auto r = solve(nm, {1.5, 2.5}, {2.5, 1.5}, ws);
    ASSERT_TRUE(std::isfinite(r.cost));
    EXPECT_GT(r.cost, 2.0);
    EXPECT_TRUE(check.path_valid(nm.polyline(r.q)));
    expect_corridor_consistent(nm, r.q, &check);
  }
  // Two free cells meeting only at a pinch: separate components, no path.
  const Map two = grid_from({".@", "@."});
  Params p;
  const NavMesh nm(two, p);
  SearchWorkspace ws;
  auto r = solve(nm, {0.5, 0.5}, {1.5, 1.5}, ws);
  ASSERT_TRUE(r.located);
  EXPECT_NE(r.q.s.component, r.q.g.component);
  EXPECT_TRUE(std::isinf(r.cost));
  EXPECT_FALSE(nm.corridor(r.q).has_value());
}

TEST(NavMesh, ParametersAreChecked) {
  const Map m = grid_from({"..", ".."});
  Params bad = Params::parse("merge=2");
  EXPECT_THROW((NavMesh(m, bad)), std::invalid_argument);
  Params unknown = Params::parse("cells=3");
  EXPECT_THROW((NavMesh(m, unknown)), std::invalid_argument);
  Params unknown2 = Params::parse("merge=1");
  EXPECT_THROW((NavMeshVertices(m, unknown2)), std::invalid_argument);
  Params ok = Params::parse("merge=1");
  EXPECT_NO_THROW((NavMesh(m, ok)));
  EXPECT_EQ(ok.canonical(), "merge=1");
}

TEST(NavMesh, MergedCellsAreConvexAndCoverTheTriangles) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Map m = testmaps::random_grid_percent(48, 32, 10 * int(seed), seed);
    Params p0, p1 = Params::parse("merge=1");
    const NavMesh plain(m, p0), merged(m, p1);
    EXPECT_LE(merged.num_cells(), plain.num_cells());
    const auto& tri = merged.triangulation();
    const auto& pts = tri.points();
    std::vector<double> cell_area(merged.num_cells(), 0), tri_area(merged.num_cells(), 0);
    for (std::uint32_t c = 0; c < merged.num_cells(); ++c) {
      const auto poly = merged.cell_polygon(c);
      ASSERT_GE(poly.size(), 3u);
      for (std::size_t i = 0; i < poly.size(); ++i) {
        const Point a = pts[poly[i]], b = pts[poly[(i + 1) % poly.size()]], d = pts[poly[(i + 2) % poly.size()]];
        ASSERT_GE(cross(a, b, d), 0) << "reflex corner in merged cell " << c;
        if (cross(a, b, d) == 0) {  // straight, not folded back
          ASSERT_LT((a.x - b.x) * (d.x - b.x) + (a.y - b.y) * (d.y - b.y), 0) << "slit in merged cell " << c;
        }
        cell_area[c] += a.x * b.y - a.y * b.x;
      }
    }
    for (std::uint32_t t = 0; t < tri.num_triangles(); ++t) {
      const auto& k = tri.corners(t);
      tri_area[merged.cell_of_triangle(t)] += cross(pts[k[0]], pts[k[1]], pts[k[2]]);
    }
    for (std::uint32_t c = 0; c < merged.num_cells(); ++c) ASSERT_EQ(cell_area[c], tri_area[c]);
  }
  // A zero-area obstacle (a needle across the room along y = 4) leaves its middle vertex surrounded
  // by free triangles, straight on both sides: merging across it must not fold a cell back on
  // itself (a straight-angle-only test merges the two halves into one cell with a slit).
  {
    Map m;
    m.kind = MapKind::polygon;
    m.polygons.walkable.rings = {{{0, 0}, {8, 0}, {8, 8}, {0, 8}}};
    m.polygons.obstacles.push_back({{{{0, 4}, {4, 4}, {8, 4}}}});
    Params p1 = Params::parse("merge=1");
    const NavMesh merged(m, p1);
    const auto& pts = merged.triangulation().points();
    double area = 0;
    for (std::uint32_t c = 0; c < merged.num_cells(); ++c) {
      const auto poly = merged.cell_polygon(c);
      for (std::size_t i = 0; i < poly.size(); ++i) {
        const Point a = pts[poly[i]], b = pts[poly[(i + 1) % poly.size()]], d = pts[poly[(i + 2) % poly.size()]];
        ASSERT_GE(cross(a, b, d), 0);
        if (cross(a, b, d) == 0) {
          ASSERT_LT((a.x - b.x) * (d.x - b.x) + (a.y - b.y) * (d.y - b.y), 0);
        }
        area += (a.x * b.y - a.y * b.x) / 2;
      }
    }
    EXPECT_EQ(area, 64.0);
  }
  // An open room merges into one convex cell.
  Params p = Params::parse("merge=1");
  const NavMesh room(grid_from({"....", "....", "...."}), p);
  EXPECT_EQ(room.num_cells(), 1u);
  EXPECT_EQ(num_vertices(room.graph()), 0u);
}

TEST(NavMesh, PathsOnRandomMapsAreValid) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Map m = testmaps::random_grid_percent(40, 30, 25, seed);
    const Validity check(m);
    Params p8;
    const Grid8 grid(m, p8);
    for (const char* params : {"", "merge=1"}) {
      Params p = Params::parse(params);
      const NavMesh nm(m, p);
      Params pv;
      const NavMeshVertices nv(m, pv);
      std::mt19937 rng(seed);
      SearchWorkspace ws;
      for (int i = 0; i < 80; ++i) {
        // cell centres, and every other query on cell corners (the `corner` convention: triangulation
        // vertices, pinch points among them)
        const double o = i % 2 ? 0.0 : 0.5;
        const Point s{rng() % 40 + o, rng() % 30 + o}, g{rng() % 40 + o, rng() % 30 + o};
        auto rg = solve(grid, s, g, ws);
        auto rn = solve(nm, s, g, ws);
        auto rv = solve(nv, s, g, ws);
        ASSERT_EQ(rg.located, rn.located);
        ASSERT_EQ(rg.located, rv.located);
        if (!rg.located) continue;
        ASSERT_EQ(std::isfinite(rg.cost), std::isfinite(rn.cost)) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
        ASSERT_EQ(std::isfinite(rg.cost), std::isfinite(rv.cost));
        ASSERT_EQ(rn.q.s.component == rn.q.g.component, std::isfinite(rn.cost));
        if (!std::isfinite(rn.cost)) continue;
        EXPECT_TRUE(check.path_valid(nm.polyline(rn.q)));
        EXPECT_TRUE(check.path_valid(nv.polyline(rv.q)));
        EXPECT_NEAR(rn.cost, polyline_length(nm.polyline(rn.q)), 1e-9);
        EXPECT_NEAR(rv.cost, polyline_length(nv.polyline(rv.q)), 1e-9);
        expect_corridor_consistent(nm, rn.q, &check);
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// navmesh-vertices

TEST(NavMeshVertices, PinchCornerIsAWaypointOnItsOwningSideOnly) {
  // Corner (2,2) pinches between free cells (2,1) (its owner, docs/maps.md / FreeSpace) and (1,2).
  const Map m = grid_from({".....", ".@...", "..@..", "....."});
  const Validity check(m);
  Params p;
  const NavMeshVertices nv(m, p);
  const auto& tri = nv.triangulation();
  std::set<Vertex> at_pinch;
  for (std::uint32_t t = 0; t < tri.num_triangles(); ++t)
    for (int i = 0; i < 3; ++i)
      if (tri.points()[tri.corners(t)[i]] == Point{2, 2}) at_pinch.insert(nv.corner_vertex(t, i));
  ASSERT_EQ(at_pinch.size(), 2u);  // one vertex, and "none" on the other side
  EXPECT_TRUE(at_pinch.count(CsrGraph::null_vertex()));
  SearchWorkspace ws;
  auto r = solve(nv, {1.5, 2.5}, {2.5, 1.5}, ws);
  ASSERT_TRUE(std::isfinite(r.cost));
  EXPECT_GT(r.cost, 2.0);  // not 2 * |(0.5, 0.5)| through the pinch
  EXPECT_TRUE(check.path_valid(nv.polyline(r.q)));
  // Queries starting or ending on the pinch point itself leave it on the owning side.
  for (Point other : {Point{1.5, 2.5}, Point{0.5, 3.5}, Point{2.5, 1.5}, Point{4.5, 0.5}}) {
    auto a = solve(nv, {2, 2}, other, ws);
    auto b = solve(nv, other, {2, 2}, ws);
    ASSERT_TRUE(std::isfinite(a.cost) && std::isfinite(b.cost));
    EXPECT_TRUE(check.path_valid(nv.polyline(a.q)));
    EXPECT_TRUE(check.path_valid(nv.polyline(b.q)));
    for (const char* params : {"", "merge=1"}) {
      Params pn = Params::parse(params);
      const NavMesh nm(m, pn);
      auto c = solve(nm, {2, 2}, other, ws);
      auto d = solve(nm, other, {2, 2}, ws);
      ASSERT_TRUE(std::isfinite(c.cost) && std::isfinite(d.cost));
      EXPECT_TRUE(check.path_valid(nm.polyline(c.q)));
      EXPECT_TRUE(check.path_valid(nm.polyline(d.q)));
      expect_corridor_consistent(nm, c.q, &check);
      expect_corridor_consistent(nm, d.q, &check);
    }
  }
  // an obstacle edge is walkable: along the wall of a 1-wide corridor
  const Map corridor = grid_from({"....."});
  Params p2;
  const NavMeshVertices line(corridor, p2);
  auto along = solve(line, {0, 0}, {5, 0}, ws);
  EXPECT_NEAR(along.cost, 5.0, 1e-12);
}

// ------------------------------------------------------------------------------------------------
// Polygon maps

namespace {
PolygonShape rect(double x0, double y0, double x1, double y1) { return {{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}}; }

Map polygon_map(PolygonShape walkable, std::vector<PolygonShape> obstacles) {
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable = std::move(walkable);
  m.polygons.obstacles = std::move(obstacles);
  return m;
}

// Valid among axis-aligned rectangular obstacles inside an axis-aligned walkable rectangle.
bool rect_path_valid(const Polyline& p, const std::vector<std::array<double, 4>>& boxes, std::array<double, 4> outer) {
  for (Point q : p)
    if (q.x < outer[0] || q.y < outer[1] || q.x > outer[2] || q.y > outer[3]) return false;
  for (std::size_t i = 0; i + 1 < p.size(); ++i)
    for (const auto& b : boxes)
      if (segment_meets_open_box(p[i], p[i + 1], b[0], b[1], b[2], b[3])) return false;
  return true;
}
}  // namespace

TEST(NavMeshPolygon, LShapedRing) {
  const Map m = polygon_map({{{{0, 0}, {1, 0}, {1, 2}, {3, 2}, {3, 3}, {0, 3}}}}, {});
  Params p;
  const NavMesh nm(m, p);
  EXPECT_EQ(nm.triangulation().num_triangles(), 4u);
  SearchWorkspace ws;
  const Point s{0.5, 0.25}, g{2.75, 2.5};
  auto r = solve(nm, s, g, ws);
  ASSERT_TRUE(std::isfinite(r.cost));
  expect_corridor_consistent(nm, r.q, nullptr);
  EXPECT_NEAR(polyline_length(funnel_path(s, g, *nm.corridor(r.q))), distance(s, {1, 2}) + distance({1, 2}, g), 1e-9);
  EXPECT_FALSE(nm.attach({2, 1}));  // outside the ring
  const Validity check(m);
  EXPECT_TRUE(check.path_valid(nm.polyline(r.q)));
}

TEST(NavMeshPolygon, HolesAndOverlappingObstacles) {
  // walkable 20x10 with a hole [2,4]x[2,4]; two overlapping obstacles form a wall x in [9,11],
  // y in [0,8] that leaves a gap at the bottom (y in [8,10]).
  PolygonShape walkable = rect(0, 0, 20, 10);
  walkable.rings.push_back({{2, 2}, {2, 4}, {4, 4}, {4, 2}});
  const Map m = polygon_map(walkable, {rect(9, 0, 11, 5), rect(9.5, 4, 11, 8)});
  const std::vector<std::array<double, 4>> boxes{{2, 2, 4, 4}, {9, 0, 11, 5}, {9.5, 4, 11, 8}};
  for (const char* params : {"", "merge=1"}) {
    Params p = Params::parse(params);
    const NavMesh nm(m, p);
    Params pv;
    const NavMeshVertices nv(m, pv);
    // area of the domain = 200 - 4 (hole) - union of the wall pieces (10 + 6 - 0.5*... overlap)
    double area = 0;
    const auto& tri = nm.triangulation();
    for (std::uint32_t t = 0; t < tri.num_triangles(); ++t) {
      const auto& c = tri.corners(t);
      area += cross(tri.points()[c[0]], tri.points()[c[1]], tri.points()[c[2]]) / 2;
    }
    const double wall = 2 * 5 + 1.5 * 4 - 1.5 * 1;  // the two rectangles minus their overlap
    EXPECT_NEAR(area, 200 - 4 - wall, 1e-9);
    EXPECT_FALSE(nm.attach({3, 3}));       // in the hole
    EXPECT_FALSE(nm.attach({10, 4.5}));    // in the overlap of the two obstacles
    EXPECT_FALSE(nv.attach({10.5, 7}));
    EXPECT_TRUE(nm.attach({10, 9}));       // the gap
    SearchWorkspace ws;
    const Point s{1, 1}, g{19, 1};
    auto rn = solve(nm, s, g, ws);
    auto rv = solve(nv, s, g, ws);
    ASSERT_TRUE(std::isfinite(rn.cost) && std::isfinite(rv.cost));
    EXPECT_TRUE(rect_path_valid(nm.polyline(rn.q), boxes, {0, 0, 20, 10}));
    EXPECT_TRUE(rect_path_valid(nv.polyline(rv.q), boxes, {0, 0, 20, 10}));
    const Validity check(m);
    EXPECT_TRUE(check.path_valid(nm.polyline(rn.q)));
    EXPECT_TRUE(check.path_valid(nv.polyline(rv.q)));
    expect_corridor_consistent(nm, rn.q, &check);
    EXPECT_TRUE(rect_path_valid(funnel_path(s, g, *nm.corridor(rn.q)), boxes, {0, 0, 20, 10}));
    // any way round the wall crosses x = 9.5 .. 11 with y >= 8: at least this long
    const double bound = distance(s, {9.5, 8}) + 1.5 + distance({11, 8}, g);
    EXPECT_GE(rn.cost, bound - 1e-9);
    EXPECT_GE(rv.cost, bound - 1e-9);
  }
}

TEST(NavMeshPolygon, BadRingsAreRejected) {
  Params p;
  EXPECT_THROW(NavMesh(polygon_map({{{{0, 0}, {1, 0}, {0, 0}}}}, {}), p), std::invalid_argument);
  Params p2;
  EXPECT_THROW(NavMesh(polygon_map({{{{0, 0}, {1, 0}, {NAN, 1}}}}, {}), p2), std::invalid_argument);
  Params p3;
  EXPECT_THROW(NavMeshVertices(polygon_map({}, {}), p3), std::invalid_argument);
}

// ------------------------------------------------------------------------------------------------
// Real maps: ~30 scenario queries per map (cell centres), every query grid8 solves is solved, with
// a valid path whose cost is its length; no-path answers agree with grid8 too.

class NavMeshRealMapsData : public ::testing::TestWithParam<const char*> {};

TEST_P(NavMeshRealMapsData, SolvesWhatGrid8Solves) {
  const std::string path = dataset(GetParam());
  NAVBENCH_REQUIRE_DATA(path);
  const Map m = load_movingai_map(path);
  const Scenario sc = load_scenario(path + ".scen");
  const Validity check(m);
  Params p8, p0, p1 = Params::parse("merge=1"), pv;
  const Grid8 grid(m, p8);
  const NavMesh nm(m, p0), merged(m, p1);
  const NavMeshVertices nv(m, pv);
  SearchWorkspace ws;
  const std::size_t n = 30;
  int solved = 0;
  for (std::size_t i = 0; i < n && i < sc.lines.size(); ++i) {
    const auto& l = sc.lines[i * sc.lines.size() / n];
    const Point s{l.sx + 0.5, l.sy + 0.5}, g{l.gx + 0.5, l.gy + 0.5};
    auto rg = solve(grid, s, g, ws);
    if (!rg.located) continue;
    const bool reachable = std::isfinite(rg.cost);
    solved += reachable;
    for (const NavMesh* rep : {&nm, &merged}) {
      auto r = solve(*rep, s, g, ws);
      ASSERT_TRUE(r.located);
      ASSERT_EQ(std::isfinite(r.cost), reachable) << "query " << i;
      ASSERT_EQ(r.q.s.component == r.q.g.component, reachable);
      if (!reachable) continue;
      const Polyline raw = rep->polyline(r.q);
      EXPECT_TRUE(check.path_valid(raw)) << "query " << i;
      EXPECT_NEAR(r.cost, polyline_length(raw), 1e-9 * r.cost);
      EXPECT_GE(r.cost, distance(s, g) - 1e-9);
      expect_corridor_consistent(*rep, r.q, &check);
    }
    auto rv = solve(nv, s, g, ws);
    ASSERT_TRUE(rv.located);
    ASSERT_EQ(std::isfinite(rv.cost), reachable) << "query " << i;
    if (!reachable) continue;
    EXPECT_TRUE(check.path_valid(nv.polyline(rv.q))) << "query " << i;
    EXPECT_NEAR(rv.cost, polyline_length(nv.polyline(rv.q)), 1e-9 * rv.cost);
  }
  EXPECT_GT(solved, 0);
}

INSTANTIATE_TEST_SUITE_P(Maps, NavMeshRealMapsData,
                         ::testing::Values("dao/den520d.map", "dao/brc202d.map", "dao/arena.map", "room/8room_000.map",
                                           "maze/maze512-32-0.map", "bg/AR0011SR.map"),
                         [](const auto& info) {
                           std::string s = info.param;
                           s = s.substr(s.find('/') + 1);
                           s = s.substr(0, s.find('.'));
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace test_navmesh
