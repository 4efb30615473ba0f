// Subgoal graphs (subgoal:levels=1, subgoal:levels=2, subgoal:levels=16, subgoal:table=1, the default on
// small maps): subgoal placement on hand maps, exact grid8 lengths
// against grid8 A* on random grids (cell centres and arbitrary points), octile-move polylines, and
// the scenario optimum on a real map when ../shared is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <tuple>

#include "datasets/dynamic.hpp"
#include "datasets/movingai.hpp"
#include "geometry/free_space.hpp"
#include "harness/registry/registry.hpp"
#include "representations/subgoal/subgoal.hpp"

#include "support/data.hpp"
#include "support/hub_labels.hpp"
#include "support/maps.hpp"
#include "support/plan.hpp"
#include "search/graph_planner.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_subgoal {

using namespace navbench;
using testmaps::grid_from;

namespace {


std::vector<std::pair<int, int>> subgoals(const SubgoalGraph& sg, const Map& m) {
  std::vector<std::pair<int, int>> out;
  for (int y = 0; y < m.grid.height; ++y)
    for (int x = 0; x < m.grid.width; ++x)
      if (sg.is_subgoal(x, y)) out.push_back({x, y});
  return out;
}

// Cost and polyline of one query, or nullopt when there is no path.
struct Answer {
  double cost;
  Polyline path;
};
std::optional<Answer> solve(const Planner& rep, Point s, Point g, const char* heuristic = "octile") {
  const Outcome o = testplan::plan(rep, s, g, parse_heuristic(heuristic));
  if (o.status != PlanStatus::found) return std::nullopt;
  return Answer{o.cost, o.path};
}

std::unique_ptr<Planner> build(const Map& m, const std::string& params) {
  Params p = Params::parse(params);
  return find_representation(params.empty() ? "grid8" : "subgoal")->build(m, p);
}

}  // namespace

TEST(Subgoal, PlacementAtConvexCorners) {
  // A 2x2 block: its four outer corners. Nothing else (the map border is not an obstacle corner).
  Map block = grid_from({".....", ".@@..", ".@@..", ".....", "....."});
  Params p;
  SubgoalGraph a(block, p);
  EXPECT_TRUE(a.table());  // the default up to 1,024 subgoals: the all-pairs table over the simple graph
  EXPECT_EQ(a.levels(), 1);
  EXPECT_EQ(subgoals(a, block), (std::vector<std::pair<int, int>>{{0, 0}, {3, 0}, {0, 3}, {3, 3}}));
  // An L-shaped wall: no subgoal in its concave inner corner (2,2), which has no free diagonal pair.
  Map ell = grid_from({"......", ".@@@..", ".@....", ".@....", "......"});
  Params p2;
  SubgoalGraph b(ell, p2);
  EXPECT_EQ(subgoals(b, ell), (std::vector<std::pair<int, int>>{{0, 0}, {4, 0}, {4, 2}, {0, 4}, {2, 4}}));
  // Diagonally touching blocks: (1,1) and (2,2) blocked; (2,1) and (1,2) are not corners (a blocked
  // orthogonal neighbour), the four outer cells are.
  Map diag = grid_from({"....", ".@..", "..@.", "...."});
  Params p3;
  SubgoalGraph c(diag, p3);
  EXPECT_EQ(subgoals(c, diag), (std::vector<std::pair<int, int>>{{0, 0}, {2, 0}, {3, 1}, {0, 2}, {1, 3}, {3, 3}}));
  // Open map: no subgoals, every query is the direct octile path.
  Map open = grid_from({"........", "........"});
  Params p4;
  SubgoalGraph d(open, p4);
  EXPECT_EQ(d.num_subgoals(), 0u);
  EXPECT_FALSE(d.attach({0.5, 0.5})->links.size());
}

