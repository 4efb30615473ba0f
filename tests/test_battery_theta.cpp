// Battery: Theta* paths are valid (docs/path-quality.md#any-angle-search). One parameterised suite
// over every entry that declares segment_edges (its edges are the segments between its vertices'
// points, so Theta*'s parent shortcut applies). Theta* and Lazy Theta* (search/theta.hpp) answer the
// conformance battery's hand-drawn queries with their statuses, and every query of a random grid,
// with a valid path no shorter than the exact optimum, never longer after los, with segment tests
// made; for a disc agent (R in {0, 0.3, 0.5, 1.5}, the swept-disc test) with the status of A*'s raw
// path, the `valid` column equal to an independent slow clearance test, and valid paths with
// clearance R where the grid's own paths are valid by construction. Entries without segment_edges
// answer not_applicable (test_conformance.cpp); Theta* on weighted maps is the weights battery's
// (test_battery_weights.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "geometry/free_space.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/timed_build.hpp"
#include "search/heuristic.hpp"
#include "support/battery.hpp"
#include "support/floors.hpp"
#include "support/hand_maps.hpp"
#include "support/maps.hpp"
#include "support/radius.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_battery_theta {

using namespace navbench;
using namespace testradius;

namespace {

class ThetaBattery : public ::testing::TestWithParam<RepresentationEntry> {
 protected:
  void SetUp() override { testbattery::check_entry(GetParam()); }
};

// The floors (docs/testing.md#floors): how many of a map's queries with a path an entry that may
// miss one answers with Theta* (every one where none is stated; Lazy Theta* on the same graph
// answers the same queries).
const testbattery::Floors& floors() {
  static const testbattery::Floors f = testbattery::declared_floors("ThetaBattery");  // on the types (kFloors)
  return f;
}

// The rows of one query by Theta* and Lazy Theta*: a may-miss entry's missed path counted once (on
// Theta*'s first row), Lazy Theta* then missing it too; every found path returned for checking.
std::vector<ResultRow> found_rows(const QueryContext& theta, const QueryContext& lazy, const QueryInput& in, bool has_path,
                                  testbattery::PathCount& count) {
  std::vector<ResultRow> rows = run_query(theta, in), more = run_query(lazy, in);
  rows.insert(rows.end(), more.begin(), more.end());
  if (has_path && !count.found(rows[0])) {
    for (const ResultRow& r : rows) EXPECT_EQ(r.status, Status::no_path) << r.search << " " << r.message;
    return {};
  }
  return rows;
}

// The conformance battery's hand-drawn maps: each query's status, and a valid path from start to
// goal no shorter than the optimum worked out by hand.
void hand_maps(const RepresentationEntry& e) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
  const Heuristic h = parse_heuristic("euclidean");
  std::size_t checked = 0;
  for (const testhand::HandMap& hand : testhand::hand_maps()) {
    const Map& m = hand.map;
    SCOPED_TRACE(m.name);
    Params p;
    std::unique_ptr<Planner> rep = e.build(m, p);
    const AgentSpace space(m, Agent{});
    const CostModel cost(m);
    const MapContext ctx{m.name, m.collection, "center"};
    const std::vector<std::string> modes = {"none", "los"};
    testbattery::PathCount count(e, floors(), m.name);
    for (std::size_t i = 0; i < hand.cases.size(); ++i) {
      const testhand::Case& c = hand.cases[i];
      SCOPED_TRACE("case " + std::to_string(i));
      QueryInput in;
      in.start = c.s;
      in.goal = c.g;
      for (const ResultRow& r :
           found_rows({.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h, .smoothings = modes,
                       .rep = rep.get(), .search = SearchMode::theta, .caps = e.caps, .keep_paths = true},
                      {.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h, .smoothings = modes,
                       .rep = rep.get(), .search = SearchMode::lazy_theta, .caps = e.caps, .keep_paths = true},
                      in, c.expect == Status::ok, count)) {
        SCOPED_TRACE(r.search);
        ASSERT_EQ(r.status, c.expect) << r.message;
        if (r.status != Status::ok) continue;
        ++checked;
        EXPECT_TRUE(*r.valid && *r.raw_valid) << "invalid any-angle path";
        EXPECT_EQ(r.path.front(), c.s);
        EXPECT_EQ(r.path.back(), c.g);
        if (c.optimal >= 0) { EXPECT_GE(*r.length, c.optimal - 1e-9) << "shorter than the exact optimum"; }
        EXPECT_GE(*r.clearance, 0.0);
      }
    }
  }
  EXPECT_GT(checked, 20u);
}

