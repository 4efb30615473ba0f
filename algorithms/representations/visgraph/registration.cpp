// The registration of visgraph, and at R > 0 its tangent graph of the disc (search/registration.hpp):
// what the types declare is checked by make_entry at compile time. VisGraph declares the optimum's
// reference variant (kReferenceParams).
#include "search/make_entry.hpp"
#include "representations/tangent/tangent.hpp"
#include "representations/visgraph/visgraph.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::VisGraph, navbench::TangentRepresentation>(
      "visgraph",
      "pruned visibility graph over convex corners (tangent edges only): the exact optimum (taut, alt=K landmarks, table=1 all-pairs heuristic); at --radius R > 0 the tangent graph of the disc (Chew 1985), paths with arcs; on weighted maps not exact: convex and weight-region corners (steiner=S: border points too), every valid pair priced by its cost integral (regions, max_nodes; alt and table only)"));
}
const navbench::Registration visgraph("visgraph", add);

}  // namespace
