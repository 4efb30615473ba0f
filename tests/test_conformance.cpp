// One test battery for every registered representation (as OMPL's OMPL_PLANNER_TEST): each case
// runs once per registry entry, so `ctest -N` lists every representation by name and a
// representation that skipped the battery cannot hide.
#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <limits>
#include <map>
#include <random>

#include "geometry/distance.hpp"
#include "geometry/free_space.hpp"
#include "geometry/path_cost.hpp"
#include "geometry/polygons.hpp"
#include "geometry/steiner_reference.hpp"
#include "geometry/tangent_graph.hpp"
#include "datasets/dynamic.hpp"
#include "datasets/generate.hpp"
#include "datasets/generate_dynamic.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/timed_build.hpp"
#include "harness/registry/make_entry.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/run.hpp"
#include "docs/example/tile_graph.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "test_maps.hpp"

using namespace navbench;

namespace {

Map grid(const std::vector<std::string>& rows, const std::string& name) {
  GridMap g;
  g.height = int(rows.size());
  g.width = int(rows[0].size());
  for (auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return make_grid_map(g, name, "conformance");
}

struct Case {
  Point s, g;
  Status expect;
  double optimal;  // worked out by hand; < 0 = not checked
};

}  // namespace
namespace navbench {
void PrintTo(const RepresentationEntry& e, std::ostream* os) { *os << e.name; }
}  // namespace navbench
namespace {

// Every registry entry, plus the walk-through's example representation (docs/), which is not registered.
std::vector<RepresentationEntry> entries() {
  std::vector<RepresentationEntry> out = representations();
  out.push_back(make_entry<example::Tiles>("tiles", "docs example: 4-connected CSR tile graph"));
  // Registered representations with parameters that change their structure run the battery too.
  // ("subgoal" itself is the all-pairs table on these small maps, levels=16 on large ones.)
  for (const char* spec : {"subgoal:levels=1", "subgoal:levels=2", "subgoal:levels=16", "navmesh-tiles:tile=3", "navmesh-tiles:tile=5,merge=1",
                           "grid8:lattice=corner", "grid4:lattice=corner",
                           // recast keeps no region under 64 voxels by default: on these small maps every
                           // query would be a missed path, so the battery also runs it keeping them all
                           "recast:min_region=0,max_error=0", "recast:min_region=0,partition=monotone,tile=4"}) {
    const std::string text = spec, name = text.substr(0, text.find(':')), params = text.substr(text.find(':') + 1);
    if (const RepresentationEntry* e = find_representation(name)) {
      RepresentationEntry v = *e;
      v.name = text;
      if (text.find("lattice=corner") != std::string::npos) v.caps.grid8_optimal = false;  // corner moves pass beside blocked cells
      v.build = [e, params](const Map& m, Params&) {
        Params p = Params::parse(params);
        return e->build(m, p);
      };
      out.push_back(v);
    }
  }
  // Erosion variants for a disc agent (docs/radius.md): at R = 0 they are the plain representation.
  for (const char* spec : {"navmesh:erode=none", "navmesh:erode=cell", "quadtree:erode=none"}) {
    const std::string text = spec, base = text.substr(0, text.find(':'));
    if (const RepresentationEntry* e = find_representation(base)) {
      RepresentationEntry v = *e;
      v.name = text;
      out.push_back(v);
    }
  }
  return out;
}

class Conformance : public ::testing::TestWithParam<RepresentationEntry> {
 protected:
  // An ok row's path: from the query's start to its goal, valid, and no shorter than the optimum.
  // A representation that approximates the free space (Recast) may give an invalid path: its
  // `valid` columns must then be the exact test's verdict, and only a valid path is held to the optimum.
  static void check_path(const RepresentationEntry& e, const FreeSpace& fs, const Case& c, const ResultRow& r) {
    ASSERT_TRUE(r.valid.has_value());
    ASSERT_GE(r.path.size(), c.s == c.g ? 1u : 2u);  // start == goal: the one point (no repeated point)
    EXPECT_EQ(r.path.front(), c.s);
    EXPECT_EQ(r.path.back(), c.g);
    if (e.caps.approximate_space) {
      EXPECT_EQ(*r.valid, fs.path_valid(r.path)) << "the validity column is not the exact test's verdict";
    } else {
      EXPECT_TRUE(*r.valid) << "invalid path";
      EXPECT_TRUE(*r.raw_valid) << "invalid raw path";
    }
    if (c.optimal >= 0 && *r.valid) EXPECT_GE(*r.length, c.optimal - 1e-9) << "shorter than the exact optimum";
  }

