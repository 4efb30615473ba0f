// Weighted maps (docs/terrain.md): the terrain table and cost layer readers, the exact path-cost
// integral against fine sampling, grid4/grid8 against an independent Dijkstra, the octile
// reference, weight 1 = the unweighted rows, cost-aware los, and the representations that
// answer not_applicable.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <queue>
#include <random>
#include <sstream>

#include "datasets/terrain.hpp"
#include "geometry/free_space.hpp"
#include "geometry/path_cost.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/prepared_map.hpp"
#include "search/planner.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "smoothing/smoothing.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_terrain {

using namespace navbench;
namespace fs = std::filesystem;

namespace {

using testmaps::dijkstra8;
using testmaps::free_cells;
using testmaps::weighted_grid;

// C by sampling n midpoints: each sample weighs the cell it falls in (points on a grid line are
// avoided by the irrational offset); error <= (crossings) * step * (wmax - wmin).
double sampled_cost(const GridMap& g, Point a, Point b, int n) {
  const double len = distance(a, b);
  double c = 0;
  for (int i = 0; i < n; ++i) {
    const double t = (i + 0.5 + 1e-7 * M_SQRT2) / n;
    const double x = a.x + t * (b.x - a.x), y = a.y + t * (b.y - a.y);
    const int cx = int(std::floor(x)), cy = int(std::floor(y));
    auto w = [&](int px, int py) { return g.passable(px, py) ? g.weight(px, py) : 1e9; };
    double v = w(cx, cy);
    // On a grid line (a segment along a cell side): the cheaper of the two cells beside it.
    if (a.y == b.y && a.y == std::floor(a.y)) v = std::min(w(cx, int(a.y) - 1), w(cx, int(a.y)));
    if (a.x == b.x && a.x == std::floor(a.x)) v = std::min(w(int(a.x) - 1, cy), w(int(a.x), cy));
    c += (len / n) * v;
  }
  return c;
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("navbench_terrain_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(Terrain, TableParsesAndRefuses) {
  const TerrainTable t = parse_terrain("S=2,W=5.5");
  ASSERT_EQ(t.weights.size(), 2u);
  EXPECT_EQ(t.weights[0], (std::pair<char, double>{'S', 2}));
  EXPECT_EQ(t.weights[1], (std::pair<char, double>{'W', 5.5}));
  for (const char* bad : {"", "S", "S=", "S=0.5", "S=x", "SS=2", "@=2", "T=3", "O=2", "S=2,S=3", "S=2,", "S=inf", "S=nan"})
    EXPECT_THROW(parse_terrain(bad), std::invalid_argument) << bad;
}

TEST(Terrain, MapWithTableMakesNamedCharactersPassable) {
  std::istringstream in("type octile\nheight 1\nwidth 5\nmap\n.SWT@\n");
  const TerrainTable t = parse_terrain("S=2,W=5");
  const GridMap g = read_movingai_map(in, "t.map", &t);
  EXPECT_EQ(g.cells, (std::vector<std::uint8_t>{1, 1, 1, 0, 0}));
  EXPECT_DOUBLE_EQ(g.weight(0, 0), 1);
  EXPECT_DOUBLE_EQ(g.weight(1, 0), 2);
  EXPECT_DOUBLE_EQ(g.weight(2, 0), 5);
}

TEST(Terrain, CostLayerReadsAndRefuses) {
  std::istringstream ok("type costs\nheight 2\nwidth 3\ncosts\n1 2.5 inf\n1 1 3\n\n");
  const auto w = read_cost_layer(ok, "c", 3, 2);
  EXPECT_DOUBLE_EQ(w[1], 2.5);
  EXPECT_TRUE(std::isinf(w[2]));
  const char* bad[] = {"type costs\nheight 2\nwidth 3\ncosts\n1 2 3\n",                 // a row short
                       "type costs\nheight 2\nwidth 4\ncosts\n1 2 3 4\n1 1 1 1\n",     // another size
                       "type costs\nheight 2\nwidth 3\ncosts\n1 0.5 3\n1 1 1\n",       // below 1
                       "type costs\nheight 2\nwidth 3\ncosts\n1 2\n1 1 1\n",           // a row of 2
                       "type octile\nheight 2\nwidth 3\ncosts\n1 2 3\n1 1 1\n",        // not costs
                       "type costs\nheight 2\nwidth 3\ncosts\n1 2 3\n1 1 1\n1 1 1\n"};  // an extra row
  for (const char* b : bad) {
    std::istringstream in(b);
    EXPECT_THROW(read_cost_layer(in, "c", 3, 2), base::InputError) << b;
  }
}

TEST(Terrain, SegmentCostEqualsFineSampling) {
  std::mt19937_64 rng(7);
  for (int m = 0; m < 10; ++m) {
    Map map = weighted_grid(24, 18, 0.0, rng);  // no obstacles: every segment lies in free cells
    std::uniform_real_distribution<double> X(0, 24), Y(0, 18);
    for (int k = 0; k < 60; ++k) {
      Point a{X(rng), Y(rng)}, b{X(rng), Y(rng)};
      if (k % 5 == 0) a = {std::floor(a.x), std::floor(a.y)}, b = {std::floor(b.x), std::floor(b.y)};  // through corners
      const int n = 200000;
      const double exact = segment_cost(map.grid, a, b);
      const double crossings = std::abs(b.x - a.x) + std::abs(b.y - a.y) + 2;
      const double bound = crossings * (distance(a, b) / n) * 4 + 1e-9;
      EXPECT_NEAR(exact, sampled_cost(map.grid, a, b, n), bound) << a.x << "," << a.y << " -> " << b.x << "," << b.y;
    }
  }
}

TEST(Terrain, BordersWeighTheCheaperSide) {
  GridMap g;
  g.width = 2, g.height = 2;
  g.cells = {1, 1, 1, 1};
  g.weights = {3, 1, 2, 5};  // (0,0)=3 (1,0)=1 (0,1)=2 (1,1)=5
  EXPECT_DOUBLE_EQ(segment_cost(g, {0, 1}, {1, 1}), 2);    // between 3 and 2
  EXPECT_DOUBLE_EQ(segment_cost(g, {1, 0}, {1, 1}), 1);    // between 3 and 1
  EXPECT_DOUBLE_EQ(segment_cost(g, {1, 1}, {1, 2}), 2);    // between 2 and 5
  EXPECT_DOUBLE_EQ(segment_cost(g, {0, 0}, {2, 0}), 3 + 1);  // the map's top border: the inside cells
  EXPECT_NEAR(segment_cost(g, {0, 0}, {2, 2}), M_SQRT2 * 3 + M_SQRT2 * 5, 1e-12);  // through the corner
  EXPECT_DOUBLE_EQ(segment_cost(g, {0.5, 0.5}, {0.5, 0.5}), 0);
  EXPECT_DOUBLE_EQ(least_weight(g), 1);
}

TEST(Terrain, GridsAreExactOnWeightedMaps) {
  std::mt19937_64 rng(11);
  for (int m = 0; m < 8; ++m) {
    Map map = weighted_grid(30, 22, 0.25, rng);
    const AgentSpace space(map, Agent{});
    const CostModel cost(map);
    const MapContext ctx = map_context(map, "center");
    EXPECT_EQ(cost.terrain(), "test");
    auto cells = free_cells(map.grid);
    for (const char* name : {"grid8", "grid4"}) {
      const RepresentationEntry* e = find_representation(name);
      ASSERT_TRUE(e && e->caps.weights);
      Params p;
      auto rep = e->build(map, p);
      rep->prepare();
      for (int k = 0; k < 25; ++k) {
        auto [sx, sy] = cells[rng() % cells.size()];
        auto [gx, gy] = cells[rng() % cells.size()];
        QueryInput in;
        in.start = {sx + 0.5, sy + 0.5};
        in.goal = {gx + 0.5, gy + 0.5};
        const double want8 = dijkstra8(map.grid, sx, sy, gx, gy);
        if (std::isfinite(want8)) in.octile_optimal_cost = want8;
        const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = name,
                                     .heuristic = parse_heuristic("euclidean"), .smoothings = {"none", "los"},
                                     .rep = rep.get(), .caps = e->caps}, in);
        ASSERT_EQ(rows.size(), 2u);
        if (!std::isfinite(want8)) {
          EXPECT_EQ(rows[0].status, Status::no_path);
          continue;
        }
        ASSERT_EQ(rows[0].status, Status::ok);
        EXPECT_EQ(rows[0].terrain, "test");
        ASSERT_TRUE(rows[0].cost && rows[0].raw_cost && rows[1].cost);
        EXPECT_EQ(rows[0].octile_optimal_cost, want8);
        // grid8's cost is the octile optimum; grid4's is no less.
        if (std::string(name) == "grid8") EXPECT_NEAR(*rows[0].cost, want8, 1e-9 * want8);
        else EXPECT_GE(*rows[0].cost, want8 - 1e-9 * want8);
        // (That the costs are the paths' integrals and los never raises them: test_battery_weights.cpp.)
      }
    }
  }
}

