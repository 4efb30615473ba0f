// The smoothing stage: funnel against hand-worked and brute-force shortest paths, los against its
// contract (never longer, never invalid, same ends, fixpoint), degenerate corridors, the API.
//
// Validity in these tests comes from an independent exact oracle written here (segment vs the
// open union of blocked unit cells, plus the pinch-point rule of docs/maps.md), so the tests do not
// depend on FreeSpace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <queue>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "smoothing/los.hpp"
#include "smoothing/smoothing.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_smoothing {

using namespace navbench;

namespace {

double orient(Point a, Point b, Point c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

// ---------------------------------------------------------------------------------------------
// Exact oracle: a grid map as closed unit cells; obstacles = blocked cells and the outside.
struct TestGrid {
  int w = 0, h = 0;
  std::vector<std::uint8_t> cells;  // 1 = free

  bool blocked(int x, int y) const { return x < 0 || y < 0 || x >= w || y >= h || !cells[std::size_t(y) * w + x]; }
  bool pinch(int X, int Y) const {
    const bool a = blocked(X - 1, Y - 1), b = blocked(X, Y - 1), c = blocked(X - 1, Y), d = blocked(X, Y);
    return (a && d && !b && !c) || (b && c && !a && !d);
  }
  bool point_free(Point p) const {
    if (p.x < 0 || p.y < 0 || p.x > w || p.y > h) return false;
    // free iff one of the cells whose closed square holds p is free
    for (int x = int(std::floor(p.x)) - 1; x <= int(std::floor(p.x)); ++x)
      for (int y = int(std::floor(p.y)) - 1; y <= int(std::floor(p.y)); ++y)
        if (p.x >= x && p.x <= x + 1 && p.y >= y && p.y <= y + 1 && !blocked(x, y)) return true;
    return false;
  }
  // Segment a-b: no point in the interior of the obstacle union, no pinch point on it.
  bool segment_valid(Point a, Point b) const {
    if (!point_free(a) || !point_free(b)) return false;
    if (a == b) return true;
    const double minx = std::min(a.x, b.x), maxx = std::max(a.x, b.x);
    const double miny = std::min(a.y, b.y), maxy = std::max(a.y, b.y);
    const int x0 = std::max(0, int(std::floor(minx)) - 1), x1 = std::min(w - 1, int(std::floor(maxx)));
    const int y0 = std::max(0, int(std::floor(miny)) - 1), y1 = std::min(h - 1, int(std::floor(maxy)));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        if (!blocked(x, y)) continue;
        // separating axes of a segment and an open box: x, y and the segment's normal
        if (maxx <= x || minx >= x + 1 || maxy <= y || miny >= y + 1) continue;
        const double o[4] = {orient(a, b, {double(x), double(y)}), orient(a, b, {double(x + 1), double(y)}),
                             orient(a, b, {double(x), double(y + 1)}), orient(a, b, {double(x + 1), double(y + 1)})};
        bool all_ge = true, all_le = true;
        for (double v : o) {
          all_ge &= v >= 0;
          all_le &= v <= 0;
        }
        if (!all_ge && !all_le) return false;
      }
    // running along an edge shared by two obstacles (inside the obstacle union)
    if (a.y == b.y && a.y == std::floor(a.y)) {
      const int Y = int(a.y);
      for (int X = int(std::floor(minx)); X < int(std::ceil(maxx)); ++X)
        if (std::max(minx, double(X)) < std::min(maxx, double(X + 1)) && blocked(X, Y - 1) && blocked(X, Y)) return false;
    }
    if (a.x == b.x && a.x == std::floor(a.x)) {
      const int X = int(a.x);
      for (int Y = int(std::floor(miny)); Y < int(std::ceil(maxy)); ++Y)
        if (std::max(miny, double(Y)) < std::min(maxy, double(Y + 1)) && blocked(X - 1, Y) && blocked(X, Y)) return false;
    }
    // pinch points on the closed segment (conservative: touching one counts)
    for (int Y = int(std::ceil(miny)); Y <= int(std::floor(maxy)); ++Y)
      for (int X = int(std::ceil(minx)); X <= int(std::floor(maxx)); ++X)
        if (orient(a, b, {double(X), double(Y)}) == 0 && pinch(X, Y)) return false;
    return true;
  }
  bool path_valid(const Polyline& p) const {
    if (p.empty()) return false;
    for (std::size_t i = 1; i < p.size(); ++i)
      if (!segment_valid(p[i - 1], p[i])) return false;
    return point_free(p.front());
  }
};

TestGrid random_grid(std::mt19937& rng, int w, int h, int blocked_percent) {
  TestGrid g;
  g.w = w;
  g.h = h;
  g.cells.resize(std::size_t(w) * h);
  for (auto& c : g.cells) c = int(rng() % 100) >= blocked_percent ? 1 : 0;
  return g;
}

TestGrid grid_from(const std::vector<std::string>& rows) {
  TestGrid g;
  g.h = int(rows.size());
  g.w = int(rows[0].size());
  for (const auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return g;
}

using Cell = std::pair<int, int>;

// Shortest cell path: 4-connected (BFS) or 8-connected without corner cutting (Dijkstra).
std::vector<Cell> cell_path(const TestGrid& g, Cell s, Cell t, bool diagonal) {
  const int n = g.w * g.h;
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<int> parent(n, -1);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  const int si = s.second * g.w + s.first, ti = t.second * g.w + t.first;
  dist[si] = 0;
  open.push({0, si});
  while (!open.empty()) {
    auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;
    if (u == ti) break;
    const int ux = u % g.w, uy = u / g.w;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || (!diagonal && dx != 0 && dy != 0)) continue;
        const int vx = ux + dx, vy = uy + dy;
        if (g.blocked(vx, vy)) continue;
        if (dx != 0 && dy != 0 && (g.blocked(ux + dx, uy) || g.blocked(ux, uy + dy))) continue;
        const int v = vy * g.w + vx;
        const double nd = d + ((dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0);
        if (nd < dist[v]) {
          dist[v] = nd;
          parent[v] = u;
          open.push({nd, v});
        }
      }
  }
  std::vector<Cell> out;
  if (!std::isfinite(dist[ti])) return out;
  for (int v = ti; v != -1; v = parent[v]) out.push_back({v % g.w, v / g.w});
  std::reverse(out.begin(), out.end());
  return out;
}

Polyline centres(const std::vector<Cell>& cells) {
  Polyline p;
  for (auto [x, y] : cells) p.push_back({x + 0.5, y + 0.5});
  return p;
}

// Portals of a 4-connected cell path (each unit square a convex cell), labelled as seen by the
// walker on the map as drawn (y grows downward): walking east, left is the smaller y.
Corridor sleeve(const std::vector<Cell>& cells) {
  Corridor c;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const double x = cells[i - 1].first, y = cells[i - 1].second;
    const int dx = cells[i].first - cells[i - 1].first, dy = cells[i].second - cells[i - 1].second;
    if (dx == 1) c.push_back({{x + 1, y}, {x + 1, y + 1}});
    else if (dx == -1) c.push_back({{x, y + 1}, {x, y}});
    else if (dy == 1) c.push_back({{x + 1, y + 1}, {x, y + 1}});
    else if (dy == -1) c.push_back({{x, y}, {x + 1, y}});
    else ADD_FAILURE() << "cells not 4-adjacent";
  }
  return c;
}

