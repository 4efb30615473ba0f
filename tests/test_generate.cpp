// The project's own maps: generator determinism and shape, the scenario maker, its independent
// octile optimum, the hand-worked maps and the bundled files (which must equal a fresh generation).
#include <gtest/gtest.h>

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unistd.h>

#include "datasets/generate.hpp"
#include "datasets/movingai.hpp"
#include "datasets/wkt.hpp"
#include "geometry/free_space.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_generate {

using namespace navbench;

namespace {

const std::string kMaps = std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps";

GenerateOptions opts(const std::string& kind, int w, int h, std::uint64_t seed) {
  GenerateOptions o;
  o.kind = kind;
  o.width = w;
  o.height = h;
  o.seed = seed;
  return o;
}

GridMap grid_from(const std::vector<std::string>& rows) {
  GridMap g;
  g.height = int(rows.size());
  g.width = int(rows[0].size());
  for (const auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return g;
}

std::string map_text(const GridMap& m) {
  std::ostringstream s;
  write_movingai_map(s, m);
  return s.str();
}
std::string scen_text(const Scenario& sc) {
  std::ostringstream s;
  write_scenario(s, sc);
  return s.str();
}
std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t free_cells(const GridMap& m) {
  std::size_t n = 0;
  for (auto c : m.cells) n += c != 0;
  return n;
}

// Number of 4-connected components of free cells (a plain BFS, written separately from the
// generator's so the two check each other).
int components(const GridMap& m) {
  std::vector<int> seen(m.cells.size(), 0);
  int count = 0;
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) {
      if (!m.passable(x, y) || seen[std::size_t(y) * m.width + x]) continue;
      ++count;
      std::vector<std::pair<int, int>> queue{{x, y}};
      seen[std::size_t(y) * m.width + x] = 1;
      for (std::size_t i = 0; i < queue.size(); ++i) {
        auto [cx, cy] = queue[i];
        const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (auto& v : d) {
          const int nx = cx + v[0], ny = cy + v[1];
          if (m.passable(nx, ny) && !seen[std::size_t(ny) * m.width + nx]) {
            seen[std::size_t(ny) * m.width + nx] = 1;
            queue.push_back({nx, ny});
          }
        }
      }
    }
  return count;
}

// Single-source octile distances by Bellman-Ford relaxation in doubles: slow, simple, and a third
// way of computing the same optimum (no corner cutting).
std::vector<double> relax_all(const GridMap& m, int sx, int sy) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> d(m.cells.size(), inf);
  d[std::size_t(sy) * m.width + sx] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x) {
        if (!m.passable(x, y)) continue;
        double& here = d[std::size_t(y) * m.width + x];
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || !m.passable(x + dx, y + dy)) continue;
            if (dx != 0 && dy != 0 && !(m.passable(x + dx, y) && m.passable(x, y + dy))) continue;
            const double via = d[std::size_t(y + dy) * m.width + x + dx] + (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0);
            if (via < here - 1e-12) {
              here = via;
              changed = true;
            }
          }
      }
  }
  return d;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST(Generate, RejectsBadOptions) {
  auto expect_bad = [](GenerateOptions o, const std::string& needle) {
    try {
      generate_map(o);
      ADD_FAILURE() << "accepted " << o.kind << " " << o.width << "x" << o.height;
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(needle), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  };
  expect_bad(opts("swamp", 10, 10, 1), "unknown map kind 'swamp'");
  expect_bad(opts("random", 0, 10, 1), "width 0");
  expect_bad(opts("random", 10, 8193, 1), "height 8193");
  auto o = opts("random", 10, 10, 1);
  o.density = 100.5;
  expect_bad(o, "density");
  o.density = std::nan("");
  expect_bad(o, "density");
  o = opts("rooms", 10, 10, 1);
  o.room = 1;
  expect_bad(o, "room size 1");
  o = opts("maze", 10, 10, 1);
  o.corridor = 0;
  expect_bad(o, "corridor width 0");
  o.corridor = 11;
  expect_bad(o, "does not fit");
  o = opts("polygons", 10, 10, 1);
  o.obstacles = -1;
  expect_bad(o, "obstacle count -1");
  EXPECT_THROW(make_scenario(grid_from({"..", ".."}), "x.map", -1, 1), std::invalid_argument);
  // No two connected free cells: no query can be made.
  EXPECT_THROW(make_scenario(grid_from({".@", "@."}), "x.map", 1, 1), std::invalid_argument);
  EXPECT_TRUE(make_scenario(grid_from({".@", "@."}), "x.map", 0, 1).lines.empty());
}

TEST(Generate, NamesFollowTheConvention) {
  auto o = opts("random", 128, 128, 1);
  EXPECT_EQ(generated_map_name(o), "random-20-128");
  o.density = 12.5;
  o.height = 64;
  EXPECT_EQ(generated_map_name(o), "random-12.5-128x64");
  EXPECT_EQ(generated_map_name(opts("rooms", 128, 128, 1)), "rooms-16-128");
  EXPECT_EQ(generated_map_name(opts("maze", 128, 128, 1)), "maze-4-128");
  EXPECT_EQ(generated_map_name(opts("polygons", 256, 128, 1)), "polygons-256x128");
  o = opts("cave", 512, 512, 1);
  o.density = 45;
  EXPECT_EQ(generated_map_name(o), "cave-45-512");
}

TEST(Generate, SameSeedSameMapOtherSeedOtherMap) {
  for (const char* kind : {"random", "rooms", "maze", "polygons"}) {
    const auto a = generate_map(opts(kind, 97, 61, 42));
    const auto b = generate_map(opts(kind, 97, 61, 42));
    const auto c = generate_map(opts(kind, 97, 61, 43));
    EXPECT_EQ(a.width, 97);
    EXPECT_EQ(a.height, 61);
    ASSERT_EQ(a.cells.size(), 97u * 61u) << kind;
    EXPECT_EQ(a.cells, b.cells) << kind;
    EXPECT_NE(a.cells, c.cells) << kind;
    const auto sa = make_scenario(a, "a.map", 25, 7), sb = make_scenario(b, "a.map", 25, 7);
    EXPECT_EQ(scen_text(sa), scen_text(sb)) << kind;
    EXPECT_NE(scen_text(sa), scen_text(make_scenario(a, "a.map", 25, 8))) << kind;
  }
  // cave at a cave-forming density, below and above the size where the automaton runs coarse.
  for (auto [w, h] : {std::pair{97, 61}, {300, 260}}) {
    auto o = opts("cave", w, h, 42);
    o.density = 45;
    const auto a = generate_map(o), b = generate_map(o);
    o.seed = 43;
    const auto c = generate_map(o);
    ASSERT_EQ(a.cells.size(), std::size_t(w) * std::size_t(h));
    EXPECT_EQ(a.cells, b.cells) << w;
    EXPECT_NE(a.cells, c.cells) << w;
  }
}

TEST(Generate, TinyMapsWork) {
  for (const char* kind : {"random", "rooms", "maze", "polygons", "cave"})
    for (auto [w, h] : {std::pair{1, 1}, {2, 1}, {1, 5}, {3, 3}}) {
      auto o = opts(kind, w, h, 1);
      o.corridor = 1;
      o.room = 2;
      const auto m = generate_map(o);
      EXPECT_EQ(m.cells.size(), std::size_t(w) * std::size_t(h)) << kind;
    }
  // A 1 x 1 maze cell is the whole maze: a single free cell.
  auto o = opts("maze", 1, 1, 1);
  o.corridor = 1;
  EXPECT_EQ(free_cells(generate_map(o)), 1u);
}

// cave: one connected cave system (every other region filled), a plausible free fraction at the
// usual fill, and cave-like (smooth, blobby) rather than noise: most free cells lie inside open
// 3 x 3 blocks, which for independent noise of the same free fraction would be rare.
TEST(Generate, CaveIsOneConnectedSmoothCave) {
  for (auto [side, seed] : {std::pair{128, 1}, {128, 2}, {256, 3}, {512, 4}}) {
    auto o = opts("cave", side, side, std::uint64_t(seed));
    o.density = 45;
    const GridMap m = generate_map(o);
    const double free_fraction = double(free_cells(m)) / double(m.cells.size());
    EXPECT_EQ(components(m), 1) << side << " seed " << seed;
    EXPECT_GT(free_fraction, 0.35) << side << " seed " << seed;
    EXPECT_LT(free_fraction, 0.90) << side << " seed " << seed;
    std::size_t interior = 0;
    for (int y = 1; y + 1 < m.height; ++y)
      for (int x = 1; x + 1 < m.width; ++x) {
        bool open = true;
        for (int dy = -1; dy <= 1 && open; ++dy)
          for (int dx = -1; dx <= 1 && open; ++dx) open = m.passable(x + dx, y + dy);
        interior += open;
      }
    const double noise = std::pow(free_fraction, 9);  // chance of an open 3 x 3 block in noise
    EXPECT_GT(double(interior) / double(free_cells(m)), std::max(0.6, 2 * noise / free_fraction))
        << side << " seed " << seed;
  }
  // Density shapes the cave: more initial rock, less free space; the extremes are an open field
  // (the automaton only rounds the map's corners) and solid rock.
  auto o = opts("cave", 200, 200, 5);
  std::size_t previous = std::size_t(200) * 200;
  for (double d : {0.0, 40.0, 45.0, 50.0, 100.0}) {
    o.density = d;
    const std::size_t f = free_cells(generate_map(o));
    EXPECT_LT(f, previous + 1) << d;
    previous = f;
    if (d == 0) {
      EXPECT_GT(f, 200u * 200u * 99 / 100);
    }
    if (d == 100) {
      EXPECT_EQ(f, 0u);
    }
  }
  EXPECT_THROW(make_scenario(generate_map(o), "x.map", 1, 1), std::invalid_argument);  // no free cell
}

TEST(Generate, RandomBlocksExactlyTheDensity) {
  for (double density : {0.0, 12.5, 20.0, 40.0, 100.0}) {
    auto o = opts("random", 73, 41, 5);
    o.density = density;
    const auto m = generate_map(o);
    const std::size_t blocked = m.cells.size() - free_cells(m);
    EXPECT_EQ(blocked, std::size_t(std::llround(density * 73 * 41 / 100))) << density;
  }
  // Blocked cells are spread over the map, not packed at one end: each half holds 30..70%.
  auto o = opts("random", 100, 100, 9);
  o.density = 30;
  const auto m = generate_map(o);
  std::size_t top = 0;
  for (int y = 0; y < 50; ++y)
    for (int x = 0; x < 100; ++x) top += !m.passable(x, y);
  EXPECT_GT(top, 3000u * 30 / 100);
  EXPECT_LT(top, 3000u * 70 / 100);
}

TEST(Generate, RoomsHaveWallsAndOneDoorPerWallSegment) {
  for (int p : {2, 5, 16}) {
    auto o = opts("rooms", 67, 50, 3);
    o.room = p;
    const auto m = generate_map(o);
    // Floor cells are free; wall cells are blocked except the doors.
    std::size_t wall_free = 0;
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x) {
        const bool wall = x % p == 0 || y % p == 0;
        if (!wall) {
          EXPECT_TRUE(m.passable(x, y)) << x << "," << y;
        } else {
          wall_free += m.passable(x, y);
        }
        if (x % p == 0 && y % p == 0) {
          EXPECT_FALSE(m.passable(x, y)) << "wall corner " << x << "," << y;
        }
        if (x == 0 || y == 0) {
          EXPECT_FALSE(m.passable(x, y)) << "outer wall " << x << "," << y;
        }
      }
    // One door in every inner wall segment: each segment of wall x = k*p between rows j*p and (j+1)*p.
    std::size_t segments = 0;
    for (int x = p; x + 1 < m.width; x += p)
      for (int y0 = 0; y0 + 1 < m.height; y0 += p) {
        int doors = 0;
        for (int y = y0 + 1; y < std::min(y0 + p, m.height); ++y) doors += m.passable(x, y);
        EXPECT_EQ(doors, 1) << "vertical wall x=" << x << " rows from " << y0;
        ++segments;
      }
    for (int y = p; y + 1 < m.height; y += p)
      for (int x0 = 0; x0 + 1 < m.width; x0 += p) {
        int doors = 0;
        for (int x = x0 + 1; x < std::min(x0 + p, m.width); ++x) doors += m.passable(x, y);
        EXPECT_EQ(doors, 1) << "horizontal wall y=" << y << " columns from " << x0;
        ++segments;
      }
    EXPECT_EQ(wall_free, segments);
    EXPECT_EQ(components(m), 1) << "room " << p;
  }
}

