// Every representation benchmark, one line each, over the one fixture of bench_fixture.hpp
// (maps loaded once, the pipeline's timing boundaries, the median per-query time as `median_us`).
//   build/<rep>/<map>                       one build per iteration (vertices, edges, memory_kb)
//   query/<rep>/<map>[/corner][/N][/h]      median_us, locate_us, search_us, expansions, build_ms,
//                                           memory_kb, search_expansions_per_us
// A representation's benchmark is one line below: register_build / register_query with its
// `--rep` text ("name" or "name:k=v,...").
#include "harness/bench_fixture.hpp"
#include "harness/registry.hpp"

namespace {

using navbench::bench::QueryCase;
using navbench::bench::register_build;
using navbench::bench::register_query;

const bool registered = [] {
  // Every registered representation: build, and 500 scenario queries spread over all buckets (issue 8).
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

  // quadtree (issue 5: build < 10 ms; median query below grid8's on the same 300 queries).
  register_build("quadtree:merge=0", "dao/den520d");
  register_build("quadtree", "sc1/Aurora");
  for (const char* rep : {"quadtree", "grid8", "quadtree:merge=0"}) register_query({rep, "dao/den520d", "center", 300});
  for (const char* rep : {"quadtree", "grid8"}) register_query({rep, "dao/brc202d", "center", 300});

  // visgraph variants (issue 15: exact any-angle queries against Polyanya): every scenario query,
  // corner convention (Polyanya's), on den520d, brc202d and Aurora. The default is table=1 up to
  // 1,024 corners (den520d), else skip=1, with block=2 on maps up to 2^18 cells and 4,096 corners;
  // table=0 is skip=1 everywhere; block=0,skip=0 is the plain taut graph with the sweep attach.
  for (const char* m : {"dao/den520d", "dao/brc202d", "sc1/Aurora"})
    for (const char* rep : {"visgraph", "visgraph:table=0", "visgraph:block=0,skip=0", "visgraph:alt=0", "visgraph:alt=8", "visgraph:taut=0",
                            "visgraph:table=1", "visgraph:block=4,skip=0", "visgraph:block=8,skip=0", "visgraph:block=0,skip=1",
                            "visgraph:block=4,skip=1", "visgraph:block=4"}) {
      register_build(rep, m);
      register_query({rep, m, "corner"});
    }
  return true;
}();

}  // namespace