  // Runs the cases through the harness pipeline (locate -> search -> smooth -> validate), checking
  // statuses, validity, endpoints, the exact optimum as a lower bound, and determinism.
  void check(const Map& m, const std::vector<Case>& cases) {
    const RepresentationEntry& e = GetParam();
    Params p;
    std::unique_ptr<AnyRepresentation> rep;
    try {
      rep = e.build(m, p);
    } catch (const UnsupportedMap&) {
      GTEST_SKIP() << e.name << " does not support this map kind";
    }
    const AgentSpace space(m, Agent{});
    const FreeSpace& fs = space.free();
    const CostModel cost(m);
    const Heuristic h = parse_heuristic("euclidean");
    const std::vector<std::string> modes = {"none", "los", "funnel"};
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      SCOPED_TRACE(m.name + " case " + std::to_string(i));
      QueryInput in;
      in.start = c.s;
      in.goal = c.g;
      const MapContext ctx{m.name, m.collection, "center"};
      Query probe;
      probe.start = c.s;
      probe.goal = c.g;
      const bool components_known = fs.point_free(c.s) && fs.point_free(c.g) && rep->locate(probe) &&
                                    probe.s.component >= 0 && probe.g.component >= 0;
      auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                             .heuristic = h, .smoothings = modes,
                             .rep = rep.get(), .caps = e.caps, .keep_paths = true}, in);
      auto again = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                              .heuristic = h, .smoothings = modes,
                              .rep = rep.get(), .caps = e.caps, .keep_paths = true}, in);
      ASSERT_EQ(rows.size(), modes.size());
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const ResultRow& r = rows[k];
        SCOPED_TRACE(r.smoothing);
        if (r.status == Status::not_applicable) {  // funnel without a corridor (docs/results.md#query-status), never anything else
          EXPECT_EQ(r.smoothing, "funnel");
          EXPECT_EQ(c.expect, Status::ok) << "not_applicable only replaces a found path's row";
          EXPECT_EQ(again[k].status, Status::not_applicable);
          continue;
        }
        if (!(e.caps.approximate_space && c.expect == Status::ok && r.status == Status::no_path))  // a missed path
          ASSERT_EQ(r.status, c.expect) << r.message;
        EXPECT_EQ(again[k].status, r.status);
        if (c.expect == Status::no_path && components_known)
          EXPECT_EQ(r.expansions, 0u) << "no_path between components should need no search";
        if (r.status != Status::ok) continue;
        check_path(e, fs, c, r);
        EXPECT_LE(*r.length, *r.raw_length + 1e-9) << "smoothing lengthened the path";
        ASSERT_TRUE(again[k].length.has_value());
        EXPECT_EQ(*again[k].length, *r.length) << "same query, different answer";
      }
      // A search of the representation's own (recast: Detour's), where it has one.
      if (e.caps.own_search) {
        SCOPED_TRACE("own search");
        for (const ResultRow& r : run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                             .heuristic = h, .smoothings = {"none", "los"}, .rep = rep.get(),
                                             .search = SearchMode::detour, .caps = e.caps, .keep_paths = true},
                                            in)) {
          // Its mesh approximates the free space: a missed path is no_path, and a path where none exists
          // (across a pinch point the mesh joins) must be reported invalid.
          if (c.expect == Status::no_path && r.status == Status::ok) {
            EXPECT_FALSE(*r.valid) << "a path where there is none, reported valid";
            continue;
          }
          if (!(c.expect == Status::ok && r.status == Status::no_path)) ASSERT_EQ(r.status, c.expect) << r.message;
          if (r.status == Status::ok) check_path(e, fs, c, r);
        }
      }
      // Theta* and Lazy Theta* (docs/path-quality.md): the same statuses and checks where the
      // representation's edges are segments, not_applicable elsewhere.
      for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta}) {
        SCOPED_TRACE(to_string(mode));
        for (const ResultRow& r : run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                             .heuristic = h, .smoothings = {"none", "los"},
                                             .rep = rep.get(), .search = mode, .caps = e.caps, .keep_paths = true}, in)) {
          if (!e.caps.segment_edges) {
            EXPECT_EQ(r.status, Status::not_applicable);
            continue;
          }
          ASSERT_EQ(r.status, c.expect) << r.message;
          if (r.status != Status::ok) continue;
          EXPECT_TRUE(*r.valid && *r.raw_valid) << "invalid any-angle path";
          EXPECT_EQ(r.path.front(), c.s);
          EXPECT_EQ(r.path.back(), c.g);
          if (c.optimal >= 0) EXPECT_GE(*r.length, c.optimal - 1e-9) << "shorter than the exact optimum";
          EXPECT_GE(*r.clearance, 0.0);
        }
      }
    }
  }
};

TEST_P(Conformance, OpenMap) {
  Map m = grid({"..........", "..........", "..........", "..........", ".........."}, "open");
  check(m, {{{0.5, 0.5}, {9.5, 4.5}, Status::ok, std::hypot(9.0, 4.0)},
            {{2.5, 2.5}, {2.5, 2.5}, Status::ok, 0.0},     // start == goal
            {{2.2, 2.3}, {2.7, 2.9}, Status::ok, std::hypot(0.5, 0.6)},  // same cell
            {{0, 0}, {10, 5}, Status::ok, std::hypot(10.0, 5.0)},        // map corners
            {{-1, 2}, {3.5, 2.5}, Status::invalid_query, -1},            // outside
            {{3.5, 2.5}, {3.5, 5.5}, Status::invalid_query, -1}});
}

