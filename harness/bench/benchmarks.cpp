// Every benchmark of the Google Benchmark binary, one line each, beside the benchmarks themselves
// (harness/bench/: maps loaded once, the pipeline's timing boundaries, medians as counters): which
// representation variants are measured, on which maps.
//   build/<rep>/<map>                       one build per iteration (vertices, edges, memory_kb)
//   query/<rep>/<map>[/corner][/N][/h]      median_us, locate_us, search_us, expansions, build_ms,
//                                           memory_kb, search_expansions_per_us
//   update/<rep>/<scenario>                 median update against median rebuild (changing maps)
//   subgoal_vs/<map>_<variant>              subgoal graphs against grid8, every scenario query
//   recast_vs/<map>/<rep>/<search>          recast beside navmesh:merge=1: A* + funnel or Detour's query,
//                                           median_us, build_ms, memory_kb, dtnavmesh_kb (bench_recast.cpp)
//   steiner/<map>/m:../landmarks:..         the weighted maps' reference optimum (bench_steiner.cpp, which
//                                           registers its own variants): build, memory, query ms, cost at m and 2m
// A representation's benchmark is one line below with its `--rep` text ("name" or "name:k=v,...").
#include "harness/bench/bench_fixture.hpp"
#include "harness/registry/registry.hpp"

#include <string>
#include <utility>

namespace {

using navbench::bench::QueryCase;
using navbench::bench::register_build;
using navbench::bench::register_query;
using navbench::bench::register_recast_vs;
using navbench::bench::register_subgoal_vs;
using navbench::bench::register_update;

const bool registered = [] {
  // Every registered representation: build, and 500 scenario queries spread over all buckets.
  for (const auto& e : navbench::representations())
    for (const char* m : {"dao/den520d", "dao/brc202d"}) {
      register_build(e.name, m);
      register_query({e.name, m, "center", 500});
    }

  // grid A*: every scenario query with the octile heuristic; search_expansions_per_us is the search
  // rate (compare Warthog's expansions per microsecond).
  register_query({"grid8", "dao/den520d", "center", 0, "octile"});
  register_query({"grid8", "dao/brc202d", "center", 0, "octile"});
  register_query({"grid4", "dao/den520d", "center", 0, "octile"});

  // navmesh (issue targets: build < 20 ms on den520d / brc202d, < 200 ms on Aurora).
  register_build("navmesh", "sc1/Aurora");
  register_build("navmesh:merge=1", "dao/den520d");
  register_build("navmesh:merge=1", "sc1/Aurora");
  register_build("navmesh-vertices", "sc1/Aurora");
  register_query({"navmesh:merge=1", "dao/den520d", "center", 500});

  // The query hot path, compared before and after a change: grid8, navmesh:merge=1 and visgraph,
  // 500 scenario queries each on den520d (above: the loop and the navmesh line) and on Aurora.
  for (const char* rep : {"grid8", "navmesh:merge=1", "visgraph"}) register_query({rep, "sc1/Aurora", "center", 500});

  // quadtree (build < 10 ms; median query below grid8's on the same 300 queries).
  register_build("quadtree:merge=0", "dao/den520d");
  register_build("quadtree", "sc1/Aurora");
  for (const char* rep : {"quadtree", "grid8", "quadtree:merge=0"}) register_query({rep, "dao/den520d", "center", 300});
  for (const char* rep : {"quadtree", "grid8"}) register_query({rep, "dao/brc202d", "center", 300});

  // visgraph variants (exact any-angle queries against Polyanya): every scenario query,
  // corner convention (Polyanya's), on den520d, brc202d and Aurora. The default is table=1 up to
  // 1,024 corners (den520d), else skip=1, with block=2 on maps up to 2^18 cells and 4,096 corners;
  // table=0 is skip=1 everywhere; block=0,skip=0 is the plain taut graph with the sweep attach.
  for (const char* m : {"dao/den520d", "dao/brc202d", "sc1/Aurora"})
    for (const char* rep : {"visgraph", "visgraph:table=0", "visgraph:block=0,skip=0", "visgraph:alt=0", "visgraph:alt=8", "visgraph:taut=0",
                            "visgraph:table=1", "visgraph:block=4,skip=0", "visgraph:block=8,skip=0", "visgraph:block=0,skip=1",
                            "visgraph:block=4,skip=1", "visgraph:block=4", "visgraph:block=8", "visgraph:block=16"}) {
      register_build(rep, m);
      register_query({rep, m, "corner"});
    }

  // Changing maps: every representation family on both real scenarios (visgraph:alt=0,block=0,
  // skip=0,table=0 is the optimum's reference graph).
  for (const char* scen : {"switch_sc1_Aurora_TheFrozenSea", "dao_arena2"})
    for (const char* rep : {"grid8", "quadtree", "navmesh-tiles", "navmesh-tiles:merge=1", "navmesh-tiles:tile=8,merge=1",
                            "navmesh", "navmesh:merge=1", "navmesh-vertices", "visgraph", "visgraph:alt=0,block=0,skip=0,table=0", "subgoal:levels=1"})
      register_update(rep, scen);
  // The default subgoal (on arena2 the all-pairs table: under 1,024 subgoals) and levels=16, on
  // arena2 only: on the Aurora switch the contraction, made again on every update, takes seconds.
  register_update("subgoal", "dao_arena2");
  register_update("subgoal:levels=16", "dao_arena2");
  // navmesh-tiles' tile size (smaller tiles: fewer cells per update, more tiles per build), and
  // quadtree without merging (more, smaller cells).
  for (const char* rep : {"navmesh-tiles:tile=8", "navmesh-tiles:tile=32", "quadtree:merge=0"})
    register_update(rep, "switch_sc1_Aurora_TheFrozenSea");

  // Subgoal graphs (the default: the table on den520d, levels=16 on brc202d and Aurora; levels 1, 2, 16; reach=0 scans clearances per query; alt=0 without landmarks) against grid8.
  for (const auto& [id, rel] : {std::pair{"den520d", "dao/den520d.map"}, std::pair{"brc202d", "dao/brc202d.map"},
                                std::pair{"Aurora", "sc1/Aurora.map"}})
    for (const auto& [suffix, rep] : {std::pair{"grid8", "grid8"}, std::pair{"subgoal_default", "subgoal"}, std::pair{"subgoal", "subgoal:levels=1"},
                                      std::pair{"subgoal2", "subgoal:levels=2"}, std::pair{"subgoal16", "subgoal:levels=16"},
                                      std::pair{"subgoal16_scan", "subgoal:levels=16,reach=0"},
                                      std::pair{"subgoal16_noalt", "subgoal:levels=16,alt=0"}})
      register_subgoal_vs(std::string(id) + "_" + suffix, rel, rep);

  // Recast/Detour beside navmesh:merge=1 (docs/recast.md): build, memory (the dtNavMesh data), and
  // per query the shared A* + funnel and Detour's own query, 500 scenario queries each.
  for (const char* m : {"dao/den520d", "dao/brc202d", "sc1/Aurora"})
    for (const char* rep : {"recast", "recast:max_error=0", "recast:cs=0.5", "navmesh:merge=1"}) {
      register_recast_vs(m, rep, false);
      if (navbench::parse_rep_option(rep).at(0).caps().own_search) register_recast_vs(m, rep, true);  // and Detour's own query
    }
  return true;
}();

}  // namespace
