// The WKT polygon map reader (docs/maps.md polygon maps).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "datasets/wkt.hpp"
#include "geometry/free_space.hpp"
#include "geometry/polygons.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_geometry_wkt {

using namespace navbench;

namespace {
std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    read_wkt_map(in, "m.wkt");
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Wkt, ReadsWalkableHolesAndObstacles) {
  std::istringstream in(
      "POLYGON((0 0,20 0,20 10,0 10,0 0),(2 2,2 4,4 4,4 2,2 2))\r\n"
      "\n"
      "# a comment\n"
      "MULTIPOLYGON(((10 1,12 1,11 3,10 1)),((15 5,17 5,17 8,15 8,15 5)))\n"
      "polygon((6 6, 8 6, 7 9, 6 6))\n");
  PolygonMap m = read_wkt_map(in, "t.wkt");
  ASSERT_EQ(m.walkable.rings.size(), 2u);
  EXPECT_EQ(m.walkable.rings[0].size(), 4u);  // open ring: no repeated last point
  EXPECT_EQ(m.obstacles.size(), 3u);
  Map map;
  map.kind = MapKind::polygon;
  map.polygons = m;
  map.max = {20, 10};
  FreeSpace fs(map);
  EXPECT_FALSE(fs.point_free({3, 3}));      // in the hole of the walkable area
  EXPECT_FALSE(fs.point_free({11, 1.5}));   // in the triangle
  EXPECT_TRUE(fs.point_free({1, 1}));
  EXPECT_TRUE(fs.segment_valid({1, 5}, {19, 5}));         // grazes the bottom of the box (15..17, 5..8)
  EXPECT_FALSE(fs.segment_valid({1, 5.5}, {19, 5.5}));    // crosses it
  EXPECT_TRUE(fs.segment_valid({1, 9.5}, {19, 9.5}));
}

TEST(Wkt, ErrorsNameFileAndLine) {
  EXPECT_NE(error_of("").find("m.wkt:1:"), std::string::npos);
  EXPECT_NE(error_of("POLYGON((0 0,1 0,1 1,0 0))\nPOLYGON((0 0,1 0,").find("m.wkt:2: bad WKT"), std::string::npos);
  EXPECT_NE(error_of("LINESTRING(0 0,1 1)").find("m.wkt:1: expected POLYGON"), std::string::npos);
  EXPECT_NE(error_of("POLYGON((0 0,10 0,0 10,10 10,0 0))").find("m.wkt:1: invalid polygon"), std::string::npos);
  EXPECT_NE(error_of("MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))").find("single polygon"), std::string::npos);
  EXPECT_NE(error_of("POLYGON((0 0,1 0,1 1,0 0))\nPOLYGON((0 0,nan 0,1 1,0 0))").find("m.wkt:2:"), std::string::npos);
}

TEST(Wkt, LoadNamesAndRoundTrip) {
  // The polygon version of a small grid map, written and loaded back: same answers.
  GridMap g;
  g.width = 5;
  g.height = 4;
  g.cells = {1, 1, 1, 1, 1,  //
             1, 0, 0, 1, 1,  //
             1, 1, 0, 1, 0,  //
             0, 1, 1, 1, 1};
  Map gm = make_grid_map(g, "tiny");
  Map pm = grid_to_polygon_map(gm);
  const auto dir = std::filesystem::temp_directory_path() / ("navbench_wkt_" + std::to_string(::getpid())) / "handmade";
  std::filesystem::create_directories(dir);
  const auto file = dir / "tiny.wkt";
  {
    std::ofstream out(file);
    write_wkt_map(out, pm.polygons);
  }
  Map back = load_wkt_map(file.string());
  std::filesystem::remove_all(dir.parent_path());
  EXPECT_EQ(back.name, "tiny");
  EXPECT_EQ(back.collection, "handmade");
  EXPECT_EQ(back.kind, MapKind::polygon);
  EXPECT_EQ(back.min, (Point{0, 0}));
  EXPECT_EQ(back.max, (Point{5, 4}));
  FreeSpace a(gm), b(back);
  for (double x0 = 0; x0 <= 5; x0 += 0.5)
    for (double y0 = 0; y0 <= 4; y0 += 0.5)
      for (double x1 = 0; x1 <= 5; x1 += 1)
        for (double y1 = 0; y1 <= 4; y1 += 1) ASSERT_EQ(a.segment_valid({x0, y0}, {x1, y1}), b.segment_valid({x0, y0}, {x1, y1}));
  EXPECT_THROW(load_wkt_map((dir / "missing.wkt").string()), base::InputError);
}

}  // namespace test_geometry_wkt