Corridor swapped(Corridor c) {
  for (auto& p : c) std::swap(p.left, p.right);
  return c;
}

// Exact shortest path length by Dijkstra over the visibility graph of the given vertices.
double visgraph_shortest(const TestGrid& g, Point s, Point t, const std::vector<Point>& corners) {
  std::vector<Point> v{s, t};
  v.insert(v.end(), corners.begin(), corners.end());
  const std::size_t n = v.size();
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<bool> done(n, false);
  dist[0] = 0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i] && std::isfinite(dist[i]) && (u == n || dist[i] < dist[u])) u = i;
    if (u == n || u == 1) break;
    done[u] = true;
    for (std::size_t w = 0; w < n; ++w)
      if (!done[w] && dist[u] + distance(v[u], v[w]) < dist[w] && g.segment_valid(v[u], v[w]))
        dist[w] = dist[u] + distance(v[u], v[w]);
  }
  return dist[1];
}

std::vector<Point> free_cell_corners(const TestGrid& g) {
  std::set<std::pair<int, int>> s;
  for (int y = 0; y < g.h; ++y)
    for (int x = 0; x < g.w; ++x)
      if (!g.blocked(x, y))
        for (int k = 0; k < 4; ++k) s.insert({x + (k & 1), y + (k >> 1)});
  std::vector<Point> out;
  for (auto [x, y] : s) out.push_back({double(x), double(y)});
  return out;
}

bool is_subsequence(const Polyline& sub, const Polyline& full) {
  std::size_t j = 0;
  for (const Point& p : sub) {
    while (j < full.size() && !(full[j] == p)) ++j;
    if (j == full.size()) return false;
    ++j;
  }
  return true;
}

void expect_path(const Polyline& got, const Polyline& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size()) << "path has " << got.size() << " points";
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].x, want[i].x, tol) << "point " << i;
    EXPECT_NEAR(got[i].y, want[i].y, tol) << "point " << i;
  }
}

auto always_visible = [](Point, Point) { return true; };

// ---------------------------------------------------------------------------------------------
// Funnel on hand-made corridors (shortest paths worked out by hand).

TEST(Funnel, StraightCorridorGivesStraightLine) {
  std::vector<Cell> cells;
  for (int x = 0; x < 10; ++x) cells.push_back({x, 0});
  const Corridor c = sleeve(cells);
  expect_path(funnel_path({0.5, 0.5}, {9.5, 0.5}, c), {{0.5, 0.5}, {9.5, 0.5}});
  // a slanted segment that still fits between the walls
  expect_path(funnel_path({0.25, 0.0}, {9.75, 1.0}, c), {{0.25, 0.0}, {9.75, 1.0}});
}

TEST(Funnel, LShapeBendsAtInnerCorner) {
  // cells (0,0) (1,0) (2,0) then down (2,1) (2,2): the inner corner is (2,1)
  const Corridor c = sleeve({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}});
  const Polyline p = funnel_path({0.5, 0.5}, {2.5, 2.5}, c);
  expect_path(p, {{0.5, 0.5}, {2, 1}, {2.5, 2.5}});
  EXPECT_NEAR(polyline_length(p), 2 * std::sqrt(2.5), 1e-12);
  // the same corridor walked backwards
  expect_path(funnel_path({2.5, 2.5}, {0.5, 0.5}, sleeve({{2, 2}, {2, 1}, {2, 0}, {1, 0}, {0, 0}})),
              {{2.5, 2.5}, {2, 1}, {0.5, 0.5}});
}