TEST(Generate, MazeCorridorsHaveTheGivenWidth) {
  for (int w : {1, 2, 4, 5}) {
    auto o = opts("maze", 64, 47, 11);
    o.corridor = w;
    const auto m = generate_map(o);
    auto square_free = [&](int x0, int y0, int s) {
      for (int y = y0; y < y0 + s; ++y)
        for (int x = x0; x < x0 + s; ++x)
          if (!m.passable(x, y)) return false;
      return true;
    };
    // Every free cell lies in a free w x w square; no (w+1) x (w+1) square is free.
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x) {
        EXPECT_FALSE(square_free(x, y, w + 1)) << "w=" << w << " wide area at " << x << "," << y;
        if (!m.passable(x, y)) continue;
        bool covered = false;
        for (int y0 = y - w + 1; y0 <= y && !covered; ++y0)
          for (int x0 = x - w + 1; x0 <= x && !covered; ++x0) covered = square_free(x0, y0, w);
        EXPECT_TRUE(covered) << "w=" << w << " narrow cell " << x << "," << y;
      }
    // A perfect maze: all coarse cells joined by a spanning tree (cells*w^2 floor + (cells-1)*w openings).
    const std::size_t nx = std::size_t(65 / (w + 1)), ny = std::size_t(48 / (w + 1)), cells = nx * ny;
    EXPECT_EQ(free_cells(m), cells * w * w + (cells - 1) * w) << "w=" << w;
    EXPECT_EQ(components(m), 1) << "w=" << w;
  }
}