TEST_P(Conformance, TinyMaps) {
  check(grid({"."}, "one"), {{{0.5, 0.5}, {0.5, 0.5}, Status::ok, 0.0}, {{0.1, 0.2}, {0.9, 0.7}, Status::ok, -1}});
  check(grid({"@@@", "@@@"}, "blocked"), {{{0.5, 0.5}, {2.5, 1.5}, Status::invalid_query, -1}});
}

TEST_P(Conformance, ObstaclesAndComponents) {
  Map m = grid({".....@....",
                ".@@..@.@@.",
                ".@...@..@.",
                ".....@....",
                "@@@@@@@@@@",
                ".........."},
               "walls");
  check(m, {{{0.5, 0.5}, {4.5, 3.5}, Status::ok, -1},
            {{2.5, 2.5}, {0.5, 0.5}, Status::ok, -1},
            {{0.5, 0.5}, {9.5, 0.5}, Status::no_path, -1},   // wall between
            {{0.5, 5.5}, {9.5, 5.5}, Status::ok, 9.0},
            {{1.5, 1.5}, {0.5, 0.5}, Status::invalid_query, -1}});  // start in an obstacle
}

TEST_P(Conformance, LongThinCorridor) {
  std::vector<std::string> rows;
  rows.push_back(std::string(60, '.'));
  rows.push_back(std::string(59, '@') + ".");
  rows.push_back(std::string(60, '.'));
  Map m = grid(rows, "corridor");
  check(m, {{{0.5, 0.5}, {0.5, 2.5}, Status::ok, 2 * std::hypot(58.5, 0.5) + 1.0},
            {{0.5, 0.5}, {59.5, 0.5}, Status::ok, 59.0}});
}

TEST_P(Conformance, PinchPoints) {
  // Cells (1,1) and (2,2) touch only at the corner (2,2): a pinch point no path may cross.
  Map m = grid({"..@", "..@", "@@."}, "pinch");
  check(m, {{{0.5, 0.5}, {2.5, 2.5}, Status::no_path, -1},
            {{0.5, 0.5}, {1.5, 1.5}, Status::ok, std::sqrt(2.0)}});
  // With a way round, the path must go round, not through the pinch.
  Map m2 = grid({"....", "..@.", ".@..", "...."}, "pinch2");
  check(m2, {{{1.5, 1.5}, {2.5, 2.5}, Status::ok, std::sqrt(2.0)}});
}

// ---- Agents with a radius (docs/radius.md) ------------------------------------------------------------

// An independent slow clearance: brute force over every blocked square and the map's four sides,
// no clearance grid, no row scans (radius_validity.cpp's fast path), only the distance primitives.
struct SlowClearance {
  const GridMap& g;
  template <class BoxDist>
  double over_squares(BoxDist dist) const {
    double d = std::numeric_limits<double>::infinity();
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x)
        if (!g.passable(x, y)) d = std::min(d, dist(double(x), double(y), double(x + 1), double(y + 1)));
    return d;
  }
  double sides(double x0, double y0, double x1, double y1) const {
    return std::min(std::min(x0, y0), std::min(double(g.width) - x1, double(g.height) - y1));
  }
  double point(Point p) const {
    return std::min(sides(p.x, p.y, p.x, p.y),
                    over_squares([&](double a, double b, double c, double d) { return point_box_distance(p, a, b, c, d); }));
  }
  double segment(Point p, Point q) const {
    return std::min(sides(std::min(p.x, q.x), std::min(p.y, q.y), std::max(p.x, q.x), std::max(p.y, q.y)),
                    over_squares([&](double a, double b, double c, double d) { return segment_box_distance(p, q, a, b, c, d); }));
  }
  double arc(const Arc& arc) const {
    double x0, y0, x1, y1;
    arc_bounds(arc, x0, y0, x1, y1);
    return std::min(sides(x0, y0, x1, y1),
                    over_squares([&](double a, double b, double c, double d) { return arc_box_distance(arc, a, b, c, d); }));
  }
  // docs/radius.md for R > 0: every piece keeps distance >= R - 1e-9.
  bool valid(const std::vector<PathItem>& items, double R) const {
    const double lim = R - 1e-9;
    if (items.size() == 1) return point(items[0].p) >= lim;
    for (std::size_t i = 1; i < items.size(); ++i) {
      if (!items[i].arc_centre) {
        if (segment(items[i - 1].p, items[i].p) < lim) return false;
        continue;
      }
      Arc a;
      if (!make_arc(items[i - 1].p, items[i].p, items[i + 1].p, a) || this->arc(a) < lim) return false;
      ++i;
    }
    return true;
  }
};