TEST(Terrain, WeightOneIsTheUnweightedMap) {
  std::mt19937_64 rng(5);
  for (int m = 0; m < 4; ++m) {
    Map plain = testmaps::random_grid(40, 30, 0.3, rng);
    Map ones = plain;
    ones.grid.weights.assign(ones.grid.cells.size(), 1.0);
    ones.terrain = "S=1";
    const AgentSpace space_plain(plain, Agent{}), space_ones(ones, Agent{});
    const CostModel cost_plain(plain), cost_ones(ones);
    auto cells = free_cells(plain.grid);
    for (const char* name : {"grid8", "grid4"}) {
      const RepresentationEntry* e = find_representation(name);
      Params p1, p2;
      auto a = e->build(plain, p1), b = e->build(ones, p2);
      a->prepare();
      b->prepare();
      for (int k = 0; k < 30; ++k) {
        auto [sx, sy] = cells[rng() % cells.size()];
        auto [gx, gy] = cells[rng() % cells.size()];
        QueryInput in;
        in.start = {sx + 0.5, sy + 0.5};
        in.goal = {gx + 0.5, gy + 0.5};
        const auto h = parse_heuristic("euclidean");
        const auto ra = run_query({.map = map_context(plain, "center"), .space = space_plain, .cost = cost_plain, .rep_text = name,
                                   .heuristic = h, .smoothings = {"none", "los"},
                                   .rep = a.get(),
                                   .caps = e->caps, .keep_paths = true}, in);
        const auto rb = run_query({.map = map_context(ones, "center"), .space = space_ones, .cost = cost_ones, .rep_text = name,
                                   .heuristic = h, .smoothings = {"none", "los"},
                                   .rep = b.get(), .caps = e->caps, .keep_paths = true}, in);
        ASSERT_EQ(ra.size(), rb.size());
        for (std::size_t i = 0; i < ra.size(); ++i) {
          EXPECT_EQ(ra[i].status, rb[i].status);
          EXPECT_EQ(ra[i].length, rb[i].length);
          EXPECT_EQ(ra[i].expansions, rb[i].expansions);
          EXPECT_EQ(ra[i].path, rb[i].path);
          EXPECT_FALSE(ra[i].cost);
          if (rb[i].status == Status::ok) { EXPECT_NEAR(*rb[i].cost, *rb[i].length, 1e-9 * *rb[i].length); }
        }
      }
    }
  }
}

