// A path navbench writes never holds a repeated point (SPEC §1: no zero-length segment; the
// competition's any-angle validator rejects one). Every registered representation, every search it
// takes and every smoothing, on random maps, with query points at cell corners (where a start or
// goal meets a portal point or vertex: den520d query 71 on quadtree gave (100,113)-(100,113)) and
// at cell centres.
#include <gtest/gtest.h>

#include <random>

#include "datasets/generate.hpp"
#include "geometry/free_space.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/description.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_path_points {

using namespace navbench;

namespace {

std::vector<Map> maps() {
  std::vector<Map> out;
  std::mt19937_64 rng(42);
  for (double blocked : {0.15, 0.3}) out.push_back(testmaps::random_grid(24, 20, blocked, rng));
  for (const char* kind : {"rooms", "maze", "cave"}) {
    GenerateOptions o;
    o.kind = kind;
    o.width = o.height = 32;
    o.room = 8;
    o.corridor = 2;
    o.seed = 7;
    out.push_back(make_grid_map(generate_map(o), kind));
  }
  return out;
}

// Random free query points: a cell's corner (the `corner` convention) or its centre.
std::vector<std::pair<Point, Point>> queries(const FreeSpace& fs, std::mt19937_64& rng, int n) {
  const GridMap& g = fs.map().grid;
  std::uniform_int_distribution<int> xs(0, g.width - 1), ys(0, g.height - 1);
  std::vector<std::pair<Point, Point>> out;
  while (int(out.size()) < n) {
    const int sx = xs(rng), sy = ys(rng), gx = xs(rng), gy = ys(rng);
    if (!g.passable(sx, sy) || !g.passable(gx, gy)) continue;
    const double d = out.size() % 2 ? 0.5 : 0.0;
    out.push_back({{sx + d, sy + d}, {gx + d, gy + d}});
  }
  out.push_back({out[0].first, out[0].first});  // start == goal: the path is one point
  return out;
}

}  // namespace

TEST(PathPoints, NoRepeatedPointOnAnyRepresentationSearchOrSmoothing) {
  const Heuristic h = parse_heuristic("euclidean");
  const std::vector<std::string> modes = {"none", "los", "funnel"};
  std::mt19937_64 rng(3);
  long paths = 0;
  for (const Map& m : maps()) {
    const AgentSpace space(m, Agent{});
    const CostModel cost(m);
    const FreeSpace& fs = space.free();
    const auto qs = queries(fs, rng, 40);
    for (const RepresentationEntry& e : representations()) {
      if (e.caps.mesh_only) continue;  // maps read from a .mesh only: the conformance battery runs it on its grids' cell meshes
      SCOPED_TRACE(m.name + " " + e.name);
      Params p;
      auto rep = e.build(m, p);
      rep->prepare();
      for (SearchMode search : {SearchMode::astar, SearchMode::theta, SearchMode::lazy_theta}) {
        for (std::size_t i = 0; i < qs.size(); ++i) {
          QueryInput in;
          in.start = qs[i].first;
          in.goal = qs[i].second;
          const MapContext ctx{m.name, m.collection, "corner"};
          const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name, .heuristic = h,
                                       .smoothings = modes, .rep = rep.get(), .search = search, .caps = e.caps,
                                       .keep_paths = true}, in);
          for (const ResultRow& r : rows) {
            if (r.status != Status::ok) continue;
            ++paths;
            ASSERT_FALSE(r.path.empty());
            EXPECT_EQ(r.path.front(), in.start);
            EXPECT_EQ(r.path.back(), in.goal);
            EXPECT_EQ(r.path_points, r.path.size());
            for (std::size_t k = 1; k < r.path.size(); ++k)
              ASSERT_FALSE(r.path[k - 1] == r.path[k])
                  << to_string(search) << " " << r.smoothing << " query " << i << ": segment " << k - 1
                  << " has length 0 at (" << r.path[k].x << "," << r.path[k].y << ")";
            if (in.start == in.goal) { EXPECT_EQ(r.path.size(), 1u); }
          }
        }
      }
    }
  }
  EXPECT_GT(paths, 5000);  // the battery did run: most queries are connected on these maps
}

}  // namespace test_path_points