TEST(Funnel, ZigZagBendsAtAlternatingPortalEnds) {
  // Vertical portals x = 1..4 whose openings alternate between y in [0,1] and y in [2,3]; the
  // quadrilaterals between them are convex cells. The path must wrap the bottom end of the upper
  // openings and the top end of the lower ones.
  const Corridor c = {{{1, 0}, {1, 1}}, {{2, 2}, {2, 3}}, {{3, 0}, {3, 1}}, {{4, 2}, {4, 3}}};
  const Polyline p = funnel_path({0, 0.5}, {5, 2.5}, c);
  expect_path(p, {{0, 0.5}, {1, 1}, {2, 2}, {3, 1}, {4, 2}, {5, 2.5}});
  EXPECT_NEAR(polyline_length(p), 2 * std::sqrt(1.25) + 3 * std::sqrt(2.0), 1e-12);
}

TEST(Funnel, StaircaseWithRoomIsStraight) {
  // (0,0) (1,0) (1,1) (2,1) (2,2) (3,2): the segment of slope 2/3 crosses every portal
  const Corridor c = sleeve({{0, 0}, {1, 0}, {1, 1}, {2, 1}, {2, 2}, {3, 2}});
  expect_path(funnel_path({0.5, 0.5}, {3.5, 2.5}, c), {{0.5, 0.5}, {3.5, 2.5}});
}

TEST(Funnel, EitherHandednessGivesTheSamePath) {
  const Corridor c = sleeve({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {3, 2}, {4, 2}, {4, 3}});
  expect_path(funnel_path({0.5, 0.5}, {4.5, 3.5}, swapped(c)), funnel_path({0.5, 0.5}, {4.5, 3.5}, c));
  // mixed labels too: every other portal swapped
  Corridor mixed = c;
  for (std::size_t i = 0; i < mixed.size(); i += 2) std::swap(mixed[i].left, mixed[i].right);
  expect_path(funnel_path({0.5, 0.5}, {4.5, 3.5}, mixed), funnel_path({0.5, 0.5}, {4.5, 3.5}, c));
}

// ---------------------------------------------------------------------------------------------
// Degenerate corridors.

TEST(FunnelDegenerate, ZeroPortalsIsTheSegment) {
  expect_path(funnel_path({1, 2}, {3, 5}, {}), {{1, 2}, {3, 5}});
  // start == goal: both ends kept
  expect_path(funnel_path({1, 2}, {1, 2}, {}), {{1, 2}, {1, 2}});
}

TEST(FunnelDegenerate, SharedPortalEndsAroundAFan) {
  // Triangles fanned around V = (0,0) over 270 degrees; the corridor runs from the first to the
  // last, all portals share V. The straight segment would cross the missing quarter, so the
  // shortest path wraps V.
  const Point V{0, 0};
  const std::vector<Point> rim = {{2, 0}, {2, 2}, {0, 2}, {-2, 2}, {-2, 0}, {-2, -2}, {0, -2}};
  Corridor c;
  for (std::size_t k = 1; k + 1 < rim.size(); ++k) c.push_back({V, rim[k]});
  const Point s{1.5, 0.5}, g{-0.5, -1.5};
  expect_path(funnel_path(s, g, c), {s, V, g});
  expect_path(funnel_path(s, g, swapped(c)), {s, V, g});
  expect_path(funnel_path(g, s, Corridor(c.rbegin(), c.rend())), {g, V, s});
  // over less than 180 degrees the fan lets the straight segment through
  Corridor half(c.begin(), c.begin() + 2);  // triangles 0..2 (0 to 135 degrees)
  expect_path(funnel_path(s, {-1.5, 1.0}, half), {s, {-1.5, 1.0}});
}

TEST(FunnelDegenerate, CollinearPortalsOfAUTurn) {
  // A big cell B = [0,2]x[0,2] with two small neighbours below it, A = [0,1]x[2,3] and
  // C = [1,2]x[2,3]; the corridor A -> B -> C crosses two collinear portals on y = 2 that share
  // the end (1,2). The path must go through (1,2).
  const Corridor c = {{{0, 2}, {1, 2}}, {{1, 2}, {2, 2}}};
  const Point s{0.5, 2.5}, g{1.5, 2.5};
  expect_path(funnel_path(s, g, c), {s, {1, 2}, g});
  expect_path(funnel_path(s, g, swapped(c)), {s, {1, 2}, g});
  // start and goal on those portals: everything collinear
  expect_path(funnel_path({0.5, 2}, {1.5, 2}, c), {{0.5, 2}, {1.5, 2}});
  // start on the first portal, goal below
  expect_path(funnel_path({0.5, 2}, g, c), {{0.5, 2}, {1, 2}, g});
}

TEST(FunnelDegenerate, CollinearPortalsInLine) {
  // portals x = 1..5 with the same opening; start and goal on the line through their midpoints
  Corridor c;
  for (int x = 1; x <= 5; ++x) c.push_back({{double(x), 0}, {double(x), 1}});
  expect_path(funnel_path({0, 0.5}, {6, 0.5}, c), {{0, 0.5}, {6, 0.5}});
  // start and goal on the walls' lines: the path runs along the portal ends
  expect_path(funnel_path({0, 0}, {6, 0}, c), {{0, 0}, {6, 0}});
  expect_path(funnel_path({0, 1}, {6, 0}, c), {{0, 1}, {6, 0}});
}

