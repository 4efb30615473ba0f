// The exact disc optimum (docs/radius.md `optimal`, the tangent graph of Chew 1985 / Liu & Arimoto 1992)
// against independent references: the exact validity test on its own paths, a dense sampled
// roadmap (an upper bound that converges to the optimum), the point visibility graph as R -> 0,
// monotonicity in R, and hand-computed lengths on small maps.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <queue>
#include <random>
#include <string>

#include "datasets/movingai.hpp"
#include "geometry/free_space.hpp"
#include "geometry/polygons.hpp"
#include "geometry/radius_validity.hpp"
#include "geometry/tangent_graph.hpp"
#include "representations/tangent/tangent.hpp"
#include "representations/visgraph/grid_fov.hpp"

#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_tangent_graph {

using namespace navbench;
using testmaps::grid_from;
using testmaps::random_grid;

namespace {

// Length of docs/radius.md items recomputed from the points: segments, and arcs as radius x angle.
double items_length(const std::vector<PathItem>& items) {
  double len = 0;
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (!items[i].arc_centre) {
      len += distance(items[i - 1].p, items[i].p);
      continue;
    }
    const Point a = items[i - 1].p, c = items[i].p, b = items[i + 1].p;
    const double ax = a.x - c.x, ay = a.y - c.y, bx = b.x - c.x, by = b.y - c.y;
    len += distance(a, c) * std::atan2(std::abs(ax * by - ay * bx), ax * bx + ay * by);
    ++i;
  }
  return len;
}

// The items as text, each arc with its end points' distances from the centre.
std::string describe(const std::vector<PathItem>& items) {
  std::string out;
  char buf[160];
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].arc_centre) {
      std::snprintf(buf, sizeof buf, " @%.17g %.17g (r %.17g / %.17g)", items[i].p.x, items[i].p.y,
                    distance(items[i - 1].p, items[i].p), distance(items[i + 1].p, items[i].p));
    } else {
      std::snprintf(buf, sizeof buf, " %.17g %.17g", items[i].p.x, items[i].p.y);
    }
    out += buf;
  }
  return out;
}

// One environment: map, free space, validity, and the tangent graph for R.
struct Env {
  Map map;
  FreeSpace fs;
  RadiusValidity rv;
  explicit Env(Map m) : map(std::move(m)), fs(map), rv(fs) {}
  Env(const Env&) = delete;
};

// The optimum (kInf when there is no path); checks (1): the path is valid for R and its
// recomputed length equals the reported one. check_path = false skips the validity test, for radii
// so small that docs/radius.md's "both arc ends at one distance r within 1e-9 r" is below the rounding of
// coordinates (r = 1e-6 at x ~ 10: 1e-15 is a few ulps).
double optimum(const Env& e, const TangentGraph& tg, Point s, Point g, bool check_path = true) {
  DiscQueryStatus st;
  std::string why;
  const auto res = tg.shortest_path(s, g, &st, &why);
  if (!res) {
    EXPECT_EQ(st, DiscQueryStatus::no_path) << why;
    return kInf;
  }
  EXPECT_EQ(st, DiscQueryStatus::ok);
  if (check_path) { EXPECT_TRUE(e.rv.path_valid_radius(res->items, tg.radius())) << describe(res->items); }
  EXPECT_EQ(res->items.front().p, s);
  EXPECT_EQ(res->items.back().p, g);
  EXPECT_NEAR(items_length(res->items), res->length, 1e-9 * (1 + res->length));
  return res->length;
}