// The generated maps of the radius battery: corridors exactly 2R wide (1 cell: R = 0.5; 3 cells:
// R = 1.5), pinch points, open rooms and seeded random grids.
std::vector<Map> radius_maps() {
  std::vector<Map> out;
  out.push_back(grid({"......@@@.....",
                      "......@@@.....",
                      "..............",
                      "......@@@.....",
                      "......@@@....."}, "corridor-1"));
  out.push_back(grid({"......@@@@.......",
                      "......@@@@.......",
                      ".................",
                      ".................",
                      ".................",
                      "......@@@@.......",
                      "......@@@@......."}, "corridor-3"));
  out.push_back(grid({"..........",
                      "..@...@...",
                      "...@.@....",
                      "....@.....",
                      "...@.@..@.",
                      "........@."}, "pinches"));
  std::mt19937_64 rng(13);
  for (int k = 0; k < 2; ++k) {
    GridMap g;
    g.width = 14;
    g.height = 12;
    std::bernoulli_distribution b(0.18);
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back(b(rng) ? 0 : 1);
    out.push_back(make_grid_map(g, "random-" + std::to_string(k), "conformance"));
  }
  return out;
}

// Queries between cell centres, some valid for a radius and some not (seeded), plus the two ends
// of the map's middle row (through the corridors).
Scenario radius_queries(const Map& m) {
  Scenario sc;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> X(0, m.grid.width - 1), Y(0, m.grid.height - 1);
  auto add = [&](int sx, int sy, int gx, int gy) {
    ScenarioLine l;
    l.map = m.name;
    l.width = m.grid.width;
    l.height = m.grid.height;
    l.sx = sx, l.sy = sy, l.gx = gx, l.gy = gy;
    sc.lines.push_back(l);
  };
  const int mid = m.grid.height / 2;
  add(0, mid, m.grid.width - 1, mid);
  add(1, mid, m.grid.width - 2, mid);
  for (int k = 0; k < 10; ++k) {
    int sx, sy, gx, gy;
    do sx = X(rng), sy = Y(rng); while (!m.grid.passable(sx, sy));
    do gx = X(rng), gy = Y(rng); while (!m.grid.passable(gx, gy));
    add(sx, sy, gx, gy);
  }
  return sc;
}

const std::vector<double> kRadii = {0, 0.3, 0.5, 1.5};

// A map and its queries for one radius, as the harness prepares them (its optimum included).
struct Prepared {
  PreparedMap pm;
  std::unique_ptr<AgentMap> am;  // reads pm
};
std::unique_ptr<Prepared> prepared(const Map& m, double R) {
  auto p = std::make_unique<Prepared>();
  p->pm.map = m;
  p->pm.scen = radius_queries(m);
  p->pm.has_scen = true;
  p->pm.selection.convention = "center";
  p->am = std::make_unique<AgentMap>(p->pm, Agent::with_radius(R), OracleOptions{});
  return p;
}

