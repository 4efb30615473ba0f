// quadtree representation: subdivision, merging, neighbours, point location, paths and
// corridors on hand-made grid and polygon maps and on the Moving AI maps.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/linestring.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include "datasets/generate_polygons.hpp"
#include "datasets/movingai.hpp"
#include "datasets/wkt.hpp"
#include "geometry/free_space.hpp"
#include "geometry/polygons.hpp"
#include "representations/grid/grid.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "search/astar.hpp"
#include "smoothing/smoothing.hpp"

#include "support/data.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_quadtree {

using namespace navbench;
using testmaps::grid_from;

namespace {


QuadTree build(const Map& m, const std::string& params = "") {
  Params p = Params::parse(params);
  return QuadTree(m, p);
}

// Exact validity test of docs/maps.md on a grid map for polylines whose coordinates are multiples of
// 1/2 (cell centres, portal midpoints and ends): everything is scaled by 2 into integers.
class GridChecker {
 public:
  explicit GridChecker(const GridMap& g) : g_(g) {}

  bool blocked(std::int64_t x, std::int64_t y) const { return !g_.passable(int(x), int(y)); }

  bool point_free(Point p) const {
    const auto [X, Y] = scaled(p);
    if (X < 0 || Y < 0 || X > 2 * g_.width || Y > 2 * g_.height) return false;
    // free iff one of the unit cells whose closed square holds p is passable
    for (std::int64_t cy = (Y - 1) >> 1; cy <= Y >> 1; ++cy)
      for (std::int64_t cx = (X - 1) >> 1; cx <= X >> 1; ++cx)
        if (2 * cx <= X && X <= 2 * cx + 2 && 2 * cy <= Y && Y <= 2 * cy + 2 && !blocked(cx, cy)) return true;
    return false;
  }

