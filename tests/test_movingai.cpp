// Moving AI readers (docs/maps.md): every parser error names file:line, real-file quirks are accepted,
// and grid8 reproduces a real scenario file to its printed precision.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "datasets/movingai.hpp"
#include "harness/registry/registry.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "support/data.hpp"
#include "support/plan.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_movingai {

using namespace navbench;

namespace {

std::string map_error(const std::string& text) {
  std::istringstream in(text);
  try {
    read_movingai_map(in, "m.map");
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "";
}

std::string scen_error(const std::string& text) {
  std::istringstream in(text);
  try {
    read_scenario(in, "s.scen");
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MovingAiMap, ParserErrorsNameFileAndLine) {
  EXPECT_EQ(map_error(""), "m.map:1: empty file (expected 'type octile')");
  EXPECT_EQ(map_error("type hex\n"), "m.map:1: map type 'hex' is not supported (only octile)");
  EXPECT_EQ(map_error("type octile\nheight x\n"), "m.map:2: height 'x' is not an integer");
  EXPECT_EQ(map_error("type octile\nheight -2\n"), "m.map:2: height -2 is outside 1..32768");
  EXPECT_EQ(map_error("type octile\nheight 2\nwidth 99999\n"), "m.map:3: width 99999 is outside 1..32768");
  EXPECT_EQ(map_error("type octile\nwidth 2\nheight 2\n"), "m.map:2: expected 'height N', got 'width 2'");
  EXPECT_EQ(map_error("type octile\nheight 2\nwidth 2\nmop\n"), "m.map:4: expected 'map'");
  EXPECT_EQ(map_error("type octile\nheight 2\nwidth 2\nmap\n..\n"), "m.map:6: map has 1 rows, header says 2");
  EXPECT_EQ(map_error("type octile\nheight 2\nwidth 2\nmap\n..\n...\n"), "m.map:6: row 1 has 3 cells, width is 2");
  EXPECT_EQ(map_error("type octile\nheight 1\nwidth 2\nmap\n..\n..\n"), "m.map:6: extra row after 1 map rows");
  EXPECT_EQ(map_error("type octile\nheight 20000\nwidth 20000\nmap\n"), "m.map:2: map of 20000x20000 cells is too large");
}

TEST(MovingAiMap, AcceptsCrlfTrailingBlanksAndAllTerrain) {
  std::istringstream in("type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GS@\r\nOTW.\r\n\r\n\n");
  GridMap m = read_movingai_map(in, "m.map");
  EXPECT_EQ(m.width, 4);
  EXPECT_EQ(m.height, 2);
  EXPECT_TRUE(m.passable(0, 0) && m.passable(1, 0) && m.passable(2, 0) && m.passable(3, 1));
  EXPECT_FALSE(m.passable(3, 0) || m.passable(0, 1) || m.passable(1, 1) || m.passable(2, 1));
  EXPECT_FALSE(m.passable(-1, 0) || m.passable(4, 0));
}

TEST(MovingAiScenario, ParserErrorsNameFileAndLine) {
  EXPECT_EQ(scen_error(""), "s.scen:1: empty scenario file (expected 'version 1')");
  EXPECT_EQ(scen_error("version 2\n"), "s.scen:1: unknown scenario version '2'");
  EXPECT_EQ(scen_error("versio 1\n"), "s.scen:1: expected 'version 1', got 'versio 1'");
  EXPECT_EQ(scen_error("version 1\n0\tm.map\t4\t4\t1\t1\t2\n"), "s.scen:2: expected 9 fields, got 7");
  EXPECT_EQ(scen_error("version 1\nx\tm.map\t4\t4\t1\t1\t2\t2\t1\n"), "s.scen:2: bucket 'x' is not a count");
  EXPECT_EQ(scen_error("version 1\n0\tm.map\t-4\t4\t1\t1\t2\t2\t1\n"),
            "s.scen:2: map size '-4 4' is not two positive integers");
  EXPECT_EQ(scen_error("version 1\n\n0\tm.map\t4\t4\t1\tq\t2\t2\t1\n"), "s.scen:3: coordinate 'q' is not a number");
  EXPECT_EQ(scen_error("version 1\n0\tm.map\t4\t4\t1\t1\t2\t2\tnan\n"),
            "s.scen:2: optimal length 'nan' is not a non-negative number");
}

TEST(MovingAiScenario, PrecisionAndSizeCheck) {
  std::istringstream in("version 1.0\n3 maps/wc3maps/x.map 4 4 1 1 2 2 12.41\n\n0\tx.map\t4\t4\t0\t0\t1\t1\t1.41421356\n");
  Scenario s = read_scenario(in, "s.scen");
  ASSERT_EQ(s.lines.size(), 2u);
  EXPECT_EQ(s.lines[0].decimals, 2);
  EXPECT_EQ(s.lines[1].decimals, 8);
  EXPECT_NEAR(printed_tolerance(s.lines[0]), 0.005, 1e-6);
  GridMap g;
  g.width = 4;
  g.height = 4;
  g.cells.assign(16, 1);
  EXPECT_NO_THROW(check_scenario_matches(s, g));
  g.width = 5;
  g.cells.assign(20, 1);
  EXPECT_THROW(check_scenario_matches(s, g), base::InputError);
}

// A grid scenario names whole cells inside the map: a fractional or out-of-range cell is refused
// with file:line (blank lines counted), not silently offset and answered.
TEST(MovingAiScenario, CellsMustBeWholeAndInside) {
  GridMap g;
  g.width = 4;
  g.height = 3;
  g.cells.assign(12, 1);
  auto check = [&](const std::string& text) -> std::string {
    std::istringstream in(text);
    Scenario s = read_scenario(in, "c.scen");
    try {
      check_scenario_matches(s, g);
    } catch (const base::InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82842712\n"), "");
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t3.0\t0\t0\t2\t3.82842712\n"), "");  // integral value
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0.5\t0\t3\t2\t3\n"), "c.scen:2: start x 0.5 is not a whole cell index");
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3\n\n0\tm.map\t4\t3\t0\t1e-9\t3\t2\t3\n"),
            "c.scen:4: start y 1e-09 is not a whole cell index");
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0\t0\t2.25\t2\t3\n"), "c.scen:2: goal x 2.25 is not a whole cell index");
  // Cells outside the map are the query's problem (invalid_query), not the file's.
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0\t0\t4\t2\t3\n"), "");
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0\t0\t3\t3\t3\n"), "");
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t-1\t0\t3\t2\t3\n"), "");
  EXPECT_EQ(check("version 1\n0\tm.map\t4\t3\t0\t-0.5\t3\t2\t3\n"), "c.scen:2: start y -0.5 is not a whole cell index");
  // Lines made in memory (no file line) name the query instead.
  Scenario mem;
  mem.path = "mem";
  mem.lines.push_back({0, "m.map", 4, 3, 0, 0, 1.5, 0, 1, 8, 1});
  try {
    check_scenario_matches(mem, g);
    ADD_FAILURE() << "fractional cell accepted";
  } catch (const base::InputError& e) {
    EXPECT_STREQ(e.what(), "mem: query 0: goal x 1.5 is not a whole cell index");
  }
}

TEST(MovingAiScenario, WriteReadRoundTrip) {
  GridMap g;
  g.width = 3;
  g.height = 2;
  g.cells = {1, 0, 1, 1, 1, 1};
  std::ostringstream mo;
  write_movingai_map(mo, g);
  std::istringstream mi(mo.str());
  GridMap back = read_movingai_map(mi, "rt.map");
  EXPECT_EQ(back.cells, g.cells);
  Scenario s;
  s.lines.push_back({1, "rt.map", 3, 2, 0, 0, 2, 0, 2.82842712, 8, 9});
  std::ostringstream so;
  write_scenario(so, s);
  std::istringstream si(so.str());
  Scenario sb = read_scenario(si, "rt.scen");
  ASSERT_EQ(sb.lines.size(), 1u);
  EXPECT_EQ(sb.lines[0].gx, 2);
  EXPECT_DOUBLE_EQ(sb.lines[0].optimal, 2.82842712);
}

// One real map end to end: every query of den312d's scenario, grid8 equal to the printed optimum,
// grid4 never shorter.
TEST(MovingAiScenarioData, RealMapRoundTrip) {
  const std::string path = testdata::path("movingai/dao/den312d.map");
  NAVBENCH_REQUIRE_DATA(path);
  Map m = load_movingai_map(path);
  EXPECT_EQ(m.name, "den312d");
  EXPECT_EQ(m.collection, "dao");
  Scenario s = load_scenario(path + ".scen");
  ASSERT_EQ(s.lines.size(), 320u);
  check_scenario_matches(s, m.grid);
  Params p8, p4;
  auto g8 = find_representation("grid8")->build(m, p8);
  auto g4 = find_representation("grid4")->build(m, p4);
  const Heuristic h = parse_heuristic("octile");
  for (const auto& l : s.lines) {
    Query q;
    q.start = {l.sx + 0.5, l.sy + 0.5};
    q.goal = {l.gx + 0.5, l.gy + 0.5};
    const Outcome o8 = testplan::plan(*g8, q, h);
    ASSERT_EQ(o8.status, PlanStatus::found);
    const double c8 = o8.cost;
    EXPECT_NEAR(c8, l.optimal, printed_tolerance(l)) << l.sx << "," << l.sy << " -> " << l.gx << "," << l.gy;
    EXPECT_NEAR(polyline_length(o8.path), c8, 1e-9);
    const Outcome o4 = testplan::plan(*g4, q.start, q.goal, h);
    ASSERT_EQ(o4.status, PlanStatus::found);
    EXPECT_GE(o4.cost, c8 - 1e-9);
  }
}

}  // namespace

}  // namespace test_movingai