TEST(Terrain, OtherRepresentationsAnswerNotApplicable) {
  std::mt19937_64 rng(3);
  Map map = weighted_grid(20, 20, 0.1, rng);
  const AgentSpace space(map, Agent{});
  const CostModel cost(map);
  auto cells = free_cells(map.grid);
  QueryInput in;
  in.start = {cells.front().first + 0.5, cells.front().second + 0.5};
  in.goal = {cells.back().first + 0.5, cells.back().second + 0.5};
  for (const auto& e : representations()) {
    if (e.caps.weights) continue;
    Params p;
    std::unique_ptr<Planner> rep;
    try {
      rep = e.build(map, p);
    } catch (const UnsupportedMap&) {
      continue;
    }
    rep->prepare();
    for (const ResultRow& r : run_query({.map = map_context(map, "center"), .space = space, .cost = cost, .rep_text = e.name,
                                         .heuristic = parse_heuristic("euclidean"), .smoothings = {"none"},
                                         .rep = rep.get(), .caps = e.caps}, in)) {
      EXPECT_EQ(r.status, Status::not_applicable) << e.name;
      EXPECT_NE(r.message.find("terrain"), std::string::npos) << r.message;
    }
  }
}

TEST(Terrain, PreparedMapComputesTheOctileReference) {
  std::mt19937_64 rng(9);
  const fs::path dir = temp_dir("prep");
  Map plain = testmaps::random_grid(32, 24, 0.2, rng);
  {
    std::ofstream f(dir / "m.map");
    write_movingai_map(f, plain.grid);
  }
  CostLayerOptions o;
  o.kind = "regions";
  o.seed = 4;
  GridMap g = plain.grid;
  g.weights = generate_cost_layer(g, o);
  {
    std::ofstream f(dir / "m.costs");
    write_cost_layer(f, g);
  }
  QuerySelection sel;
  sel.queries = 30;
  sel.weights.costs = (dir / "m.costs").string();
  PreparedMap pm = prepare_map((dir / "m.map").string(), sel);
  EXPECT_EQ(pm.map.terrain, "m.costs");
  EXPECT_TRUE(pm.map.grid.weighted());
  const AgentMap am(pm, Agent{}, {.optimum = false});  // the octile costs come without the optimum too
  int checked = 0;
  for (const QueryInput& q : am.queries()) {
    const double want = dijkstra8(pm.map.grid, int(q.start.x), int(q.start.y), int(q.goal.x), int(q.goal.y));
    if (!std::isfinite(want)) {
      EXPECT_FALSE(q.octile_optimal_cost);
      continue;
    }
    ASSERT_TRUE(q.octile_optimal_cost);
    EXPECT_NEAR(*q.octile_optimal_cost, want, 1e-9 * want);
    ++checked;
  }
  EXPECT_GT(checked, 10);
  fs::remove_all(dir);
}