  bool segment_valid(Point a, Point b) const {
    if (!point_free(a) || !point_free(b)) return false;
    // plain variables, not structured bindings: clang 14 cannot capture those in the lambda below
    const std::int64_t ax = scaled(a).first, ay = scaled(a).second;
    const std::int64_t bx = scaled(b).first, by = scaled(b).second;
    if (ax == bx && ay == by) return true;
    const std::int64_t x0 = (std::min(ax, bx) >> 1) - 1, x1 = (std::max(ax, bx) >> 1) + 1;
    const std::int64_t y0 = (std::min(ay, by) >> 1) - 1, y1 = (std::max(ay, by) >> 1) + 1;
    auto side = [&](std::int64_t px, std::int64_t py) {
      const std::int64_t c = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
      return (c > 0) - (c < 0);
    };
    // no blocked cell's open square meets the segment (separating axes, strict on all three)
    for (std::int64_t y = y0; y <= y1; ++y)
      for (std::int64_t x = x0; x <= x1; ++x) {
        if (!blocked(x, y)) continue;
        const std::int64_t X0 = 2 * x, X1 = 2 * x + 2, Y0 = 2 * y, Y1 = 2 * y + 2;
        if (std::max(ax, bx) <= X0 || std::min(ax, bx) >= X1 || std::max(ay, by) <= Y0 || std::min(ay, by) >= Y1)
          continue;
        const int s[4] = {side(X0, Y0), side(X1, Y0), side(X0, Y1), side(X1, Y1)};
        const bool pos = std::any_of(s, s + 4, [](int v) { return v > 0; });
        const bool neg = std::any_of(s, s + 4, [](int v) { return v < 0; });
        if (pos && neg) return false;
      }
    // no pinch point (exactly two diagonally opposite blocked cells) on the segment
    for (std::int64_t y = y0; y <= y1 + 1; ++y)
      for (std::int64_t x = x0; x <= x1 + 1; ++x) {
        const bool nw = blocked(x - 1, y - 1), ne = blocked(x, y - 1), sw = blocked(x - 1, y), se = blocked(x, y);
        const bool pinch = (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
        if (!pinch) continue;
        const std::int64_t X = 2 * x, Y = 2 * y;
        if (side(X, Y) == 0 && X >= std::min(ax, bx) && X <= std::max(ax, bx) && Y >= std::min(ay, by) &&
            Y <= std::max(ay, by))
          return false;
      }
    return true;
  }

  bool path_valid(const Polyline& p) const {
    if (p.empty()) return false;
    for (std::size_t i = 0; i + 1 < p.size(); ++i)
      if (!segment_valid(p[i], p[i + 1])) return false;
    return point_free(p.front());
  }

 private:
  static std::pair<std::int64_t, std::int64_t> scaled(Point p) {
    const double X = 2 * p.x, Y = 2 * p.y;
    EXPECT_EQ(X, std::floor(X));
    EXPECT_EQ(Y, std::floor(Y));
    return {std::int64_t(X), std::int64_t(Y)};
  }
  const GridMap& g_;
};

// One query the way the harness runs it: attach, direct, shared A*.
struct Solved {
  bool located = false;
  double cost = SearchWorkspace::kInf;
  Query q;
};
template <class R>
Solved solve(const R& r, Point s, Point g, SearchWorkspace& ws, std::size_t* expansions = nullptr) {
  Solved out;
  out.q.start = s;
  out.q.goal = g;
  auto a = r.attach(s), b = r.attach(g);
  if (!a || !b) return out;
  out.located = true;
  out.q.s = *a;
  out.q.g = *b;
  out.q.direct = r.direct(out.q);
  SearchStats st;
  out.cost = astar(r, out.q, parse_heuristic("euclidean"), ws, st);
  if (expansions) *expansions = st.expansions;
  return out;
}

// Length of the boundary segment two closed boxes share (0 when they meet at a point or not at all).
double shared_length(const QuadTree::Box& a, const QuadTree::Box& b) {
  const double ox = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  const double oy = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  if (ox == 0 && oy > 0) return oy;
  if (oy == 0 && ox > 0) return ox;
  return 0;
}

bool contains(const QuadTree::Box& b, Point p) {
  return b.min.x <= p.x && p.x <= b.max.x && b.min.y <= p.y && p.y <= b.max.y;
}

// Brute-force checks of the cell complex: neighbours equal the O(n^2) pairs sharing a side of
// positive length, portals are exactly those shared segments, cells never overlap.
void check_neighbours_brute_force(const QuadTree& qt) {
  const std::uint32_t n = std::uint32_t(qt.cell_count());
  for (std::uint32_t c = 0; c < n; ++c) {
    std::set<std::uint32_t> expected;
    const auto bc = qt.cell_box(c);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (d == c) continue;
      const auto bd = qt.cell_box(d);
      const double ox = std::min(bc.max.x, bd.max.x) - std::max(bc.min.x, bd.min.x);
      const double oy = std::min(bc.max.y, bd.max.y) - std::max(bc.min.y, bd.min.y);
      ASSERT_FALSE(ox > 0 && oy > 0) << "cells " << c << " and " << d << " overlap";
      if (shared_length(bc, bd) > 0) expected.insert(d);
    }
    const auto got_v = qt.neighbours(c);
    const std::set<std::uint32_t> got(got_v.begin(), got_v.end());
    EXPECT_EQ(got_v.size(), got.size()) << "a neighbour listed twice";
    EXPECT_EQ(got, expected) << "cell " << c;
  }
  for (Vertex v = 0; v < qt.stats().vertices; ++v) {
    const auto [a, b] = qt.portal_cells(v);
    const auto [p, q] = qt.portal_segment(v);
    const auto ba = qt.cell_box(a), bb = qt.cell_box(b);
    EXPECT_DOUBLE_EQ(distance(p, q), shared_length(ba, bb));
    EXPECT_TRUE(contains(ba, p) && contains(ba, q) && contains(bb, p) && contains(bb, q));
  }
}

// The funnel over the corridor is a valid path no longer than the raw one; the corridor's portals
// are crossed with their left end counter-clockwise of the walking direction.
void check_corridor(const QuadTree& qt, const Solved& s, const GridChecker* checker) {
  const Polyline raw = qt.polyline(s.q);
  const auto corridor = qt.corridor(s.q);
  ASSERT_TRUE(corridor.has_value());
  Point before = raw.front();
  for (const Portal& p : *corridor) {
    EXPECT_GT(distance(p.left, p.right), 0);
    const Point m{0.5 * (p.left.x + p.right.x), 0.5 * (p.left.y + p.right.y)};
    // `before` (the start or the previous crossed portal's midpoint, both in the cell before this
    // portal) lies counter-clockwise of right->left, or on the portal's line
    const double c = (p.left.x - p.right.x) * (before.y - p.right.y) - (p.left.y - p.right.y) * (before.x - p.right.x);
    EXPECT_GE(c, 0) << "portal (" << p.left.x << "," << p.left.y << ")-(" << p.right.x << "," << p.right.y << ")";
    before = m;
  }
  const Polyline f = funnel_path(s.q.start, s.q.goal, *corridor);
  EXPECT_LE(polyline_length(f), polyline_length(raw) + 1e-9);
  if (checker) { EXPECT_TRUE(checker->path_valid(f)); }
}

}  // namespace

// ------------------------------------------------------------------------------------------------