TEST(Subgoal, RejectsPolygonMapsAndBadLevels) {
  Map poly;
  poly.kind = MapKind::polygon;
  Params p;
  EXPECT_THROW(SubgoalGraph(poly, p), UnsupportedMap);
  Map m = grid_from({"..", ".."});
  for (const char* bad_levels : {"levels=0", "levels=17", "levels=two"}) {
    Params bad = Params::parse(bad_levels);
    EXPECT_THROW(SubgoalGraph(m, bad), std::invalid_argument) << bad_levels;
  }
  GridMap wide;  // 16-bit clearances: wider maps are refused with a clear message, not wrapped
  wide.width = 65001, wide.height = 1;
  wide.cells.assign(65001, 1);
  Params pw;
  EXPECT_THROW(SubgoalGraph(make_grid_map(wide), pw), UnsupportedMap);
  Params unknown = Params::parse("level=2");
  EXPECT_THROW(SubgoalGraph(m, unknown), std::invalid_argument);
  Params table_levels = Params::parse("table=1,levels=2");  // the table is over the simple graph
  EXPECT_THROW(SubgoalGraph(m, table_levels), std::invalid_argument);
  // The hub labels are over the simple graph too, and answer without the A* as the table and the
  // hierarchy do: one of the three.
  for (const char* clash : {"labels=1,levels=2", "labels=1,table=1", "labels=1,ch=1"}) {
    Params bad = Params::parse(clash);
    EXPECT_THROW(SubgoalGraph(m, bad), std::invalid_argument) << clash;
  }
}

// The default follows the map: the table up to 1,024 subgoals, the N-level search above, and the
// search whenever levels, alt or active is named.
TEST(Subgoal, TableDefaultByMapSize) {
  auto pillars = [](int n) {  // n x n isolated blocked cells, 4 subgoals each
    std::vector<std::string> rows(std::size_t(3 * n + 1), std::string(std::size_t(3 * n + 1), '.'));
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) rows[std::size_t(3 * y + 2)][std::size_t(3 * x + 2)] = '@';
    return grid_from(rows);
  };
  const Map small = pillars(16), large = pillars(17);  // 1,024 and 1,156 subgoals
  for (const auto& [m, subgoals, table] : {std::tuple{&small, 1024u, true}, std::tuple{&large, 1156u, false}}) {
    Params p;
    SubgoalGraph sg(*m, p);
    EXPECT_EQ(sg.num_subgoals(), subgoals);
    EXPECT_EQ(sg.table(), table);
    EXPECT_EQ(sg.levels(), table ? 1 : 16);
    EXPECT_EQ(p.canonical().find(table ? "table=1" : "table=0") != std::string::npos, true) << p.canonical();
  }
  for (const char* named : {"levels=1", "alt=4", "active=2"}) {
    Params p = Params::parse(named);
    EXPECT_FALSE(SubgoalGraph(small, p).table()) << named;
  }
  Params forced = Params::parse("table=1");
  EXPECT_TRUE(SubgoalGraph(large, forced).table());
}

// labels_mb caps the hub labels (their size is known only once made): a map whose labels take more
// than the cap is refused as unsupported with a message naming the parameter, at or under it built,
// and labels_mb is read only with labels=1 (other build rows keep their params).
TEST(Subgoal, HubLabelsAboveTheirCapAreRefused) {
  std::vector<std::string> rows(61, std::string(61, '.'));
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) rows[std::size_t(3 * y + 2)][std::size_t(3 * x + 2)] = '@';  // 1,600 subgoals
  testlabels::expect_labels_mb_caps<SubgoalGraph>(grid_from(rows));
}