void random_grid(const RepresentationEntry& e) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
  const Map m = testmaps::generated_random(7, 25, 48);
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const FreeSpace& fs = space.free();
  const auto optimum = build_optimum_graph(m);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "center"};
  Params p;
  std::unique_ptr<Planner> rep = e.build(m, p);
  rep->prepare();
  std::size_t checked = 0;
  const std::vector<std::string> modes = {"none", "los"};
  testbattery::PathCount count(e, floors(), m.name);
  for (const auto& [s, g] : testmaps::free_cell_pairs(m, fs, 3, 25)) {
    QueryInput in;
    in.start = s;
    in.goal = g;
    in.optimal = exact_optimum(*optimum, fs, s, g);
    for (const ResultRow& r :
         found_rows({.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h, .smoothings = modes,
                     .rep = rep.get(), .search = SearchMode::theta, .caps = e.caps, .keep_paths = true},
                    {.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h, .smoothings = modes,
                     .rep = rep.get(), .search = SearchMode::lazy_theta, .caps = e.caps, .keep_paths = true},
                    in, in.optimal.has_value(), count)) {
      SCOPED_TRACE("query (" + std::to_string(s.x) + "," + std::to_string(s.y) + ")-(" + std::to_string(g.x) + "," +
                   std::to_string(g.y) + ") " + r.search + " " + r.smoothing);
      if (!in.optimal) {
        EXPECT_EQ(r.status, Status::no_path);
        continue;
      }
      ASSERT_EQ(r.status, Status::ok) << r.message;
      ++checked;
      EXPECT_TRUE(*r.valid) << "invalid any-angle path";
      EXPECT_TRUE(*r.raw_valid);
      EXPECT_EQ(r.path.front(), s);
      EXPECT_EQ(r.path.back(), g);
      EXPECT_GE(*r.length, *in.optimal - 1e-9) << "shorter than the exact optimum";
      EXPECT_LE(*r.length, *r.raw_length + 1e-9);  // los never lengthens
      EXPECT_GT(r.los_checks, 0u);
      EXPECT_GE(*r.clearance, 0.0);
    }
  }
  EXPECT_GT(checked, 50u);
}

TEST_P(ThetaBattery, HandMaps) { hand_maps(GetParam()); }

TEST_P(ThetaBattery, ValidAndNeverBelowTheOptimumOnARandomGrid) { random_grid(GetParam()); }

// The counting itself: an entry that may miss a path and finds none fails.
TEST(ThetaBatteryFloors, AnEntryThatFindsNoPathFails) {
  testbattery::fails_on_nothing(hand_maps);
  testbattery::fails_on_nothing(random_grid);
}

// A disc agent: the representation built as the harness builds it for R (erode=centre: on the cells
// whose centre keeps clearance R), Theta*'s shortcuts tested with the swept disc.
TEST_P(ThetaBattery, DiscAgent) {
  const RepresentationEntry& e = GetParam();
  const Heuristic h = parse_heuristic("euclidean");
  const bool by_construction = e.name == "grid4" || e.name == "grid8";
  std::vector<Map> maps = radius_maps();
  maps.push_back(testmaps::generated_random(11, 15, 48));
  std::size_t checked = 0;
  for (const Map& m : maps)
    for (double R : kRadii) {
      SCOPED_TRACE(m.name + " R=" + std::to_string(R));
      const auto prep = prepared(m, R, m.grid.width == 48 ? 58 : 10);
      const AgentMap& am = *prep->am;
      const TimedBuild built = build_timed(am.space(), RepresentationSpec{e.name, &e, "", std::nullopt});
      ASSERT_TRUE(built.rep) << e.name << " builds no structure for this grid map";
      const SlowClearance slow{m.grid};
      const MapContext ctx{m.name, m.collection, "center"};
      for (const QueryInput& qi : am.queries()) {
        SCOPED_TRACE("query " + std::to_string(qi.scen_index));
        const auto astar = run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = e.name, .heuristic = h,
                                      .smoothings = {"none"}, .rep = built.rep.get(), .caps = e.caps}, qi);
        for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta}) {
          SCOPED_TRACE(to_string(mode));
          for (const ResultRow& r : run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = e.name,
                                               .heuristic = h, .smoothings = {"none", "los"}, .rep = built.rep.get(),
                                               .search = mode, .caps = e.caps, .keep_paths = true},
                                              qi)) {
            EXPECT_EQ(r.status, astar[0].status) << r.message;
            if (r.status != Status::ok) continue;
            ++checked;
            EXPECT_EQ(*r.valid, R == 0 ? am.space().free().path_valid(r.path) : slow.valid(items_of(r.path), R))
                << "the validity column disagrees with the slow test";
            if (by_construction) { EXPECT_TRUE(*r.valid) << "Theta*'s shortcuts keep the disc clear"; }
            if (*r.valid && qi.optimal) { EXPECT_GE(*r.length, *qi.optimal - 1e-9 * (1 + *qi.optimal)); }
            if (*r.valid) { EXPECT_GE(*r.clearance, R - 1e-9); }
          }
        }
      }
    }
  EXPECT_GT(checked, 100u);
}

INSTANTIATE_TEST_SUITE_P(Registry, ThetaBattery,
                         ::testing::ValuesIn(testbattery::declaring("segment_edges",
                                                                    [](const Capabilities& c) { return c.segment_edges; })),
                         testbattery::test_name);

}  // namespace

}  // namespace test_battery_theta