TEST(QuadTree, Parameters) {
  Map m = grid_from({"....", "....", "....", "...."});
  EXPECT_NO_THROW(build(m, "min=1,merge=0,aspect=3"));
  EXPECT_THROW(build(m, "min=0"), std::invalid_argument);
  EXPECT_THROW(build(m, "aspect=0.5"), std::invalid_argument);
  EXPECT_THROW(build(m, "merge=2"), std::invalid_argument);
  EXPECT_THROW(build(m, "size=3"), std::invalid_argument);
  EXPECT_THROW(build(m, "min=abc"), std::invalid_argument);
  Params p = Params::parse("merge=0");
  QuadTree q(m, p);
  EXPECT_EQ(p.canonical(), "aspect=2,merge=0,min=1");
  // a free power-of-two map is one cell: the root
  EXPECT_EQ(q.cell_count(), 1u);
  EXPECT_EQ(q.stats().vertices, 0u);
}

TEST(QuadTree, SubdivisionAndNeighboursAcrossSizes) {
  // (3,0) blocked: the NE quadrant splits into unit cells, the other three stay 2x2.
  Map m = grid_from({"...@", "....", "....", "...."});
  QuadTree qt = build(m, "merge=0");
  EXPECT_EQ(qt.cell_count(), 6u);  // 3 quadrants of size 2 + 3 free unit cells
  auto at = [&](double x, double y) { return *qt.cell_at({x, y}); };
  const auto A = at(1, 1), C = at(1, 3), D = at(3, 3), u20 = at(2.5, 0.5), u21 = at(2.5, 1.5), u31 = at(3.5, 1.5);
  EXPECT_FALSE(qt.cell_at({3.5, 0.5}).has_value());  // the blocked cell
  auto nb = [&](std::uint32_t c) {
    auto v = qt.neighbours(c);
    return std::set<std::uint32_t>(v.begin(), v.end());
  };
  EXPECT_EQ(nb(A), (std::set<std::uint32_t>{u20, u21, C}));
  EXPECT_EQ(nb(D), (std::set<std::uint32_t>{u21, u31, C}));
  EXPECT_EQ(nb(u20), (std::set<std::uint32_t>{A, u21}));
  EXPECT_EQ(nb(u31), (std::set<std::uint32_t>{u21, D}));
  EXPECT_EQ(nb(C), (std::set<std::uint32_t>{A, D}));
  EXPECT_EQ(qt.cell_box(A).max.x, 2.0);
  check_neighbours_brute_force(qt);
  // 8 portals: A-u20, A-u21, A-C, u20-u21, u21-u31, u21-D, u31-D, C-D
  EXPECT_EQ(qt.stats().vertices, 8u);
}

TEST(QuadTree, MergeIntoRectangles) {
  // 8x8 with one blocked cell in a corner: the quadtree has 2 big, several middle and unit cells;
  // merging collapses whole-side pairs.
  std::vector<std::string> rows(8, "........");
  rows[0][7] = '@';
  Map m = grid_from(rows);
  QuadTree plain = build(m, "merge=0");
  QuadTree merged = build(m);
  EXPECT_EQ(plain.quadtree_leaves(), plain.cell_count());
  EXPECT_EQ(merged.quadtree_leaves(), plain.cell_count());
  EXPECT_LT(merged.cell_count(), plain.cell_count());
  // the two lower 4x4 quadrants share a whole side: one 8x4 rectangle (aspect 2)
  const auto low = *merged.cell_at({1, 5});
  EXPECT_EQ(*merged.cell_at({7, 7}), low);
  const auto b = merged.cell_box(low);
  EXPECT_EQ(b.max.x - b.min.x, 8.0);
  EXPECT_EQ(b.max.y - b.min.y, 4.0);
  check_neighbours_brute_force(merged);
  // aspect=1 never merges two squares
  QuadTree square = build(m, "aspect=1");
  for (std::uint32_t c = 0; c < square.cell_count(); ++c) {
    const auto bb = square.cell_box(c);
    EXPECT_EQ(bb.max.x - bb.min.x, bb.max.y - bb.min.y);
  }
}

TEST(QuadTree, NeighboursAndAspectOnRandomMaps) {
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    Map m = testmaps::random_grid_with_blocks(13 + int(seed) * 3, 11 + int(seed) * 2, 0.08 + 0.02 * (seed % 5), seed);
    for (const char* params : {"merge=0", "merge=1", "aspect=1.5", "aspect=4", "min=2"}) {
      SCOPED_TRACE(std::string(params) + " seed " + std::to_string(seed));
      QuadTree qt = build(m, params);
      check_neighbours_brute_force(qt);
      double aspect = 2;
      if (std::string(params).rfind("aspect=", 0) == 0) aspect = std::stod(std::string(params).substr(7));
      double area = 0;
      for (std::uint32_t c = 0; c < qt.cell_count(); ++c) {
        const auto b = qt.cell_box(c);
        const double w = b.max.x - b.min.x, h = b.max.y - b.min.y;
        EXPECT_LE(std::max(w, h), aspect * std::min(w, h));
        area += w * h;
        // every cell is free: all unit cells inside are passable
        for (int y = int(b.min.y); y < int(b.max.y); ++y)
          for (int x = int(b.min.x); x < int(b.max.x); ++x) ASSERT_TRUE(m.grid.passable(x, y));
      }
      if (std::string(params) != "min=2") {
        // with min=1 the cells tile the free space exactly
        EXPECT_EQ(area, double(std::count(m.grid.cells.begin(), m.grid.cells.end(), 1)));
      }
    }
  }
}