// table=1 answers admissible heuristics (euclidean and zero; octile and chebyshev for a goal on the
// half-integer lattice) from the table, with no vertex generated, and the same cost as the simple
// graph's A*; an inadmissible one (manhattan, weight > 1, octile towards a goal elsewhere) runs
// that A* and gives its answer. Every other query is snapped to the lattice (centres, corners, edges).
TEST(Subgoal, TableAnswersAsTheSearchWould) {
  std::mt19937 rng(20261125);
  for (int trial = 0; trial < 6; ++trial) {
    GridMap g;
    g.width = 40, g.height = 30;
    std::bernoulli_distribution blocked(0.12 + 0.04 * trial);
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back(blocked(rng) ? 0 : 1);
    Map m = make_grid_map(g, "table" + std::to_string(trial));
    auto table = build(m, "table=1"), search = build(m, "table=0,levels=1,alt=0");  // the same graph, no landmarks
    std::uniform_real_distribution<double> px(0, g.width), py(0, g.height);
    FreeSpace fs(m);
    std::size_t answered = 0;
    for (int k = 0; k < 120; ++k) {
      Point s{px(rng), py(rng)}, t{px(rng), py(rng)};
      const bool lattice = k % 2 == 1;
      if (lattice) s = {std::floor(2 * s.x) / 2, std::floor(2 * s.y) / 2}, t = {std::floor(2 * t.x) / 2, std::floor(2 * t.y) / 2};
      if (!fs.point_free(s) || !fs.point_free(t)) continue;
      SCOPED_TRACE("trial " + std::to_string(trial) + " query " + std::to_string(k));
      for (const char* h : {"euclidean", "octile", "chebyshev", "zero", "manhattan", "octile*1.5"}) {
        const auto want = solve(*search, s, t, h), got = solve(*table, s, t, h);
        ASSERT_EQ(got.has_value(), want.has_value()) << h;
        if (!want) continue;
        EXPECT_NEAR(got->cost, want->cost, 1e-9) << h;
        EXPECT_NEAR(polyline_length(got->path), got->cost, 1e-9) << h;
        EXPECT_TRUE(fs.path_valid(got->path)) << h;
        Query q;
        q.start = s, q.goal = t;
        const SearchStats st = testplan::plan(*table, q, parse_heuristic(h)).stats;
        const bool grid_metric = std::string(h) == "octile" || std::string(h) == "chebyshev";
        const bool admissible = std::string(h) != "manhattan" && std::string(h) != "octile*1.5" && (!grid_metric || lattice);
        if (admissible) { EXPECT_EQ(st.generated, 0u) << h; }
        else if (!q.direct) { EXPECT_GT(st.generated, 0u) << h; }  // the A* ran
        answered += admissible && !q.path.empty();
      }
    }
    EXPECT_GT(answered, 100u);
  }
}

// Random grids: both variants give grid8's optimum for every pair of cell centres tried and for
// points on cell edges and corners, with valid paths made of octile moves.
TEST(Subgoal, EqualsGrid8OnRandomGrids) {
  std::mt19937 rng(20261122);
  for (int trial = 0; trial < 12; ++trial) {
    const int W = 20 + int(rng() % 30), H = 15 + int(rng() % 30);
    const double density = 0.1 + 0.05 * (trial % 6);
    GridMap g;
    g.width = W, g.height = H;
    std::bernoulli_distribution blocked(density);
    for (int i = 0; i < W * H; ++i) g.cells.push_back(blocked(rng) ? 0 : 1);
    Map m = make_grid_map(g, "random" + std::to_string(trial));
    FreeSpace fs(m);
    auto g8 = build(m, "");
    auto s1 = build(m, "levels=1");
    auto s2 = build(m, "levels=2");
    auto s16 = build(m, "levels=16");     // small maps: with the per-cell reach lists
    auto s16s = build(m, "levels=16,reach=0");  // the clearance scan per query
    auto st = build(m, "table=1");               // the all-pairs table, no search
    auto sch = build(m, "ch=1");                 // the contraction hierarchy's bidirectional query
    auto schs = build(m, "ch=1,reach=0");
    auto sl = build(m, "labels=1,alt=0");        // the hub labels, no search
    auto sla = build(m, "labels=1,alt=4,reach=0");  // with the landmarks' bounds on the links
    std::vector<Point> free_points;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        if (m.grid.passable(x, y)) free_points.push_back({x + 0.5, y + 0.5});
    std::uniform_int_distribution<std::size_t> pick(0, free_points.size() - 1);
    std::uniform_int_distribution<int> off(0, 2);
    for (int k = 0; k < 150; ++k) {
      Point s = free_points[pick(rng)], t = free_points[pick(rng)];
      if (k % 3 == 0) {  // move the points to an edge or corner of their cell
        s = {s.x - 0.5 * off(rng), s.y - 0.5 * off(rng)};
        t = {t.x - 0.5 * off(rng), t.y - 0.5 * off(rng)};
        if (!fs.point_free(s) || !fs.point_free(t)) continue;
      }
      SCOPED_TRACE("trial " + std::to_string(trial) + " query " + std::to_string(k));
      const auto want = solve(*g8, s, t, "euclidean");
      // ch=1 under the Manhattan heuristic: no CH query (it is not admissible), the shared A*
      // over the whole hierarchy; its path must still be a valid one between the two points.
      if (const auto fallback = solve(*sch, s, t, "manhattan"); want) {
        ASSERT_TRUE(fallback.has_value());
        EXPECT_TRUE(fs.path_valid(fallback->path));
        EXPECT_GE(fallback->cost, want->cost - 1e-9);
      }
      for (auto* rep : {s1.get(), s2.get(), s16.get(), s16s.get(), st.get(), sch.get(), schs.get(), sl.get(), sla.get()}) {
        const auto got = solve(*rep, s, t, "euclidean");
        ASSERT_EQ(got.has_value(), want.has_value());
        if (!want) continue;
        EXPECT_NEAR(got->cost, want->cost, 1e-9);
        EXPECT_NEAR(polyline_length(got->path), want->cost, 1e-9);
        EXPECT_TRUE(fs.path_valid(got->path));
        EXPECT_EQ(got->path.front(), s);
        EXPECT_EQ(got->path.back(), t);
        // Between the first and the last cell centre every segment is a horizontal, vertical or
        // 45-degree run of grid moves.
        for (std::size_t i = 1; i + 2 < got->path.size(); ++i) {
          const double dx = std::abs(got->path[i + 1].x - got->path[i].x), dy = std::abs(got->path[i + 1].y - got->path[i].y);
          EXPECT_TRUE(dx == 0 || dy == 0 || dx == dy) << "segment " << i << " is not an octile run";
        }
      }
    }
  }
}

