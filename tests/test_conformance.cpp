// One test battery for every registered representation (as OMPL's OMPL_PLANNER_TEST): each case
// runs once per entry of tests/support/battery.hpp, so `ctest -N` lists every representation by
// name and a representation that skipped the battery cannot hide. The properties of a capability
// are the batteries filtered by it (docs/testing.md#batteries): test_battery_update.cpp,
// test_battery_radius.cpp, test_battery_weights.cpp and test_battery_theta.cpp.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "support/battery.hpp"
#include "support/floors.hpp"
#include "support/hand_maps.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_conformance {

using namespace navbench;

namespace {

using testhand::Case;

// The conformance battery's floors (docs/testing.md#floors): how many of a hand map's queries with a
// path an entry that declares may_miss must answer with one (the shared A*; every one where none is
// stated), and the entries for which it can find none, skipped by name. Measured at the commit that
// states them; each is what the entry finds there, so a regression fails.
const testbattery::Floors& floors() {
  static const std::string monotone = "recast:min_region=0,partition=monotone,tile=4", watershed = "recast:min_region=0,max_error=0";
  static const testbattery::Floors f = {
      // min_region=8 drops every region under 64 voxels: the largest hand map holds 50 walkable voxels.
      {"recast", "*", 0, "its default min_region=8 drops regions under 64 voxels, and no hand map has one "
                         "(the rows: Recast's regions hold 0 of the walkable voxels); the min_region=0 variants run these maps"},
      // The watershed partition keeps no region on one-cell-wide free space (0 of 1, 121, 5 and 14 voxels).
      {watershed, "one", 0, "the watershed partition keeps no region on a one-cell map (0 of 1 walkable voxel)"},
      {watershed, "corridor", 0, "the watershed partition keeps no region in one-cell-wide corridors (0 of 121 voxels)"},
      {watershed, "pinch", 0, "the watershed partition keeps no region on one-cell-wide free space (0 of 5 voxels)"},
      {watershed, "pinch2", 0, "the watershed partition keeps no region on one-cell-wide free space (0 of 14 voxels)"},
      // Monotone regions in 4-voxel tiles: no polygon holds some query points (the mesh does not reach them).
      {monotone, "open", 2, ""},
      {monotone, "walls", 1, ""},
      {monotone, "one", 0, "no polygon of its mesh holds the one cell's points (the mesh does not reach the start)"},
      {monotone, "corridor", 0, "no polygon of its mesh holds the corridor's query points (the mesh does not reach the start)"},
  };
  return f;
}
// The same for the representation's own search (recast: Detour's query), where it has one.
const testbattery::Floors& own_search_floors() {
  static const testbattery::Floors f = {
  };
  return f;
}

// An ok row's path: from the query's start to its goal, valid, and no shorter than the optimum.
// A representation whose free space differs from the map's (approximate_space: Recast) may give an
// invalid path: its `valid` columns must then be the exact test's verdict, and only a valid path is
// held to the optimum.
void check_path(const RepresentationEntry& e, const FreeSpace& fs, const Case& c, const ResultRow& r) {
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

// The representation's own search (recast: Detour's), where it has one. Its mesh approximates the
// free space: a path where none exists (across a pinch point the mesh joins) must be reported invalid.
void check_own_search(const RepresentationEntry& e, const QueryContext& ctx, const FreeSpace& fs, const Case& c,
                      const QueryInput& in, testbattery::PathCount& own) {
  SCOPED_TRACE("own search");
  const auto rows = run_query(ctx, in);
  if (c.expect == Status::ok && !own.found(rows[0])) return;
  for (const ResultRow& r : rows) {
    if (c.expect == Status::no_path && r.status == Status::ok) {
      EXPECT_FALSE(*r.valid) << "a path where there is none, reported valid";
      continue;
    }
    ASSERT_EQ(r.status, c.expect) << r.message;
    if (r.status == Status::ok) check_path(e, fs, c, r);
  }
}

// Runs the cases through the harness pipeline (locate -> search -> smooth -> validate), checking
// statuses, validity, endpoints, the exact optimum as a lower bound, and determinism; the queries
// with a path are counted against the entry's floor on the map.
void conform(const RepresentationEntry& e, const Map& m, const std::vector<Case>& cases) {
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
        conform(e, *mesh, cases);
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
  testbattery::PathCount count(e, floors(), m.name);
  std::optional<testbattery::PathCount> own;
  if (e.caps.own_search) own.emplace(e, own_search_floors(), m.name);
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
    const QueryContext qc{.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h,
                          .smoothings = modes, .rep = rep.get(), .caps = e.caps, .keep_paths = true};
    auto rows = run_query(qc, in);
    auto again = run_query(qc, in);
    ASSERT_EQ(rows.size(), modes.size());
    const bool missed = c.expect == Status::ok && !count.found(rows[0]);  // a may-miss entry's missed path, counted
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const ResultRow& r = rows[k];
      SCOPED_TRACE(r.smoothing);
      EXPECT_EQ(again[k].status, r.status);
      if (auto why = smoothing_not_applicable(qc, r.smoothing)) {  // by construction, whatever the query
        EXPECT_EQ(r.status, Status::not_applicable);
        EXPECT_EQ(r.message, *why);
        continue;
      }
      if (e.caps.may_miss && r.status == Status::no_path) { EXPECT_FALSE(r.message.empty()) << "a no_path row says why"; }
      if (missed) {
        EXPECT_EQ(r.status, rows[0].status);
        continue;
      }
      if (r.status == Status::not_applicable) {  // funnel on a path without its corridor (docs/results.md#query-status), never anything else
        EXPECT_EQ(r.smoothing, "funnel");
        EXPECT_EQ(c.expect, Status::ok) << "not_applicable only replaces a found path's row";
        continue;
      }
      ASSERT_EQ(r.status, c.expect) << r.message;
      if (c.expect == Status::no_path && components_known) {
        EXPECT_EQ(r.expansions, 0u) << "no_path between components should need no search";
      }
      if (r.status != Status::ok) continue;
      check_path(e, fs, c, r);
      EXPECT_LE(*r.length, *r.raw_length + 1e-9) << "smoothing lengthened the path";
      ASSERT_TRUE(again[k].length.has_value());
      EXPECT_EQ(*again[k].length, *r.length) << "same query, different answer";
    }
    const std::vector<std::string> two = {"none", "los"};
    if (own) {
      check_own_search(e, {.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h, .smoothings = two,
                           .rep = rep.get(), .search = SearchMode::detour, .caps = e.caps, .keep_paths = true},
                       fs, c, in, *own);
    }
    // Theta* and Lazy Theta* answer not_applicable where the edges are not segments; where they
    // are, their paths are the Theta* battery's (test_battery_theta.cpp).
    if (!e.caps.segment_edges) {
      for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta})
        for (const ResultRow& r : run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h,
                                             .smoothings = two, .rep = rep.get(), .search = mode, .caps = e.caps}, in))
          EXPECT_EQ(r.status, Status::not_applicable) << to_string(mode);
    }
  }
}