TEST(QuadTree, EveryFreePointCoveredOnce) {
  std::mt19937 rng(7);
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    Map m = testmaps::random_grid_with_blocks(37, 29, 0.15, seed);
    QuadTree qt = build(m);
    const GridChecker chk(m.grid);
    std::uniform_real_distribution<double> ux(-1, 38), uy(-1, 30);
    for (int k = 0; k < 3000; ++k) {
      const Point p{ux(rng), uy(rng)};  // off the grid lines almost surely
      int holders = 0;
      for (std::uint32_t c = 0; c < qt.cell_count(); ++c) holders += contains(qt.cell_box(c), p);
      const bool free = m.grid.passable(int(std::floor(p.x)), int(std::floor(p.y)));
      EXPECT_EQ(holders, free ? 1 : 0) << p.x << "," << p.y;
      const auto c = qt.cell_at(p);
      EXPECT_EQ(c.has_value(), free);
      if (c) { EXPECT_TRUE(contains(qt.cell_box(*c), p)); }
      EXPECT_EQ(qt.attach(p).has_value(), free);
    }
    // points on cell boundaries and corners: every free one is held by at least one cell, and
    // cell_at returns a cell that holds it
    for (int y2 = -1; y2 <= 2 * 29 + 1; ++y2)
      for (int x2 = -1; x2 <= 2 * 37 + 1; ++x2) {
        const Point p{x2 / 2.0, y2 / 2.0};
        const bool free = chk.point_free(p);
        const auto c = qt.cell_at(p);
        EXPECT_EQ(c.has_value(), free) << p.x << "," << p.y;
        if (c) { EXPECT_TRUE(contains(qt.cell_box(*c), p)); }
      }
  }
}

TEST(QuadTree, PinchPointsDoNotConnect) {
  // Free cells (0,0) and (1,1) meet only at the corner (1,1): not neighbours, no path.
  Map m = grid_from({".@", "@."});
  QuadTree qt = build(m);
  ASSERT_EQ(qt.cell_count(), 2u);
  EXPECT_TRUE(qt.neighbours(0).empty());
  EXPECT_NE(qt.component(0), qt.component(1));
  SearchWorkspace ws;
  Solved s = solve(qt, {0.5, 0.5}, {1.5, 1.5}, ws);
  ASSERT_TRUE(s.located);
  EXPECT_NE(s.q.s.component, s.q.g.component);
  EXPECT_TRUE(std::isinf(s.cost));
  // the pinch point itself is free and joins the cell that owns it in FreeSpace: cell (1, 1)
  const FreeSpace fs(m);
  const auto a = qt.attach({1, 1});
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->cell, std::int64_t(*qt.cell_at({1.5, 1.5})));
  EXPECT_TRUE(fs.segment_valid({1, 1}, {1.5, 1.5}));
  // the other diagonal: cell (1, 1) blocked, the owner is cell (1, 0)
  Map m2 = grid_from({"@.", ".@"});
  QuadTree qt2 = build(m2);
  const FreeSpace fs2(m2);
  const auto a2 = qt2.attach({1, 1});
  ASSERT_TRUE(a2.has_value());
  EXPECT_EQ(a2->cell, std::int64_t(*qt2.cell_at({1.5, 0.5})));
  EXPECT_TRUE(fs2.segment_valid({1, 1}, {1.5, 0.5}));
  EXPECT_FALSE(fs2.segment_valid({1, 1}, {0.5, 1.5}));
  // queries from the pinch point: only its own side is reachable
  SearchWorkspace ws2;
  EXPECT_TRUE(std::isfinite(solve(qt2, {1, 1}, {1.75, 0.25}, ws2).cost));
  EXPECT_TRUE(std::isinf(solve(qt2, {1, 1}, {0.25, 1.75}, ws2).cost));
}