// SPEC §15: the path handed out in pieces (the start's side and the abstract path's first edge
// refined first, then the rest with the goal's side) is, joined, the polyline of the whole
// answer, for every way subgoal answers (the A* over 1, 2 and 16 levels, the table, the CH, the labels).
TEST(Subgoal, PiecesJoinedAreThePolyline) {
  std::mt19937 rng(81);
  const Heuristic h = parse_heuristic("octile");
  std::size_t long_paths = 0;
  for (int trial = 0; trial < 4; ++trial) {
    GridMap g;
    g.width = 40, g.height = 30;
    std::bernoulli_distribution blocked(0.15 + 0.05 * trial);
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back(blocked(rng) ? 0 : 1);
    const Map m = make_grid_map(g, "pieces" + std::to_string(trial));
    const FreeSpace fs(m);
    for (const char* params : {"levels=1", "levels=2", "levels=16", "table=1", "ch=1", "labels=1,alt=0"}) {
      Params p = Params::parse(params);
      const GraphPlanner<SubgoalGraph> planner(m, p);
      std::uniform_real_distribution<double> ux(0, g.width), uy(0, g.height);
      for (int k = 0; k < 60; ++k) {
        const Point s{std::floor(ux(rng)) + 0.5, std::floor(uy(rng)) + 0.5}, t{std::floor(ux(rng)) + 0.5, std::floor(uy(rng)) + 0.5};
        if (!fs.point_free(s) || !fs.point_free(t)) continue;
        SCOPED_TRACE(std::string(params) + " query " + std::to_string(k));
        Query q;
        q.start = s, q.goal = t;
        const Request r{.heuristic = &h};
        if (planner.locate(q, r)) continue;
        Outcome o = planner.plan(q, r);
        if (o.status != PlanStatus::found) continue;
        std::size_t pieces = 1;
        const Polyline first = o.path;
        for (; o.more; ++pieces) planner.next_piece(q, r, o);
        Polyline whole = planner.representation().polyline(q);
        merge_repeated_points(whole);  // as the planner gives a whole path
        EXPECT_EQ(o.path, whole);
        if (s == t) continue;
        if (q.path.empty()) {
          EXPECT_EQ(pieces, 1u) << "a direct path comes whole";
          continue;
        }
        EXPECT_LE(pieces, 2u) << "the first edge with the start's side, then the rest";
        if (q.path.size() >= 2) {
          EXPECT_EQ(pieces, 2u);
        }
        EXPECT_GE(first.size(), 2u) << "the first piece holds the first move";
        if (q.path.size() >= 3) {
          ++long_paths;
          EXPECT_LT(first.size(), whole.size());
        }
      }
    }
  }
  EXPECT_GT(long_paths, 50u);
}

