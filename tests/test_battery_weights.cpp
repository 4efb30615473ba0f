// Battery: weighted costs equal the exact integral (docs/terrain.md). One parameterised suite over
// every entry that declares weights: on random grids with weights in blobs it answers every query
// (A* with none, los and funnel; Theta* and Lazy Theta* where its edges are segments, not_applicable
// elsewhere) with valid paths whose `cost` is the exact integral of the reported path, never more
// than 0.1 % below the Steiner-point reference (`optimal_cost`), `los` never raising the cost; and
// the search's own cost of the goal is the integral of the path it returns (every edge and link
// priced exactly). Entries without weights answer not_applicable (test_terrain.cpp); the grids'
// exactness against an independent Dijkstra and visgraph's over its vertex set stay in
// test_terrain.cpp and test_visgraph_weighted.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "geometry/free_space.hpp"
#include "geometry/path_cost.hpp"
#include "geometry/steiner_reference.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "smoothing/smoothing.hpp"
#include "support/battery.hpp"
#include "support/floors.hpp"
#include "support/maps.hpp"
#include "support/plan.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_battery_weights {

using namespace navbench;

namespace {

class WeightsBattery : public ::testing::TestWithParam<RepresentationEntry> {
 protected:
  void SetUp() override { testbattery::check_entry(GetParam()); }
};

struct WeightedQuery {
  Point start, goal;
  std::optional<double> reference;  // the Steiner-point reference's cost; nullopt: no path
};
struct WeightedCase {
  Map map;
  std::vector<WeightedQuery> queries;
};

// Queries between random free cell centres, with the reference's cost.
std::vector<WeightedQuery> cell_queries(const Map& m, std::mt19937_64& rng, int n) {
  const SteinerReference reference(m.grid);
  const auto cells = testmaps::free_cells(m.grid);
  std::vector<WeightedQuery> out;
  for (int q = 0; q < n; ++q) {
    const auto [sx, sy] = cells[rng() % cells.size()];
    const auto [gx, gy] = cells[rng() % cells.size()];
    WeightedQuery w{{sx + 0.5, sy + 0.5}, {gx + 0.5, gy + 0.5}, std::nullopt};
    if (const auto ref = reference.shortest(w.start, w.goal)) w.reference = ref->cost;
    out.push_back(w);
  }
  return out;
}

// Two 36 x 28 maps (18 % blocked, seven blobs) of 12 queries and six 33 x 27 maps (15 % blocked, six
// blobs) of 25 queries; made once for every entry.
const std::vector<WeightedCase>& cases() {
  static const std::vector<WeightedCase> all = [] {
    std::vector<WeightedCase> out;
    std::mt19937_64 rng(29);
    for (int round = 0; round < 2; ++round) {
      Map m = testmaps::weighted_grid(36, 28, 0.18, rng, {.count = 7, .max_radius = 6, .base = 1, .terrain = "blobs"});
      m.name = "weighted" + std::to_string(round);
      auto qs = cell_queries(m, rng, 12);
      out.push_back({std::move(m), std::move(qs)});
    }
    std::mt19937_64 rng2(17);
    for (int round = 0; round < 6; ++round) {
      Map m = testmaps::weighted_grid(33, 27, 0.15, rng2);
      m.name = "terrain" + std::to_string(round);
      auto qs = cell_queries(m, rng2, 25);
      out.push_back({std::move(m), std::move(qs)});
    }
    return out;
  }();
  return all;
}

// The floors (docs/testing.md#floors): how many of a map's queries with a path an entry that may
// miss one answers with the shared A* (every one where none is stated).
const testbattery::Floors& floors() {
  static const testbattery::Floors f = testbattery::declared_floors("WeightsBattery");  // on the types (kFloors)
  return f;
}

// The rows and searches that reach the cost checks over the eight maps: more than 200 and 100 for
// every entry but recast's, whose free space differs from the map's (approximate_space): it answers
// A* only (its edges are not segments), and only its valid paths reach the checks. Measured at the
// commit of these lines (rows of none, los and funnel; searches: raw paths):
//   recast (max_error=1.3, min_region=8): 180 of the 197 queries with a path answered, 540 rows,
//     102 of them valid, 32 of the 180 raw paths valid (its simplified contours cut corners);
//   recast:min_region=0,max_error=0: 165 valid rows, 49 valid raw paths;
//   recast:min_region=0,partition=monotone,tile=4: more than 200 valid rows, 83 valid raw paths.
struct Totals {
  std::size_t rows, searches;
};
Totals least_checked(const RepresentationEntry& e) {
  if (e.name == "recast") return {100, 30};
  if (e.name == "recast:min_region=0,max_error=0") return {160, 45};
  if (e.name == "recast:min_region=0,partition=monotone,tile=4") return {201, 80};
  return {201, 101};
}

// Every query of every map through the pipeline and the search alone; the queries with a path
// counted against the entry's floor on each map.
void cost_is_the_path_integral(const RepresentationEntry& e) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
  const Heuristic h = parse_heuristic("euclidean");
  std::size_t checked = 0, searches = 0;
  for (const WeightedCase& wc : cases()) {
    const Map& m = wc.map;
    SCOPED_TRACE(m.name);
    Params p;
    std::unique_ptr<Planner> rep = e.build(m, p);
    rep->prepare();
    const AgentSpace space(m, Agent{});
    const FreeSpace& fs = space.free();
    const CostModel cost(m);
    const MapContext ctx = map_context(m, "center");
    Heuristic scaled = h;
    scaled.weight = cost.least_weight();  // as the pipeline scales it on a weighted map
    testbattery::PathCount count(e, floors(), m.name);
    for (std::size_t qi = 0; qi < wc.queries.size(); ++qi) {
      const WeightedQuery& wq = wc.queries[qi];
      SCOPED_TRACE("query " + std::to_string(qi));
      QueryInput in;
      in.start = wq.start;
      in.goal = wq.goal;
      in.optimal_cost = wq.reference;
      bool missed = false;
      for (SearchMode mode : {SearchMode::astar, SearchMode::theta, SearchMode::lazy_theta}) {
        const bool astar = mode == SearchMode::astar;
        const std::vector<std::string> smoothings = astar ? std::vector<std::string>{"none", "los", "funnel"}
                                                          : std::vector<std::string>{"none", "los"};
        const QueryContext qc{.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h,
                              .smoothings = smoothings, .rep = rep.get(), .search = mode, .caps = e.caps, .keep_paths = true};
        const auto rows = run_query(qc, in);
        // A may-miss entry's missed path (counted once, on A*'s first row): every row of the query
        // says so, Theta*'s as A*'s on the same graph.
        if (astar && wq.reference) missed = !count.found(rows[0]);
        for (const ResultRow& r : rows) {
          SCOPED_TRACE(std::string(to_string(mode)) + " " + r.smoothing);
          if (!astar && !e.caps.segment_edges) {
            EXPECT_EQ(r.status, Status::not_applicable) << r.message;
            continue;
          }
          if (auto why = smoothing_not_applicable(qc, r.smoothing)) {  // by construction, whatever the query
            EXPECT_EQ(r.status, Status::not_applicable);
            EXPECT_EQ(r.message, *why);
            continue;
          }
          if (missed) {
            EXPECT_EQ(r.status, Status::no_path) << r.message;
            continue;
          }
          // A free space other than the map's (recast) may give invalid paths: its validity column is
          // then the exact test's, and only its valid paths are held to the optimum.
          ASSERT_EQ(r.status, wq.reference ? Status::ok : Status::no_path) << r.message;
          if (r.status != Status::ok) continue;
          if (e.caps.approximate_space) {
            EXPECT_EQ(*r.valid, space.free().path_valid(r.path));
            if (!*r.valid) continue;  // (a valid smoothed path may come from an invalid raw one)
          } else {
            EXPECT_TRUE(*r.valid && *r.raw_valid) << "invalid path";
          }
          ++checked;
          EXPECT_EQ(r.path.front(), in.start);
          EXPECT_EQ(r.path.back(), in.goal);
          ASSERT_TRUE(r.cost && r.raw_cost && r.cost_gap);
          EXPECT_NEAR(*r.cost, path_cost(m.grid, r.path), 1e-9 * *r.cost) << "cost is not the path's integral";
          EXPECT_GE(*r.cost_gap, -1e-3) << "more than 0.1 % below the reference optimum";
          if (r.smoothing == "los") { EXPECT_LE(*r.cost, *r.raw_cost * (1 + 1e-12)) << "los raised the cost"; }
        }
        if (!wq.reference || missed || (!astar && !e.caps.segment_edges)) continue;
        // The search's cost of the goal is the integral of the path it returns. A free space other
        // than the map's (recast): where its polygons cover a blocked cell it prices that piece by the
        // polygon's area cost (docs/recast.md): there only valid paths hold it.
        Query q;
        q.start = in.start;
        q.goal = in.goal;
        const auto test = [&fs](Point a, Point b) { return fs.segment_valid(a, b); };
        const VisibleFn sees(test);
        const Outcome o = testplan::plan(*rep, q, scaled, mode, &sees);
        ASSERT_EQ(o.status, PlanStatus::found) << o.message;
        const Polyline& path = o.path;
        const double c = o.cost;
        if (e.caps.approximate_space && !fs.path_valid(path)) continue;
        EXPECT_NEAR(c, path_cost(m.grid, path), 1e-9 * c) << to_string(mode) << "'s cost is not its path's integral";
        ++searches;
      }
    }
  }
  const Totals least = least_checked(e);
  EXPECT_GE(checked, least.rows) << "rows that reached the checks";
  EXPECT_GE(searches, least.searches) << "searches whose cost was checked";
}

TEST_P(WeightsBattery, CostIsThePathIntegral) { cost_is_the_path_integral(GetParam()); }

// The counting itself: an entry that may miss a path and finds none fails on every map.
TEST(WeightsBatteryFloors, AnEntryThatFindsNoPathFails) {
  const testbattery::Captured c = testbattery::fails_on_nothing(cost_is_the_path_integral);
  for (const char* map : {"weighted0", "weighted1", "terrain0", "terrain5"})
    EXPECT_TRUE(c.has(std::string("paths on ") + map + ", fewer than its floor")) << map;
}


INSTANTIATE_TEST_SUITE_P(Registry, WeightsBattery,
                         ::testing::ValuesIn(testbattery::declaring("weights", [](const Capabilities& c) { return c.weights; })),
                         testbattery::test_name);

}  // namespace

}  // namespace test_battery_weights