TEST(Generate, PolygonFieldHasSeparateObstaclesInsideAFreeBorder) {
  auto o = opts("polygons", 128, 128, 4);
  o.obstacles = 32;
  const auto m = generate_map(o);
  const double blocked = 1.0 - double(free_cells(m)) / double(m.cells.size());
  EXPECT_GT(blocked, 0.03);
  EXPECT_LT(blocked, 0.5);
  for (int i = 0; i < 128; ++i) {  // a free ring one cell wide along the border
    EXPECT_TRUE(m.passable(i, 0) && m.passable(i, 127) && m.passable(0, i) && m.passable(127, i)) << i;
  }
  // Obstacles are placed 2 cells apart, so no two blocked cells of different obstacles touch: the
  // number of 8-connected blocked groups is at most the number of obstacles (and more than a few).
  std::vector<int> seen(m.cells.size(), 0);
  int groups = 0;
  for (int s = 0; s < int(m.cells.size()); ++s) {
    if (m.cells[std::size_t(s)] || seen[std::size_t(s)]) continue;
    ++groups;
    std::vector<int> stack{s};
    seen[std::size_t(s)] = 1;
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int x = c % 128 + dx, y = c / 128 + dy;
          if (m.inside(x, y) && !m.passable(x, y) && !seen[std::size_t(y) * 128 + x]) {
            seen[std::size_t(y) * 128 + x] = 1;
            stack.push_back(y * 128 + x);
          }
        }
    }
  }
  EXPECT_GE(groups, 10);
  EXPECT_LE(groups, 32 + 8);  // a thin star point may rasterise as a separate group of cells
  o.obstacles = 0;
  EXPECT_EQ(free_cells(generate_map(o)), 128u * 128u);
}

