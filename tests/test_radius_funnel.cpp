// The funnel with radius (docs/radius.md, smoothing/funnel_radius.cpp) through the harness pipeline: on an
// L-shaped corridor two cells wide, the disc's funnel path round the one convex corner is the exact
// optimum (the tangent graph's), arcs included, and it is valid; a disc too wide for the corridor
// gets a funnel path that the exact test rejects.
#include <gtest/gtest.h>

#include "geometry/tangent_graph.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/run.hpp"
#include "harness/run/timed_build.hpp"
#include "support/maps.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_radius_funnel {

using namespace navbench;

namespace {

PreparedMap l_corridor() {
  PreparedMap pm;
  pm.map = testmaps::grid_from({"........", "........", "@@@@@@..", "@@@@@@..", "@@@@@@..", "@@@@@@..",
                                "@@@@@@..", "@@@@@@.."});
  ScenarioLine l;
  l.map = "hand";
  l.width = l.height = 8;
  l.sx = 1, l.sy = 1, l.gx = 7, l.gy = 7;  // corner convention below: exact points (1, 1) -> (7, 7)
  pm.scen.lines.push_back(l);
  pm.has_scen = true;
  pm.selection.convention = "corner";
  return pm;
}

ResultRow funnel_row(const AgentMap& am) {
  const RepresentationSpec spec{"navmesh", find_representation("navmesh"), "", Erosion::none};
  const TimedBuild b = build_timed(am.space(), spec);
  const MapContext ctx{"l", "hand", "corner"};
  auto rows = run_query({.map = ctx, .space = am.space(), .cost = am.cost(), .rep_text = spec.text,
                         .heuristic = parse_heuristic("euclidean"), .smoothings = {"funnel"}, .rep = b.rep.get(),
                         .caps = spec.caps(), .keep_paths = true},
                        am.queries()[0]);
  EXPECT_EQ(rows.size(), 1u);
  return rows[0];
}

TEST(RadiusFunnel, WrapsTheCornerOptimally) {
  for (double R : {0.25, 0.5, 0.9}) {
    SCOPED_TRACE("R=" + std::to_string(R));
    const PreparedMap pm = l_corridor();
    const AgentMap am(pm, Agent::with_radius(R), {});
    ASSERT_TRUE(am.queries()[0].optimal.has_value());
    const ResultRow r = funnel_row(am);
    ASSERT_EQ(r.status, Status::ok) << r.message;
    ASSERT_TRUE(r.valid.has_value());
    EXPECT_TRUE(*r.valid);
    EXPECT_NEAR(*r.length, *am.queries()[0].optimal, 1e-9) << "one corner: the funnel with radius is exact";
    int arcs = 0;
    for (const PathItem& it : r.items) arcs += it.arc_centre;
    EXPECT_EQ(arcs, 1) << "one arc round the corner (6, 2)";
    EXPECT_NEAR(path_items_length(r.items), *r.length, 1e-12);
    EXPECT_TRUE(am.space().validity()->path_valid_radius(r.items, R));
  }
}

TEST(RadiusFunnel, TooWideADiscGivesAnInvalidPath) {
  // Two rooms joined by a corridor 2 cells wide; a disc of R = 1.2 does not fit it (no optimum),
  // but the navmesh built on the map itself (erode=none) ignores R, the funnel follows its corridor
  // and the exact test rejects the path: the price of that strategy, reported, not hidden.
  PreparedMap pm;
  pm.map = testmaps::grid_from({"..........", "..........", "..........", "..........", "@@@@..@@@@", "@@@@..@@@@",
                                "..........", "..........", "..........", ".........."});
  ScenarioLine l;
  l.map = "hand";
  l.width = l.height = 10;
  l.sx = 2, l.sy = 2, l.gx = 8, l.gy = 8;
  pm.scen.lines.push_back(l);
  pm.has_scen = true;
  pm.selection.convention = "corner";
  const AgentMap am(pm, Agent::with_radius(1.2), {});
  EXPECT_FALSE(am.queries()[0].optimal.has_value()) << "the disc cannot pass";
  const ResultRow r = funnel_row(am);
  ASSERT_EQ(r.status, Status::ok) << r.message;
  ASSERT_TRUE(r.valid.has_value());
  EXPECT_FALSE(*r.valid);
  EXPECT_FALSE(r.gap.has_value());
}

}  // namespace

}  // namespace test_radius_funnel