TEST(Subgoal, LevelsMakeLocalSubgoals) {
  // Rooms with pillars: many subgoals, some of which the two-level graph makes local.
  std::vector<std::string> rows(30, std::string(40, '.'));
  for (int y = 2; y < 30; y += 4)
    for (int x = 2; x < 40; x += 5) rows[y][x] = '@';
  Map m = grid_from(rows);
  Params p = Params::parse("levels=2");
  SubgoalGraph sg(m, p);
  EXPECT_EQ(sg.levels(), 2);
  EXPECT_GT(sg.num_subgoals(), 0u);
  EXPECT_LT(sg.num_global(), sg.num_subgoals());
  // More local layers make more subgoals local.
  Params p16 = Params::parse("levels=16");
  SubgoalGraph deep(m, p16);
  EXPECT_LT(deep.num_global(), sg.num_global());
  // The searched graph: globals' edges lead to globals only; locals keep their upward edges (to
  // globals, or with levels=16 also to later locals), so a search only climbs out of a local.
  std::size_t upward = 0;
  for (const SubgoalGraph* g : {&sg, &deep})
    for (Vertex v = 0; v < Vertex(g->num_subgoals()); ++v)
      for (auto [it, end] = out_edges(v, g->graph()); it != end; ++it) {
        if (g->is_local(v)) {
          ++upward;
        } else {
          EXPECT_FALSE(g->is_local(target(*it, g->graph())));
        }
        if (g == &sg) {
          EXPECT_FALSE(g->is_local(v) && g->is_local(target(*it, g->graph())));  // one layer
        }
      }
  EXPECT_GT(upward, 0u);
  // A start links to its direct-h-reachable subgoals only; a goal also to everything upward of them.
  bool fewer = false;
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) {
      if (rows[std::size_t(y)][std::size_t(x)] != '.') continue;
      const Point p{x + 0.5, y + 0.5};
      const auto s = deep.attach_start(p), t = deep.attach_goal(p);
      ASSERT_TRUE(s && t);
      for (const Link& l : s->links)
        EXPECT_TRUE(std::any_of(t->links.begin(), t->links.end(), [&](const Link& k) { return k.vertex == l.vertex && std::abs(k.cost - l.cost) < 1e-9; }));
      fewer = fewer || s->links.size() < t->links.size();
    }
  EXPECT_TRUE(fewer);
}

// A real map: scenario optima (grid8, no corner cutting) for a spread of its queries.
TEST(SubgoalData, ScenarioOptimaOnDen520d) {
  const std::string path = testdata::path("movingai/dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  Map m = load_movingai_map(path);
  Scenario sc = load_scenario(path + ".scen");
  for (const char* params : {"levels=1", "levels=2", "levels=16", "table=1", "labels=1", "labels=1,alt=0"}) {
    auto rep = build(m, params);
    const std::size_t n = 200;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& l = sc.lines[i * sc.lines.size() / n];
      const auto got = solve(*rep, {l.sx + 0.5, l.sy + 0.5}, {l.gx + 0.5, l.gy + 0.5});
      ASSERT_TRUE(got.has_value()) << params << " query " << i;
      EXPECT_NEAR(polyline_length(got->path), l.optimal, printed_tolerance(l)) << params << " query " << i;
    }
  }
}