// Every representation at R in {0, 0.3, 0.5, 1.5}: statuses, `valid` against the slow test, the
// optimum a lower bound of every valid path, visgraph exact at R > 0, grids valid by construction.
// Weighted maps (docs/terrain.md): a representation with the capability weights answers every
// query (A*, and Theta* where its edges are segments) with valid paths whose `cost` is their exact
// integral, never more than 0.1 % below the Steiner-point reference (optimal_cost), and `los`
// never raises the cost; one without it answers not_applicable.
TEST_P(Conformance, WeightedMaps) {
  const RepresentationEntry& e = GetParam();
  const Heuristic h = parse_heuristic("euclidean");
  std::mt19937_64 rng(29);
  for (int round = 0; round < 2; ++round) {
    Map m = testmaps::random_grid(36, 28, 0.18, rng);
    m.name = "weighted" + std::to_string(round);
    m.grid.weights.assign(m.grid.cells.size(), 1.0);
    const double levels[] = {1, 1.5, 2, 3, 5};
    for (int k = 0; k < 7; ++k) {  // blobs of one weight: borders and regions both occur
      const int cx = int(rng() % 36u), cy = int(rng() % 28u), r = 1 + int(rng() % 6);
      const double v = levels[rng() % 5];
      for (int y = std::max(0, cy - r); y <= std::min(27, cy + r); ++y)
        for (int x = std::max(0, cx - r); x <= std::min(35, cx + r); ++x) m.grid.weights[std::size_t(y) * 36 + x] = v;
    }
    for (std::size_t i = 0; i < m.grid.cells.size(); ++i)
      if (!m.grid.cells[i]) m.grid.weights[i] = 1;
    m.terrain = "blobs";
    SCOPED_TRACE(m.name);
    Params p;
    std::unique_ptr<AnyRepresentation> rep;
    try {
      rep = e.build(m, p);
    } catch (const UnsupportedMap&) {
      GTEST_SKIP() << e.name << " does not support this map kind";
    }
    const AgentSpace space(m, Agent{});
    const FreeSpace& fs = space.free();
    const CostModel cost(m);
    const SteinerReference reference(m.grid);
    const MapContext ctx = map_context(m, "center");
    std::vector<Point> free_cells;
    for (int y = 0; y < 28; ++y)
      for (int x = 0; x < 36; ++x)
        if (m.grid.passable(x, y)) free_cells.push_back({x + 0.5, y + 0.5});
    for (int q = 0; q < 12; ++q) {
      QueryInput in;
      in.start = free_cells[rng() % free_cells.size()];
      in.goal = free_cells[rng() % free_cells.size()];
      const auto ref = reference.shortest(in.start, in.goal);
      in.optimal_cost = ref ? std::optional<double>(ref->cost) : std::nullopt;
      SCOPED_TRACE("query " + std::to_string(q));
      for (SearchMode mode : {SearchMode::astar, SearchMode::theta}) {
        for (const ResultRow& r : run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                             .heuristic = h, .smoothings = {"none", "los"},
                                             .rep = rep.get(), .search = mode, .caps = e.caps, .keep_paths = true}, in)) {
          SCOPED_TRACE(std::string(to_string(mode)) + " " + r.smoothing);
          if (!e.caps.weights || (mode != SearchMode::astar && !e.caps.segment_edges)) {
            EXPECT_EQ(r.status, Status::not_applicable) << r.message;
            continue;
          }
          ASSERT_EQ(r.status, ref ? Status::ok : Status::no_path) << r.message;
          if (r.status != Status::ok) continue;
          EXPECT_TRUE(*r.valid && *r.raw_valid) << "invalid path";
          EXPECT_EQ(r.path.front(), in.start);
          EXPECT_EQ(r.path.back(), in.goal);
          ASSERT_TRUE(r.cost && r.raw_cost && r.cost_gap);
          EXPECT_NEAR(*r.cost, path_cost(m.grid, r.path), 1e-9 * *r.cost) << "cost is not the path's integral";
          EXPECT_GE(*r.cost_gap, -1e-3) << "more than 0.1 % below the reference optimum";
          if (r.smoothing == "los") EXPECT_LE(*r.cost, *r.raw_cost * (1 + 1e-12)) << "los raised the cost";
        }
      }
    }
  }
}