TEST(QuadTree, PathsThroughPortalMidpoints) {
  Map m = grid_from({
      "..........",
      "..@@@@@@..",
      "..@.......",
      "..@.@@@@@@",
      "..@.......",
      "......@...",
  });
  QuadTree qt = build(m);
  const GridChecker chk(m.grid);
  SearchWorkspace ws;
  // same cell: direct
  Solved d = solve(qt, {0.25, 0.5}, {1.5, 1.75}, ws);
  ASSERT_TRUE(d.located);
  EXPECT_TRUE(d.q.direct);
  EXPECT_TRUE(d.q.path.empty());
  EXPECT_DOUBLE_EQ(d.cost, distance({0.25, 0.5}, {1.5, 1.75}));
  // into the dead-end corridor (3..9, 2)
  Solved s = solve(qt, {0.5, 5.5}, {9.5, 2.5}, ws);
  ASSERT_TRUE(std::isfinite(s.cost));
  const Polyline raw = qt.polyline(s.q);
  EXPECT_EQ(raw.front(), s.q.start);
  EXPECT_EQ(raw.back(), s.q.goal);
  EXPECT_NEAR(polyline_length(raw), s.cost, 1e-9);  // edge cost = distance between path points
  EXPECT_TRUE(chk.path_valid(raw));
  EXPECT_TRUE(FreeSpace(m).path_valid(raw));
  for (std::size_t i = 1; i + 1 < raw.size(); ++i) {  // inner points are portal midpoints
    const auto [p, q] = qt.portal_segment(s.q.path[i - 1]);
    EXPECT_EQ(raw[i], (Point{0.5 * (p.x + q.x), 0.5 * (p.y + q.y)}));
  }
  check_corridor(qt, s, &chk);
  // blocked and outside points do not attach
  EXPECT_FALSE(qt.attach({3.5, 1.5}).has_value());
  EXPECT_FALSE(qt.attach({-0.5, 1.5}).has_value());
  EXPECT_FALSE(qt.attach({10.5, 1.5}).has_value());
  EXPECT_FALSE(qt.attach({5, std::nan("")}).has_value());
}

TEST(QuadTree, RandomQueriesMatchGridConnectivity) {
  std::mt19937 rng(11);
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    Map m = testmaps::random_grid_with_blocks(40, 33, 0.2, seed);
    const GridChecker chk(m.grid);
    const FreeSpace fs(m);
    for (const char* params : {"", "merge=0", "aspect=4"}) {
      QuadTree qt = build(m, params);
      Params gp;
      Grid8 g8(m, gp);
      SearchWorkspace wq, wg;
      std::vector<Point> free_points;
      for (int y = 0; y < 33; ++y)
        for (int x = 0; x < 40; ++x)
          if (m.grid.passable(x, y)) free_points.push_back({x + 0.5, y + 0.5});
      std::uniform_int_distribution<std::size_t> pick(0, free_points.size() - 1);
      for (int k = 0; k < 40; ++k) {
        const Point a = free_points[pick(rng)], b = free_points[pick(rng)];
        Solved sq = solve(qt, a, b, wq), sg = solve(g8, a, b, wg);
        ASSERT_TRUE(sq.located);
        // 4-/8-connected grids without corner cutting and side-sharing cells connect the same cells
        EXPECT_EQ(std::isfinite(sq.cost), std::isfinite(sg.cost));
        EXPECT_EQ(sq.q.s.component == sq.q.g.component, std::isfinite(sq.cost));
        EXPECT_EQ(fs.component(a) == fs.component(b), std::isfinite(sq.cost));
        if (!std::isfinite(sq.cost)) continue;
        const Polyline raw = qt.polyline(sq.q);
        EXPECT_NEAR(polyline_length(raw), sq.cost, 1e-9);
        EXPECT_TRUE(chk.path_valid(raw));
        EXPECT_TRUE(fs.path_valid(raw));
        check_corridor(qt, sq, &chk);
      }
    }
  }
}

// ---- polygon maps --------------------------------------------------------------------------------