// Reference (2): a sampled roadmap. Lattice points (i h, j h) whose disc is free, plus s and g;
// every pair within distance rho joined when path_valid_radius accepts the segment; Dijkstra.
// Every roadmap path is a valid disc path, so its length bounds the optimum from above; as h
// shrinks (rho fixed) it approaches the optimum.
double roadmap(const Env& e, double R, Point s, Point g, int per_unit, double rho) {
  const double h = 1.0 / per_unit;
  const int W = int(std::ceil(e.map.max.x * per_unit)), H = int(std::ceil(e.map.max.y * per_unit));
  auto lattice = [&](int i, int j) { return Point{double(i) / per_unit, double(j) / per_unit}; };
  std::vector<char> ok(std::size_t(W + 1) * (H + 1));
  for (int j = 0; j <= H; ++j)
    for (int i = 0; i <= W; ++i) ok[std::size_t(j) * (W + 1) + i] = e.rv.point_clear(lattice(i, j), R);
  const int N = (W + 1) * (H + 1), S = N, G = N + 1;
  auto pos = [&](int v) { return v == S ? s : v == G ? g : lattice(v % (W + 1), v / (W + 1)); };
  const int k = int(std::floor(rho / h));
  std::vector<double> dist(std::size_t(N) + 2, kInf);
  std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>> open;
  dist[std::size_t(S)] = 0;
  open.push({0, S});
  auto try_edge = [&](int u, int v) {
    const Point a = pos(u), b = pos(v);
    const double len = distance(a, b);
    if (len > rho || dist[std::size_t(u)] + len >= dist[std::size_t(v)]) return;
    if (!e.rv.path_valid_radius({{a, false}, {b, false}}, R)) return;
    dist[std::size_t(v)] = dist[std::size_t(u)] + len;
    open.push({dist[std::size_t(v)] + distance(b, g), v});
  };
  while (!open.empty()) {
    const auto [f, u] = open.top();
    open.pop();
    if (u == G) break;
    if (f > dist[std::size_t(u)] + distance(pos(u), g) + 1e-12) continue;
    const Point p = pos(u);
    const int ci = int(std::lround(p.x * per_unit)), cj = int(std::lround(p.y * per_unit));
    for (int dj = -k - 1; dj <= k + 1; ++dj)
      for (int di = -k - 1; di <= k + 1; ++di) {
        const int i = ci + di, j = cj + dj;
        if (i < 0 || j < 0 || i > W || j > H || !ok[std::size_t(j) * (W + 1) + i]) continue;
        const int v = j * (W + 1) + i;
        if (v != u) try_edge(u, v);
      }
    if (u != G) try_edge(u, G);
  }
  return dist[std::size_t(G)];
}

// Reference (4): the point agent's optimum by brute force, the visibility graph over every convex
// corner with FreeSpace::segment_valid (docs/maps.md), Dijkstra on the dense matrix.
double point_optimum(const FreeSpace& fs, Point s, Point g) {
  std::vector<Point> v{s, g};
  for (const ConvexCorner& c : fs.convex_corners()) v.push_back(c.at);
  const std::size_t n = v.size();
  std::vector<double> dist(n, kInf);
  std::vector<char> done(n, 0);
  dist[0] = 0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i] && dist[i] < kInf && (u == n || dist[i] < dist[u])) u = i;
    if (u == n || u == 1) break;
    done[u] = 1;
    for (std::size_t w = 0; w < n; ++w)
      if (!done[w] && dist[u] + distance(v[u], v[w]) < dist[w] && fs.segment_valid(v[u], v[w]))
        dist[w] = dist[u] + distance(v[u], v[w]);
  }
  return dist[1];
}

// Random cell-centre queries whose discs are free for R.
std::vector<std::pair<Point, Point>> random_queries(const Env& e, double R, int count, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> ux(0, e.map.grid.width - 1), uy(0, e.map.grid.height - 1);
  std::vector<std::pair<Point, Point>> q;
  for (int tries = 0; int(q.size()) < count && tries < 10000; ++tries) {
    const Point s{ux(rng) + 0.5, uy(rng) + 0.5}, g{ux(rng) + 0.5, uy(rng) + 0.5};
    if (e.rv.point_clear(s, R) && e.rv.point_clear(g, R)) q.push_back({s, g});
  }
  return q;
}

}  // namespace

