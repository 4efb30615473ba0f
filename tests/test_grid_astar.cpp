#include <gtest/gtest.h>

#include <sstream>

#include "datasets/movingai.hpp"
#include "harness/registry/registry.hpp"
#include "representations/grid/grid.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_grid_astar {

using namespace navbench;

static double solve(AnyRepresentation& rep, Point s, Point g, Query* out = nullptr, std::size_t* exp = nullptr) {
  Query q;
  q.start = s;
  q.goal = g;
  EXPECT_TRUE(rep.locate(q));
  SearchStats st;
  double c = rep.search(q, parse_heuristic("euclidean"), st);
  if (out) *out = q;
  if (exp) *exp = st.expansions;
  return c;
}

TEST(GridAStar, OpenRoomDiagonal) {
  Map m = testmaps::grid_from({".....", ".....", "....."});
  Params p;
  auto rep = find_representation("grid8")->build(m, p);
  Query q;
  double c = solve(*rep, {0.5, 0.5}, {4.5, 2.5}, &q);
  EXPECT_NEAR(c, 2 * std::sqrt(2.0) + 2, 1e-12);
  EXPECT_NEAR(polyline_length(rep->polyline(q)), c, 1e-12);
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
