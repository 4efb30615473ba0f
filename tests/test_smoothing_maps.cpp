// The smoothing stage on a real map, over every registered representation: los and funnel return
// paths that keep the ends, are never longer than the raw path, and pass FreeSpace's exact test
// whenever the raw path does; funnel is not_applicable exactly when the representation has no
// corridor. Uses den520d from the shared datasets (skipped without them): one case per representation.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "datasets/movingai.hpp"
#include "geometry/free_space.hpp"
#include "harness/registry/registry.hpp"
#include "smoothing/smoothing.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "support/battery.hpp"
#include "support/data.hpp"
#include "support/floors.hpp"
#include "support/plan.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_smoothing_maps {

using namespace navbench;

namespace {

// The floors (docs/testing.md#floors): how many of the 40 queries an entry that may miss a path
// answers on den520d (every one where none is stated; every scenario line has a path).
const testbattery::Floors& floors() {
  static const testbattery::Floors f = testbattery::declared_floors("SmoothingMapsData");  // on the types (kFloors)
  return f;
}

// One case per registered representation (`ctest -N` lists each by name), so that ctest spreads the
// representations' builds on den520d over its jobs instead of one case building them all in turn.
class SmoothingMapsData : public ::testing::TestWithParam<RepresentationEntry> {};

TEST_P(SmoothingMapsData, Den520d) {
  const RepresentationEntry& entry = GetParam();
  const std::string path = testdata::path("movingai/dao/den520d.map");
  NAVBENCH_REQUIRE_DATA(path);
  const Map m = load_movingai_map(path);
  const Scenario sc = load_scenario(path + ".scen");
  const FreeSpace fs(m);
  const Heuristic h = parse_heuristic("euclidean");
  auto vis = [&fs](Point a, Point b) { return fs.segment_valid(a, b); };
  const std::size_t n = 40, total = sc.lines.size();
  ASSERT_GE(total, n);

  {
    Params p;
    std::unique_ptr<Planner> rep;
    try {
      rep = entry.build(m, p);
    } catch (const UnsupportedMap&) {
      GTEST_SKIP() << entry.name << " does not take den520d";
    }
    std::size_t paths = 0, with_corridor = 0;
    testbattery::PathCount count(entry, floors(), m.name);  // every scenario line has a path
    for (std::size_t k = 0; k < n; ++k) {
      const auto& l = sc.lines[k * total / n];
      Query q;
      q.start = {l.sx + 0.5, l.sy + 0.5};
      q.goal = {l.gx + 0.5, l.gy + 0.5};
      // as the pipeline does: different components are no_path without a search
      const Outcome o = testplan::plan(*rep, q, h);
      const bool found = o.status == PlanStatus::found;
      if (!count.found(found, o.message)) continue;
      const Polyline& raw = o.path;
      const std::optional<Corridor>& corridor = o.corridor;
      const bool raw_valid = fs.path_valid(raw);
      const double raw_len = polyline_length(raw);
      ++paths;
      SCOPED_TRACE("scenario line " + std::to_string(k * total / n));

      const SmoothingResult los = smooth("los", raw, corridor, vis);
      ASSERT_EQ(los.status, SmoothingStatus::ok);
      EXPECT_EQ(los.path.front(), q.start);
      EXPECT_EQ(los.path.back(), q.goal);
      EXPECT_LE(polyline_length(los.path), raw_len * (1 + 1e-12));
      if (raw_valid) {
        EXPECT_TRUE(fs.path_valid(los.path));
      }

      const SmoothingResult f = smooth("funnel", raw, corridor, vis);
      if (!corridor) {
        EXPECT_EQ(f.status, SmoothingStatus::not_applicable);
        continue;
      }
      ++with_corridor;
      ASSERT_EQ(f.status, SmoothingStatus::ok);
      EXPECT_EQ(f.path.front(), q.start);
      EXPECT_EQ(f.path.back(), q.goal);
      // the raw polyline runs inside the corridor, so the shortest path through it is no longer
      EXPECT_LE(polyline_length(f.path), raw_len * (1 + 1e-12));
      // recast's corridor is Recast's simplified mesh, which may cut obstacle corners (docs/recast.md):
      // a free space other than the map's.
      if (!entry.caps.approximate_space) { EXPECT_TRUE(fs.path_valid(f.path)); }
    }
    // A corridor for every found path exactly when the representation declares one (the funnel
    // smoother needs it), none otherwise; with TheCorridorRepresentationsGiveOne below, some case
    // sees corridors.
    EXPECT_EQ(with_corridor, entry.caps.corridor ? paths : 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, SmoothingMapsData, ::testing::ValuesIn(representations()), testbattery::test_name);

// The funnel above is exercised: some registered representation declares a corridor (navmesh and
// quadtree do), and each that does gives one for its every found path on den520d (Den520d above).
TEST(SmoothingMaps, SomeRepresentationDeclaresACorridor) {
  std::size_t declaring = 0;
  for (const auto& entry : representations()) declaring += entry.caps.corridor;
  EXPECT_GT(declaring, 0u) << "no registered representation declares a corridor (navmesh, quadtree do)";
}

}  // namespace

}  // namespace test_smoothing_maps