TEST(Terrain, GeneratedLayers) {
  std::mt19937_64 rng(2);
  Map m = testmaps::random_grid(40, 30, 0.15, rng);
  CostLayerOptions inf;
  const auto w = generate_cost_layer(m.grid, inf);
  double hi = 0;
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) {
      const double v = w[std::size_t(y) * 40 + x];
      EXPECT_GE(v, 1);
      EXPECT_LE(v, inf.wmax);
      if (m.grid.passable(x, y)) hi = std::max(hi, v);
    }
  // A free cell beside a blocked one (distance 1 between centres) weighs 1 + 4 exp(-1/3), rounded.
  EXPECT_NEAR(hi, std::round((1 + 4 * std::exp(-1.0 / 3)) * 100) / 100, 1e-12);
  CostLayerOptions reg;
  reg.kind = "regions";
  EXPECT_EQ(generate_cost_layer(m.grid, reg), generate_cost_layer(m.grid, reg));  // seeded
  reg.seed = 2;
  const auto w2 = generate_cost_layer(m.grid, reg);
  // Round trip through the file format.
  GridMap g = m.grid;
  g.weights = w2;
  std::stringstream s;
  write_cost_layer(s, g);
  const auto back = read_cost_layer(s, "s", 40, 30);
  for (std::size_t i = 0; i < back.size(); ++i) {
    if (g.cells[i]) {
      EXPECT_DOUBLE_EQ(back[i], w2[i]);
    } else {
      EXPECT_TRUE(std::isinf(back[i]));
    }
  }
}

