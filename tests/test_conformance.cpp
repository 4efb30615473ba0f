// One test battery for every registered representation (as OMPL's OMPL_PLANNER_TEST): each case
// runs once per registry entry, so `ctest -N` lists every representation by name and a
// representation that skipped the battery cannot hide.
#include <gtest/gtest.h>

#include <cmath>

#include "geometry/free_space.hpp"
#include "harness/pipeline.hpp"
#include "harness/registry.hpp"
#include "docs/example/tile_graph.hpp"

using namespace navbench;

namespace {

Map grid(const std::vector<std::string>& rows, const std::string& name) {
  GridMap g;
  g.height = int(rows.size());
  g.width = int(rows[0].size());
  for (auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return make_grid_map(g, name, "conformance");
}

struct Case {
  Point s, g;
  Status expect;
  double optimal;  // worked out by hand; < 0 = not checked
};

}  // namespace
namespace navbench {
void PrintTo(const RepresentationEntry& e, std::ostream* os) { *os << e.name; }
}  // namespace navbench
namespace {

// Every registry entry, plus the walk-through's example representation (docs/), which is not registered.
std::vector<RepresentationEntry> entries() {
  std::vector<RepresentationEntry> out = representations();
  out.push_back(make_entry<example::Tiles>("tiles", "docs example: 4-connected CSR tile graph"));
  // Registered representations with parameters that change their structure run the battery too.
  for (const char* spec : {"subgoal:levels=1", "subgoal:levels=2"}) {  // "subgoal" itself is levels=16
    const std::string text = spec, name = text.substr(0, text.find(':')), params = text.substr(text.find(':') + 1);
    if (const RepresentationEntry* e = find_representation(name))
      out.push_back({text, e->description, [e, params](const Map& m, Params&) {
                       Params p = Params::parse(params);
                       return e->build(m, p);
                     }, e->grid8_optimal});
  }
  return out;
}

class Conformance : public ::testing::TestWithParam<RepresentationEntry> {
 protected:
  // Runs the cases through the harness pipeline (locate -> search -> smooth -> validate), checking
  // statuses, validity, endpoints, the exact optimum as a lower bound, and determinism.
  void check(const Map& m, const std::vector<Case>& cases) {
    const RepresentationEntry& e = GetParam();
    Params p;
    std::unique_ptr<AnyRepresentation> rep;
    try {
      rep = e.build(m, p);
    } catch (const UnsupportedMap&) {
      GTEST_SKIP() << e.name << " does not support this map kind";
    }
    FreeSpace fs(m);
    const Heuristic h = parse_heuristic("euclidean");
    const std::vector<std::string> modes = {"none", "los", "funnel"};
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
      auto rows = run_query(ctx, in, *rep, e.name, h, modes, fs, true);
      auto again = run_query(ctx, in, *rep, e.name, h, modes, fs, true);
      ASSERT_EQ(rows.size(), modes.size());
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const ResultRow& r = rows[k];
        SCOPED_TRACE(r.smoothing);
        if (r.status == Status::not_applicable) {  // funnel without a corridor (SPEC §3), never anything else
          EXPECT_EQ(r.smoothing, "funnel");
          EXPECT_EQ(c.expect, Status::ok) << "not_applicable only replaces a found path's row";
          EXPECT_EQ(again[k].status, Status::not_applicable);
          continue;
        }
        ASSERT_EQ(r.status, c.expect) << r.message;
        EXPECT_EQ(again[k].status, r.status);
        if (c.expect == Status::no_path && components_known)
          EXPECT_EQ(r.expansions, 0u) << "no_path between components should need no search";
        if (r.status != Status::ok) continue;
        ASSERT_TRUE(r.valid.has_value());
        EXPECT_TRUE(*r.valid) << "invalid path";
        EXPECT_TRUE(*r.raw_valid) << "invalid raw path";
        ASSERT_GE(r.path.size(), 2u);
        EXPECT_EQ(r.path.front(), c.s);
        EXPECT_EQ(r.path.back(), c.g);
        EXPECT_LE(*r.length, *r.raw_length + 1e-9) << "smoothing lengthened the path";
        if (c.optimal >= 0) EXPECT_GE(*r.length, c.optimal - 1e-9) << "shorter than the exact optimum";
        ASSERT_TRUE(again[k].length.has_value());
        EXPECT_EQ(*again[k].length, *r.length) << "same query, different answer";
      }
    }
  }
};

