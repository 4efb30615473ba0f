// One test battery for every registered representation (as OMPL's OMPL_PLANNER_TEST): each case
// runs once per entry of tests/support/battery.hpp, so `ctest -N` lists every representation by
// name and a representation that skipped the battery cannot hide. The properties of a capability
// are the batteries filtered by it (docs/testing.md#batteries): test_battery_update.cpp,
// test_battery_radius.cpp, test_battery_weights.cpp and test_battery_theta.cpp.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <utility>

#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "support/battery.hpp"
#include "support/hand_maps.hpp"
#include "support/maps.hpp"

using namespace navbench;

namespace {

using testhand::Case;

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
    if (c.optimal >= 0 && *r.valid) { EXPECT_GE(*r.length, c.optimal - 1e-9) << "shorter than the exact optimum"; }
  }

  // Runs the cases through the harness pipeline (locate -> search -> smooth -> validate), checking
  // statuses, validity, endpoints, the exact optimum as a lower bound, and determinism.
  void check(const testhand::HandMap& hand) { check(hand.map, hand.cases); }
  void check(const Map& m, const std::vector<Case>& cases) {
    const RepresentationEntry& e = GetParam();
    Params p;
    std::unique_ptr<AnyRepresentation> rep;
    try {
      rep = e.build(m, p);
    } catch (const UnsupportedMap&) {
      // A representation of maps read from a mesh file (navmesh-file) meets the grid as the mesh
      // of its free cells: the same free space, so the same cases hold.
      if (m.kind == MapKind::grid) {
        if (const std::optional<Map> mesh = testmaps::cells_mesh_map(m)) {
          Params p2;
          try {
            e.build(*mesh, p2);
          } catch (const UnsupportedMap&) {
            GTEST_SKIP() << e.name << " does not support this map kind";
          }
          check(*mesh, cases);
          return;
        }
      }
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
        if (!(e.caps.approximate_space && c.expect == Status::ok && r.status == Status::no_path)) {  // a missed path
          ASSERT_EQ(r.status, c.expect) << r.message;
        }
        EXPECT_EQ(again[k].status, r.status);
        if (c.expect == Status::no_path && components_known) {
          EXPECT_EQ(r.expansions, 0u) << "no_path between components should need no search";
        }
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
          if (!(c.expect == Status::ok && r.status == Status::no_path)) { ASSERT_EQ(r.status, c.expect) << r.message; }
          if (r.status == Status::ok) check_path(e, fs, c, r);
        }
      }
      // Theta* and Lazy Theta* answer not_applicable where the edges are not segments; where they
      // are, their paths are the Theta* battery's (test_battery_theta.cpp).
      if (!e.caps.segment_edges) {
        for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta})
          for (const ResultRow& r : run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                               .heuristic = h, .smoothings = {"none", "los"},
                                               .rep = rep.get(), .search = mode, .caps = e.caps}, in))
            EXPECT_EQ(r.status, Status::not_applicable) << to_string(mode);
      }
    }
  }
};

// The hand-drawn maps (tests/support/hand_maps.hpp), one case each.
TEST_P(Conformance, OpenMap) { check(testhand::hand_map("open")); }

TEST_P(Conformance, TinyMaps) {
  check(testhand::hand_map("one"));
  check(testhand::hand_map("blocked"));
}

TEST_P(Conformance, ObstaclesAndComponents) { check(testhand::hand_map("walls")); }

TEST_P(Conformance, LongThinCorridor) { check(testhand::hand_map("corridor")); }

TEST_P(Conformance, PinchPoints) {
  check(testhand::hand_map("pinch"));
  check(testhand::hand_map("pinch2"));
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(testbattery::entries()), testbattery::test_name);

}  // namespace