// (2) Against the sampled roadmap on small random maps: optimum <= roadmap, and the roadmap's
// excess shrinks as the lattice gets finer (the h = 1/20 lattice holds the h = 1/10 one).
TEST(TangentGraph, RandomMapsAgainstSampledRoadmap) {
  std::mt19937_64 rng(13);
  double worst_coarse = 0, worst_fine = 0;
  int compared = 0;
  for (int m = 0; m < 6; ++m) {
    Env e(random_grid(9, 9, 0.18, rng));
    for (double R : {0.3, 0.5}) {
      const TangentGraph tg(e.fs, e.rv, R);
      for (auto [s, g] : random_queries(e, R, 3, rng)) {
        const double opt = optimum(e, tg, s, g);
        const double coarse = roadmap(e, R, s, g, 10, 0.75);
        if (opt == kInf) {
          EXPECT_EQ(coarse, kInf) << "the roadmap found a path the tangent graph missed";
          continue;
        }
        ASSERT_LT(coarse, kInf) << "map " << m << " R " << R;
        const double fine = roadmap(e, R, s, g, 20, 0.75);
        EXPECT_LE(opt, fine + 1e-9);
        EXPECT_LE(fine, coarse + 1e-9);
        worst_coarse = std::max(worst_coarse, coarse - opt);
        worst_fine = std::max(worst_fine, fine - opt);
        // A lattice path detours by O(h) at each bend and O(L (h / rho)^2) in direction.
        EXPECT_LT(coarse - opt, 0.02 * opt + 0.1) << "h = 0.1, R " << R;
        EXPECT_LT(fine - opt, 0.01 * opt + 0.05) << "h = 0.05, R " << R;
        ++compared;
      }
    }
  }
  std::printf("[ roadmap  ] %d queries, worst excess over the optimum: h=0.1 %.4g, h=0.05 %.4g\n", compared,
              worst_coarse, worst_fine);
  EXPECT_GT(compared, 10);
}