TEST_P(Conformance, OpenMap) {
  Map m = grid({"..........", "..........", "..........", "..........", ".........."}, "open");
  check(m, {{{0.5, 0.5}, {9.5, 4.5}, Status::ok, std::hypot(9.0, 4.0)},
            {{2.5, 2.5}, {2.5, 2.5}, Status::ok, 0.0},     // start == goal
            {{2.2, 2.3}, {2.7, 2.9}, Status::ok, std::hypot(0.5, 0.6)},  // same cell
            {{0, 0}, {10, 5}, Status::ok, std::hypot(10.0, 5.0)},        // map corners
            {{-1, 2}, {3.5, 2.5}, Status::invalid_query, -1},            // outside
            {{3.5, 2.5}, {3.5, 5.5}, Status::invalid_query, -1}});
}

TEST_P(Conformance, TinyMaps) {
  check(grid({"."}, "one"), {{{0.5, 0.5}, {0.5, 0.5}, Status::ok, 0.0}, {{0.1, 0.2}, {0.9, 0.7}, Status::ok, -1}});
  check(grid({"@@@", "@@@"}, "blocked"), {{{0.5, 0.5}, {2.5, 1.5}, Status::invalid_query, -1}});
}

TEST_P(Conformance, ObstaclesAndComponents) {
  Map m = grid({".....@....",
                ".@@..@.@@.",
                ".@...@..@.",
                ".....@....",
                "@@@@@@@@@@",
                ".........."},
               "walls");
  check(m, {{{0.5, 0.5}, {4.5, 3.5}, Status::ok, -1},
            {{2.5, 2.5}, {0.5, 0.5}, Status::ok, -1},
            {{0.5, 0.5}, {9.5, 0.5}, Status::no_path, -1},   // wall between
            {{0.5, 5.5}, {9.5, 5.5}, Status::ok, 9.0},
            {{1.5, 1.5}, {0.5, 0.5}, Status::invalid_query, -1}});  // start in an obstacle
}

TEST_P(Conformance, LongThinCorridor) {
  std::vector<std::string> rows;
  rows.push_back(std::string(60, '.'));
  rows.push_back(std::string(59, '@') + ".");
  rows.push_back(std::string(60, '.'));
  Map m = grid(rows, "corridor");
  check(m, {{{0.5, 0.5}, {0.5, 2.5}, Status::ok, 2 * std::hypot(58.5, 0.5) + 1.0},
            {{0.5, 0.5}, {59.5, 0.5}, Status::ok, 59.0}});
}

TEST_P(Conformance, PinchPoints) {
  // Cells (1,1) and (2,2) touch only at the corner (2,2): a pinch point no path may cross.
  Map m = grid({"..@", "..@", "@@."}, "pinch");
  check(m, {{{0.5, 0.5}, {2.5, 2.5}, Status::no_path, -1},
            {{0.5, 0.5}, {1.5, 1.5}, Status::ok, std::sqrt(2.0)}});
  // With a way round, the path must go round, not through the pinch.
  Map m2 = grid({"....", "..@.", ".@..", "...."}, "pinch2");
  check(m2, {{{1.5, 1.5}, {2.5, 2.5}, Status::ok, std::sqrt(2.0)}});
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(entries()),
                         [](const ::testing::TestParamInfo<RepresentationEntry>& i) {
                           std::string s = i.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace

namespace {

// SPEC §3: funnel on a representation without a corridor is `not_applicable` (not `error`, not a
// failure); with a corridor it runs. The other modes of the same query are unaffected.
TEST(PipelineStatus, FunnelWithoutCorridorIsNotApplicable) {
  Map m = grid({"....", ".@..", "...."}, "funnel");
  FreeSpace fs(m);
  const Heuristic h = parse_heuristic("euclidean");
  QueryInput in;
  in.start = {0.5, 0.5};
  in.goal = {3.5, 2.5};
  const MapContext ctx{m.name, m.collection, "center"};
  for (const char* name : {"grid8", "navmesh"}) {
    SCOPED_TRACE(name);
    Params p;
    auto rep = find_representation(name)->build(m, p);
    auto rows = run_query(ctx, in, *rep, name, h, {"none", "funnel"}, fs, false);
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

}  // namespace
