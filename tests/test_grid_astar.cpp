#include <gtest/gtest.h>

#include <sstream>

#include "datasets/movingai.hpp"
#include "harness/registry/registry.hpp"
#include "representations/grid/grid.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "support/maps.hpp"
#include "support/plan.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_grid_astar {

using namespace navbench;

static double solve(const Planner& rep, Point s, Point g, Polyline* path = nullptr, std::size_t* exp = nullptr) {
  Query q;
  q.start = s;
  q.goal = g;
  const Outcome o = testplan::plan(rep, q, parse_heuristic("euclidean"));
  EXPECT_NE(o.status, PlanStatus::not_covered);
  if (path) *path = o.path;
  if (exp) *exp = o.stats.expansions;
  return o.cost;
}

TEST(GridAStar, OpenRoomDiagonal) {
  Map m = testmaps::grid_from({".....", ".....", "....."});
  Params p;
  auto rep = find_representation("grid8")->build(m, p);
  Polyline path;
  double c = solve(*rep, {0.5, 0.5}, {4.5, 2.5}, &path);
  EXPECT_NEAR(c, 2 * std::sqrt(2.0) + 2, 1e-12);
  EXPECT_NEAR(polyline_length(path), c, 1e-12);
}

TEST(GridAStar, NoCornerCutting) {
  // The diagonal step (0,1)->(1,0) would cut the blocked corner cell (0,0).
  Map m = testmaps::grid_from({"@.", ".."});
  Params p;
  auto rep = find_representation("grid8")->build(m, p);
  EXPECT_NEAR(solve(*rep, {0.5, 1.5}, {1.5, 0.5}), 2.0, 1e-12);
}

TEST(GridAStar, Unreachable) {
  Map m = testmaps::grid_from({".@.", ".@.", ".@."});
  Params p;
  auto rep = find_representation("grid8")->build(m, p);
  EXPECT_TRUE(std::isinf(solve(*rep, {0.5, 0.5}, {2.5, 2.5})));
  // the workspace is reused: the next query is right again
  EXPECT_NEAR(solve(*rep, {0.5, 0.5}, {0.5, 2.5}), 2.0, 1e-12);
}

}  // namespace test_grid_astar