// The named hand maps (tests/support/hand_maps.hpp) for entry e, or its skip by name.
void conform(const RepresentationEntry& e, const std::vector<std::string>& maps) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
  std::string skipped;
  for (const std::string& name : maps) {
    if (const std::string why = testbattery::skip_reason(e, floors(), name); !why.empty()) {
      skipped += (skipped.empty() ? "" : "; ") + why;
      continue;
    }
    const testhand::HandMap hand = testhand::hand_map(name);
    conform(e, hand.map, hand.cases);
  }
  if (!skipped.empty()) GTEST_SKIP() << skipped;  // the case's other maps ran: a failure there still fails it
}

class Conformance : public ::testing::TestWithParam<RepresentationEntry> {};

// The hand-drawn maps (tests/support/hand_maps.hpp), one case each.
TEST_P(Conformance, OpenMap) { conform(GetParam(), {"open"}); }

TEST_P(Conformance, TinyMaps) { conform(GetParam(), {"one", "blocked"}); }

TEST_P(Conformance, ObstaclesAndComponents) { conform(GetParam(), {"walls"}); }

TEST_P(Conformance, LongThinCorridor) { conform(GetParam(), {"corridor"}); }

TEST_P(Conformance, PinchPoints) { conform(GetParam(), {"pinch", "pinch2"}); }