namespace {

// docs/results.md#query-status: funnel on a representation without a corridor is `not_applicable` (not `error`, not a
// failure); with a corridor it runs. The other modes of the same query are unaffected.
TEST(PipelineStatus, FunnelWithoutCorridorIsNotApplicable) {
  Map m = testmaps::grid_from({"....", ".@..", "...."}, "funnel", "conformance");
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const Heuristic h = parse_heuristic("euclidean");
  QueryInput in;
  in.start = {0.5, 0.5};
  in.goal = {3.5, 2.5};
  const MapContext ctx{m.name, m.collection, "center"};
  for (const char* name : {"grid8", "navmesh"}) {
    SCOPED_TRACE(name);
    Params p;
    const RepresentationEntry* e = find_representation(name);
    auto rep = e->build(m, p);
    auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = name,
                           .heuristic = h, .smoothings = {"none", "funnel"},
                           .rep = rep.get(), .caps = e->caps}, in);
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

// The funnel needs a corridor (SmootherInfo::needs_corridor), which only the shared A* on a
// representation declaring one gives: with Detour's own query (recast, whose findStraightPath has
// already pulled its path taut), and on a representation without a corridor (whatever its search),
// every funnel row is not_applicable by construction — also where the search finds no path or
// fails, so that such a configuration never shows as missing queries on some maps only — while
// the other modes of the same query answer as without it.
TEST(PipelineStatus, FunnelWithoutTheSearchsCorridorIsNotApplicableOnEveryQuery) {
  // Two rooms 12 cells wide, apart: within a room every search finds a path, between them none.
  std::vector<std::string> rows(12, std::string(25, '.'));
  for (std::string& r : rows) r[12] = '@';
  const Map m = testmaps::grid_from(rows, "rooms", "conformance");
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "center"};
  const std::vector<std::string> modes = {"none", "funnel", "los"};
  auto ask = [&](const char* name, SearchMode search, Point s, Point g) {
    const RepresentationEntry* e = find_representation(name);
    Params p = Params::parse(std::string(name) == "recast" ? "max_error=0,min_region=0" : "");
    auto rep = e->build(m, p);
    rep->prepare();
    QueryInput in;
    in.start = s;
    in.goal = g;
    return run_query({.map = ctx, .space = space, .cost = cost, .rep_text = name, .heuristic = h, .smoothings = modes,
                      .rep = rep.get(), .search = search, .caps = e->caps}, in);
  };
  const Point a{2.5, 2.5}, b{9.5, 10.5}, far{22.5, 9.5};
  struct Case {
    const char* rep;
    SearchMode search;
    Point s, g;
    Status none;  // the status of the mode `none` (and `los`)
    const char* why;
  };
  const Case cases[] = {
      {"recast", SearchMode::detour, a, b, Status::ok, "funnel not applicable: the detour search of recast gives no corridor"},
      {"recast", SearchMode::detour, a, far, Status::no_path, "funnel not applicable: the detour search of recast gives no corridor"},
      {"grid8", SearchMode::astar, a, far, Status::no_path, "funnel not applicable: grid8 has no corridor"},
      {"grid8", SearchMode::theta, a, b, Status::ok, "funnel not applicable: grid8 has no corridor"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.rep) + " " + to_string(c.search));
    const auto got = ask(c.rep, c.search, c.s, c.g);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].status, c.none) << got[0].message;
    EXPECT_EQ(got[2].status, c.none) << got[2].message;
    EXPECT_EQ(got[1].smoothing, "funnel");
    EXPECT_EQ(got[1].status, Status::not_applicable);
    EXPECT_EQ(got[1].message, c.why);
    EXPECT_FALSE(got[1].length.has_value());
  }
  // An invalid query too: the combination cannot run, whatever the query (as Theta* on grid4's edges).
  const auto blocked = ask("recast", SearchMode::detour, {12.5, 0.5}, b);
  EXPECT_EQ(blocked[0].status, Status::invalid_query);
  EXPECT_EQ(blocked[1].status, Status::not_applicable);
  // With the shared A* on a representation with a corridor, the funnel runs.
  const auto funnel = ask("recast", SearchMode::astar, a, b);
  EXPECT_EQ(funnel[1].status, Status::ok) << funnel[1].message;
}

}  // namespace

namespace {

// The batteries' filter (tests/support/battery.hpp): each capability's battery runs on exactly the
// entries that declare it, and a battery no entry qualifies for runs one case that fails.
TEST(Batteries, EachRunsOnTheEntriesDeclaringItsCapability) {
  const std::vector<std::pair<std::string, std::function<bool(const Capabilities&)>>> batteries = {
      {"update_in_place", [](const Capabilities& c) { return c.update_in_place; }},
      {"weights", [](const Capabilities& c) { return c.weights; }},
      {"segment_edges", [](const Capabilities& c) { return c.segment_edges; }}};
  for (const auto& [capability, declares] : batteries) {
    SCOPED_TRACE(capability);
    std::vector<std::string> want, got;
    for (const RepresentationEntry& e : testbattery::entries())
      if (declares(e.caps)) want.push_back(e.name);
    for (const RepresentationEntry& e : testbattery::declaring(capability, declares)) got.push_back(e.name);
    EXPECT_GE(want.size(), 3u) << "too few entries declare it to trust the battery";
    EXPECT_EQ(got, want);
  }
  const auto none = testbattery::declaring("nothing", [](const Capabilities&) { return false; });
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].name, "none_declares_nothing");
  EXPECT_FATAL_FAILURE(testbattery::check_entry(testbattery::declaring("nothing", [](const Capabilities&) { return false; })[0]),
                       "the battery would run no case");
}

}  // namespace