// (3) The optimum never decreases as R grows (no path stays no path).
TEST(TangentGraph, MonotoneInRadius) {
  std::mt19937_64 rng(31);
  int compared = 0;
  for (int m = 0; m < 8; ++m) {
    Env e(random_grid(20, 20, 0.08, rng));
    const std::vector<double> radii{0.1, 0.3, 0.5, 1.0, 1.5};
    std::vector<std::unique_ptr<TangentGraph>> tgs;
    for (double R : radii) tgs.push_back(std::make_unique<TangentGraph>(e.fs, e.rv, R));
    for (auto [s, g] : random_queries(e, radii.back(), 6, rng)) {
      double prev = 0;
      for (std::size_t r = 0; r < radii.size(); ++r) {
        const double opt = optimum(e, *tgs[r], s, g);
        EXPECT_GE(opt, prev - 1e-9 * (1 + prev)) << "R " << radii[r];
        prev = opt;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 20);
}

// (4) R -> 0 meets the point optimum: never below it, and above it by at most a few R per bend.
// R = 1e-4 with the path checked, R = 1e-6 on the length alone (see optimum()).
TEST(TangentGraph, TinyRadiusMeetsPointOptimum) {
  std::mt19937_64 rng(7);
  int compared = 0;
  double worst = 0;
  for (int m = 0; m < 10; ++m) {
    Env e(random_grid(14, 14, 0.25, rng));
    const TangentGraph tg4(e.fs, e.rv, 1e-4), tg6(e.fs, e.rv, 1e-6);
    for (auto [s, g] : random_queries(e, 1e-4, 5, rng)) {
      const double point = point_optimum(e.fs, s, g);
      const double opt4 = optimum(e, tg4, s, g), opt6 = optimum(e, tg6, s, g, false);
      if (point == kInf) {
        EXPECT_EQ(opt4, kInf);
        EXPECT_EQ(opt6, kInf);
        continue;
      }
      ASSERT_LT(opt4, kInf);
      ASSERT_LT(opt6, kInf);
      EXPECT_GE(opt6, point - 1e-9);
      EXPECT_LE(opt6, point + 1e-4);
      EXPECT_GE(opt4, opt6 - 1e-9);
      EXPECT_LE(opt4, point + 1e-2);
      worst = std::max(worst, opt6 - point);
      ++compared;
    }
  }
  std::printf("[ tiny R   ] %d queries, R = 1e-6 worst excess over the point optimum %.3g\n", compared, worst);
  EXPECT_GT(compared, 20);
}

// (5) A corridor exactly 2R wide between two rooms: the disc's centre runs down its middle and
// wraps the entrance corners; a hair wider disc has no path.
TEST(TangentGraph, CorridorExactly2R) {
  Env e(grid_from({".......", ".......", ".......", "@@@.@@@", "@@@.@@@", ".......", ".......", "......."}));
  const Point s{1.5, 1.5}, g{5.5, 6.5};
  const double R = 0.5;
  const TangentGraph tg(e.fs, e.rv, R);
  // By hand: s to the circle round corner (3,3) (tangent length sqrt(D^2 - R^2)), the arc up to
  // direction (1, 0) (the corridor's middle x = 3.5), 2 down the corridor, then the mirror image.
  const double D = std::hypot(1.5, 1.5);
  const double touch = std::atan2(-1.5, -1.5) + std::acos(R / D);  // tangent point's direction
  const double hand = 2 * (std::sqrt(D * D - R * R) + R * (0 - touch)) + 2;
  EXPECT_NEAR(optimum(e, tg, s, g), hand, 1e-12);
  const TangentGraph wider(e.fs, e.rv, R + 1e-6);
  DiscQueryStatus st;
  EXPECT_FALSE(wider.shortest_path(s, g, &st));
  EXPECT_EQ(st, DiscQueryStatus::no_path);
}

// (5) One square obstacle between start and goal: the path wraps two corners with arcs and runs
// along the offset edge.
TEST(TangentGraph, SingleSquareWrapsWithArcs) {
  Env e(grid_from({".........", ".........", ".........", "...@@@...", "...@@@...", "...@@@...", ".........", ".........",
                   "........."}));
  const Point s{0.5, 4.5}, g{8.5, 4.5};
  for (double R : {0.5, 0.3, 1.2}) {
    const TangentGraph tg(e.fs, e.rv, R);
    // Circle round (3,3), cone from 180 to 270 degrees: tangent from s, arc to 270 degrees, the
    // offset edge (length 3), and the mirror image at (6,3).
    const double D = std::hypot(2.5, 1.5);
    const double touch = std::atan2(1.5, -2.5) + std::acos(R / D);
    const double hand = 2 * (std::sqrt(D * D - R * R) + R * (1.5 * std::numbers::pi - touch)) + 3;
    DiscQueryStatus st;
    const auto res = tg.shortest_path(s, g, &st);
    if (R > 0.5) {  // s is closer than R to the map's border
      EXPECT_EQ(st, DiscQueryStatus::invalid_query);
      continue;
    }
    ASSERT_TRUE(res);
    EXPECT_NEAR(optimum(e, tg, s, g), hand, 1e-12) << "R " << R;
    int arcs = 0;
    for (const PathItem& it : res->items) arcs += it.arc_centre;
    EXPECT_EQ(arcs, 2);
  }
}

// (5) A pinch point (two diagonal blocked cells) never lets a disc through: the only other way is
// the gap at the bottom; without it there is no path.
TEST(TangentGraph, PinchPointIsClosed) {
  const std::vector<std::string> rows{"...@...", "...@...", "...@...", "..@....", "..@....", "..@....", ".......", "......."};
  Env e(grid_from(rows));
  const Point s{1.5, 1.5}, g{5.5, 1.5};
  for (double R : {0.3, 0.5}) {
    const TangentGraph tg(e.fs, e.rv, R);
    const double opt = optimum(e, tg, s, g);
    // Through the pinch (3,3) a point would go s -> (3,3) -> g; the disc must go round below.
    EXPECT_GT(opt, distance(s, {3, 3}) + distance({3, 3}, g) + 1);
    const double rm = roadmap(e, R, s, g, 20, 0.75);
    EXPECT_LE(opt, rm + 1e-9);
    EXPECT_LT(rm - opt, 0.05);
  }
  auto closed = rows;
  closed[6][2] = '@';
  closed[7][2] = '@';
  Env c(grid_from(closed));
  const TangentGraph tg(c.fs, c.rv, 0.3);
  DiscQueryStatus st;
  EXPECT_FALSE(tg.shortest_path(s, g, &st));
  EXPECT_EQ(st, DiscQueryStatus::no_path);
}

// Start or goal whose disc is not free: invalid_query with a reason.
TEST(TangentGraph, InvalidQueries) {
  Env e(grid_from({"....", ".@..", "...."}));
  const TangentGraph tg(e.fs, e.rv, 0.5);
  DiscQueryStatus st;
  std::string why;
  EXPECT_FALSE(tg.shortest_path({0.4, 0.5}, {3.5, 2.5}, &st, &why));
  EXPECT_EQ(st, DiscQueryStatus::invalid_query);
  EXPECT_NE(why.find("start"), std::string::npos);
  EXPECT_THROW(TangentGraph(e.fs, e.rv, 0), std::invalid_argument);
}

// (6) Polygon maps: a grid map rewritten as a polygon map has the same optimum (the generic code
// path, rtree clearance, no grid pruning).
TEST(TangentGraph, GridAsPolygonMapSameOptimum) {
  std::mt19937_64 rng(77);
  int compared = 0;
  for (int m = 0; m < 5; ++m) {
    Env e(random_grid(12, 12, 0.2, rng));
    Env p(grid_to_polygon_map(e.map));
    ASSERT_EQ(p.rv.clearance(), nullptr);
    for (double R : {0.3, 0.5}) {
      const TangentGraph tg(e.fs, e.rv, R), tp(p.fs, p.rv, R);
      for (auto [s, g] : random_queries(e, R, 4, rng)) {
        const double a = optimum(e, tg, s, g), b = optimum(p, tp, s, g);
        if (a == kInf) {
          EXPECT_EQ(b, kInf);
          continue;
        }
        EXPECT_NEAR(a, b, 1e-9 * a);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 15);
}

// (6) An irregular polygon map (slanted edges, a hole, an obstacle) against the sampled roadmap.
TEST(TangentGraph, IrregularPolygonMapAgainstSampledRoadmap) {
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {9.3, 0.4}, {10.1, 6.2}, {5.2, 8.9}, {0.3, 7.1}}, {{2, 2}, {3.7, 2.4}, {2.6, 4.1}}};
  m.polygons.obstacles.push_back({{{{6, 3}, {8.2, 3.5}, {7.1, 5.9}, {6.4, 5.0}}}});
  m.max = {10.1, 8.9};
  Env e(std::move(m));
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> ux(0, 10.1), uy(0, 8.9);
  int compared = 0;
  double worst = 0;
  for (double R : {0.25, 0.6}) {
    const TangentGraph tg(e.fs, e.rv, R);
    for (int k = 0; k < 6;) {
      const Point s{ux(rng), uy(rng)}, g{ux(rng), uy(rng)};
      if (!e.rv.point_clear(s, R) || !e.rv.point_clear(g, R)) continue;
      ++k;
      const double opt = optimum(e, tg, s, g), rm = roadmap(e, R, s, g, 20, 0.75);
      if (opt == kInf) {
        EXPECT_EQ(rm, kInf);
        continue;
      }
      ASSERT_LT(rm, kInf);
      EXPECT_LE(opt, rm + 1e-9);
      EXPECT_LT(rm - opt, 0.01 * opt + 0.05);
      worst = std::max(worst, rm - opt);
      ++compared;
    }
  }
  std::printf("[ polygon  ] %d queries, worst roadmap excess (h = 0.05) %.4g\n", compared, worst);
  EXPECT_GE(compared, 8);
}

// (7) The disc query's visibility filter (representations/tangent/tangent.hpp): a point joins only
// circles of corners it sees, so joining over the circles of the corners the point visgraph's
// sweep reports (sure or maybe) gives exactly the joins over every circle, and the one-arc direct
// path over the circles both ends see is the one over every circle. Points anywhere in the cells
// (not only centres and corners), on random maps, at several radii.
TEST(TangentGraph, JoinsOverSeenCirclesEqualJoinsOverAll) {
  std::mt19937_64 rng(97);
  int points = 0, joins = 0, directs = 0;
  for (int m = 0; m < 6; ++m) {
    Env e(random_grid(24, 24, 0.14, rng));
    const GridFov fov(e.map.grid, e.fs.convex_corners());
    for (double R : {0.3, 0.5, 1.0, 1.5}) {
      const TangentGraph tg(e.fs, e.rv, R);
      auto seen = [&](Point p) {
        std::vector<std::uint32_t> sure, maybe;
        fov.scan(p, sure, maybe);
        std::vector<std::int32_t> out;
        for (const auto* list : {&sure, &maybe})
          for (std::uint32_t k : *list)
            if (tg.circle_of_corner(k) >= 0) out.push_back(tg.circle_of_corner(k));
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
      };
      auto same = [](const std::vector<TangentGraph::Join>& a, const std::vector<TangentGraph::Join>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
          if (a[i].node != b[i].node || a[i].cost != b[i].cost || !(a[i].t == b[i].t)) return false;
        return true;
      };
      std::uniform_real_distribution<double> ux(0, e.map.grid.width), uy(0, e.map.grid.height);
      std::vector<Point> pts;
      for (int tries = 0; tries < 4000 && pts.size() < 40; ++tries) {
        Point p{ux(rng), uy(rng)};
        if (tries % 3 == 1) p = {std::floor(p.x) + 0.5, std::floor(p.y) + 0.5};
        if (tries % 3 == 2) p = {std::round(p.x), std::round(p.y)};
        if (e.rv.point_clear(p, R)) pts.push_back(p);
      }
      for (std::size_t i = 0; i < pts.size(); ++i) {
        const Point p = pts[i];
        const auto cs = seen(p);
        const auto all_s = tg.join_start(p), all_g = tg.join_goal(p);
        EXPECT_TRUE(same(tg.join_start(p, &cs), all_s)) << "start (" << p.x << ", " << p.y << ") R " << R;
        EXPECT_TRUE(same(tg.join_goal(p, &cs), all_g)) << "goal (" << p.x << ", " << p.y << ") R " << R;
        joins += int(all_s.size() + all_g.size());
        ++points;
        const Point q = pts[(i * 7 + 3) % pts.size()];
        const auto cq = seen(q);
        std::vector<std::int32_t> both;
        std::set_intersection(cs.begin(), cs.end(), cq.begin(), cq.end(), std::back_inserter(both));
        const auto d_all = tg.direct_path(p, q), d_seen = tg.direct_path(p, q, &both);
        ASSERT_EQ(d_all.has_value(), d_seen.has_value()) << "(" << p.x << ", " << p.y << ") -> (" << q.x << ", " << q.y << ") R " << R;
        if (d_all) {
          EXPECT_EQ(d_all->length, d_seen->length);
          ++directs;
        }
      }
    }
  }
  std::printf("[ seen     ] %d points, %d joins, %d direct paths: the same over the seen circles\n", points, joins, directs);
  EXPECT_GT(joins, 1000);
}

// (7b) TangentRepresentation's circles for a point come from per-block lists (block_candidates.hpp
// over each corner's region, filtered by cell masks and the integer line of sight): they hold
// the circle of every corner the point sees, and the joins over them are the joins over every circle. Points
// anywhere in the cells, at cell centres and at grid corners, on random maps.
TEST(TangentGraph, BlockListCirclesHoldTheSeenOnes) {
  std::mt19937_64 rng(131);
  int points = 0, joins = 0;
  for (int m = 0; m < 6; ++m) {
    Env e(random_grid(24, 24, 0.14, rng));
    for (double R : {0.3, 0.5, 1.5}) {
      const TangentGraph tg(e.fs, e.rv, R);
      const TangentRepresentation rep(e.map, R);
      std::uniform_real_distribution<double> ux(0, e.map.grid.width), uy(0, e.map.grid.height);
      int taken = 0;
      for (int tries = 0; tries < 4000 && taken < 60; ++tries) {
        Point p{ux(rng), uy(rng)};
        if (tries % 3 == 1) p = {std::floor(p.x) + 0.5, std::floor(p.y) + 0.5};
        if (tries % 3 == 2) p = {std::round(p.x), std::round(p.y)};
        if (!e.rv.point_clear(p, R)) continue;
        ++taken;
        // Every circle whose corner p sees (FreeSpace::segment_valid, the relation of tangent.hpp's
        // proof; the sweep's `maybe` reports may hold corners p does not see).
        std::vector<std::int32_t> listed;
        ASSERT_TRUE(rep.candidate_circles(p, listed));
        const auto& corners = e.fs.convex_corners();
        for (std::size_t k = 0; k < corners.size(); ++k)
          if (const std::int32_t ci = tg.circle_of_corner(k); ci >= 0 && e.fs.segment_valid(p, corners[k].at)) {
            EXPECT_TRUE(std::binary_search(listed.begin(), listed.end(), ci))
                << "circle " << ci << " missing at (" << p.x << ", " << p.y << ") R " << R;
          }
        ASSERT_TRUE(std::is_sorted(listed.begin(), listed.end()));
        const auto all_s = tg.join_start(p), all_g = tg.join_goal(p, nullptr, true);
        const auto got_s = tg.join_start(p, &listed), got_g = tg.join_goal(p, &listed, true);
        ASSERT_EQ(got_s.size(), all_s.size());
        ASSERT_EQ(got_g.size(), all_g.size());
        for (std::size_t i = 0; i < all_s.size(); ++i) EXPECT_EQ(got_s[i].node, all_s[i].node);
        for (std::size_t i = 0; i < all_g.size(); ++i) EXPECT_EQ(got_g[i].node, all_g[i].node);
        joins += int(all_s.size() + all_g.size());
        ++points;
      }
    }
  }
  std::printf("[ blocks   ] %d points, %d joins: the block lists hold the seen circles\n", points, joins);
  EXPECT_GT(joins, 1000);
}

// (6) A generated 128 x 128 map: every path valid, lengths consistent; build and query times logged.
TEST(TangentGraph, Generated128Timing) {
  for (const char* name : {"random-20-128", "rooms-16-128", "cave-45-128", "maze-4-128"}) {
    const std::string path = std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps/generated/" + name + ".map";
    Env e(load_movingai_map(path));
    for (double R : {0.5, 1.5}) {
      const auto t0 = std::chrono::steady_clock::now();
      const TangentGraph tg(e.fs, e.rv, R);
      const auto t1 = std::chrono::steady_clock::now();
      std::mt19937_64 rng(5);
      const auto q = random_queries(e, R, 20, rng);
      int found = 0;
      double query_ms = 0;
      for (auto [s, g] : q) {
        const auto a = std::chrono::steady_clock::now();
        const auto res = tg.shortest_path(s, g);
        query_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
        if (!res) continue;
        ++found;
        EXPECT_TRUE(e.rv.path_valid_radius(res->items, R));
        EXPECT_NEAR(items_length(res->items), res->length, 1e-9 * (1 + res->length));
      }
      std::printf("[ timing   ] %s R=%.1f: %zu circles, %zu vertices, %zu edges, build %.1f ms, %zu queries (%d paths) "
                  "mean query %.2f ms\n",
                  name, R, tg.circle_count(), tg.vertex_count(), tg.edge_count(),
                  std::chrono::duration<double, std::milli>(t1 - t0).count(), q.size(), found,
                  q.empty() ? 0.0 : query_ms / double(q.size()));
    }
  }
}

}  // namespace test_tangent_graph