namespace {
namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPolygon = bg::model::polygon<BPoint>;
using BLine = bg::model::linestring<BPoint>;

BPolygon bpoly(const PolygonShape& s) {
  BPolygon p;
  for (const Point& q : s.rings[0]) p.outer().push_back(BPoint(q.x, q.y));
  p.outer().push_back(p.outer().front());
  for (std::size_t i = 1; i < s.rings.size(); ++i) {
    p.inners().emplace_back();
    for (const Point& q : s.rings[i]) p.inners().back().push_back(BPoint(q.x, q.y));
    p.inners().back().push_back(p.inners().back().front());
  }
  bg::correct(p);
  return p;
}

// A 16 x 12 room with a hole (a pillar) and two obstacles, one of them slanted.
Map polygon_map() {
  Map m;
  m.kind = MapKind::polygon;
  m.name = "poly";
  m.polygons.walkable.rings = {{{0, 0}, {16, 0}, {16, 12}, {0, 12}}, {{12, 8}, {14, 8}, {14, 10}, {12, 10}}};
  m.polygons.obstacles.push_back({{{{4, 0}, {6, 0}, {6, 8}, {4, 8}}}});
  m.polygons.obstacles.push_back({{{{8, 4}, {11, 2}, {12, 6}}}});
  m.min = {0, 0};
  m.max = {16, 12};
  return m;
}

struct PolygonChecker {
  BPolygon walkable;
  std::vector<BPolygon> obstacles;
  explicit PolygonChecker(const Map& m) : walkable(bpoly(m.polygons.walkable)) {
    for (const auto& o : m.polygons.obstacles) obstacles.push_back(bpoly(o));
  }
  bool point_free(Point p) const {
    const BPoint b(p.x, p.y);
    if (!bg::covered_by(b, walkable)) return false;
    for (const auto& o : obstacles)
      if (bg::within(b, o)) return false;
    return true;
  }
  template <class G>
  bool region_free(const G& g) const {  // g meets no obstacle interior and stays in the walkable area
    if (!bg::covered_by(g, walkable)) return false;
    for (const auto& o : obstacles)
      if (bg::relate(g, o, bg::de9im::mask("T********"))) return false;
    return true;
  }
  bool path_valid(const Polyline& p) const {
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
      BLine l{BPoint(p[i].x, p[i].y), BPoint(p[i + 1].x, p[i + 1].y)};
      if (!region_free(l)) return false;
    }
    return !p.empty() && point_free(p.front()) && point_free(p.back());
  }
};
}  // namespace

TEST(QuadTree, PolygonMap) {
  Map m = polygon_map();
  const PolygonChecker chk(m);
  const FreeSpace fs(m);
  for (const char* params : {"min=0.25", "min=0.5,merge=0", "min=0.125,aspect=3"}) {
    SCOPED_TRACE(params);
    QuadTree qt = build(m, params);
    const double min_size = std::stod(std::string(params).substr(4));
    ASSERT_GT(qt.cell_count(), 10u);
    check_neighbours_brute_force(qt);
    for (std::uint32_t c = 0; c < qt.cell_count(); ++c) {
      const auto b = qt.cell_box(c);
      bg::model::box<BPoint> box(BPoint(b.min.x, b.min.y), BPoint(b.max.x, b.max.y));
      BPolygon sq;
      bg::convert(box, sq);
      EXPECT_TRUE(chk.region_free(sq)) << "cell " << c;
      EXPECT_GE(std::min(b.max.x - b.min.x, b.max.y - b.min.y), min_size);
    }
    // random points: blocked ones are never covered; a free point whose smallest-size cell
    // (a square of side `unit` <= min around it in the tree's lattice) is free is covered once
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> ux(-0.5, 16.5), uy(-0.5, 12.5);
    int covered = 0;
    for (int k = 0; k < 4000; ++k) {
      const Point p{ux(rng), uy(rng)};
      int holders = 0;
      for (std::uint32_t c = 0; c < qt.cell_count(); ++c) holders += contains(qt.cell_box(c), p);
      EXPECT_LE(holders, 1);
      const auto c = qt.cell_at(p);
      EXPECT_EQ(c.has_value(), holders == 1);
      if (!chk.point_free(p)) { EXPECT_FALSE(c.has_value()) << p.x << "," << p.y; }
      covered += holders;
      // the lattice square of side min_size (a power of two here) holding p
      const double s = min_size;
      const double x0 = std::floor(p.x / s) * s, y0 = std::floor(p.y / s) * s;
      bg::model::box<BPoint> lattice(BPoint(x0, y0), BPoint(x0 + s, y0 + s));
      BPolygon sq;
      bg::convert(lattice, sq);
      if (p.x >= 0 && p.y >= 0 && p.x < 16 && p.y < 12 && chk.region_free(sq)) { EXPECT_TRUE(c.has_value()) << p.x << "," << p.y; }
    }
    EXPECT_GT(covered, 2500);  // about 80% of the room is free
    // queries: across the room, around the wall and the slanted obstacle
    SearchWorkspace ws;
    const std::vector<std::pair<Point, Point>> queries = {
        {{1, 1}, {15, 1}}, {{1, 11}, {15, 11}}, {{2, 4}, {10, 1}}, {{7, 3}, {13, 5}}, {{1, 1}, {15, 7}}};
    for (const auto& [a, b] : queries) {
      Solved s = solve(qt, a, b, ws);
      ASSERT_TRUE(s.located);
      ASSERT_TRUE(std::isfinite(s.cost));
      const Polyline raw = qt.polyline(s.q);
      EXPECT_NEAR(polyline_length(raw), s.cost, 1e-9);
      EXPECT_TRUE(chk.path_valid(raw));
      EXPECT_TRUE(fs.path_valid(raw));
      check_corridor(qt, s, nullptr);
      EXPECT_TRUE(chk.path_valid(funnel_path(a, b, *qt.corridor(s.q))));
    }
    // inside the pillar hole, inside an obstacle, outside: no cell
    EXPECT_FALSE(qt.attach({13, 9}).has_value());
    EXPECT_FALSE(qt.attach({5, 4}).has_value());
    EXPECT_FALSE(qt.attach({17, 4}).has_value());
  }
  // a minimum size that would need more than 2^20 cells a side is refused with a message
  EXPECT_THROW(build(m, "min=0.000001"), std::invalid_argument);
}