// ---------------------------------------------------------------------------------------------
TEST(OctileDistance, HandWorkedSmallCases) {
  const auto open = grid_from({".....", ".....", "....."});
  EXPECT_NEAR(*octile_distance(open, 0, 0, 4, 2), 2 + 2 * std::sqrt(2.0), 1e-12);
  EXPECT_EQ(*octile_distance(open, 3, 1, 3, 1), 0.0);
  // No corner cutting: (0,1) -> (1,0) must go round through (1,1).
  EXPECT_EQ(*octile_distance(grid_from({"@.", ".."}), 0, 1, 1, 0), 2.0);
  // A pinch point: the diagonal between two free cells whose shared neighbours are both blocked.
  EXPECT_FALSE(octile_distance(grid_from({".@", "@."}), 0, 0, 1, 1).has_value());
  // Blocked or outside end points: no distance.
  EXPECT_FALSE(octile_distance(grid_from({".@", ".."}), 0, 0, 1, 0).has_value());
  EXPECT_FALSE(octile_distance(open, 0, 0, 5, 0).has_value());
  EXPECT_FALSE(octile_distance(open, -1, 0, 1, 0).has_value());
}

TEST(OctileDistance, AgreesWithBellmanFordOnRandomMaps) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto o = opts("random", 14, 11, seed);
    o.density = 35;
    const auto m = generate_map(o);
    for (int sy = 0; sy < m.height; sy += 5)
      for (int sx = 0; sx < m.width; sx += 4) {
        if (!m.passable(sx, sy)) continue;
        const auto d = relax_all(m, sx, sy);
        for (int y = 0; y < m.height; ++y)
          for (int x = 0; x < m.width; ++x) {
            const auto got = octile_distance(m, sx, sy, x, y);
            const double want = d[std::size_t(y) * m.width + x];
            if (std::isinf(want)) {
              EXPECT_FALSE(got.has_value()) << sx << "," << sy << " -> " << x << "," << y;
            } else {
              ASSERT_TRUE(got.has_value()) << sx << "," << sy << " -> " << x << "," << y;
              EXPECT_NEAR(*got, want, 1e-9);
            }
          }
      }
  }
}