TEST(FunnelDegenerate, ZeroLengthPortalPinsThePath) {
  // square [0,1]^2, triangle (1,0) (1,1) (2,1), triangle (2,1) (3,1) (3,2), square [3,4]x[1,2]:
  // the two triangles touch only at (2,1)
  const Corridor c = {{{1, 0}, {1, 1}}, {{2, 1}, {2, 1}}, {{3, 1}, {3, 2}}};
  const Point s{0, 0.5}, g{4, 2};
  expect_path(funnel_path(s, g, c), {s, {2, 1}, g});
  expect_path(funnel_path(g, s, swapped(Corridor(c.rbegin(), c.rend()))), {g, {2, 1}, s});
  // a path straight through the point needs no corner there
  expect_path(funnel_path(s, {4, 1.5}, c), {s, {4, 1.5}});
  // leaving along the second triangle's edge y = 1, through the end (3,1) of the last portal
  expect_path(funnel_path(s, {3.5, 1}, c), {s, {2, 1}, {3.5, 1}});
}

TEST(FunnelDegenerate, StartOrGoalOnAPortal) {
  const Corridor c = {{{1, 0}, {1, 1}}, {{2, 2}, {2, 3}}, {{3, 0}, {3, 1}}, {{4, 2}, {4, 3}}};
  // start inside the first portal
  expect_path(funnel_path({1, 0.5}, {5, 2.5}, c), {{1, 0.5}, {2, 2}, {3, 1}, {4, 2}, {5, 2.5}});
  // start on the end of the first portal the path wraps
  expect_path(funnel_path({1, 1}, {5, 2.5}, c), {{1, 1}, {2, 2}, {3, 1}, {4, 2}, {5, 2.5}});
  // goal on the last portal, at its top end, and inside it
  expect_path(funnel_path({0, 0.5}, {4, 2}, c), {{0, 0.5}, {1, 1}, {2, 2}, {3, 1}, {4, 2}});
  expect_path(funnel_path({0, 0.5}, {4, 2.5}, c), {{0, 0.5}, {1, 1}, {2, 2}, {3, 1}, {4, 2.5}});
}

TEST(FunnelDegenerate, MirrorImagesGiveMirroredPaths) {
  // Mirroring x swaps the walker's left and right, so every case above also runs on the other
  // chain of the funnel.
  struct Case {
    Point s, g;
    Corridor c;
  };
  const Corridor zig = {{{1, 0}, {1, 1}}, {{2, 2}, {2, 3}}, {{3, 0}, {3, 1}}, {{4, 2}, {4, 3}}};
  const Corridor uturn = {{{0, 2}, {1, 2}}, {{1, 2}, {2, 2}}};
  const Corridor pin = {{{1, 0}, {1, 1}}, {{2, 1}, {2, 1}}, {{3, 1}, {3, 2}}};
  Corridor line;
  for (int x = 1; x <= 5; ++x) line.push_back({{double(x), 0}, {double(x), 1}});
  Corridor fan;
  for (Point q : {Point{2, 2}, Point{0, 2}, Point{-2, 2}, Point{-2, 0}, Point{-2, -2}}) fan.push_back({{0, 0}, q});
  const std::vector<Case> cases = {
      {{0, 0.5}, {5, 2.5}, zig},   {{1, 0.5}, {5, 2.5}, zig},      {{1, 1}, {5, 2.5}, zig},
      {{0, 0.5}, {4, 2}, zig},     {{0.5, 2.5}, {1.5, 2.5}, uturn}, {{0.5, 2}, {1.5, 2.5}, uturn},
      {{0.5, 2}, {1.5, 2}, uturn}, {{0, 0.5}, {4, 2}, pin},         {{0, 0.5}, {3.5, 1}, pin},
      {{0, 1}, {6, 0}, line},      {{0, 0}, {6, 0}, line},          {{1.5, 0.5}, {-0.5, -1.5}, fan},
  };
  auto mirror = [](Point p) { return Point{-p.x, p.y}; };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const Case& k = cases[i];
    Corridor mc;
    for (const auto& q : k.c) mc.push_back({mirror(q.right), mirror(q.left)});
    Polyline want = funnel_path(k.s, k.g, k.c);
    for (auto& p : want) p = mirror(p);
    expect_path(funnel_path(mirror(k.s), mirror(k.g), mc), want);
  }
}