// The leaves as sorted (x0, y0, x1, y1) tuples, for comparing two builds.
std::vector<std::array<double, 4>> sorted_leaves(const QuadTree& qt) {
  std::vector<std::array<double, 4>> out;
  for (const auto& b : qt.leaf_boxes()) out.push_back({b.min.x, b.min.y, b.max.x, b.max.y});
  std::sort(out.begin(), out.end());
  return out;
}

// A grid map's free space as polygons (grid_to_polygon_map, what `generate wkt` writes) and as a
// Polyanya mesh of its cells: the same free space on the same lattice (the walkable area's box is
// the map's rectangle, so the root is the grid's), hence the grid build's leaves and cells.
TEST(QuadTree, PolygonLeavesEqualGridLeaves) {
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    Map g = testmaps::random_grid_with_blocks(21 + 7 * int(seed), 13 + 5 * int(seed), 0.1 + 0.05 * (seed % 4), seed);
    // Odd seeds: a free border, the mesh's box is the map's rectangle. Even seeds: a blocked border
    // two cells wide and a blocked column and row through the middle, so the mesh's free space
    // starts at (2, 2), not at a multiple of the root's side, and falls into four components
    // (the reader's frame around them, datasets/polyanya_region.cpp): the leaves must still be the
    // grid's (the root on the lattice of its side, quadtree_polygon.cpp).
    const int W = g.grid.width, H = g.grid.height;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        const bool border = x <= 1 || y <= 1 || x >= W - 2 || y >= H - 2;
        if (seed % 2 == 1 && (x == 0 || y == 0 || x == W - 1 || y == H - 1)) g.grid.cells[std::size_t(y * W + x)] = 1;
        if (seed % 2 == 0 && (border || x == W / 2 || y == H / 2)) g.grid.cells[std::size_t(y * W + x)] = 0;
      }
    std::stringstream wkt;  // written and read back as `generate wkt` and `run --map X.wkt` do
    write_wkt_map(wkt, grid_to_polygon_map(g).polygons);
    Map from_wkt;
    from_wkt.kind = MapKind::polygon;
    from_wkt.polygons = read_wkt_map(wkt, "grid.wkt");
    const auto mesh = testmaps::cells_mesh_map(g);
    ASSERT_TRUE(mesh.has_value());
    for (const Map* pm : {static_cast<const Map*>(&from_wkt), &*mesh}) {
      for (const char* params : {"", "min=2", "merge=0"}) {
        SCOPED_TRACE(params);
        const QuadTree a = build(g, params), b = build(*pm, params);
        EXPECT_EQ(sorted_leaves(a), sorted_leaves(b));
        EXPECT_EQ(a.quadtree_leaves(), b.quadtree_leaves());
        EXPECT_EQ(a.cell_count(), b.cell_count());
      }
    }
  }
}

// The subdivision's definition (quadtree_polygon.cpp) evaluated with Boost.Geometry on the input
// shapes (not on their union, whose rounded crossing points move its edges): a node is a free leaf
// when its closed square stays in the walkable area and meets no obstacle's interior, else it is
// split down to the smallest size (a node with no free point then yields no leaf, as the build's
// dropped node).
void reference_leaves(const PolygonChecker& chk, double x, double y, double s, double smallest,
                      std::vector<std::array<double, 4>>& out) {
  BPolygon sq;
  bg::convert(bg::model::box<BPoint>(BPoint(x, y), BPoint(x + s, y + s)), sq);
  if (chk.region_free(sq)) {
    out.push_back({x, y, x + s, y + s});
    return;
  }
  if (s <= smallest) return;
  for (int q = 0; q < 4; ++q) reference_leaves(chk, x + (q & 1) * s / 2, y + (q >> 1) * s / 2, s / 2, smallest, out);
}