TEST(Terrain, AnyAngleSearchPricesShortcutsByCost) {
  std::mt19937_64 rng(13);
  int cheaper = 0, total = 0;
  for (int m = 0; m < 6; ++m) {
    Map map = weighted_grid(30, 24, 0.2, rng);
    const AgentSpace space(map, Agent{});
    const CostModel cost(map);
    const MapContext ctx = map_context(map, "center");
    auto cells = free_cells(map.grid);
    const RepresentationEntry* e = find_representation("grid8");
    Params p;
    auto rep = e->build(map, p);
    rep->prepare();
    for (int k = 0; k < 20; ++k) {
      auto [sx, sy] = cells[rng() % cells.size()];
      auto [gx, gy] = cells[rng() % cells.size()];
      QueryInput in;
      in.start = {sx + 0.5, sy + 0.5};
      in.goal = {gx + 0.5, gy + 0.5};
      const double octile = dijkstra8(map.grid, sx, sy, gx, gy);
      if (!std::isfinite(octile)) continue;
      for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta}) {
        const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = "grid8",
                                     .heuristic = parse_heuristic("euclidean"), .smoothings = {"none", "los"},
                                     .rep = rep.get(), .search = mode, .caps = e->caps, .keep_paths = true}, in);
        ASSERT_EQ(rows[0].status, Status::ok) << rows[0].message;
        EXPECT_EQ(rows[0].valid, true);
        // Every edge is relaxed beside the shortcuts: never dearer than the octile optimum.
        EXPECT_LE(*rows[0].cost, octile * (1 + 1e-9));
        // (The search's cost of the goal is its path's integral: test_battery_weights.cpp.)
        cheaper += *rows[0].cost < octile * (1 - 1e-9);
        ++total;
      }
    }
  }
  EXPECT_GT(cheaper, total / 3);  // shortcuts pay off on most queries
}

TEST(Terrain, CellsDoNotStraddleWeightBorders) {
  // A free 8 x 8 map whose left half weighs 1 and right half 3: no cell may straddle x = 4.
  Map map = testmaps::grid_from(std::vector<std::string>(8, "........"));
  map.grid.weights.assign(64, 1.0);
  for (int y = 0; y < 8; ++y)
    for (int x = 4; x < 8; ++x) map.grid.weights[std::size_t(y) * 8 + x] = 3;
  map.terrain = "test";
  for (const char* name : {"navmesh", "navmesh-vertices"}) {  // the border is a constraint: no edge crosses it
    Params p;
    for (const Segment& s : structure(*find_representation(name)->build(map, p))) {
      const double x0 = std::min(s.a.x, s.b.x), x1 = std::max(s.a.x, s.b.x);
      EXPECT_FALSE(x0 < 4 && x1 > 4) << name << ": an edge crosses the weight border: " << x0 << ".." << x1;
    }
  }
  Params p;
  auto rep = find_representation("quadtree")->build(map, p);
  for (const Segment& s : structure(*rep)) {
    const double x0 = std::min(s.a.x, s.b.x), x1 = std::max(s.a.x, s.b.x);
    EXPECT_FALSE(x0 < 4 && x1 > 4) << "a cell side crosses the weight border: " << x0 << ".." << x1;
  }
  Map plain = testmaps::grid_from(std::vector<std::string>(8, "........"));
  Params p2;
  auto one = find_representation("quadtree")->build(plain, p2);
  EXPECT_LT(structure(*one).size(), structure(*rep).size());  // unweighted: one 8 x 8 cell
}

}  // namespace test_terrain