TEST(FunnelDegenerate, ArbitraryPortalsStayInBoundsAndKeepTheEnds) {
  // Not corridors at all (random ends on a small lattice: repeats, zero-length and crossing
  // portals): the result is meaningless but must be a polyline from start to goal whose corners
  // are portal ends, with no out-of-bounds access (the sanitizer build checks) and no hang.
  std::mt19937 rng(3);
  for (int round = 0; round < 2000; ++round) {
    auto pt = [&] { return Point{double(rng() % 5), double(rng() % 5)}; };
    Corridor c(rng() % 12);
    for (auto& q : c) q = {pt(), pt()};
    const Point s = pt(), g = pt();
    const Polyline p = funnel_path(s, g, c);
    ASSERT_GE(p.size(), 2u);
    EXPECT_EQ(p.front(), s);
    EXPECT_EQ(p.back(), g);
    for (std::size_t i = 1; i + 1 < p.size(); ++i) {
      const bool is_end = std::any_of(c.begin(), c.end(), [&](const Portal& q) { return q.left == p[i] || q.right == p[i]; });
      EXPECT_TRUE(is_end) << "round " << round << " corner " << i;
    }
  }
  // a long corridor (larger than any before on this thread) grows the scratch buffer
  Corridor longc;
  for (int x = 1; x <= 100000; ++x) longc.push_back({{double(x), 0}, {double(x), 1}});
  expect_path(funnel_path({0, 0.5}, {100001, 0.5}, longc), {{0, 0.5}, {100001, 0.5}});
}

// ---------------------------------------------------------------------------------------------
// Funnel against brute force: random 4-connected shortest cell paths are corridors of unit
// squares; with only those cells free, the exact shortest path (visibility graph over cell corners)
// is the shortest path inside the corridor, which the funnel must return. The same corridors are
// also cut into triangles (each square split by a diagonal the path crosses), which gives fans of
// portals sharing an end, and every portal gets a random left/right labelling.

// The diagonal of the unit square at (x, y) through corner k (0: (x,y)-(x+1,y+1), 1: (x+1,y)-(x,y+1)).
Portal diagonal(Cell c, int k) {
  const double x = c.first, y = c.second;
  return k == 0 ? Portal{{x, y}, {x + 1, y + 1}} : Portal{{x + 1, y}, {x, y + 1}};
}

// Side of p relative to the diagonal line (sign of the orientation).
int side(const Portal& d, Point p) {
  const double o = orient(d.left, d.right, p);
  return (o > 0) - (o < 0);
}

// The end of a square edge that is not on the diagonal (each edge has exactly one on it).
Point off_end(const Portal& edge, const Portal& d) {
  return side(d, edge.left) != 0 ? edge.left : edge.right;
}

Corridor triangulated(const std::vector<Cell>& cells, Point s, Point t, std::mt19937& rng) {
  const Corridor squares = sleeve(cells);
  Corridor out;
  const std::size_t n = cells.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0) out.push_back(squares[k - 1]);
    const int pick = int(rng() % 2);
    Portal d = diagonal(cells[k], pick);
    if (k > 0 && k + 1 < n) {
      // entry and exit edges must lie in different triangles: a turn needs the diagonal through
      // the corner the two edges share
      const Portal& in = squares[k - 1];
      const Portal& ex = squares[k];
      if (side(d, off_end(in, d)) == side(d, off_end(ex, d))) d = diagonal(cells[k], 1 - pick);
      EXPECT_NE(side(d, off_end(in, d)), side(d, off_end(ex, d)));
      out.push_back(d);
    } else if (n == 1) {
      if (side(d, s) * side(d, t) < 0) out.push_back(d);
    } else if (k == 0) {
      if (side(d, s) != side(d, off_end(squares[0], d))) out.push_back(d);  // s not in the exit's triangle
    } else {
      if (side(d, t) != side(d, off_end(squares[k - 1], d))) out.push_back(d);
    }
  }
  return out;
}

TEST(FunnelBruteForce, RandomGridCorridorsMatchVisibilityGraph) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int round = 0; round < 80; ++round) {
    TestGrid g = random_grid(rng, 18, 14, 30);
    std::vector<Cell> free_cells;
    for (int y = 0; y < g.h; ++y)
      for (int x = 0; x < g.w; ++x)
        if (!g.blocked(x, y)) free_cells.push_back({x, y});
    const Cell a = free_cells[rng() % free_cells.size()], b = free_cells[rng() % free_cells.size()];
    const auto cells = cell_path(g, a, b, false);
    if (cells.empty()) continue;
    // points on a quarter lattice in the end cells, edges included, corners excluded
    auto pick = [&](Cell c) {
      for (;;) {
        const int i = int(rng() % 5), j = int(rng() % 5);
        if ((i == 0 || i == 4) && (j == 0 || j == 4)) continue;
        return Point{c.first + i / 4.0, c.second + j / 4.0};
      }
    };
    const Point s = pick(a), t = pick(b);
    TestGrid only;  // the corridor as the only free space
    only.w = g.w;
    only.h = g.h;
    only.cells.assign(g.cells.size(), 0);
    for (auto [x, y] : cells) only.cells[std::size_t(y) * g.w + x] = 1;
    const double best = visgraph_shortest(only, s, t, free_cell_corners(only));

    for (bool triangles : {false, true}) {
      SCOPED_TRACE(std::string(triangles ? "triangles" : "squares") + " round " + std::to_string(round) +
                   " cells " + std::to_string(cells.size()));
      const Corridor c = triangles ? triangulated(cells, s, t, rng) : sleeve(cells);
      Corridor mixed = c;
      for (auto& q : mixed)
        if (rng() % 2) std::swap(q.left, q.right);
      const Polyline p = funnel_path(s, t, mixed);
      ASSERT_GE(p.size(), 2u);
      EXPECT_EQ(p.front(), s);
      EXPECT_EQ(p.back(), t);
      EXPECT_TRUE(only.path_valid(p));
      EXPECT_NEAR(polyline_length(p), best, 1e-9);
      ++checked;
    }
  }
  EXPECT_GE(checked, 100);
}