// Slanted, overlapping and touching obstacles (seeded polygon maps) and the hand-drawn room: the
// leaves equal the definition's.
TEST(QuadTree, PolygonLeavesEqualTheDefinition) {
  std::vector<Map> maps = {polygon_map()};
  for (std::uint64_t seed = 1; seed <= 4; ++seed)
    maps.push_back(make_polygon_map({.obstacles = 4, .vertices = 9, .touching = 50, .seed = seed}));
  // The room moved off the origin: to (4, 2), where the root is the 32-square at (0, 0) (no 16-square
  // on its lattice holds the room), and to (-3.375, 5.25), where no such square does (the root at
  // the room's low corner).
  for (const Point d : {Point{4, 2}, Point{-3.375, 5.25}}) {
    Map m = polygon_map();
    m.name += " moved";
    auto move = [d](Point& p) { p = {p.x + d.x, p.y + d.y}; };
    for (auto& ring : m.polygons.walkable.rings) std::for_each(ring.begin(), ring.end(), move);
    for (PolygonShape& sh : m.polygons.obstacles)
      for (auto& ring : sh.rings) std::for_each(ring.begin(), ring.end(), move);
    move(m.min), move(m.max);
    maps.push_back(std::move(m));
  }
  for (const Map& m : maps) {
    SCOPED_TRACE(m.name);
    const PolygonChecker chk(m);
    Point lo = m.polygons.walkable.rings[0][0], hi = lo;
    for (const Point& p : m.polygons.walkable.rings[0])
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
    // The root (quadtree_polygon.cpp): the power-of-two side over the box, at a multiple of that
    // side or of twice it when such a square covers the box, else at the box's low corner.
    double side = std::exp2(std::ceil(std::log2(std::max(hi.x - lo.x, hi.y - lo.y))));
    const double smallest_side = side;
    Point origin = lo;
    for (const double s : {side, 2 * side}) {
      const Point o{std::floor(lo.x / s) * s, std::floor(lo.y / s) * s};
      if (o.x + s >= hi.x && o.y + s >= hi.y) {
        origin = o, side = s;
        break;
      }
    }
    for (const double min_size : {smallest_side / 64, smallest_side / 16}) {
      SCOPED_TRACE(min_size);
      std::vector<std::array<double, 4>> want;
      reference_leaves(chk, origin.x, origin.y, side, min_size, want);
      std::sort(want.begin(), want.end());
      const QuadTree qt = build(m, "min=" + std::to_string(min_size));
      EXPECT_EQ(sorted_leaves(qt), want);
      EXPECT_GT(want.size(), 4u);
    }
  }
}

// ---- the Moving AI maps --------------------------------------------------------------------------

TEST(QuadTreeData, MovingAiMapsValidAndComplete) {
  const std::filesystem::path root = testdata::path("movingai");
  NAVBENCH_REQUIRE_DATA(root.string());
  std::vector<std::filesystem::path> maps;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().extension() == ".map" && std::filesystem::exists(e.path().string() + ".scen")) maps.push_back(e.path());
  std::sort(maps.begin(), maps.end());
  ASSERT_FALSE(maps.empty());
  constexpr std::size_t kQueries = 30;
  for (const auto& path : maps) {
    SCOPED_TRACE(path.filename().string());
    Map m = load_movingai_map(path.string());
    Scenario sc = load_scenario(path.string() + ".scen");
    QuadTree qt = build(m);
    Params gp;
    Grid8 g8(m, gp);
    const GridChecker chk(m.grid);
    const FreeSpace fs(m);
    SearchWorkspace wq, wg;
    std::size_t solved = 0;
    for (std::size_t i = 0; i < kQueries && i < sc.lines.size(); ++i) {
      const ScenarioLine& l = sc.lines[i * sc.lines.size() / kQueries];
      const Point a{l.sx + 0.5, l.sy + 0.5}, b{l.gx + 0.5, l.gy + 0.5};
      if (!m.grid.passable(int(l.sx), int(l.sy)) || !m.grid.passable(int(l.gx), int(l.gy))) continue;
      Solved sq = solve(qt, a, b, wq);
      ASSERT_TRUE(sq.located) << "query " << i;
      if (!std::isfinite(sq.cost)) {
        // every query grid8 solves is solved: grid8 is asked only when the quadtree finds nothing
        EXPECT_FALSE(std::isfinite(solve(g8, a, b, wg).cost)) << "grid8 solves query " << i << ", quadtree does not";
        continue;
      }
      const Polyline raw = qt.polyline(sq.q);
      EXPECT_NEAR(polyline_length(raw), sq.cost, 1e-6);
      EXPECT_TRUE(chk.path_valid(raw)) << "query " << i;
      EXPECT_TRUE(fs.path_valid(raw)) << "query " << i;
      const auto corridor = qt.corridor(sq.q);
      ASSERT_TRUE(corridor.has_value());
      EXPECT_TRUE(chk.path_valid(funnel_path(a, b, *corridor))) << "query " << i;
      ++solved;
    }
    EXPECT_GT(solved, 0u);
  }
}

}  // namespace test_quadtree