TEST(HandMaps, ScenarioLengthsAreTheOptimum) {
  // The .scen optima were worked out by hand (datasets/maps/README.md); the search must agree.
  std::size_t checked = 0;
  for (const char* name : {"l-corridor", "pinch", "two-areas"}) {
    const std::string path = kMaps + "/hand/" + name + ".map";
    const Map m = load_movingai_map(path);
    const Scenario sc = load_scenario(path + ".scen");
    check_scenario_matches(sc, m.grid);
    ASSERT_FALSE(sc.lines.empty()) << name;
    for (const auto& l : sc.lines) {
      const auto d = octile_distance(m.grid, int(l.sx), int(l.sy), int(l.gx), int(l.gy));
      ASSERT_TRUE(d.has_value()) << name << " " << l.sx << "," << l.sy;
      EXPECT_LE(std::abs(*d - l.optimal), printed_tolerance(l)) << name << " " << l.sx << "," << l.sy;
      EXPECT_EQ(l.bucket, int(std::floor(l.optimal / 4))) << name;
      EXPECT_EQ(l.decimals, 8);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 13u);
  // The queries kept out of two-areas.map.scen because they have no path (README): across the
  // wall, and into the pocket sealed by a pinch point at grid corner (5,3).
  const Map two = load_movingai_map(kMaps + "/hand/two-areas.map");
  EXPECT_FALSE(octile_distance(two.grid, 0, 0, 7, 0).has_value());
  EXPECT_FALSE(octile_distance(two.grid, 4, 2, 5, 3).has_value());
  EXPECT_EQ(components(two.grid), 3);
}

TEST(HandMaps, PolygonWktIsValid) {
  namespace bg = boost::geometry;
  using P = bg::model::d2::point_xy<double>;
  using Poly = bg::model::polygon<P>;
  std::ifstream in(kMaps + "/hand/polygons.wkt");
  ASSERT_TRUE(in.good());
  std::vector<Poly> polys;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    Poly p;
    bg::read_wkt(line, p);
    std::string why;
    EXPECT_TRUE(bg::is_valid(p, why)) << line << ": " << why;
    polys.push_back(p);
  }
  ASSERT_EQ(polys.size(), 5u);
  EXPECT_EQ(polys[0].inners().size(), 1u);       // the walkable area has one hole
  EXPECT_DOUBLE_EQ(bg::area(polys[0]), 400 - 4);  // 20 x 20 minus the 2 x 2 hole
  for (std::size_t i = 1; i < polys.size(); ++i) {
    EXPECT_TRUE(bg::within(polys[i], polys[0])) << "obstacle " << i;
    for (std::size_t j = i + 1; j < polys.size(); ++j) EXPECT_TRUE(bg::disjoint(polys[i], polys[j])) << i << "," << j;
  }
  // Two of the obstacles are not convex (the L and the notched one).
  int nonconvex = 0;
  for (std::size_t i = 1; i < polys.size(); ++i) {
    Poly hull;
    bg::convex_hull(polys[i], hull);
    nonconvex += bg::area(hull) > bg::area(polys[i]) + 1e-9;
  }
  EXPECT_EQ(nonconvex, 2);
  // And the project's reader takes it: walkable square with one hole, four obstacles.
  const Map m = load_wkt_map(kMaps + "/hand/polygons.wkt");
  EXPECT_EQ(m.kind, MapKind::polygon);
  EXPECT_EQ(m.polygons.walkable.rings.size(), 2u);
  EXPECT_EQ(m.polygons.obstacles.size(), 4u);
  EXPECT_EQ(m.max, (Point{20, 20}));
}