// Funnel against an independent implementation on non-grid geometry: winding triangle strips
// with floating-point corners, compared with a plain rescanning "simple stupid funnel" (Mononen)
// written here on the strip's own (consistent) labels.

struct Strip {
  Point start, goal;
  Corridor corridor;  // left = counter-clockwise of the walking direction in the (x, y) frame
};

Strip random_strip(std::mt19937& rng, int quads) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double heading = u(rng) * 6.283185307179586, turn = 0;
  Point c{0, 0};
  std::vector<Point> left, right;
  for (int k = 0; k <= quads; ++k) {
    if (k % 7 == 0) turn = (u(rng) - 0.5) * 0.5;  // |turn| <= 0.25 rad per step of 1.5
    const double w = 0.5 + 2.5 * u(rng);           // so the inner wall never runs backwards
    const Point n{-std::sin(heading), std::cos(heading)};
    left.push_back({c.x + w * n.x, c.y + w * n.y});
    right.push_back({c.x - w * n.x, c.y - w * n.y});
    heading += turn;
    c = {c.x + 1.5 * std::cos(heading), c.y + 1.5 * std::sin(heading)};
  }
  Strip s;
  for (int k = 0; k < quads; ++k) {
    s.corridor.push_back({left[k], right[k]});
    if (u(rng) < 0.5) s.corridor.push_back({left[k + 1], right[k]});  // either diagonal
    else s.corridor.push_back({left[k], right[k + 1]});
  }
  s.corridor.push_back({left[quads], right[quads]});
  // start and goal a little before the first and after the last portal (in the end cells)
  const Point m0{(left[0].x + right[0].x) / 2, (left[0].y + right[0].y) / 2};
  const Point m1{(left[1].x + right[1].x) / 2, (left[1].y + right[1].y) / 2};
  s.start = {m0.x - 0.3 * (m1.x - m0.x), m0.y - 0.3 * (m1.y - m0.y)};
  const Point mk{(left[quads].x + right[quads].x) / 2, (left[quads].y + right[quads].y) / 2};
  const Point mk1{(left[quads - 1].x + right[quads - 1].x) / 2, (left[quads - 1].y + right[quads - 1].y) / 2};
  s.goal = {mk.x + 0.3 * (mk.x - mk1.x), mk.y + 0.3 * (mk.y - mk1.y)};
  return s;
}

// Mononen's loop: on a crossing, the other side's point becomes the apex and the scan restarts
// after it.
Polyline reference_funnel(Point start, Point goal, const Corridor& c) {
  std::vector<Portal> P{{start, start}};
  P.insert(P.end(), c.begin(), c.end());
  P.push_back({goal, goal});
  Polyline path{start};
  Point apex = start, L = start, R = start;
  std::size_t li = 0, ri = 0;
  for (std::size_t i = 1; i < P.size(); ++i) {
    const Point l = P[i].left, r = P[i].right;
    if (orient(apex, R, r) >= 0) {
      if (apex == R || orient(apex, L, r) <= 0) {
        R = r;
        ri = i;
      } else {
        apex = L;
        path.push_back(apex);
        R = L;
        i = ri = li;
        continue;
      }
    }
    if (orient(apex, L, l) <= 0) {
      if (apex == L || orient(apex, R, l) >= 0) {
        L = l;
        li = i;
      } else {
        apex = R;
        path.push_back(apex);
        L = R;
        i = li = ri;
        continue;
      }
    }
  }
  path.push_back(goal);
  return path;
}

