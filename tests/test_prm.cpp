// prm and prm-star (docs/prm.md) beyond the batteries: seeded and deterministic, every edge valid
// under the exact test, PRM*'s radius from the free area, the reasons of a missed path, and the
// edges after an update valid on the new map.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "geometry/free_space.hpp"
#include "harness/run/pipeline.hpp"
#include "representations/prm/prm.hpp"
#include "search/heuristic.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_prm {

using namespace navbench;

namespace {

std::unique_ptr<Planner> build(const std::string& name, const Map& m, const std::string& params) {
  Params p = Params::parse(params);
  return find_representation(name)->build(m, p);
}

// The rows of one query (A*, smoothing none) on a built roadmap.
ResultRow answer(const std::string& name, const Map& m, const Planner& rep, Point s, Point g) {
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "center"};
  QueryInput in;
  in.start = s;
  in.goal = g;
  return run_query({.map = ctx, .space = space, .cost = cost, .rep_text = name, .heuristic = h, .smoothings = {"none"},
                    .rep = &rep, .caps = find_representation(name)->caps, .keep_paths = true},
                   in)
      .at(0);
}

TEST(Prm, SeededDeterministicAndEveryEdgeValid) {
  const Map m = testmaps::generated_random(5, 25, 40);
  const FreeSpace fs(m);
  for (const char* name : {"prm", "prm-star"}) {
    SCOPED_TRACE(name);
    const auto a = build(name, m, "samples=300,seed=4"), b = build(name, m, "samples=300,seed=4"),
               c = build(name, m, "samples=300,seed=5");
    EXPECT_EQ(a->figures().stats.vertices, 300u);
    EXPECT_EQ(structure(*a).size(), structure(*b).size());
    const auto sa = structure(*a), sb = structure(*b);
    for (std::size_t i = 0; i < sa.size() && i < sb.size(); ++i) {
      EXPECT_EQ(sa[i].a, sb[i].a);
      EXPECT_EQ(sa[i].b, sb[i].b);
    }
    EXPECT_NE(a->facets().graph->point(0), c->facets().graph->point(0)) << "another seed, the same samples";
    ASSERT_GT(sa.size(), 300u);
    for (const Segment& s : sa) {
      ASSERT_TRUE(fs.point_free(s.a));
      ASSERT_TRUE(fs.segment_valid(s.a, s.b)) << "an edge the exact test refuses";
    }
  }
}

TEST(Prm, StarRadiusFromTheFreeArea) {
  const Map m = testmaps::generated_random(5, 25, 40);
  double free = 0;
  for (int y = 0; y < m.grid.height; ++y)
    for (int x = 0; x < m.grid.width; ++x) free += m.grid.passable(x, y);
  Params p = Params::parse("samples=500,gamma=1.5");
  const PrmStar star(m, p);
  const double n = 500;
  EXPECT_NEAR(star.radius(), 1.5 * std::sqrt(6 * free / std::numbers::pi) * std::sqrt(std::log(n) / n), 1e-12);
  Params q = Params::parse("samples=500");
  EXPECT_EQ(Prm(m, q).radius(), 0.0);
}

// Two rooms no path joins: the roadmap's components say so. A corridor with one sample: a point the
// sample does not see has no link.
TEST(Prm, AMissedPathSaysWhy) {
  const Map rooms = testmaps::grid_from({".....@.....", ".....@.....", ".....@....."}, "rooms", "test");
  for (const char* name : {"prm", "prm-star"}) {
    const auto rep = build(name, rooms, "samples=60");
    const ResultRow r = answer(name, rooms, *rep, {0.5, 1.5}, {10.5, 1.5});
    EXPECT_EQ(r.status, Status::no_path);
    EXPECT_EQ(r.message.rfind("start and goal join different roadmap components (", 0), 0u) << r.message;
  }
  const Map bend = testmaps::grid_from({"....@", "@@@.@", "@@@.."}, "bend", "test");
  const auto rep = build("prm", bend, "samples=1,k=1");
  int unlinked = 0;
  for (Point p : {Point{0.5, 0.5}, Point{4.5, 2.5}}) {
    const ResultRow r = answer("prm", bend, *rep, p, {3.5, 1.5});
    if (r.status == Status::no_path) {
      EXPECT_EQ(r.message.rfind("no sample connects the ", 0), 0u) << r.message;
      ++unlinked;
    }
  }
  EXPECT_GT(unlinked, 0) << "the one sample sees both ends of the bend";
}

// After an update every edge is valid on the new map, and a wall removed again lets the samples join.
TEST(Prm, EdgesAfterAnUpdateAreValidOnTheNewMap) {
  Map m = testmaps::grid_from(std::vector<std::string>(12, std::string(12, '.')), "open", "test");
  const auto rep = build("prm", m, "samples=200");
  const std::size_t before = rep->figures().stats.edges;
  std::vector<CellChange> wall, open;
  for (int y = 0; y < 12; ++y) {
    wall.push_back({6, y, 0});
    open.push_back({6, y, 1});
    m.grid.cells[std::size_t(y * 12 + 6)] = 0;
  }
  ASSERT_TRUE(rep->update(m, wall));
  const FreeSpace fs(m);
  for (const Segment& s : structure(*rep)) ASSERT_TRUE(fs.segment_valid(s.a, s.b)) << "an edge through the new wall";
  EXPECT_LT(rep->figures().stats.edges, before);
  EXPECT_EQ(answer("prm", m, *rep, {0.5, 0.5}, {11.5, 0.5}).status, Status::no_path);
  for (int y = 0; y < 12; ++y) m.grid.cells[std::size_t(y * 12 + 6)] = 1;
  ASSERT_TRUE(rep->update(m, open));
  EXPECT_EQ(rep->figures().stats.edges, before) << "the same samples, the same candidates: the same edges again";
  EXPECT_EQ(answer("prm", m, *rep, {0.5, 0.5}, {11.5, 0.5}).status, Status::ok);
}

}  // namespace

}  // namespace test_prm
