// visgraph: the pruned visibility graph against a brute-force reference (every pair of boundary
// vertices, full visibility, Dijkstra), the angular sweep against brute-force visibility, and
// real Moving AI maps (valid, at most the octile optimum, never no_path where the grid has a path).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <queue>
#include <random>

#include "datasets/movingai.hpp"
#include "geometry/exact.hpp"
#include "geometry/polygons.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "search/astar.hpp"

#include "support/data.hpp"
#include "support/hub_labels.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_visgraph {

using namespace navbench;
using testmaps::grid_from;
using testmaps::random_grid;

namespace {



// A free point: a cell centre (centre convention), a grid corner (corner convention) or arbitrary.
Point random_free_point(const FreeSpace& fs, const Map& m, std::mt19937_64& rng, int kind) {
  std::uniform_real_distribution<double> ux(m.min.x, m.max.x), uy(m.min.y, m.max.y);
  for (int tries = 0; tries < 10000; ++tries) {
    Point p{ux(rng), uy(rng)};
    if (kind == 0) p = {std::floor(p.x) + 0.5, std::floor(p.y) + 0.5};
    if (kind == 1) p = {std::round(p.x), std::round(p.y)};
    if (fs.point_free(p)) return p;
  }
  return {-1, -1};
}

// Brute force: nodes = every distinct boundary vertex (convex, concave, pinch), arcs = every
// visible pair, Dijkstra from s to g. Returns +inf when there is no path.
struct Reference {
  const FreeSpace& fs;
  std::vector<Point> nodes;
  std::vector<std::vector<std::pair<std::size_t, double>>> adj;
  std::size_t arcs = 0;
  explicit Reference(const FreeSpace& f) : fs(f) {
    for (const auto& r : fs.obstacle_rings())
      for (const Point& p : r) nodes.push_back(p);
    std::sort(nodes.begin(), nodes.end(), [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    adj.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
      for (std::size_t j = i + 1; j < nodes.size(); ++j)
        if (fs.segment_valid(nodes[i], nodes[j])) {
          adj[i].push_back({j, distance(nodes[i], nodes[j])});
          adj[j].push_back({i, distance(nodes[i], nodes[j])});
          ++arcs;
        }
  }
  double shortest(Point s, Point g) const {
    if (fs.segment_valid(s, g)) return distance(s, g);
    const std::size_t n = nodes.size();
    std::vector<double> d(n, std::numeric_limits<double>::infinity());
    using Item = std::pair<double, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
    for (std::size_t i = 0; i < n; ++i)
      if (fs.segment_valid(s, nodes[i])) {
        d[i] = distance(s, nodes[i]);
        pq.push({d[i], i});
      }
    double best = std::numeric_limits<double>::infinity();
    while (!pq.empty()) {
      auto [du, u] = pq.top();
      pq.pop();
      if (du > d[u] || du >= best) continue;
      if (fs.segment_valid(nodes[u], g)) best = std::min(best, du + distance(nodes[u], g));
      for (auto [v, w] : adj[u])
        if (du + w < d[v]) {
          d[v] = du + w;
          pq.push({d[v], v});
        }
    }
    return best;
  }
};

struct Solved {
  double cost;
  Polyline path;
};

Solved solve(const VisGraph& vg, Point s, Point g, bool by_role) {
  Query q;
  q.start = s;
  q.goal = g;
  auto as = by_role ? vg.attach_start(s) : vg.attach(s);
  auto ag = by_role ? vg.attach_goal(g) : vg.attach(g);
  EXPECT_TRUE(as && ag);
  q.s = *as;
  q.g = *ag;
  q.direct = vg.direct(q);
  if (q.s.component != q.g.component) return {std::numeric_limits<double>::infinity(), {}};
  SearchWorkspace ws;
  SearchStats st;
  const double c = astar(vg, q, Heuristic{}, ws, st);
  if (std::isinf(c)) return {c, {}};
  return {c, vg.polyline(q)};
}

// Compares visgraph (both taut settings, both attach styles) with the reference on random queries.
struct Counts {
  std::size_t boundary_pairs = 0;  // visible pairs of boundary vertices (the reference)
  std::size_t corner_pairs = 0;    // visible pairs of convex corners (the unpruned visibility graph)
  std::size_t pruned_pairs = 0;    // pairs of the pruned graph
  void print(const char* what) const {
    std::cout << "[ visgraph ] " << what << ": visible pairs of boundary vertices " << boundary_pairs
              << ", of convex corners " << corner_pairs << ", pruned graph " << pruned_pairs << " ("
              << 100.0 * (1.0 - double(pruned_pairs) / double(corner_pairs)) << "% fewer than the full corner graph)\n";
  }
};

void compare_with_reference(const Map& m, int queries, std::mt19937_64& rng, Counts& counts) {
  Params p1 = Params::parse("alt=0"), p0 = Params::parse("taut=0,alt=0");
  // The heuristic variants (ALT landmarks, the all-pairs table) must give the same optimum.
  Params pd, pa = Params::parse("alt=3"), pt = Params::parse("table=1,alt=0"), pat = Params::parse("taut=0,alt=2,table=1");
  // The hub labels (labels=1) answer without a search, over either vertex kind, with the links
  // bounded by the default 16 landmarks over the corners, by 3, or by none.
  Params pl = Params::parse("labels=1"), pl0 = Params::parse("taut=0,labels=1,alt=3"), pln = Params::parse("labels=1,alt=0");
  VisGraph taut(m, p1), plain(m, p0), def(m, pd), alt(m, pa), table(m, pt), plain_table(m, pat), labels(m, pl),
      plain_labels(m, pl0), labels_no_alt(m, pln);
  ASSERT_TRUE(alt.landmarks() || alt.graph().num_edges() == 0);
  ASSERT_TRUE(table.distance_table() || table.corners().empty());
  ASSERT_TRUE(labels.hub_labels() || labels.corners().empty());
  const FreeSpace& fs = taut.free_space();
  Reference ref(fs);
  counts.boundary_pairs += ref.arcs;
  counts.pruned_pairs += taut.pairs();
  const auto& c = taut.corners();
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = i + 1; j < c.size(); ++j) counts.corner_pairs += fs.segment_valid(c[i].at, c[j].at);
  ASSERT_EQ(taut.pairs(), plain.pairs());
  for (int i = 0; i < queries; ++i) {
    const int kind = i % 3;  // polygon maps too: their lattice points and centres attach by precomputed lists (points=1)
    const Point s = random_free_point(fs, m, rng, kind), g = random_free_point(fs, m, rng, kind);
    if (s.x < 0 || g.x < 0) continue;
    const double want = ref.shortest(s, g);
    for (const VisGraph* vg : {&taut, &plain, &def, &alt, &table, &plain_table, &labels, &plain_labels, &labels_no_alt})
      for (bool by_role : {false, true}) {
        const Solved got = solve(*vg, s, g, by_role);
        if (std::isinf(want)) {
          ASSERT_TRUE(std::isinf(got.cost)) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
          ASSERT_NE(fs.component(s), fs.component(g));
          continue;
        }
        ASSERT_NEAR(got.cost, want, 1e-9) << "taut " << vg->taut() << " role " << by_role << " " << s.x << ","
                                          << s.y << " -> " << g.x << "," << g.y;
        ASSERT_NEAR(polyline_length(got.path), want, 1e-9);
        ASSERT_TRUE(fs.path_valid(got.path));
      }
  }
}

}  // namespace

TEST(VisGraph, SweepFindsExactlyTheVisibleNodes) {
  std::mt19937_64 rng(99);
  long checked = 0, visible = 0;
  for (int t = 0; t < 40; ++t) {
    const int w = 8 + int(rng() % 20), h = 8 + int(rng() % 15);  // drawn in this order: a call's arguments are not
    Map m = random_grid(w, h, t % 2 ? 0.2 : 0.35, rng);
    Params p;
    VisGraph vg(m, p);
    const FreeSpace& fs = vg.free_space();
    const auto& c = vg.corners();
    GridFov fov(m.grid, c);
    for (int i = 0; i < 200; ++i) {
      const Point s = i < 60 && !c.empty() ? c[rng() % c.size()].at : random_free_point(fs, m, rng, i % 3);
      if (s.x < 0) continue;
      std::vector<std::uint32_t> sure, maybe;
      fov.scan(s, sure, maybe);
      for (std::uint32_t j : sure) ASSERT_TRUE(fs.segment_valid(s, c[j].at)) << "sure but not visible";
      std::vector<bool> found(c.size(), false);
      for (std::uint32_t j : sure) found[j] = true;
      for (std::uint32_t j : maybe) found[j] = true;
      for (std::uint32_t j = 0; j < c.size(); ++j) {
        const bool vis = fs.segment_valid(s, c[j].at);
        visible += vis;
        ++checked;
        ASSERT_TRUE(!vis || found[j]) << "map " << t << " from " << s.x << "," << s.y << " misses " << c[j].at.x << ","
                                      << c[j].at.y;
      }
    }
  }
  EXPECT_GT(visible, checked / 50);
}

TEST(VisGraph, BuildFindsEveryTangentVisiblePair) {
  // Every pair the graph joins is checked exactly when built, so equal counts mean equal sets.
  std::mt19937_64 rng(31);
  for (int t = 0; t < 40; ++t) {
    const int w = 5 + int(rng() % 25), h = 5 + int(rng() % 20);  // drawn in this order: a call's arguments are not
    Map gm = random_grid(w, h, t % 2 ? 0.15 : 0.35, rng);
    for (const Map& m : {gm, t % 4 == 0 ? grid_to_polygon_map(gm) : gm}) {
      Params p = Params::parse("skip=0");  // the full taut graph (skip=1, the default, searches a subset)
      VisGraph vg(m, p);
      const auto& c = vg.corners();
      const FreeSpace& fs = vg.free_space();
      auto tangent = [](const ConvexCorner& x, Point o) {
        return exact::orient2d(o, x.at, x.before) * exact::orient2d(o, x.at, x.after) >= 0;
      };
      std::size_t want = 0;
      for (std::size_t i = 0; i < c.size(); ++i)
        for (std::size_t j = i + 1; j < c.size(); ++j)
          want += tangent(c[i], c[j].at) && tangent(c[j], c[i].at) && fs.segment_valid(c[i].at, c[j].at);
      ASSERT_EQ(vg.pairs(), want) << "map " << t;
      EXPECT_EQ(vg.stats().edges, 2 * want);
    }
  }
}

TEST(VisGraph, MatchesBruteForceOnRandomGrids) {
  std::mt19937_64 rng(2024);
  Counts counts;
  for (int t = 0; t < 30; ++t) {
    const int w = 6 + int(rng() % 12), h = 6 + int(rng() % 10);  // drawn in this order: a call's arguments are not
    Map m = random_grid(w, h, t % 3 == 0 ? 0.4 : 0.25, rng);
    compare_with_reference(m, 40, rng, counts);
    if (HasFatalFailure()) return;
  }
  counts.print("random grids");
  EXPECT_LT(counts.pruned_pairs, counts.corner_pairs);
}

TEST(VisGraph, MatchesBruteForceOnHandDrawnAndPolygonMaps) {
  std::mt19937_64 rng(77);
  Counts counts;
  const std::vector<std::vector<std::string>> hand = {
      {"..........", ".@@@@@@@..", ".@.....@..", ".@.@@@.@..", ".@.@.@.@..", "...@...@..", ".@@@@@@@..", ".........."},
      {"....@.....", "....@.....", "..@@.@@...", "....@.....", "@..@...@..", ".@@....@@.", "..@.@....."},  // pinches
      {"@@@@@@@@", "@......@", "@.@@@@.@", "@.@..@.@", "@....@.@", "@@@@@@@@"},  // closed room with a U
      {"...@...", "...@...", "...@...", "......."},
  };
  for (const auto& rows : hand) {
    Map gm = grid_from(rows);
    compare_with_reference(gm, 60, rng, counts);
    if (HasFatalFailure()) return;
    Map pm = grid_to_polygon_map(gm);  // the same map as polygons: the rtree path
    compare_with_reference(pm, 30, rng, counts);
    if (HasFatalFailure()) return;
  }
  // Irregular polygons: two rooms, slanted walls, a triangle, overlapping obstacles, a hole.
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
  for (int k = 0; k < 3; ++k) compare_with_reference(m, 60, rng, counts);
  counts.print("hand-drawn and polygon maps");
  EXPECT_LT(counts.pruned_pairs, counts.corner_pairs);
}

// Polygon maps: the precomputed lists of the lattice points and cell centres (points=1) are what
// the triangular expansion gives there, tangency applied, on grids read as polygons, on a mesh of
// a grid's cells and on seeded slanted obstacles; visgraph with and without them attaches alike.
TEST(VisGraph, PointListsAreTheExpansionsLists) {
  std::mt19937_64 rng(64);
  std::vector<Map> maps;
  for (int t = 0; t < 3; ++t) maps.push_back(grid_to_polygon_map(random_grid(12 + t * 3, 9 + t, 0.3, rng)));
  if (auto mesh = testmaps::cells_mesh_map(random_grid(14, 10, 0.25, rng))) maps.push_back(*mesh);
  Map m;
  m.kind = MapKind::polygon;
  m.polygons.walkable.rings = {{{0, 0}, {30, 0}, {30, 20}, {0, 20}}};
  m.polygons.obstacles.push_back({{{{5, 3}, {12, 5.5}, {9, 11}, {4, 8}}}});
  m.polygons.obstacles.push_back({{{{14.5, 0}, {15.5, 0}, {15.5, 7}, {14.5, 7.5}}}});
  m.polygons.obstacles.push_back({{{{18, 2}, {27, 3.25}, {19, 4}}}});
  m.max = {30, 20};
  maps.push_back(m);
  std::size_t points = 0, listed = 0;
  for (const Map& pm : maps) {
    const FreeSpace fs(pm);
    const PointLists lists(fs, pm.min, pm.max, 2);
    Params p1 = Params::parse("points=1"), p0 = Params::parse("points=0");
    const VisGraph with(pm, p1), without(pm, p0);
    std::vector<std::uint32_t> want;
    for (double y = std::floor(pm.min.y); y <= std::ceil(pm.max.y); y += 0.5)
      for (double x = std::floor(pm.min.x); x <= std::ceil(pm.max.x); x += 0.5) {
        const Point p{x, y};
        const bool lattice = x == std::floor(x) && y == std::floor(y), centre = x != std::floor(x) && y != std::floor(y);
        const auto got = lists.find(p);
        ASSERT_EQ(got.has_value(), lattice || (centre && x < std::ceil(pm.max.x) && y < std::ceil(pm.max.y))) << x << "," << y;
        if (!fs.point_free(p)) continue;
        if (got) {
          PointLists::seen(fs, p, want);
          ASSERT_EQ(std::vector<std::uint32_t>(got->begin(), got->end()), want) << x << "," << y;
          ++points, listed += want.size();
        }
        ASSERT_EQ(with.visible_tangent_nodes(p), without.visible_tangent_nodes(p)) << x << "," << y;
      }
  }
  EXPECT_GT(points, 1000u);
  EXPECT_GT(listed, 5000u);
}

TEST(VisGraph, ComponentsAndBadPoints) {
  Map m = grid_from({"..@..", "..@..", "..@..", "..@.."});
  Params p;
  VisGraph vg(m, p);
  EXPECT_FALSE(vg.attach({2.5, 0.5}).has_value());
  EXPECT_FALSE(vg.attach({-1, 0}).has_value());
  auto a = vg.attach({0.5, 0.5}), b = vg.attach({4.5, 3.5});
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->component, b->component);
  Query q;
  q.start = {0.5, 0.5};
  q.goal = {4.5, 3.5};
  q.s = *a;
  q.g = *b;
  EXPECT_FALSE(vg.direct(q));
  Params bad = Params::parse("tuat=1");
  EXPECT_THROW(VisGraph(m, bad), std::invalid_argument);
}