TEST(FunnelReference, WindingStripsMatchTheRescanningFunnel) {
  std::mt19937 rng(21);
  for (int round = 0; round < 300; ++round) {
    const Strip s = random_strip(rng, 2 + round % 150);
    SCOPED_TRACE("round " + std::to_string(round));
    const Polyline want = reference_funnel(s.start, s.goal, s.corridor);
    Corridor mixed = s.corridor;
    for (auto& q : mixed)
      if (rng() % 2) std::swap(q.left, q.right);
    for (const Corridor* c : {static_cast<const Corridor*>(&s.corridor), static_cast<const Corridor*>(&mixed)}) {
      const Polyline got = funnel_path(s.start, s.goal, *c);
      EXPECT_EQ(got.front(), s.start);
      EXPECT_EQ(got.back(), s.goal);
      EXPECT_NEAR(polyline_length(got), polyline_length(want), 1e-9 * polyline_length(want));
      // the funnel never returns a path longer than the walk through the portal midpoints
      Polyline mids{s.start};
      for (const auto& q : s.corridor) mids.push_back({(q.left.x + q.right.x) / 2, (q.left.y + q.right.y) / 2});
      mids.push_back(s.goal);
      EXPECT_LE(polyline_length(got), polyline_length(mids));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// los

struct CountingOracle {
  const TestGrid* g;
  std::size_t* calls;
  bool operator()(Point a, Point b) const {
    ++*calls;
    return g->segment_valid(a, b);
  }
};

void check_los(const TestGrid& g, const Polyline& raw, const char* what, int round) {
  std::size_t calls = 0;
  const CountingOracle vis{&g, &calls};
  const Polyline p = los_smooth(raw, vis);
  SCOPED_TRACE(std::string(what) + " round " + std::to_string(round));
  ASSERT_FALSE(p.empty());
  EXPECT_EQ(p.front(), raw.front());
  EXPECT_EQ(p.back(), raw.back());
  EXPECT_LE(polyline_length(p), polyline_length(raw) * (1 + 1e-12));
  EXPECT_TRUE(is_subsequence(p, raw));
  if (g.path_valid(raw)) {
    EXPECT_TRUE(g.path_valid(p));
  }
  // fixpoint: no point can be dropped by a shortcut between its neighbours
  for (std::size_t k = 0; k + 2 < p.size(); ++k)
    EXPECT_FALSE(g.segment_valid(p[k], p[k + 2])) << "point " << k + 1 << " is removable";
}

TEST(Los, GridPathsOnRandomMaps) {
  std::mt19937 rng(11);
  int checked = 0;
  for (int round = 0; round < 40; ++round) {
    TestGrid g = random_grid(rng, 40, 30, 25);
    std::vector<Cell> free_cells;
    for (int y = 0; y < g.h; ++y)
      for (int x = 0; x < g.w; ++x)
        if (!g.blocked(x, y)) free_cells.push_back({x, y});
    const Cell a = free_cells[rng() % free_cells.size()], b = free_cells[rng() % free_cells.size()];
    for (bool diagonal : {true, false}) {
      const auto cells = cell_path(g, a, b, diagonal);
      if (cells.size() < 2) continue;
      const Polyline raw = centres(cells);
      ASSERT_TRUE(g.path_valid(raw));
      check_los(g, raw, diagonal ? "grid8" : "grid4", round);
      ++checked;
    }
  }
  EXPECT_GE(checked, 40);
}

TEST(Los, RandomWalksOnRandomMaps) {
  // wiggly paths that revisit cells and backtrack
  std::mt19937 rng(13);
  for (int round = 0; round < 30; ++round) {
    TestGrid g = random_grid(rng, 30, 30, 20);
    Cell c{int(rng() % 30), int(rng() % 30)};
    while (g.blocked(c.first, c.second)) c = {int(rng() % 30), int(rng() % 30)};
    std::vector<Cell> walk{c};
    for (int step = 0; step < 400; ++step) {
      static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      const int k = int(rng() % 4);
      const Cell n{walk.back().first + d[k][0], walk.back().second + d[k][1]};
      if (!g.blocked(n.first, n.second)) walk.push_back(n);
    }
    Polyline raw = centres(walk);
    // arbitrary dyadic points inside the end cells
    raw.front() = {walk.front().first + 0.125, walk.front().second + 0.875};
    raw.back() = {walk.back().first + 0.75, walk.back().second + 0.25};
    ASSERT_TRUE(g.path_valid(raw));
    check_los(g, raw, "walk", round);
  }
}

TEST(Los, InvalidRawSegmentIsKeptNotTurnedIntoAnotherInvalidOne) {
  // the raw path jumps through the wall between (1.5,0.5) and (1.5,2.5); los keeps raw segments
  // it cannot shortcut and only adds segments the test accepts
  const TestGrid g = grid_from({"...", "@@.", "..."});
  const Polyline raw = {{0.5, 0.5}, {1.5, 0.5}, {1.5, 2.5}, {0.5, 2.5}};
  const Polyline p = los_smooth(raw, [&g](Point a, Point b) { return g.segment_valid(a, b); });
  EXPECT_EQ(p, raw);
  // when a valid shortcut replaces the invalid segment, it is taken
  const Polyline raw2 = {{0.5, 0.5}, {2.5, 2.5}, {2.5, 1.5}, {2.5, 0.5}};  // first segment invalid
  const TestGrid open = grid_from({"...", "...", "..."});
  EXPECT_EQ(los_smooth(raw2, [&open](Point a, Point b) { return open.segment_valid(a, b); }),
            (Polyline{{0.5, 0.5}, {2.5, 0.5}}));
}

TEST(Los, StraightRunCostsLogarithmicallyManyTests) {
  TestGrid g;
  g.w = 1200;
  g.h = 1;
  g.cells.assign(1200, 1);
  Polyline raw;
  for (int x = 0; x < 1000; ++x) raw.push_back({x + 0.5, 0.5});
  std::size_t calls = 0;
  const Polyline p = los_smooth(raw, CountingOracle{&g, &calls});
  EXPECT_EQ(p, (Polyline{{0.5, 0.5}, {999.5, 0.5}}));
  EXPECT_LE(calls, 12u);  // i+2, i+4, ..., i+512, then the goal
}

TEST(Los, ShortPathsAndOpenSpace) {
  EXPECT_TRUE(los_smooth({}, always_visible).empty());
  EXPECT_EQ(los_smooth({{1, 1}}, always_visible), (Polyline{{1, 1}}));
  EXPECT_EQ(los_smooth({{1, 1}, {2, 2}}, always_visible), (Polyline{{1, 1}, {2, 2}}));
  EXPECT_EQ(los_smooth({{0, 0}, {5, 0}, {5, 5}, {0, 5}, {0, 1}}, always_visible), (Polyline{{0, 0}, {0, 1}}));
  // nothing visible: the raw path comes back unchanged
  const Polyline zig = {{0, 0}, {1, 1}, {2, 0}, {3, 1}, {4, 0}};
  EXPECT_EQ(los_smooth(zig, [](Point, Point) { return false; }), zig);
}

TEST(Los, TemplateAndWrapperAgree) {
  std::mt19937 rng(5);
  const TestGrid g = random_grid(rng, 40, 40, 20);
  const auto cells = cell_path(g, {0, 0}, {39, 39}, true);
  if (cells.empty()) GTEST_SKIP() << "no path on this map";
  const Polyline raw = centres(cells);
  auto vis = [&g](Point a, Point b) { return g.segment_valid(a, b); };
  EXPECT_EQ(los_smooth_with(raw, vis), los_smooth(raw, vis));
}

// ---------------------------------------------------------------------------------------------
// The API

TEST(SmoothingApi, ListsTheThreeSmoothers) {
  const auto& s = smoothers();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "none");
  EXPECT_EQ(s[1].name, "los");
  EXPECT_EQ(s[2].name, "funnel");
  for (const auto& i : s) EXPECT_FALSE(i.description.empty());
}

TEST(SmoothingApi, UnknownNameThrows) {
  try {
    smooth("string-pull", {{0, 0}, {1, 1}}, std::nullopt, always_visible);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown smoothing 'string-pull' (none, los, funnel)");
  }
  EXPECT_THROW(parse_smoothing(""), std::invalid_argument);
  EXPECT_EQ(parse_smoothing("funnel"), Smoothing::funnel);
}

TEST(SmoothingApi, NoneReturnsRaw) {
  const Polyline raw = {{0, 0}, {1, 0}, {2, 0}};
  const auto r = smooth("none", raw, std::nullopt, always_visible);
  EXPECT_EQ(r.status, SmoothingStatus::ok);
  EXPECT_EQ(r.path, raw);
}

TEST(SmoothingApi, FunnelWithoutCorridorIsNotApplicable) {
  const Polyline raw = {{0, 0}, {1, 0}, {2, 0}};
  const auto r = smooth("funnel", raw, std::nullopt, always_visible);
  EXPECT_EQ(r.status, SmoothingStatus::not_applicable);
  EXPECT_TRUE(r.path.empty());
}

TEST(SmoothingApi, FunnelAndLosThroughTheDispatcher) {
  const TestGrid g = grid_from({"...", ".@.", "..."});
  const Polyline raw = {{0.5, 0.5}, {1.5, 0.5}, {2.5, 0.5}, {2.5, 1.5}, {2.5, 2.5}};
  std::size_t calls = 0;
  const auto los = smooth("los", raw, std::nullopt, CountingOracle{&g, &calls});
  EXPECT_EQ(los.status, SmoothingStatus::ok);
  EXPECT_EQ(los.path, (Polyline{{0.5, 0.5}, {2.5, 0.5}, {2.5, 2.5}}));
  EXPECT_GT(calls, 0u);
  const Corridor c = sleeve({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}});
  const auto f = smooth("funnel", raw, c, always_visible);
  EXPECT_EQ(f.status, SmoothingStatus::ok);
  expect_path(f.path, {{0.5, 0.5}, {2, 1}, {2.5, 2.5}});
  EXPECT_TRUE(g.path_valid(f.path));
  // one-point raw path: returned as is by every smoother
  for (const char* m : {"none", "los", "funnel"})
    EXPECT_EQ(smooth(m, {{1, 1}}, Corridor{}, always_visible).path, (Polyline{{1, 1}})) << m;
}

// The oracle itself (the other tests lean on it).
TEST(SmoothingOracle, KnownSegments) {
  const TestGrid g = grid_from({"....", ".@@.", "....", "@..@"});
  EXPECT_TRUE(g.segment_valid({0.5, 0.5}, {3.5, 0.5}));
  EXPECT_FALSE(g.segment_valid({0.5, 0.5}, {3.5, 2.5}));   // through the block
  EXPECT_TRUE(g.segment_valid({1, 0.5}, {1, 1}));          // ends on the block's corner
  EXPECT_TRUE(g.segment_valid({0, 1}, {4, 1}));            // grazes the block's top edge
  EXPECT_FALSE(g.segment_valid({0.5, 0.5}, {1.5, 2.5}));  // clips the block's corner cell
  EXPECT_TRUE(g.segment_valid({0, 0}, {1, 1}));            // touches a convex corner
  EXPECT_FALSE(g.segment_valid({1, 1.5}, {3, 1.5}));       // through the middle of the block
  EXPECT_FALSE(g.segment_valid({0.5, 3.5}, {1.5, 3.5}));   // ends inside a blocked cell
  const TestGrid pinch = grid_from({".@", "@."});
  EXPECT_FALSE(pinch.segment_valid({0.5, 0.5}, {1.5, 1.5}));  // through the pinch point
  EXPECT_TRUE(pinch.segment_valid({0.5, 0.5}, {0.5, 1.0}));
  const TestGrid wall = grid_from({".....", ".@@@.", ".@@@.", "....."});
  EXPECT_FALSE(wall.segment_valid({0.5, 2}, {4.5, 2}));      // along the edge between two blocked cells
  EXPECT_TRUE(wall.segment_valid({0.5, 1}, {4.5, 1}));       // along the block's outer edge
  EXPECT_FALSE(wall.segment_valid({2, 0.5}, {2, 3.5}));      // vertical, through the block
  EXPECT_TRUE(wall.segment_valid({0, 0}, {0, 4}));           // along the map border
}

}  // namespace

}  // namespace test_smoothing
