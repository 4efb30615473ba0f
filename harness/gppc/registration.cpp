// The registration of a competition entry (search/registration.hpp; SPEC §10,
// docs/outside-planners.md): a planner from outside, named only with its parameters
// (`--rep gppc:path=PROGRAM,track=classic|anyangle,...`), so not listed and not in the batteries or a
// sweep's "every"; its own check runs the program once and names its rows gppc:NAME.
#include "harness/gppc/planner.hpp"
#include "search/registration.hpp"

namespace {

void add(navbench::Registrar& r) {
  navbench::Capabilities caps;
  caps.grid_only = true;
  caps.outside = true;
  caps.point_only = true;  // SPEC §10: an entry plans for a point agent
  caps.pieces = true;      // GetPath may return false: the path in pieces, each call timed (SPEC §15)
  r.add(navbench::RepresentationEntry{
      .name = "gppc",
      .description = "a competition entry in a child process (path=PROGRAM, track=classic|anyangle, name=N; docs/outside-planners.md)",
      .build = navbench::gppc::build_planner,
      .caps = caps,
      .params = navbench::gppc::parameters(),
      .listed = false,
      .own_check = navbench::gppc::check_spec});
}
const navbench::Registration gppc("gppc", add);

}  // namespace