namespace {

using testmaps::random_patch;

// The searched graph by positions: per vertex (in id order) its position, whether it is local, and
// its out-edges in CSR order as (target position, weight, octile shape).
using Arc = std::tuple<double, double, double>;
using ShapedArc = std::tuple<double, double, double, int>;
std::vector<std::tuple<double, double, bool, std::vector<ShapedArc>>> arcs_of(const SubgoalGraph& sg) {
  std::vector<std::tuple<double, double, bool, std::vector<ShapedArc>>> out;
  for (Vertex v = 0; v < Vertex(sg.num_subgoals()); ++v) {
    std::vector<ShapedArc> a;
    for (auto [it, end] = out_edges(v, sg.graph()); it != end; ++it) {
      const Point t = sg.position(target(*it, sg.graph()));
      a.push_back({t.x, t.y, sg.graph().weight(it->index), sg.edge_shape(it->index)});
    }
    out.push_back({sg.position(v).x, sg.position(v).y, sg.is_local(v), std::move(a)});
  }
  return out;
}

// A point's links by position and cost, and its component.
std::pair<std::vector<Arc>, std::int32_t> links_of(const SubgoalGraph& sg, const std::optional<Attachment>& a) {
  if (!a) return {{}, -2};
  std::vector<Arc> out;
  for (const Link& l : a->links) out.push_back({sg.position(l.vertex).x, sg.position(l.vertex).y, l.cost});
  return {out, a->component};
}

}  // namespace

