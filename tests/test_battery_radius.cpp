// Battery: a disc agent's paths keep clearance R (docs/radius.md). Every entry declares how it
// meets a disc (capabilities.hpp: radius=shrunk-map or tangent-graph), so the battery runs on all of
// them at R in {0, 0.3, 0.5, 1.5} on generated maps: statuses, the `valid` column equal to an
// independent slow clearance test, the optimum a lower bound of every valid path, the tangent graph
// exact, grids on the eroded grid valid by construction, erode=none showing invalid paths. The
// shrunk-map entries that take polygon maps build on the free space shrunk by R: every path valid.
// Theta* at R > 0 is the Theta* battery's (test_battery_theta.cpp). Also here: the disc optimum
// itself (monotone in R, meeting the point optimum, a corridor exactly 2R wide).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "geometry/polygons.hpp"
#include "geometry/radius_validity.hpp"
#include "geometry/tangent_graph.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/timed_build.hpp"
#include "search/heuristic.hpp"
#include "support/battery.hpp"
#include "support/floors.hpp"
#include "support/radius.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_battery_radius {

using namespace navbench;
using namespace testradius;

namespace {

class RadiusBattery : public ::testing::TestWithParam<RepresentationEntry> {};
class ShrunkPolygonBattery : public ::testing::TestWithParam<RepresentationEntry> {};

// The entries whose paths join cell centres without corner cutting on the eroded grid: valid by
// construction at every R.
bool valid_by_construction(const RepresentationEntry& e) {
  return e.name == "grid4" || e.name == "grid8" || e.name.rfind("subgoal", 0) == 0;
}

// The floors (docs/testing.md#floors) at R = 0, where nothing but a declared may_miss excuses a
// missed path: how many of a map's queries with a path such an entry answers (every one where none
// is stated). At R > 0 a build on the shrunk map may lose a passage the disc fits through (erosion
// is conservative, docs/radius.md): there the rows found are checked, and some must be.
const testbattery::Floors& floors() {
  static const testbattery::Floors f = testbattery::declared_floors("RadiusBattery");  // on the types (kFloors)
  return f;
}

void every_radius(const RepresentationEntry& e) {
  if (const std::string why = testbattery::skip_reason(e, floors()); !why.empty()) GTEST_SKIP() << why;
  // The battery's own erosion variants ("navmesh:erode=none", ...) name the harness's declared key:
  // parsed as `--rep` parses it.
  RepresentationSpec spec{e.name, &e, "", std::nullopt};
  if (e.name.find(":erode=") != std::string::npos) spec.erode = parse_rep_option(e.name).at(0).erode;
  const std::string erode = to_string(spec.erosion());
  const Heuristic h = parse_heuristic("euclidean");
  const bool exact = e.caps.radius == RadiusSupport::tangent_graph && e.caps.exact;
  const std::vector<std::string> modes = {"none", "los", "funnel"};
  std::size_t rows_checked = 0;
  int invalid_seen = 0;  // the representations built on the map itself must show the price
  for (const Map& m : radius_maps())
    for (double R : kRadii) {
      SCOPED_TRACE(m.name + " R=" + std::to_string(R));
      const auto prep = prepared(m, R);
      const AgentMap& am = *prep->am;
      const TimedBuild built = build_timed(am.space(), spec);
      ASSERT_TRUE(built.rep) << e.name << " builds no structure for this grid map";
      const std::unique_ptr<Planner>& rep = built.rep;
      const SlowClearance slow{m.grid};
      const MapContext ctx{m.name, m.collection, "center"};
      const bool by_construction = valid_by_construction(e);
      std::optional<testbattery::PathCount> count;
      if (R == 0) count.emplace(e, floors(), m.name);
      for (const QueryInput& qi : am.queries()) {
        SCOPED_TRACE("query " + std::to_string(qi.scen_index));
        const bool clear = R == 0 ? am.space().free().point_free(qi.start) && am.space().free().point_free(qi.goal)
                                  : slow.point(qi.start) >= R - 1e-9 && slow.point(qi.goal) >= R - 1e-9;
        const QueryContext qc{.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = e.name, .heuristic = h,
                              .smoothings = modes, .rep = rep.get(), .caps = e.caps, .keep_paths = true};
        auto rows = run_query(qc, qi);
        ASSERT_EQ(rows.size(), modes.size());
        if (count && qi.optimal && !count->found(rows[0])) continue;  // a may-miss entry's missed path, counted
        for (const ResultRow& r : rows) {
          SCOPED_TRACE(r.smoothing);
          ASSERT_TRUE(r.radius.has_value());
          EXPECT_EQ(*r.radius, R);
          if (auto why = smoothing_not_applicable(qc, r.smoothing)) {  // by construction, whatever the query
            EXPECT_EQ(r.status, Status::not_applicable);
            EXPECT_EQ(r.message, *why);
            continue;
          }
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
          ++rows_checked;
          EXPECT_NEAR(*r.length, path_items_length(items), 1e-9 * (1 + *r.length));
          if (by_construction) { EXPECT_TRUE(*r.valid) << e.name << " on the eroded grid must be valid by construction"; }
          if (*r.valid) {
            ASSERT_TRUE(qi.optimal.has_value()) << "a valid path but no optimum";
            EXPECT_GE(*r.length, *qi.optimal - 1e-9 * (1 + *qi.optimal)) << "a valid path shorter than the optimum";
          }
          if (exact && r.smoothing == "none") {
            EXPECT_TRUE(*r.valid);
            ASSERT_TRUE(qi.optimal.has_value());
            EXPECT_NEAR(*r.length, *qi.optimal, 1e-9 * (1 + *qi.optimal)) << "the tangent graph is the exact optimum";
          }
        }
        // The tangent graph answers exactly when the optimum exists.
        if (exact) { EXPECT_EQ(rows[0].status == Status::ok, qi.optimal.has_value()); }
      }
    }
  EXPECT_GT(rows_checked, 0u) << "no path checked";
  if (erode == "none") { EXPECT_GT(invalid_seen, 0) << "no invalid path: the battery would not test that case"; }
}

TEST_P(RadiusBattery, AStarAndSmoothersAtEveryRadius) {
  testbattery::check_entry(GetParam());
  every_radius(GetParam());
}

// The counting itself: an entry that may miss a path and finds none fails.
TEST(RadiusBatteryFloors, AnEntryThatFindsNoPathFails) { testbattery::fails_on_nothing(every_radius); }


// Polygon maps at R > 0, erode=cell: the meshes and the quadtree build on the free space shrunk by R
// (geometry/erosion.hpp, buffer with round joins kept R away from the corners), so every path that
// stays in their cells, and every los shortcut (swept-disc test), keeps clearance R.
TEST_P(ShrunkPolygonBattery, PathsOnTheShrunkAreaAreValid) {
  const RepresentationEntry& e = GetParam();
  testbattery::check_entry(e);
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
    {
      const std::string name = e.name;
      SCOPED_TRACE(name + " R=" + std::to_string(R));
      const RepresentationSpec spec{name, &e, "", Erosion::cell};
      const auto rep = build_timed(am.space(), spec).rep;
      int ok = 0;
      for (const QueryInput& qi : am.queries())
        for (const ResultRow& r : run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = name,
                                             .heuristic = h, .smoothings = {"none", "los"},
                                             .rep = rep.get(), .caps = e.caps, .keep_paths = true}, qi)) {
          // A structure of cells that drops the cells its leaves only partly cover (the quadtree):
          // a clear point there is reported.
          if (r.status == Status::error &&
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
      EXPECT_GT(ok, name.rfind("quadtree", 0) == 0 ? 0 : 40);  // of 60 rows
    }
  }
}

// A mesh_only entry (navmesh-file) builds only on the map its .mesh file is: a mesh shrunk by R is
// refused with a note (docs/maps.md), so it takes no part here.
INSTANTIATE_TEST_SUITE_P(Registry, RadiusBattery,
                         ::testing::ValuesIn(testbattery::declaring("radius", [](const Capabilities& c) {
                           return (c.radius == RadiusSupport::shrunk_map || c.radius == RadiusSupport::tangent_graph) && !c.mesh_only;
                         })),
                         testbattery::test_name);
// The shrunk-map entries that take polygon maps and cover the free space exactly.
INSTANTIATE_TEST_SUITE_P(Registry, ShrunkPolygonBattery,
                         ::testing::ValuesIn(testbattery::declaring("shrunk_map_polygons", [](const Capabilities& c) {
                           return c.radius == RadiusSupport::shrunk_map && !c.grid_only && !c.approximate_space && !c.mesh_only;
                         })),
                         testbattery::test_name);

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

}  // namespace test_battery_radius
