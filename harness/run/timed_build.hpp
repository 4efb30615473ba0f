// The one timed build (docs/results.md#build-rows): a representation's parameters parsed, its build
// on the agent's map timed, a map it does not support reported, its search memory prepared
// (untimed) and its build row made. `navbench run`, the sweep, changing maps, the viewer and the
// benchmarks all build through here.
#pragma once
#include <memory>
#include <string>

#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/agent_space.hpp"

namespace navbench {

struct TimedBuild {
  std::unique_ptr<AnyRepresentation> rep;  // null when the representation does not support the map
  std::string unsupported;                 // UnsupportedMap's message then
  bool failed = false;                     // the build died (BuildFailed): the queries are error rows
  bool capped = false;                     // beyond a limit it declares (DeclaredCap), not a kind it refuses
  BuildRow row;                            // map, representation, canonical params, build_ms, sizes, radius
};

// `spec` built for the space's agent (docs/radius.md): for the point agent on the map; for a disc
// the entry's exact disc structure when it has one (caps.radius; it takes no parameters:
// std::invalid_argument otherwise), one that erodes by itself (caps.radius own_erosion: recast) on
// the map with its parameter radius=R, else on the map shrunk by R as spec.erosion() says (erode=none:
// the map itself), the build row's params then led by erode=. The row's `radius` is the agent's column.
TimedBuild build_timed(const AgentSpace& space, const RepresentationSpec& spec);
// `spec` built on m as it is (changing maps, the viewer's point agent): no `radius`.
TimedBuild build_timed(const Map& m, const RepresentationSpec& spec);

// The build row's size columns (vertices, edges, memory_bytes), read from the structure.
void record_sizes(BuildRow& b, const AnyRepresentation& rep);
// A planner from outside's columns (the group `entry`), read from it; nothing for navbench's own.
// run_unit reads them again after the queries, as the entry's peak memory grows while it answers.
void record_outside(BuildRow& b, const AnyRepresentation& rep);

}  // namespace navbench
