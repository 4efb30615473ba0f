// Battery: an update equals a fresh build (docs/changing-maps.md). One parameterised suite over every
// entry that declares update_in_place (representations/capabilities.hpp): after each change of the
// map, update() takes it in place and the representation answers every query as a fresh build of the
// same map state does (same status), with valid paths no shorter than the exact optimum; one whose
// update is exact (update_approximate not declared) also has the fresh build's structure (its
// drawing and vertex and edge counts) and the fresh build's path lengths. Each type's own checks of
// its internals after updates stay in its test file (test_dynamic.cpp, test_navmesh_update.cpp,
// test_subgoal.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "datasets/dynamic.hpp"
#include "datasets/generate.hpp"
#include "datasets/generate_dynamic.hpp"
#include "geometry/free_space.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "support/battery.hpp"
#include "support/floors.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_battery_update {

using namespace navbench;

namespace {

class UpdateBattery : public ::testing::TestWithParam<RepresentationEntry> {
 protected:
  void SetUp() override { testbattery::check_entry(GetParam()); }
};

// The drawing as a sorted list of segments, each with its ends in order: equal for equal structures
// whatever order or direction a build emits them in.
std::vector<std::tuple<double, double, double, double>> drawing(const Planner& rep) {
  std::vector<std::tuple<double, double, double, double>> out;
  for (const Segment& s : structure(rep)) {
    auto a = std::make_pair(s.a.x, s.a.y), b = std::make_pair(s.b.x, s.b.y);
    if (b < a) std::swap(a, b);
    out.emplace_back(a.first, a.second, b.first, b.second);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A sequence of map changes: the map before the first, and the next change applied to m.
struct Changes {
  std::string name;
  Map map;
  int steps, queries;
  std::mt19937_64 rng;  // draws the changes and the queries
  std::function<std::vector<CellChange>(GridMap&, std::mt19937_64&)> next;
};

// Two sequences: k x k blocks appearing or vanishing on a 22 % blocked map (25 updates of 20
// queries), and one to three blocks, checkerboards or inversions of the cells under them per update on
// a 30 % blocked map (20 updates of 25 queries).
std::vector<Changes> change_sequences() {
  std::vector<Changes> out;
  {
    std::mt19937_64 rng(7);
    GridMap g;
    g.width = 40;
    g.height = 30;
    g.cells.assign(std::size_t(g.width * g.height), 1);
    for (auto& c : g.cells) c = (rng() % 100) < 22 ? 0 : 1;
    out.push_back({"blocks", make_grid_map(g, "dyn", "test"), 25, 20, std::mt19937_64(11), [](GridMap& g, std::mt19937_64& r) {
                     const int k = 1 + int(r() % 4);
                     Patch patch{k, k, std::vector<std::uint8_t>(std::size_t(k * k), std::uint8_t(r() % 2))};
                     std::vector<CellChange> ch;
                     // x then y, drawn in this order (a call's arguments are not: scripts/check-random-draws)
                     const int x0 = int(r() % unsigned(g.width - k)), y0 = int(r() % unsigned(g.height - k));
                     apply_patch(g, patch, x0, y0, ch);
                     return ch;
                   }});
  }
  {
    std::mt19937_64 rng(17);
    Map m = testmaps::random_grid(40, 30, 0.3, rng);
    out.push_back({"mixed", m, 20, 25, rng, [](GridMap& g, std::mt19937_64& r) {
                     std::vector<CellChange> ch;
                     for (int k = 0, n = 1 + int(r() % 3); k < n; ++k) {
                       auto c = testmaps::mixed_patch(g, r, 4);
                       ch.insert(ch.end(), c.begin(), c.end());
                     }
                     return ch;
                   }});
  }
  return out;
}

// The floors (docs/testing.md#floors): how many of the queries with a path of a change sequence or
// scenario an entry that may miss one answers after its updates (every one where none is stated).
const testbattery::Floors& floors() {
  static const testbattery::Floors f = testbattery::declared_floors("UpdateBattery");  // on the types (kFloors)
  return f;
}

// After each change, the updated representation against a fresh build of the same map state. An
// entry whose update may leave another structure (update_approximate) and that may miss a path
// (prm: the samples kept, the edges at the changed cells checked again) is held to the optimum's
// statuses and its floor instead of the fresh build's statuses.
void random_changes(const RepresentationEntry& e) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
  const Heuristic h = parse_heuristic("euclidean");
  std::size_t compared = 0;
  for (Changes& seq : change_sequences()) {
    SCOPED_TRACE(seq.name);
    Map m = seq.map;
    testbattery::PathCount count(e, floors(), seq.name);
    Params p;
    std::unique_ptr<Planner> rep = e.build(m, p);
    std::mt19937_64& rng = seq.rng;
    for (int step = 0; step < seq.steps; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const std::vector<CellChange> ch = seq.next(m.grid, rng);
      ASSERT_TRUE(rep->update(m, ch)) << "declared update_in_place, but the update was declined";
      Params p2;
      const auto fresh = e.build(m, p2);
      // (update_deferred: the structure is a fresh build's once what is owed is done: below.)
      if (!e.caps.update_approximate && !e.caps.update_deferred) {
        EXPECT_EQ(rep->figures().stats.vertices, fresh->figures().stats.vertices);
        EXPECT_EQ(rep->figures().stats.edges, fresh->figures().stats.edges);
        EXPECT_TRUE(drawing(*rep) == drawing(*fresh)) << "the drawing differs from a fresh build's";
      }
      const AgentSpace space(m, Agent{});
      const FreeSpace& fs = space.free();
      const CostModel cost(m);
      const auto optimum = build_optimum_graph(m);
      const MapContext ctx{"dyn", "test", "center"};
      for (int q = 0; q < seq.queries; ++q) {
        QueryInput in;
        in.start = {double(rng() % unsigned(m.grid.width)) + 0.5, double(rng() % unsigned(m.grid.height)) + 0.5};
        in.goal = {double(rng() % unsigned(m.grid.width)) + 0.5, double(rng() % unsigned(m.grid.height)) + 0.5};
        in.optimal = exact_optimum(*optimum, fs, in.start, in.goal);
        SCOPED_TRACE("query " + std::to_string(q));
        const std::vector<std::string> modes = {"none", "funnel"};
        const auto a = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h,
                                  .smoothings = modes, .rep = rep.get(), .caps = e.caps}, in);
        const auto b = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h,
                                  .smoothings = modes, .rep = fresh.get(), .caps = e.caps}, in);
        ++compared;
        const bool as_fresh = !(e.caps.update_approximate && e.caps.may_miss);
        if (as_fresh) { ASSERT_EQ(a[0].status, b[0].status) << a[0].message; }
        if (in.optimal && !count.found(a[0])) continue;  // a may-miss entry's missed path, counted
        // A path where the optimum has none: only a free space other than the map's (recast, joining
        // across a pinch point) gives one, and its row must say it is invalid.
        if (!in.optimal && a[0].status == Status::ok) {
          EXPECT_TRUE(e.caps.approximate_space) << "a path where the optimum has none";
          EXPECT_FALSE(*a[0].valid) << "a path where the optimum has none, reported valid";
          continue;
        }
        for (std::size_t k = 0; k < a.size(); ++k) {
          const ResultRow& r = a[k];
          SCOPED_TRACE(r.smoothing);
          if (as_fresh) { EXPECT_EQ(r.status, b[k].status); }
          if (r.status != Status::ok) continue;
          ASSERT_TRUE(r.valid.has_value());
          // A free space other than the map's (Recast) may give invalid paths: then as the fresh build's.
          if (e.caps.approximate_space) {
            EXPECT_EQ(r.valid, b[k].valid);
          } else {
            EXPECT_TRUE(*r.valid) << "invalid path after an update";
          }
          if (*r.valid) {
            ASSERT_TRUE(in.optimal.has_value());
            EXPECT_GE(*r.length, *in.optimal - 1e-9 * (1 + *in.optimal)) << "shorter than the exact optimum";
          }
          if (!e.caps.update_approximate && k == 0) {
            EXPECT_NEAR(*r.raw_length, *b[k].raw_length, 1e-9 * std::max(1.0, *b[k].raw_length))
                << "not the fresh build's length";
          }
        }
      }
      // update_deferred: every second step, what the update left owed is done now
      // (Planner::settle_owed(), the type's derive_owed()), and then the structure is a fresh
      // build's too; on the other steps the next update meets it still owed (if no query bought it).
      if (e.caps.update_deferred && step % 2 == 1) {
        rep->settle_owed();
        EXPECT_EQ(rep->figures().stats.vertices, fresh->figures().stats.vertices);
        EXPECT_EQ(rep->figures().stats.edges, fresh->figures().stats.edges);
        EXPECT_TRUE(drawing(*rep) == drawing(*fresh)) << "the drawing differs from a fresh build's once nothing is owed";
      }
    }
  }
  EXPECT_EQ(compared, std::size_t(25 * 20 + 20 * 25));
}

