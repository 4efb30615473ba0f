// How the polygon code grows with the map (docs/measurements.md, scripts/polygon_growth.py):
//   polygon_growth/free_space/<n>     the free space of a seeded polygon map of about n vertices
//                                     (generate_polygon_map: n / 12 star-shaped obstacles of 12
//                                     vertices): overlay, rings, rtree, triangulation
//   polygon_growth/visgraph/<n>       visgraph's build (visgraph:table=0) on that map, the free
//                                     space kept alive outside the loop (shared, as in a run)
//   polygon_growth/navmesh/<n>        navmesh's build (its own triangulation of the map's polygons)
//   polygon_growth/visgraph_grid/<s>  visgraph's build (table=0,block=0) on a generated grid map
//                                     (`polygons`, s x s cells, s^2 / 256 obstacles): the grid build's growth
// Counters: vertices (the map's polygon vertices; grids: the free space's ring vertices), corners,
// edges, memory_kb (the structure's own count). One process per case gives its peak RSS
// (scripts/polygon_growth.py).
#include <benchmark/benchmark.h>

#include <string>

#include "datasets/generate.hpp"
#include "datasets/generate_polygons.hpp"
#include "geometry/free_space.hpp"
#include "harness/bench/bench_fixture.hpp"

namespace {

using navbench::FreeSpace;
using navbench::Map;

Map polygon_map(long n) {
  navbench::PolygonMapOptions o;
  o.vertices = 12;
  o.obstacles = int(std::max(1L, n / 12));
  o.seed = 1;
  return navbench::make_polygon_map(o);
}

std::size_t polygon_vertices(const Map& m) {
  std::size_t v = 0;
  for (const auto& r : m.polygons.walkable.rings) v += r.size();
  for (const auto& o : m.polygons.obstacles)
    for (const auto& r : o.rings) v += r.size();
  return v;
}

void free_space_growth(benchmark::State& state, long n) {
  const Map m = polygon_map(n);
  std::size_t corners = 0, rings = 0;
  for (auto _ : state) {
    const FreeSpace fs(m);  // nothing else holds this map's free space: built afresh each time
    corners = fs.convex_corners().size();
    rings = fs.obstacle_rings().size();
    benchmark::DoNotOptimize(corners);
  }
  state.counters["vertices"] = double(polygon_vertices(m));
  state.counters["corners"] = double(corners);
  state.counters["rings"] = double(rings);
}

void rep_growth(benchmark::State& state, const Map& m, const std::string& rep, std::size_t vertices) {
  const FreeSpace keep(m);  // the map's free space, as the run's agent space holds it
  navbench::BuildStats st;
  for (auto _ : state) {
    auto r = navbench::bench::build_rep(rep, m);
    st = r->figures().stats;
    benchmark::DoNotOptimize(r);
  }
  state.counters["vertices"] = double(vertices);
  state.counters["corners"] = double(keep.convex_corners().size());
  state.counters["edges"] = double(st.edges);
  state.counters["memory_kb"] = double(st.memory_bytes) / 1024.0;
}

std::string name(const std::string& part, const std::string& size) {
  std::string out = "polygon_growth/";
  out.append(part).append("/").append(size);
  return out;
}

const bool registered = [] {
  for (long n : {1000L, 3000L, 10000L, 30000L, 100000L, 300000L, 1000000L}) {
    const std::string tail = std::to_string(n);
    benchmark::RegisterBenchmark(name("free_space", tail).c_str(), [n](benchmark::State& s) { free_space_growth(s, n); })
        ->Unit(benchmark::kMillisecond)->MinTime(0.2);
    // (the benchmark's name, the --rep built) visgraph: table=0 at every size (table=1 is its default up to 1,024 corners)
    for (const auto& [label, rep] : {std::pair{"visgraph", "visgraph:table=0"}, std::pair{"navmesh", "navmesh"}})
      benchmark::RegisterBenchmark(name(label, tail).c_str(), [n, rep](benchmark::State& s) {
        const Map m = polygon_map(n);
        rep_growth(s, m, rep, polygon_vertices(m));
      })->Unit(benchmark::kMillisecond)->MinTime(0.2);
  }
  for (int side : {128, 256, 512, 1024, 2048}) {
    benchmark::RegisterBenchmark(name("visgraph_grid", std::to_string(side)).c_str(), [side](benchmark::State& s) {
      navbench::GenerateOptions o;
      o.kind = "polygons";
      o.width = o.height = side;
      o.obstacles = side * side / 256;
      o.seed = 1;
      const Map m = navbench::make_grid_map(navbench::generate_map(o), "polygons-" + std::to_string(side));
      std::size_t v = 0;
      {
        const FreeSpace fs(m);
        for (const auto& r : fs.obstacle_rings()) v += r.size();
      }
      rep_growth(s, m, "visgraph:table=0,block=0", v);
    })->Unit(benchmark::kMillisecond)->MinTime(0.2);
  }
  return true;
}();

}  // namespace