// update() after random patches equals a fresh build of the new map: the same subgoals, the same
// searched graph (arcs between the same positions with the same weights and octile shapes, in the
// same order, the same locals), the same links of query points (start and goal roles), the same direct links and
// the same A* answers (equal to grid8's optimum). After the first update (which scans everything)
// fewer scans than subgoals + cells run: the update is local; with reach=1 the cells' lists it would
// scan again are dropped and the links from those cells (scanned by the query) are a fresh build's.
TEST(SubgoalDynamic, UpdateMatchesFreshBuild) {
  std::mt19937_64 rng(20261123);
  // ~20 % blocked, and ~6 % (open stretches: long clearances and rays, large scan regions).
  for (const auto& [params, density] : {std::pair<const char*, unsigned>{"", 20}, {"levels=16", 20}, {"levels=1", 20}, {"levels=2", 20},
                                        {"reach=0", 20}, {"labels=1,alt=4", 20}, {"levels=16", 6}, {"levels=1", 6}}) {
    SCOPED_TRACE(std::string(params) + " density " + std::to_string(density));
    GridMap g;
    g.width = 45, g.height = 38;
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < density ? 0 : 1);
    Map m = make_grid_map(g, "sgdyn", "test");
    auto make = [&](const char* text) {
      Params p = Params::parse(text);
      return find_representation("subgoal")->build(m, p);
    };
    auto rep = make(params);
    const SubgoalGraph& sg = dynamic_cast<const GraphPlanner<SubgoalGraph>&>(*rep).representation();
    std::size_t scans = 0, full = 0, repaired = 0, stale = 0;
    for (int step = 0; step < 14; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      std::vector<CellChange> ch;
      for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
        auto c = random_patch(m.grid, rng, 7);
        ch.insert(ch.end(), c.begin(), c.end());
      }
      ASSERT_TRUE(rep->update(m, ch));
      auto fresh_rep = make(params);
      const SubgoalGraph& fresh = dynamic_cast<const GraphPlanner<SubgoalGraph>&>(*fresh_rep).representation();
      ASSERT_EQ(subgoals(sg, m), subgoals(fresh, m));
      if (sg.levels() >= 2) {
        // The contraction owed (docs/changing-maps.md): the queries search the simple subgoal graph,
        // exact, until they have settled more vertices than the last contraction's witness searches;
        // the query that passes that count derives it, and then the structure is a fresh build's.
        ASSERT_TRUE(sg.contraction_owed());
        const std::uint64_t price = sg.contraction_settled();
        ASSERT_GT(price, 0u);
        FreeSpace fs0(m);
        std::uniform_int_distribution<int> qx(0, m.grid.width - 1), qy(0, m.grid.height - 1);
        int owed_queries = 0;
        for (; owed_queries < 20000 && sg.contraction_owed(); ++owed_queries) {
          const std::uint64_t paid = sg.owed_settled();
          const Point s{qx(rng) + 0.5, qy(rng) + 0.5}, t{qx(rng) + 0.5, qy(rng) + 0.5};
          const auto got = solve(*rep, s, t), want = solve(*fresh_rep, s, t);
          ASSERT_EQ(got.has_value(), want.has_value());
          // Derived by the first query that searches once the count passed the price (a query
          // decided without a search, e.g. between two components, leaves the count as it was).
          if (!sg.contraction_owed()) {
            EXPECT_GT(paid, price) << "derived before the queries paid its price";
          } else {
            EXPECT_TRUE(paid <= price || sg.owed_settled() == paid) << "not derived once the queries paid its price";
          }
          if (!got) continue;
          EXPECT_NEAR(got->cost, want->cost, 1e-9);
          EXPECT_TRUE(fs0.path_valid(got->path));
        }
        ASSERT_FALSE(sg.contraction_owed()) << "the rule never derived the contraction";
        EXPECT_GT(owed_queries, 1) << "the first query after an update should not pay for the contraction";
      }
      // labels=1: the labels owed (their rule: DynamicUpdate.SubgoalOwedLabelsBoughtByTheQueries),
      // made now; then the answers below are a fresh build's, path for path.
      ASSERT_EQ(sg.labels_owed(), fresh.hub_labels() != nullptr);
      rep->settle_owed();
      ASSERT_FALSE(sg.labels_owed() || sg.contraction_owed());
      ASSERT_EQ(arcs_of(sg), arcs_of(fresh));
      EXPECT_EQ(sg.num_global(), fresh.num_global());
      if (step > 0) {
        std::size_t free_cells = 0;
        for (std::uint8_t c : m.grid.cells) free_cells += c;
        scans += sg.last_rescanned();
        stale = std::max(stale, sg.stale_cells());  // reach=1: lists dropped, scanned by the queries below
        // The all-pairs table (params "": under 1,024 subgoals) is repaired, not computed whole.
        if (sg.all_pairs_table()) repaired += !sg.all_pairs_table()->last_update().whole;
        full += sg.num_subgoals() + (std::string(params) == "reach=0" ? 0 : free_cells - sg.num_subgoals());
      }
      // Every cell centre: the same links in both roles.
      for (int y = 0; y < m.grid.height; ++y)
        for (int x = 0; x < m.grid.width; ++x) {
          const Point p{x + 0.5, y + 0.5};
          ASSERT_EQ(links_of(sg, sg.attach_start(p)), links_of(fresh, fresh.attach_start(p))) << x << "," << y;
          ASSERT_EQ(links_of(sg, sg.attach_goal(p)), links_of(fresh, fresh.attach_goal(p))) << x << "," << y;
        }
      auto g8 = build(m, "");
      FreeSpace fs(m);
      std::uniform_int_distribution<int> px(0, m.grid.width - 1), py(0, m.grid.height - 1);
      for (int k = 0; k < 40; ++k) {
        const Point s{px(rng) + 0.5, py(rng) + 0.5}, t{px(rng) + 0.5, py(rng) + 0.5};
        Query q;
        q.start = s, q.goal = t;
        if (m.grid.passable(int(s.x), int(s.y)) && m.grid.passable(int(t.x), int(t.y))) {
          EXPECT_EQ(sg.direct(q), fresh.direct(q));
          EXPECT_EQ(sg.direct_cost(q), fresh.direct_cost(q));
        }
        const auto got = solve(*rep, s, t), want = solve(*fresh_rep, s, t), opt = solve(*g8, s, t);
        ASSERT_EQ(got.has_value(), want.has_value());
        ASSERT_EQ(got.has_value(), opt.has_value());
        if (!got) continue;
        EXPECT_NEAR(got->cost, want->cost, 1e-9);
        EXPECT_NEAR(got->cost, opt->cost, 1e-9);
        EXPECT_EQ(got->path, want->path);  // the same edges and octile shapes
        EXPECT_TRUE(fs.path_valid(got->path));
      }
    }
    EXPECT_LT(scans, full / 2) << "updates should scan only near the changes";
    // reach=1 (every variant here but reach=0, on this small map): the cells' lists an
    // update would scan again are dropped, and the links and answers above were checked from them.
    if (std::string(params) != "reach=0") { EXPECT_GT(stale, 0u) << "an update should drop the lists it would scan again"; }
    if (sg.table()) { EXPECT_GT(repaired, 6u) << "the table should be repaired, not computed whole"; }
  }
}

}  // namespace test_subgoal