TEST_P(Conformance, Radius) {
  const RepresentationEntry& e = GetParam();
  // The battery's own erosion variants ("navmesh:erode=none", ...) name the harness's declared key:
  // parsed as `--rep` parses it.
  RepresentationSpec spec{e.name, &e};
  if (e.name.find(":erode=") != std::string::npos) spec.erode = parse_rep_option(e.name).at(0).erode;
  const std::string erode = to_string(spec.erosion());
  const Heuristic h = parse_heuristic("euclidean");
  const std::vector<std::string> modes = {"none", "los", "funnel"};
  int invalid_seen = 0;  // the representations built on the map itself must show the price
  for (const Map& m : radius_maps())
    for (double R : kRadii) {
      SCOPED_TRACE(m.name + " R=" + std::to_string(R));
      const auto prep = prepared(m, R);
      const AgentMap& am = *prep->am;
      const TimedBuild built = build_timed(am.space(), spec);
      if (!built.rep) GTEST_SKIP() << e.name << " does not support this map kind";
      const std::unique_ptr<AnyRepresentation>& rep = built.rep;
      const SlowClearance slow{m.grid};
      const MapContext ctx{m.name, m.collection, "center"};
      const bool by_construction = e.name == "grid4" || e.name == "grid8" || e.name.rfind("subgoal", 0) == 0;
      for (const QueryInput& qi : am.queries()) {
        SCOPED_TRACE("query " + std::to_string(qi.scen_index));
        const bool clear = R == 0 ? am.space().free().point_free(qi.start) && am.space().free().point_free(qi.goal)
                                  : slow.point(qi.start) >= R - 1e-9 && slow.point(qi.goal) >= R - 1e-9;
        auto rows = run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = e.name,
                               .heuristic = h, .smoothings = modes,
                               .rep = rep.get(), .caps = e.caps, .keep_paths = true}, qi);
        ASSERT_EQ(rows.size(), modes.size());
        for (const ResultRow& r : rows) {
          SCOPED_TRACE(r.smoothing);
          ASSERT_TRUE(r.radius.has_value());
          EXPECT_EQ(*r.radius, R);
          if (!clear) {
            EXPECT_EQ(r.status, Status::invalid_query) << r.message;
            continue;
          }
          ASSERT_NE(r.status, Status::invalid_query) << r.message;
          if (erode == "cell" && R > 0 && r.status == Status::error) {  // a clear query point in a dropped cell
            EXPECT_NE(r.message.find("eroded free space"), std::string::npos) << r.message;
            continue;
          }
          ASSERT_NE(r.status, Status::error) << r.message;
          if (r.status != Status::ok) continue;  // (an approximate space's missed path is no_path)
          const std::vector<PathItem> items = r.items.empty() ? items_of(r.path) : r.items;
          ASSERT_FALSE(items.empty());
          EXPECT_EQ(items.front().p, qi.start);
          EXPECT_EQ(items.back().p, qi.goal);
          const bool slow_valid = R == 0 ? am.space().free().path_valid(r.path) : slow.valid(items, R);
          ASSERT_TRUE(r.valid.has_value());
          EXPECT_EQ(*r.valid, slow_valid) << "the validity column disagrees with the slow test";
          invalid_seen += !*r.valid;
          EXPECT_NEAR(*r.length, path_items_length(items), 1e-9 * (1 + *r.length));
          if (by_construction) { EXPECT_TRUE(*r.valid) << e.name << " on the eroded grid must be valid by construction"; }
          if (*r.valid) {
            ASSERT_TRUE(qi.optimal.has_value()) << "a valid path but no optimum";
            EXPECT_GE(*r.length, *qi.optimal - 1e-9 * (1 + *qi.optimal)) << "a valid path shorter than the optimum";
          }
          if (e.name == "visgraph" && r.smoothing == "none") {
            EXPECT_TRUE(*r.valid);
            ASSERT_TRUE(qi.optimal.has_value());
            EXPECT_NEAR(*r.length, *qi.optimal, 1e-9 * (1 + *qi.optimal)) << "visgraph is the exact optimum";
          }
        }
        // visgraph answers exactly when the optimum exists.
        if (e.name == "visgraph") { EXPECT_EQ(rows[0].status == Status::ok, qi.optimal.has_value()); }
        // Theta* and Lazy Theta* (docs/path-quality.md) with the swept-disc test: the same status
        // as A*'s raw path, a valid path no shorter than the optimum where the grid's is valid by
        // construction, and the validity column always equal to the slow test.
        for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta}) {
          SCOPED_TRACE(to_string(mode));
          for (const ResultRow& r : run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = e.name,
                                               .heuristic = h, .smoothings = {"none", "los"},
                                               .rep = rep.get(), .search = mode, .caps = e.caps, .keep_paths = true}, qi)) {
            if (!e.caps.segment_edges) {
              EXPECT_EQ(r.status, Status::not_applicable);
              continue;
            }
            EXPECT_EQ(r.status, rows[0].status) << r.message;
            if (r.status != Status::ok) continue;
            const std::vector<PathItem> items = items_of(r.path);
            EXPECT_EQ(*r.valid, R == 0 ? am.space().free().path_valid(r.path) : slow.valid(items, R));
            if (by_construction) { EXPECT_TRUE(*r.valid) << "Theta*'s shortcuts keep the disc clear"; }
            if (*r.valid && qi.optimal) { EXPECT_GE(*r.length, *qi.optimal - 1e-9 * (1 + *qi.optimal)); }
            if (*r.valid && R > 0) { EXPECT_GE(*r.clearance, R - 1e-9); }
          }
        }
      }
    }
  if (erode == "none") { EXPECT_GT(invalid_seen, 0) << "no invalid path: the battery would not test that case"; }
}

// Polygon maps at R > 0, erode=cell: the meshes and the quadtree build on the free space shrunk by R
// (geometry/erosion.hpp, buffer with round joins kept R away from the corners), so every path that
// stays in their cells, and every los shortcut (swept-disc test), keeps clearance R.
TEST(RadiusPolygon, MeshesOnTheShrunkAreaGiveValidPaths) {
  const Map poly = grid_to_polygon_map(radius_maps()[1]);  // corridor-3 as polygons
  const Heuristic h = parse_heuristic("euclidean");
  for (double R : {0.3, 1.0}) {
    PreparedMap pm;
    pm.map = poly;
    pm.selection.queries = 30;
    pm.selection.seed = 5;
    pm.selection.convention = "corner";
    const AgentMap am(pm, Agent::with_radius(R), {});
    ASSERT_EQ(am.queries().size(), 30u);
    const MapContext ctx{poly.name, poly.collection, "corner"};
    for (const char* name : {"navmesh", "navmesh-vertices", "quadtree"}) {
      SCOPED_TRACE(std::string(name) + " R=" + std::to_string(R));
      const RepresentationSpec spec{name, find_representation(name), "", Erosion::cell};
      const auto rep = build_timed(am.space(), spec).rep;
      int ok = 0;
      for (const QueryInput& qi : am.queries())
        for (const ResultRow& r : run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = name,
                                             .heuristic = h, .smoothings = {"none", "los"},
                                             .rep = rep.get(), .keep_paths = true}, qi)) {
          // The quadtree drops the cells its leaves only partly cover: a clear point there is reported.
          if (std::string(name) == "quadtree" && r.status == Status::error &&
              r.message.find("eroded free space") != std::string::npos)
            continue;
          ASSERT_NE(r.status, Status::error) << r.message;
          if (r.status != Status::ok) continue;
          ++ok;
          ASSERT_TRUE(r.valid.has_value());
          EXPECT_TRUE(*r.valid) << "query " << qi.scen_index << " " << r.smoothing;
          ASSERT_TRUE(qi.optimal.has_value());
          EXPECT_GE(*r.length, *qi.optimal - 1e-9 * (1 + *qi.optimal));
        }
      EXPECT_GT(ok, std::string(name) == "quadtree" ? 0 : 40);  // of 60 rows
    }
  }
}