TEST(VisGraphData, RealMapsValidAndAtMostOctile) {
  const std::string root = testdata::path("movingai");
  for (const char* name : {"dao/den520d", "dao/arena", "wc3/gardenofwar"}) NAVBENCH_REQUIRE_DATA(root + "/" + name + ".map.scen");
  for (const char* name : {"dao/den520d", "dao/arena", "wc3/gardenofwar"}) {
    Map m = load_movingai_map(root + "/" + name + ".map");
    Scenario sc = load_scenario(root + "/" + name + ".map.scen");
    Params p;
    VisGraph vg(m, p);
    const FreeSpace& fs = vg.free_space();
    const std::size_t N = 50;
    for (std::size_t i = 0; i < N; ++i) {
      const ScenarioLine& l = sc.lines[i * sc.lines.size() / N];
      const Point s{l.sx + 0.5, l.sy + 0.5}, g{l.gx + 0.5, l.gy + 0.5};
      if (!fs.point_free(s) || !fs.point_free(g)) continue;  // Warcraft III: start or goal blocked
      const Solved r = solve(vg, s, g, true);
      ASSERT_FALSE(std::isinf(r.cost)) << name << " query " << i << " solvable on the grid is no_path";
      EXPECT_TRUE(fs.path_valid(r.path)) << name << " query " << i;
      EXPECT_LE(r.cost, l.optimal + printed_tolerance(l) + 1e-9) << name << " query " << i;
      EXPECT_NEAR(polyline_length(r.path), r.cost, 1e-9);
      EXPECT_GE(r.cost, distance(s, g) - 1e-9);
      // Corner convention: the same cells' corners.
      const Point sc0{double(l.sx), double(l.sy)}, gc0{double(l.gx), double(l.gy)};
      const Solved rc = solve(vg, sc0, gc0, false);
      if (!std::isinf(rc.cost)) {
        EXPECT_TRUE(fs.path_valid(rc.path)) << name << " corner query " << i;
      } else {
        EXPECT_NE(fs.component(sc0), fs.component(gc0));
      }
    }
  }
}