// A change scenario (docs/changing-maps.md): built on the empty map and brought up to date through
// every update; after each update it answers every query of that epoch as a fresh build of the same
// map does (same status), with a path valid on that epoch's map and no shorter than the exact
// optimum, and a grid8-optimal representation at the scenario's octile cost. Doors and blocks on a
// rooms map.
void change_scenario(const RepresentationEntry& e) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
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
    testbattery::PathCount count(e, floors(), kind == "blocks" ? "blocks-scenario" : kind);
    Params p;
    std::unique_ptr<Planner> rep = e.build(m, p);
    std::vector<CellChange> ch;
    const Heuristic h = parse_heuristic("euclidean");
    std::size_t queries = 0;
    for (std::size_t i = 0; i < d.commands.size();) {
      ch.clear();
      while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::place) {
        const auto& c = d.commands[i++];
        apply_patch(m.grid, d.patches[std::size_t(c.id)], c.x, c.y, ch);
      }
      ASSERT_TRUE(rep->update(m, ch)) << "declared update_in_place, but the update was declined";
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
        if (!(e.caps.update_approximate && e.caps.may_miss)) { ASSERT_EQ(rows[0].status, want[0].status) << rows[0].message; }
        const Status expect = c.costs[0] >= 0 ? Status::ok : Status::no_path;
        if (expect == Status::ok && !count.found(rows[0])) continue;  // a may-miss entry's missed path, counted
        ASSERT_EQ(rows[0].status, expect);
        for (const ResultRow& r : rows) {
          if (r.status != Status::ok) continue;
          ASSERT_TRUE(r.valid.has_value());
          // A free space other than the map's (Recast) may give invalid paths: the column is then the exact test's verdict.
          if (e.caps.approximate_space) {
            EXPECT_EQ(*r.valid, fs.path_valid(r.path)) << r.smoothing;
          } else {
            EXPECT_TRUE(*r.valid) << r.smoothing;
          }
          ASSERT_TRUE(in.optimal.has_value());
          if (*r.valid) { EXPECT_GE(*r.length, *in.optimal - 1e-9 * (1 + *in.optimal)) << r.smoothing; }
        }
        if (e.caps.grid8_optimal && rows[0].status == Status::ok) {
          EXPECT_NEAR(*rows[0].raw_length, c.costs[0], printed_tolerance(c.cost_text[0], c.costs[0]));
        }
      }
    }
    EXPECT_EQ(queries, std::size_t((o.epochs + 1) * o.queries));
  }
}

TEST_P(UpdateBattery, RandomChangesAnswerAsAFreshBuild) { random_changes(GetParam()); }

TEST_P(UpdateBattery, ChangeScenario) { change_scenario(GetParam()); }

// The counting itself: an entry that may miss a path and finds none fails.
TEST(UpdateBatteryFloors, AnEntryThatFindsNoPathFails) {
  testbattery::fails_on_nothing(random_changes);
  testbattery::fails_on_nothing(change_scenario);
}

INSTANTIATE_TEST_SUITE_P(Registry, UpdateBattery,
                         ::testing::ValuesIn(testbattery::declaring("update_in_place",
                                                                    [](const Capabilities& c) { return c.update_in_place; })),
                         testbattery::test_name);

}  // namespace

}  // namespace test_battery_update