// A change scenario (docs/changing-maps.md): the representation is built on the empty map and brought up to date
// through every update (update() in place, or a rebuild where it has none or declines); after
// each update it answers every query of that epoch as a fresh build of the same map does (same
// status), with a path valid on that epoch's map and no shorter than the exact optimum, and a
// grid8-optimal representation at the scenario's octile cost. Doors and blocks on a rooms map.
TEST_P(Conformance, ChangeScenario) {
  const RepresentationEntry& e = GetParam();
  GenerateOptions go;
  go.kind = "rooms";
  go.width = go.height = 40;
  go.room = 10;
  const GridMap base = generate_map(go);
  for (const std::string kind : {"doors", "blocks"}) {
    SCOPED_TRACE(kind);
    ChangeOptions o;
    o.kind = kind;
    o.epochs = 6;
    o.queries = 5;
    o.seed = 5;
    const DynamicScenario d = make_change_scenario(base, o, "conf-" + kind);
    Map m = make_grid_map(GridMap{base.width, base.height, std::vector<std::uint8_t>(base.cells.size(), 1)}, "conf", "conformance");
    Params p;
    std::unique_ptr<AnyRepresentation> rep;
    try {
      rep = e.build(m, p);
    } catch (const UnsupportedMap&) {
      GTEST_SKIP() << e.name << " does not support this map kind";
    }
    std::vector<CellChange> ch;
    const Heuristic h = parse_heuristic("euclidean");
    std::size_t queries = 0;
    for (std::size_t i = 0; i < d.commands.size();) {
      ch.clear();
      while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::place) {
        const auto& c = d.commands[i++];
        apply_patch(m.grid, d.patches[std::size_t(c.id)], c.x, c.y, ch);
      }
      if (!rep->update(m, ch)) {
        Params p2;
        rep = e.build(m, p2);
      }
      Params p3;
      const auto fresh = e.build(m, p3);
      const AgentSpace space(m, Agent{});
      const FreeSpace& fs = space.free();
      const CostModel cost(m);
      const auto optimum = build_optimum_graph(m);
      for (; i < d.commands.size() && d.commands[i].kind == DynamicCommand::query; ++i) {
        const auto& c = d.commands[i];
        SCOPED_TRACE("line " + std::to_string(c.line));
        ++queries;
        QueryInput in;
        in.start = {c.sx + 0.5, c.sy + 0.5};
        in.goal = {c.gx + 0.5, c.gy + 0.5};
        in.optimal = exact_optimum(*optimum, fs, in.start, in.goal);
        const MapContext ctx{"conf", "conformance", "center"};
        const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                     .heuristic = h, .smoothings = {"none", "funnel"},
                                     .rep = rep.get(), .caps = e.caps, .keep_paths = true}, in);
        const auto want = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                     .heuristic = h, .smoothings = {"none", "funnel"},
                                     .rep = fresh.get(), .caps = e.caps}, in);
        ASSERT_EQ(rows[0].status, want[0].status) << rows[0].message;
        const Status expect = c.costs[0] >= 0 ? Status::ok : Status::no_path;
        if (!(e.caps.approximate_space && expect == Status::ok && rows[0].status == Status::no_path))  // a missed path
          ASSERT_EQ(rows[0].status, expect);
        for (const ResultRow& r : rows) {
          if (r.status != Status::ok) continue;
          ASSERT_TRUE(r.valid.has_value());
          // An approximate space (Recast) may give invalid paths: the column is then the exact test's verdict.
          if (e.caps.approximate_space) EXPECT_EQ(*r.valid, fs.path_valid(r.path)) << r.smoothing;
          else EXPECT_TRUE(*r.valid) << r.smoothing;
          ASSERT_TRUE(in.optimal.has_value());
          if (*r.valid) EXPECT_GE(*r.length, *in.optimal - 1e-9 * (1 + *in.optimal)) << r.smoothing;
        }
        if (e.caps.grid8_optimal && rows[0].status == Status::ok)
          EXPECT_NEAR(*rows[0].raw_length, c.costs[0], printed_tolerance(c.cost_text[0], c.costs[0]));
      }
    }
    EXPECT_EQ(queries, std::size_t((o.epochs + 1) * o.queries));
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(entries()),
                         [](const ::testing::TestParamInfo<RepresentationEntry>& i) {
                           std::string s = i.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace

namespace {

// docs/results.md#query-status: funnel on a representation without a corridor is `not_applicable` (not `error`, not a
// failure); with a corridor it runs. The other modes of the same query are unaffected.
TEST(PipelineStatus, FunnelWithoutCorridorIsNotApplicable) {
  Map m = grid({"....", ".@..", "...."}, "funnel");
  const AgentSpace space(m, Agent{});
  const FreeSpace& fs = space.free();
  const CostModel cost(m);
  const Heuristic h = parse_heuristic("euclidean");
  QueryInput in;
  in.start = {0.5, 0.5};
  in.goal = {3.5, 2.5};
  const MapContext ctx{m.name, m.collection, "center"};
  for (const char* name : {"grid8", "navmesh"}) {
    SCOPED_TRACE(name);
    Params p;
    auto rep = find_representation(name)->build(m, p);
    auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = name,
                           .heuristic = h, .smoothings = {"none", "funnel"},
                           .rep = rep.get()}, in);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].status, Status::ok);
    const bool has_corridor = std::string(name) == "navmesh";
    EXPECT_EQ(rows[1].status, has_corridor ? Status::ok : Status::not_applicable) << rows[1].message;
    if (!has_corridor) {
      EXPECT_STREQ(to_string(rows[1].status), "not_applicable");
      EXPECT_FALSE(rows[1].length.has_value());
      EXPECT_FALSE(rows[1].valid.has_value());
    }
  }
}

}  // namespace