// The counting itself (docs/testing.md#floors): an entry that declares may_miss and finds no path
// fails every case with a query that has a path (no floor stated: every path), each failure naming
// the floor; stated with a skip, its cases are skipped, never passed.
TEST(ConformanceFloors, AnEntryThatFindsNoPathFails) {
  const RepresentationEntry stub = testbattery::finds_nothing();
  for (const char* map : {"open", "one", "walls", "corridor", "pinch", "pinch2"}) {
    SCOPED_TRACE(map);
    testbattery::fails_on_nothing([&](const RepresentationEntry& e) { conform(e, {map}); });
  }
  // A stated floor below what it finds fails too, and a skip by name skips.
  const testbattery::Floors one = {{"finds-nothing", "open", 1, ""}};
  {
    testbattery::Captured c = testbattery::capture([&] {
      testbattery::PathCount count(stub, one, "open");
      count.found(false, "missed");
    });
    EXPECT_TRUE(c.has("finds-nothing found 0 of the 1 paths on open, fewer than its floor 1"));
  }
  const testbattery::Floors skip = {{"finds-nothing", "*", 0, "it reaches no point"}};
  EXPECT_EQ(testbattery::skip_reason(stub, skip), "finds-nothing skipped: it reaches no point");
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

// docs/results.md#query-status: where the funnel applies (a representation declaring a corridor,
// the shared A*), a path the search found without its corridor is the representation's failure: an
// `error` row, counted unsolved, never `not_applicable` (which would take it out of every
// denominator). grid8 is declared here to give a corridor it does not give, as a corridor bug would;
// a query without a path stays `no_path`.
TEST(PipelineStatus, FunnelWithoutTheCorridorOfAFoundPathIsAnError) {
  std::vector<std::string> rows(6, std::string(13, '.'));
  for (std::string& r : rows) r[6] = '@';
  const Map m = testmaps::grid_from(rows, "corridorless", "conformance");
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "center"};
  const RepresentationEntry* e = find_representation("grid8");
  Params p;
  auto rep = e->build(m, p);
  Capabilities caps = e->caps;
  caps.corridor = true;
  auto ask = [&](Point s, Point g) {
    QueryInput in;
    in.start = s;
    in.goal = g;
    return run_query({.map = ctx, .space = space, .cost = cost, .rep_text = "grid8", .heuristic = h,
                      .smoothings = {"none", "funnel"}, .rep = rep.get(), .caps = caps}, in);
  };
  const auto found = ask({0.5, 0.5}, {5.5, 5.5});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].status, Status::ok) << found[0].message;
  EXPECT_EQ(found[1].status, Status::error) << found[1].message;
  EXPECT_EQ(found[1].message, "funnel: grid8 gave no corridor for the path its search found");
  EXPECT_FALSE(found[1].length.has_value());
  EXPECT_FALSE(found[1].valid.has_value());
  EXPECT_TRUE(found[1].raw_length.has_value());  // the search's own path, as on the row of `none`
  const auto none = ask({0.5, 0.5}, {12.5, 0.5});  // the wall splits the map: no path
  ASSERT_EQ(none.size(), 2u);
  EXPECT_EQ(none[0].status, Status::no_path);
  EXPECT_EQ(none[1].status, Status::no_path) << none[1].message;
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
    EXPECT_EQ(got[1].expansions, 0u) << "decided before the query: no search counts";
  }
  // An invalid query too: the combination cannot run, whatever the query (as Theta* on grid4's edges).
  const auto blocked = ask("recast", SearchMode::detour, {12.5, 0.5}, b);
  EXPECT_EQ(blocked[0].status, Status::invalid_query);
  EXPECT_EQ(blocked[1].status, Status::not_applicable);
  // With the shared A* on a representation with a corridor, the funnel runs.
  const auto funnel = ask("recast", SearchMode::astar, a, b);
  EXPECT_EQ(funnel[1].status, Status::ok) << funnel[1].message;

  // Batched (`run --batch`): every query's timed stages first (start_query), then their judging
  // (finish_query) give the same rows; with the funnel the only mode, no query is even located.
  for (const auto& smoothings : {modes, std::vector<std::string>{"funnel"}}) {
    std::vector<std::unique_ptr<AnyRepresentation>> built;
    std::vector<QueryContext> contexts;
    std::vector<PendingQuery> pending;
    std::deque<std::string> names;  // the contexts' rep_text (references)
    for (const Case& c : cases) {
      const RepresentationEntry* e = find_representation(c.rep);
      Params p = Params::parse(std::string(c.rep) == "recast" ? "max_error=0,min_region=0" : "");
      built.push_back(e->build(m, p));
      built.back()->prepare();
      contexts.push_back({.map = ctx, .space = space, .cost = cost, .rep_text = names.emplace_back(c.rep), .heuristic = h, .smoothings = smoothings,
                          .rep = built.back().get(), .search = c.search, .caps = e->caps});
      QueryInput in;
      in.start = c.s;
      in.goal = c.g;
      pending.push_back(start_query(contexts.back(), in));
      if (smoothings.size() == 1) { EXPECT_TRUE(pending.back().done.has_value()); }
    }
    for (std::size_t i = 0; i < pending.size(); ++i) {
      SCOPED_TRACE(std::string("batched ") + cases[i].rep + " " + to_string(cases[i].search));
      const auto got = finish_query(contexts[i], std::move(pending[i]));
      ASSERT_EQ(got.size(), smoothings.size());
      const ResultRow& f = got[smoothings.size() == 1 ? 0 : 1];
      EXPECT_EQ(f.smoothing, "funnel");
      EXPECT_EQ(f.status, Status::not_applicable);
      EXPECT_EQ(f.message, cases[i].why);
      if (smoothings.size() > 1) {
        EXPECT_EQ(got[0].status, cases[i].none) << got[0].message;
      }
    }
  }
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

}  // namespace test_conformance