TEST(HandMaps, PolygonWktScenarioPathsAreValidAndTaut) {
  // polygons.wkt.scen holds Euclidean optima worked out by hand (README): a straight segment when
  // it is valid, else the taut path round one convex obstacle. Check each hand path is valid and
  // has the recorded length, and that the straight segment is blocked where a detour was needed.
  const Map m = load_wkt_map(kMaps + "/hand/polygons.wkt");
  const FreeSpace free(m);
  const Scenario sc = load_scenario(kMaps + "/hand/polygons.wkt.scen");
  ASSERT_EQ(sc.lines.size(), 4u);
  const std::vector<Polyline> hand = {
      {{1, 4}, {2, 2}, {7, 3}, {8, 4}},  // round obstacle 1 along its edge (2,2)-(7,3)
      {{1, 1}, {1, 19}},
      {{19, 1}, {19, 19}},
      {{1, 10}, {9, 9}, {11, 9}, {19, 10}},  // along the edge y = 9 of the 2 x 2 hole
  };
  for (std::size_t i = 0; i < hand.size(); ++i) {
    const auto& l = sc.lines[i];
    EXPECT_EQ(l.map, "polygons.wkt");
    EXPECT_EQ(hand[i].front(), (Point{l.sx, l.sy})) << i;
    EXPECT_EQ(hand[i].back(), (Point{l.gx, l.gy})) << i;
    EXPECT_TRUE(free.path_valid(hand[i])) << "query " << i;
    EXPECT_LE(std::abs(polyline_length(hand[i]) - l.optimal), printed_tolerance(l)) << "query " << i;
    EXPECT_EQ(free.segment_valid(hand[i].front(), hand[i].back()), hand[i].size() == 2) << "query " << i;
    // Cutting any corner of a detour is blocked too (the path is taut).
    for (std::size_t k = 1; k + 1 < hand[i].size(); ++k)
      EXPECT_FALSE(free.segment_valid(hand[i][k - 1], hand[i][k + 1])) << "query " << i << " corner " << k;
  }
}

// ---------------------------------------------------------------------------------------------
TEST(Scenario, QueriesAreFreeConnectedAndOptimal) {
  for (const char* kind : {"random", "rooms", "maze", "polygons"}) {
    auto o = opts(kind, 60, 45, 21);
    o.density = 38;  // many small pockets: queries must still stay inside one component
    const auto m = generate_map(o);
    const auto sc = make_scenario(m, "gen.map", 30, 21);
    ASSERT_EQ(sc.lines.size(), 30u) << kind;
    int previous_bucket = 0;
    for (const auto& l : sc.lines) {
      const int sx = int(l.sx), sy = int(l.sy), gx = int(l.gx), gy = int(l.gy);
      EXPECT_EQ(l.map, "gen.map");
      EXPECT_EQ(l.width, 60);
      EXPECT_EQ(l.height, 45);
      EXPECT_TRUE(m.passable(sx, sy) && m.passable(gx, gy)) << kind;
      EXPECT_FALSE(sx == gx && sy == gy) << kind;
      const auto d = relax_all(m, sx, sy)[std::size_t(gy) * 60 + gx];
      ASSERT_FALSE(std::isinf(d)) << kind << ": start and goal not connected";
      EXPECT_NEAR(l.optimal, d, 1e-9) << kind;
      EXPECT_EQ(l.bucket, int(std::floor(l.optimal / 4)));
      EXPECT_GE(l.bucket, previous_bucket) << "lines are sorted by bucket";
      previous_bucket = l.bucket;
      EXPECT_EQ(l.decimals, 8);
    }
  }
}