namespace {

// docs/radius.md optimum: never decreasing as R grows (a disc path is a path for every smaller disc), and
// R -> 0 meets the point optimum (docs/validity.md, from the visibility graph).
TEST(RadiusOptimum, MonotoneInRAndMeetsThePointOptimum) {
  for (const Map& m : radius_maps()) {
    SCOPED_TRACE(m.name);
    // (Not below ~1e-5: tangent points c + R w carry the rounding of c, relative to R, and docs/radius.md asks
    // an arc's ends to agree on the radius within 1e-9 x r.)
    const std::vector<double> radii = {0, 1e-5, 1e-3, 0.3, 0.5, 0.75, 1.0, 1.5};
    std::vector<std::unique_ptr<Prepared>> pms;
    for (double R : radii) pms.push_back(prepared(m, R));
    for (std::size_t q = 0; q < pms[0]->am->queries().size(); ++q) {
      SCOPED_TRACE("query " + std::to_string(q));
      const auto& point = pms[0]->am->queries()[q].optimal;
      const auto& tiny = pms[1]->am->queries()[q].optimal;
      ASSERT_EQ(point.has_value(), tiny.has_value());
      if (point) {
        EXPECT_GE(*tiny, *point - 1e-9);
        EXPECT_LE(*tiny, *point + 1e-3) << "R -> 0 must meet the point optimum";
      }
      for (std::size_t k = 2; k < radii.size(); ++k) {
        const auto& lo = pms[k - 1]->am->queries()[q].optimal;
        const auto& hi = pms[k]->am->queries()[q].optimal;
        if (!lo) { EXPECT_FALSE(hi.has_value()) << "R " << radii[k] << " has a path where " << radii[k - 1] << " has none"; }
        if (lo && hi) { EXPECT_GE(*hi, *lo - 1e-9 * (1 + *lo)) << "optimum decreased from R " << radii[k - 1] << " to " << radii[k]; }
      }
    }
  }
}

// The corridor exactly 2R wide: the disc passes it along its centre line, touching both walls; a
// slightly larger disc does not pass.
TEST(RadiusOptimum, CorridorExactlyTwoRWide) {
  for (auto [name, R] : {std::pair<std::string, double>{"corridor-1", 0.5}, {"corridor-3", 1.5}}) {
    SCOPED_TRACE(name);
    for (const Map& m : radius_maps())
      if (m.name == name) {
        FreeSpace fs(m);
        RadiusValidity rv(fs);
        const double y = m.grid.height / 2 + 0.5;
        const Point s{2.5, y}, g{m.grid.width - 2.5, y};
        TangentGraph exact(fs, rv, R), wider(fs, rv, R + 1e-6);
        auto p = exact.shortest_path(s, g);
        ASSERT_TRUE(p.has_value()) << "the disc fits the corridor exactly";
        EXPECT_NEAR(p->length, g.x - s.x, 1e-9);
        EXPECT_TRUE(rv.path_valid_radius(p->items, R));
        DiscQueryStatus st;
        EXPECT_FALSE(wider.shortest_path(s, g, &st).has_value());
        EXPECT_EQ(st, DiscQueryStatus::no_path) << "a slightly larger disc does not fit";
      }
  }
}

}  // namespace