// The heuristic variants on a real map: the same optimum as the plain graph, fewer expansions.
TEST(VisGraphData, HeuristicVariantsMatchOnRealMap) {
  const std::string path = testdata::path("movingai/dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  Map m = load_movingai_map(path);
  Scenario sc = load_scenario(path + ".scen");
  Params p0 = Params::parse("alt=0"), pa = Params::parse("alt=8"), pt = Params::parse("table=1,alt=0");
  VisGraph plain(m, p0), alt(m, pa), table(m, pt);
  SearchWorkspace ws;
  std::size_t exp_plain = 0, exp_alt = 0, exp_table = 0;
  const std::size_t N = 60;
  for (std::size_t i = 0; i < N; ++i) {
    const ScenarioLine& l = sc.lines[i * sc.lines.size() / N];
    const Point s{double(l.sx), double(l.sy)}, g{double(l.gx), double(l.gy)};  // corner convention
    auto run = [&](const VisGraph& vg, std::size_t& exp) {
      Query q;
      q.start = s;
      q.goal = g;
      q.s = *vg.attach_start(s);
      q.g = *vg.attach_goal(g);
      q.direct = vg.direct(q);
      SearchStats st;
      const double c = astar(vg, q, Heuristic{}, ws, st);
      exp += st.expansions;
      EXPECT_NEAR(polyline_length(vg.polyline(q)), c, 1e-9);
      return c;
    };
    const double want = run(plain, exp_plain);
    ASSERT_NEAR(run(alt, exp_alt), want, 1e-9) << "query " << i;
    ASSERT_NEAR(run(table, exp_table), want, 1e-9) << "query " << i;
  }
  EXPECT_LT(exp_alt, exp_plain);
  EXPECT_LT(exp_table, exp_alt);
}

// Every stride-th scenario query of `sc` in the corner and centre conventions, answered by `fast`'s
// table_search (no A*): it applies, and gives `plain`'s A* optimum with a valid path of that
// length. Returns the number of queries answered.
namespace {
std::size_t answers_as_plain_astar(VisGraph& fast, VisGraph& plain, const Scenario& sc, std::size_t stride) {
  SearchWorkspace ws;
  std::size_t answered = 0;
  for (std::size_t i = 0; i < sc.lines.size(); i += stride) {
    const ScenarioLine& l = sc.lines[i];
    for (const double off : {0.0, 0.5}) {  // corner and centre conventions
      const Point s{l.sx + off, l.sy + off}, g{l.gx + off, l.gy + off};
      Query q, r;
      q.start = r.start = s;
      q.goal = r.goal = g;
      q.s = *fast.attach_start(s);
      q.g = *fast.attach_goal(g);
      q.direct = fast.direct(q);
      r.s = *plain.attach_start(s);
      r.g = *plain.attach_goal(g);
      r.direct = plain.direct(r);
      std::size_t steps = 0;
      const std::optional<double> c = fast.table_search(q, steps);
      EXPECT_TRUE(c.has_value()) << "query " << i;
      if (!c) return answered;
      SearchStats st;
      const double want = astar(plain, r, Heuristic{}, ws, st);
      EXPECT_NEAR(*c, want, 1e-9) << "query " << i;
      const Polyline line = fast.polyline(q);
      EXPECT_NEAR(polyline_length(line), *c, 1e-9) << "query " << i;
      EXPECT_TRUE(fast.free_space().path_valid(line)) << "query " << i;
      if (::testing::Test::HasFailure()) return answered;
      ++answered;
    }
  }
  return answered;
}
}  // namespace

// table=1 answers from the table alone (table_search, no A*): it applies to every query of a real
// map, and gives the plain graph's optimum with a valid path of that length.
TEST(VisGraphData, TableSearchAnswersEveryQuery) {
  const std::string path = testdata::path("movingai/dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  Map m = load_movingai_map(path);
  Scenario sc = load_scenario(path + ".scen");
  Params pp = Params::parse("alt=0,block=0,skip=0,table=0"), pt;
  VisGraph plain(m, pp), table(m, pt);
  ASSERT_NE(table.distance_table(), nullptr);  // the default on den520d
  EXPECT_EQ(answers_as_plain_astar(table, plain, sc, 7), 2 * ((sc.lines.size() + 6) / 7));  // both conventions
}

// labels=1 answers from the hub labels alone (table_search, no A*) on every query of a map whose
// corners are too many for the default table, with the plain graph's optimum and a valid path of
// that length; the labels' corner distances equal Dijkstra's over the graph.
TEST(VisGraphData, LabelsSearchAnswersEveryQuery) {
  const std::string path = testdata::path("movingai/dao/brc202d.map");
  NAVBENCH_REQUIRE_DATA(path);
  Map m = load_movingai_map(path);
  Scenario sc = load_scenario(path + ".scen");
  Params pp = Params::parse("alt=0,block=0,skip=0,table=0"), pl = Params::parse("labels=1");
  VisGraph plain(m, pp), labels(m, pl);
  ASSERT_NE(labels.hub_labels(), nullptr);
  ASSERT_EQ(labels.distance_table(), nullptr);
  EXPECT_EQ(answers_as_plain_astar(labels, plain, sc, 5), 2 * ((sc.lines.size() + 4) / 5));
  // Corner to corner: the labels' distance is Dijkstra's over the tangent graph with one vertex per
  // corner (taut=0), the graph they are built on.
  Params p0 = Params::parse("taut=0,alt=0,block=0,skip=0,table=0");
  VisGraph one(m, p0);
  const auto& c = labels.corners();
  std::vector<double> d(num_vertices(one.graph()));
  std::size_t finite = 0;
  for (std::uint32_t a = 0; a < c.size(); a += 97) {
    const Vertex src = a;
    dijkstra(one.graph(), weight_map(one.graph()), std::span<const Vertex>(&src, 1), d);
    for (std::uint32_t b = 0; b < c.size(); b += 13) {
      const double got = labels.hub_labels()->distance(a, b);
      if (std::isinf(d[b])) {
        ASSERT_TRUE(std::isinf(got)) << a << " " << b;
        continue;
      }
      ASSERT_NEAR(got, d[b], 1e-9) << a << " " << b;
      ++finite;
    }
  }
  EXPECT_GT(finite, 1000u);
}

TEST(VisGraph, TableOverBudgetIsRefused) {
  Map m = grid_from({"..@..", ".....", "..@..", "....."});
  Params p = Params::parse("table=1,table_mb=1");
  EXPECT_NO_THROW(VisGraph(m, p));  // a few corners fit
  std::mt19937_64 rng(5);
  Map big = random_grid(120, 120, 0.3, rng);  // well over 512 corners: a table above 1 MiB
  Params q = Params::parse("table=1,table_mb=1");
  EXPECT_THROW(VisGraph(big, q), UnsupportedMap);
}

// labels_mb caps visgraph's hub labels as table_mb caps its table: refused above with a message
// naming the parameter, built at or under it.
TEST(VisGraph, HubLabelsAboveTheirCapAreRefused) {
  std::mt19937_64 rng(7);
  testlabels::expect_labels_mb_caps<VisGraph>(random_grid(120, 120, 0.3, rng));
}

// attach by per-block candidate lists (block=B): exactly the nodes a point sees with the line
// tangent at the node, as brute force finds them, for every block size and every kind of point.
TEST(VisGraph, BlockCandidatesFindExactlyTheTangentVisibleNodes) {
  std::mt19937_64 rng(4242);
  long found = 0;
  for (int t = 0; t < 40; ++t) {
    const int w = 6 + int(rng() % 30), h = 6 + int(rng() % 25);  // drawn in this order: a call's arguments are not
    Map m = random_grid(w, h, t % 2 ? 0.2 : 0.35, rng);
    const int B = 1 + t % 7;
    Params p = Params::parse("alt=0,block=" + std::to_string(B));
    VisGraph vg(m, p);
    const FreeSpace& fs = vg.free_space();
    const auto& c = vg.corners();
    auto tangent = [](const ConvexCorner& x, Point o) {
      return o == x.at || exact::orient2d(o, x.at, x.before) * exact::orient2d(o, x.at, x.after) >= 0;
    };
    for (int i = 0; i < 200; ++i) {
      // node positions, cell centres, grid corners, arbitrary points, and the map's border lines
      Point s = i < 40 && !c.empty() ? c[rng() % c.size()].at : random_free_point(fs, m, rng, i % 3);
      if (i % 17 == 0) s = {double(rng() % (m.grid.width + 1)), double(m.grid.height)};
      if (i % 19 == 0) s = {double(m.grid.width), double(rng() % (m.grid.height + 1))};
      if (s.x < 0 || !fs.point_free(s)) continue;
      std::vector<std::uint32_t> got = vg.visible_tangent_nodes(s), want;
      for (std::uint32_t j = 0; j < c.size(); ++j)
        if (tangent(c[j], s) && fs.segment_valid(s, c[j].at)) want.push_back(j);
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "map " << t << " block " << B << " from " << s.x << "," << s.y;
      found += long(want.size());
    }
  }
  EXPECT_GT(found, 1000);
}

// The same optimum as brute force with block attachments (and with the default sweep).
TEST(VisGraph, BlockVariantMatchesBruteForce) {
  std::mt19937_64 rng(909);
  for (int t = 0; t < 20; ++t) {
    const int w = 6 + int(rng() % 14), h = 6 + int(rng() % 12);  // drawn in this order: a call's arguments are not
    Map m = random_grid(w, h, t % 3 == 0 ? 0.4 : 0.25, rng);
    Params pb = Params::parse("block=" + std::to_string(1 + t % 5)), pa = Params::parse("block=4,alt=0");
    VisGraph blk(m, pb), blk0(m, pa);
    const FreeSpace& fs = blk.free_space();
    Reference ref(fs);
    for (int i = 0; i < 40; ++i) {
      const Point s = random_free_point(fs, m, rng, i % 3), g = random_free_point(fs, m, rng, (i + 1) % 3);
      if (s.x < 0 || g.x < 0) continue;
      const double want = ref.shortest(s, g);
      for (const VisGraph* vg : {&blk, &blk0})
        for (bool by_role : {false, true}) {
          const Solved got = solve(*vg, s, g, by_role);
          if (std::isinf(want)) {
            ASSERT_TRUE(std::isinf(got.cost));
            continue;
          }
          ASSERT_NEAR(got.cost, want, 1e-9) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
          ASSERT_TRUE(fs.path_valid(got.path));
        }
    }
  }
}

// The integer segment test (grid_los.hpp) agrees with FreeSpace::segment_valid whenever it answers.
TEST(VisGraph, GridLosAgreesWithSegmentValid) {
  std::mt19937_64 rng(515);
  long answered = 0, answered_corner = 0;
  for (int t = 0; t < 30; ++t) {
    const int w = 5 + int(rng() % 25), h = 5 + int(rng() % 20);  // drawn in this order: a call's arguments are not
    Map m = random_grid(w, h, t % 2 ? 0.2 : 0.4, rng);
    Params p = Params::parse("alt=0");
    VisGraph vg(m, p);
    const FreeSpace& fs = vg.free_space();
    GridLos los(m.grid);
    for (int i = 0; i < 100; ++i) {
      const Point s = i % 4 == 0 && !vg.corners().empty() ? vg.corners()[rng() % vg.corners().size()].at
                                                          : random_free_point(fs, m, rng, i % 3);
      if (s.x < 0) continue;
      for (const ConvexCorner& c : vg.corners()) {
        const GridLos::Result r = los.test(s, c.at);
        if (r == GridLos::unknown) continue;
        ++answered;
        ASSERT_EQ(r == GridLos::visible, fs.segment_valid(s, c.at)) << s.x << "," << s.y << " -> " << c.at.x << "," << c.at.y;
      }
      // Towards any grid corner (test_to_corner: a corner-convention goal), blocked all round,
      // on a wall or a pinch point (unknown) included.
      for (int k = 0; k < 20 && s.x >= 0; ++k) {
        const Point v{double(rng() % (m.grid.width + 1)), double(rng() % (m.grid.height + 1))};
        const GridLos::Result r = los.test_to_corner(s, v);
        if (los.is_pinch(v)) {
          ASSERT_EQ(r, GridLos::unknown) << v.x << "," << v.y;
        }
        if (r == GridLos::unknown) continue;
        ++answered_corner;
        ASSERT_EQ(r == GridLos::visible, fs.segment_valid(s, v)) << s.x << "," << s.y << " -> " << v.x << "," << v.y;
      }
    }
  }
  EXPECT_GT(answered, 10000);
  EXPECT_GT(answered_corner, 10000);
}

// GridLos with its free squares (clearance: the walk crosses a square of free cells at once, as
// visgraph's weighted build uses it) answers as the cell walk does: on open maps with sparse
// blocked cells, pinch points and walls, from corners, centres and nodes to nodes and grid corners.
TEST(VisGraph, GridLosSquaresAnswerAsTheCellWalk) {
  std::mt19937_64 rng(516);
  long jumped = 0, answered = 0;
  for (int t = 0; t < 12; ++t) {
    const int w = 60 + int(rng() % 80), h = 50 + int(rng() % 60);  // drawn in this order
    Map m = random_grid(w, h, t % 3 == 0 ? 0.0 : 0.004 * (t % 3), rng);
    GridMap& g = m.grid;
    // Pinch points (two diagonal blocked cells) and a wall with a gap.
    for (int k = 0; k < 6; ++k) {
      const int x = 1 + int(rng() % unsigned(g.width - 2)), y = 1 + int(rng() % unsigned(g.height - 2));
      g.cells[std::size_t(y) * g.width + x] = 0;
      g.cells[std::size_t(y + (k % 2 ? 1 : -1)) * g.width + x + 1] = 0;
    }
    const int wx = g.width / 3;
    for (int y = 0; y < g.height; ++y)
      if (y != g.height / 2) g.cells[std::size_t(y) * g.width + wx] = t % 2 ? 0 : g.cells[std::size_t(y) * g.width + wx];
    m = make_grid_map(g, "open");
    Params p = Params::parse("alt=0");
    VisGraph vg(m, p);
    const FreeSpace& fs = vg.free_space();
    const GridLos cells(m.grid), squares(m.grid, true);
    for (int i = 0; i < 60; ++i) {
      const Point s = i % 4 == 0 && !vg.corners().empty() ? vg.corners()[rng() % vg.corners().size()].at
                                                          : random_free_point(fs, m, rng, i % 3);
      if (s.x < 0) continue;
      std::vector<Point> ends;
      for (const ConvexCorner& c : vg.corners()) ends.push_back(c.at);
      for (int k = 0; k < 40; ++k) ends.push_back({double(rng() % (g.width + 1)), double(rng() % (g.height + 1))});
      for (const Point& v : ends) {
        std::uint64_t by_cell = 0, by_square = 0;
        const GridLos::Result a = cells.test_to_corner(s, v), b = squares.test_to_corner(s, v);
        const GridLos::Result a2 = cells.test(s, v, &by_cell), b2 = squares.test(s, v, &by_square);
        ASSERT_EQ(a, b) << s.x << "," << s.y << " -> " << v.x << "," << v.y;
        if (cells.is_pinch(v)) continue;  // test() expects a corner that is no pinch point
        ASSERT_EQ(a2, b2) << s.x << "," << s.y << " -> " << v.x << "," << v.y;
        if (b2 == GridLos::unknown) continue;
        ++answered;
        jumped += by_square < by_cell;
        ASSERT_EQ(b2 == GridLos::visible, fs.segment_valid(s, v)) << s.x << "," << s.y << " -> " << v.x << "," << v.y;
      }
    }
  }
  EXPECT_GT(answered, 20000);
  EXPECT_GT(jumped, answered / 4);  // the squares were crossed at once, often
}

// skip=1 (ENLSVG's edge levels and skip edges, skip_graph.hpp): the same optimum as brute force on
// random grids, hand-drawn maps and their polygon versions, with and without landmarks, with block
// attachments, both attach styles; every polyline valid and as long as the cost.
TEST(VisGraph, SkipVariantMatchesBruteForce) {
  std::mt19937_64 rng(1717);
  std::vector<Map> maps;
  for (int t = 0; t < 40; ++t) {
    const int w = 6 + int(rng() % 18), h = 6 + int(rng() % 14);  // drawn in this order: a call's arguments are not
    maps.push_back(random_grid(w, h, t % 3 == 0 ? 0.4 : t % 3 == 1 ? 0.25 : 0.12, rng));
  }
  const std::vector<std::vector<std::string>> hand = {
      {"..........", ".@@@@@@@..", ".@.....@..", ".@.@@@.@..", ".@.@.@.@..", "...@...@..", ".@@@@@@@..", ".........."},
      {"....@.....", "....@.....", "..@@.@@...", "....@.....", "@..@...@..", ".@@....@@.", "..@.@....."},  // pinches
      {"@@@@@@@@", "@......@", "@.@@@@.@", "@.@..@.@", "@....@.@", "@@@@@@@@"},  // closed room with a U
      {"...@...", "...@...", "...@...", "......."},
      {"..........", "..@@..@@..", "..@@..@@..", "..........", "..@@..@@..", "..@@..@@..", ".........."},  // pillars
      {"............", ".@@@@@@@@@@.", "............", ".@@@@@@@@@@.", "............"},  // corridors
  };
  for (const auto& rows : hand) {
    maps.push_back(grid_from(rows));
    maps.push_back(grid_to_polygon_map(grid_from(rows)));
  }
  std::size_t compared = 0, corners = 0, skip_corners = 0;
  for (const Map& m : maps) {
    const bool grid = m.kind == MapKind::grid;
    Params p1 = Params::parse("skip=1,alt=0"), p2 = Params::parse("skip=1"),
           p3 = Params::parse(grid ? "skip=1,block=3" : "skip=1,alt=4");
    VisGraph a(m, p1), b(m, p2), c(m, p3);
    corners += a.corners().size();
    skip_corners += a.skip_corners();
    const FreeSpace& fs = a.free_space();
    Reference ref(fs);
    for (int i = 0; i < 40; ++i) {
      const int kind = grid ? i % 3 : 2;
      Point s = random_free_point(fs, m, rng, kind), g = random_free_point(fs, m, rng, (kind + 1) % 3);
      if (i % 5 == 0 && !a.corners().empty()) s = a.corners()[rng() % a.corners().size()].at;  // at a corner
      if (s.x < 0 || g.x < 0 || !fs.point_free(s) || !fs.point_free(g)) continue;
      const double want = ref.shortest(s, g);
      for (const VisGraph* vg : {&a, &b, &c})
        for (bool by_role : {true, false}) {
          const Solved got = solve(*vg, s, g, by_role);
          if (std::isinf(want)) {
            ASSERT_TRUE(std::isinf(got.cost)) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
            continue;
          }
          ASSERT_NEAR(got.cost, want, 1e-9) << "role " << by_role << " " << s.x << "," << s.y << " -> " << g.x << ","
                                            << g.y;
          ASSERT_NEAR(polyline_length(got.path), want, 1e-9) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
          ASSERT_TRUE(fs.path_valid(got.path)) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
          ++compared;
        }
    }
  }
  std::cout << "[ visgraph ] skip=1: " << compared << " queries equal to brute force; skip vertices " << skip_corners
            << " of " << corners << " corners\n";
  EXPECT_GT(compared, 5000u);
  EXPECT_LT(skip_corners, corners);
  Params bad = Params::parse("skip=1,taut=0");
  EXPECT_THROW(VisGraph(grid_from({"..@..", "....."}), bad), std::invalid_argument);
}

// skip=1 on a real map: the plain graph's optimum on every query, a much smaller searched graph.
TEST(VisGraphData, SkipVariantMatchesDefaultOnRealMap) {
  const std::string path = testdata::path("movingai/dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  Map m = load_movingai_map(path);
  Scenario sc = load_scenario(path + ".scen");
  Params pd = Params::parse("skip=0,block=0"), ps = Params::parse("skip=1,block=0"), pb = Params::parse("skip=1,block=4,alt=0");
  VisGraph def(m, pd), skip(m, ps), skip_block(m, pb);
  const FreeSpace& fs = def.free_space();
  SearchWorkspace ws;
  std::size_t exp_def = 0, exp_skip = 0;
  const std::size_t N = 200;
  for (std::size_t i = 0; i < N; ++i) {
    const ScenarioLine& l = sc.lines[i * sc.lines.size() / N];
    const Point s{double(l.sx), double(l.sy)}, g{double(l.gx), double(l.gy)};  // corner convention
    auto run = [&](const VisGraph& vg, std::size_t& exp) {
      Query q;
      q.start = s;
      q.goal = g;
      q.s = *vg.attach_start(s);
      q.g = *vg.attach_goal(g);
      q.direct = vg.direct(q);
      SearchStats st;
      const double c = astar(vg, q, Heuristic{}, ws, st);
      exp += st.expansions;
      const Polyline pl = vg.polyline(q);
      EXPECT_NEAR(polyline_length(pl), c, 1e-9) << "query " << i;
      EXPECT_TRUE(fs.path_valid(pl)) << "query " << i;
      return c;
    };
    std::size_t unused = 0;
    const double want = run(def, exp_def);
    ASSERT_NEAR(run(skip, exp_skip), want, 1e-9) << "query " << i;
    ASSERT_NEAR(run(skip_block, unused), want, 1e-9) << "query " << i;
  }
  std::cout << "[ visgraph ] den520d skip=1: " << skip.skip_corners() << " skip vertices of " << skip.corners().size()
            << " corners, " << skip.graph().num_edges() << " skip arcs of " << def.graph().num_edges() << " arcs, "
            << skip.levels() << " levels; expansions " << exp_skip << " vs " << exp_def << "\n";
  EXPECT_LT(skip.graph().num_edges(), def.graph().num_edges());
}

// skip=1 on grid maps marks the arcs from a query point by angular ranges (each state's arcs sorted
// by angle, the taut continuations one contiguous range): the same states at the same distances as
// testing every arc with the exact predicates, for cell centres, cell corners, map corners and
// arbitrary points (the latter take the predicates), on random grids and on den520d.
TEST(VisGraph, SkipAngularRangesMatchEveryArcTest) {
  std::mt19937_64 rng(2929);
  std::vector<Map> maps;
  for (int t = 0; t < 30; ++t) {
    const int w = 8 + int(rng() % 20), h = 8 + int(rng() % 16);  // drawn in this order: a call's arguments are not
    maps.push_back(random_grid(w, h, t % 3 == 0 ? 0.35 : t % 3 == 1 ? 0.2 : 0.1, rng));
  }
  const std::string den = testdata::path("movingai/dao/den520d.map");
  if (testdata::optional(den)) maps.push_back(load_movingai_map(den));
  std::size_t compared = 0, links = 0;
  for (const Map& m : maps) {
    Params p = Params::parse("skip=1,alt=0");
    VisGraph vg(m, p);
    const FreeSpace& fs = vg.free_space();
    for (int i = 0; i < (m.grid.width > 100 ? 400 : 60); ++i) {
      Point s = random_free_point(fs, m, rng, i % 3);
      if (i % 4 == 3 && !vg.corners().empty()) s = vg.corners()[rng() % vg.corners().size()].at;
      if (s.x < 0 || !fs.point_free(s)) continue;
      auto by_vertex = [](std::vector<Link> v) {
        std::sort(v.begin(), v.end(), [](const Link& a, const Link& b) { return a.vertex < b.vertex; });
        return v;
      };
      const std::vector<Link> fast = by_vertex(vg.skip_reach(s, false)), ref = by_vertex(vg.skip_reach(s, true));
      ASSERT_EQ(fast.size(), ref.size()) << s.x << "," << s.y;
      for (std::size_t k = 0; k < fast.size(); ++k) {
        ASSERT_EQ(fast[k].vertex, ref[k].vertex) << s.x << "," << s.y;
        ASSERT_NEAR(fast[k].cost, ref[k].cost, 1e-9) << s.x << "," << s.y;
      }
      links += fast.size();
      ++compared;
    }
  }
  std::cout << "[ visgraph ] skip=1 angular ranges: " << compared << " points, " << links << " links equal\n";
  EXPECT_GT(compared, 1000u);
}

// The skip graph's edge levels (ENLSVG's peeling, skip_graph.cpp, which counts and walks an arc's
// taut continuations as one range of its head's arcs by angle) against the definition: round k
// gives level k to every arc not yet given one of which one direction has no taut continuation
// (TautSkipGraph::taut, the exact predicates; never straight back to its source corner) among
// the arcs without a level; the arcs never peeled keep the top level. Random grids, every arc.
TEST(VisGraph, SkipLevelsAreTheDefinitionsPeeling) {
  std::mt19937_64 rng(8282);
  std::size_t arcs = 0, peeled = 0;
  for (int t = 0; t < 24; ++t) {
    const int w = 8 + int(rng() % 24), h = 8 + int(rng() % 16);
    const Map m = random_grid(w, h, t % 3 == 0 ? 0.3 : t % 3 == 1 ? 0.18 : 0.08, rng);
    Params p = Params::parse("skip=1,alt=0");
    const VisGraph vg(m, p);
    const auto& c = vg.corners();
    const CsrGraph& g = vg.taut_graph();
    const std::size_t n = num_vertices(g), na = g.num_edges();
    std::vector<Vertex> src(na), head(na);
    std::vector<std::uint32_t> opp(na);
    for (Vertex u = 0; u < n; ++u)
      for (auto [it, end] = out_edges(u, g); it != end; ++it) src[(*it).index] = u, head[(*it).index] = target(*it, g);
    for (std::uint32_t e = 0; e < na; ++e)
      for (auto [it, end] = out_edges(head[e] ^ 1, g); it != end; ++it)
        if (target(*it, g) == (src[e] ^ 1)) opp[e] = std::uint32_t((*it).index);
    std::vector<std::vector<std::uint32_t>> succ(na);
    for (std::uint32_t e = 0; e < na; ++e)
      for (auto [it, end] = out_edges(head[e], g); it != end; ++it) {
        const Vertex x = target(*it, g);
        if ((x >> 1) != (src[e] >> 1) && TautSkipGraph::taut(c[src[e] >> 1].at, c[head[e] >> 1], c[x >> 1].at))
          succ[e].push_back(std::uint32_t((*it).index));
      }
    std::vector<std::uint32_t> level(na, TautSkipGraph::kTop);
    std::uint32_t rounds = 0;
    for (std::uint32_t k = 1;; ++k) {
      auto stuck = [&](std::uint32_t e) {
        for (std::uint32_t s : succ[e])
          if (level[s] == TautSkipGraph::kTop) return false;
        return true;
      };
      std::vector<std::uint32_t> now;
      for (std::uint32_t e = 0; e < na; ++e)
        if (level[e] == TautSkipGraph::kTop && (stuck(e) || stuck(opp[e]))) now.push_back(e);
      if (now.empty()) break;
      for (std::uint32_t e : now) level[e] = level[opp[e]] = k;
      rounds = k;
    }
    // (levels() counts the peeling's rounds, one more when its last round met only arcs whose
    // reverse was peeled the round before: at least the highest finite level.)
    EXPECT_GE(vg.levels(), rounds);
    for (std::uint32_t e = 0; e < na; ++e) ASSERT_EQ(vg.skip_level(e), level[e]) << "map " << t << ", arc " << e;
    arcs += na;
    for (std::uint32_t e = 0; e < na; ++e) peeled += level[e] != TautSkipGraph::kTop;
  }
  EXPECT_GT(peeled, arcs / 4);         // most levels finite: the rounds do the work
  EXPECT_LT(peeled, arcs);             // and some arcs stay at the top level
}

}  // namespace test_visgraph