TEST(Scenario, PairsComeFromEveryComponentInProportion) {
  // Areas of 6 and 4 cells: ordered pairs of distinct connected cells are 30 and 12, so about
  // 400 * 12/42 ~ 114 queries (sd ~ 9) fall in the right-hand area, and none cross the wall.
  const auto m = grid_from({"...@..", "...@.."});
  const auto sc = make_scenario(m, "m.map", 400, 3);
  ASSERT_EQ(sc.lines.size(), 400u);
  int right = 0;
  for (const auto& l : sc.lines) {
    EXPECT_EQ(l.sx < 3, l.gx < 3) << "pair across the wall";
    EXPECT_FALSE(l.sx == l.gx && l.sy == l.gy) << "start equals goal";
    right += l.sx > 3;
  }
  EXPECT_GT(right, 70);
  EXPECT_LT(right, 160);
}

TEST(Scenario, WriteGeneratedRoundTrips) {
  const auto dir = std::filesystem::temp_directory_path() / ("navbench-generate-" + std::to_string(::getpid()));
  const auto m = generate_map(opts("rooms", 40, 30, 5));
  const auto sc = make_scenario(m, "r.map", 12, 5);
  write_generated((dir / "sub").string(), "r", m, sc);
  const Map back = load_movingai_map((dir / "sub" / "r.map").string());
  EXPECT_EQ(back.grid.cells, m.cells);
  const Scenario sback = load_scenario((dir / "sub" / "r.map.scen").string());
  ASSERT_EQ(sback.lines.size(), sc.lines.size());
  for (std::size_t i = 0; i < sc.lines.size(); ++i) {
    EXPECT_EQ(sback.lines[i].sx, sc.lines[i].sx);
    EXPECT_EQ(sback.lines[i].gy, sc.lines[i].gy);
    EXPECT_EQ(sback.lines[i].decimals, 8);
    EXPECT_LE(std::abs(sback.lines[i].optimal - sc.lines[i].optimal), 5e-9);
  }
  // A directory path that is a file cannot be written.
  EXPECT_THROW(write_generated((dir / "sub" / "r.map").string(), "x", m, sc), std::runtime_error);
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// The bundled maps are exactly what the generator makes from the options recorded here and in
// datasets/maps/README.md, so neither can drift from the other.
struct Bundled {
  const char* name;
  const char* kind;
  int size;
  double density;
  int room, corridor, obstacles;
  std::uint64_t seed;
  int queries;
};
const Bundled kBundled[] = {
    {"random-20-128", "random", 128, 20, 0, 0, 0, 1, 40},
    {"rooms-16-128", "rooms", 128, 0, 16, 0, 0, 2, 40},
    {"maze-4-128", "maze", 128, 0, 0, 4, 0, 3, 40},
    {"polygons-128", "polygons", 128, 0, 0, 0, 32, 4, 40},
    {"cave-45-128", "cave", 128, 45, 0, 0, 0, 5, 40},
};

TEST(BundledMaps, EqualAFreshGeneration) {
  for (const auto& b : kBundled) {
    GenerateOptions o = opts(b.kind, b.size, b.size, b.seed);
    o.density = b.density;
    o.room = b.room;
    o.corridor = b.corridor;
    o.obstacles = b.obstacles;
    EXPECT_EQ(generated_map_name(o), b.name);
    const std::string path = kMaps + "/generated/" + b.name + ".map";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    const GridMap m = generate_map(o);
    EXPECT_TRUE(map_text(m) == file_text(path)) << path << " differs from a fresh generation";
    const Scenario sc = make_scenario(m, std::string(b.name) + ".map", b.queries, b.seed);
    EXPECT_TRUE(scen_text(sc) == file_text(path + ".scen")) << path << ".scen differs from a fresh generation";
    // And the files read back as a valid map + scenario pair.
    const Map loaded = load_movingai_map(path);
    const Scenario sloaded = load_scenario(path + ".scen");
    check_scenario_matches(sloaded, loaded.grid);
    EXPECT_EQ(int(sloaded.lines.size()), b.queries);
  }
}

}  // namespace test_generate
