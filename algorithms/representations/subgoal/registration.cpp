// The registration of subgoal (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/subgoal/subgoal.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::SubgoalGraph>(
      "subgoal",
      "subgoal graph over convex corners, direct-h-reachable octile edges (up to 1,024 subgoals the simple graph's all-pairs table, table=1; else levels=16: N-level, 15 local layers; 1 simple, 2 two-level)"));
}
const navbench::Registration subgoal("subgoal", add);

}  // namespace
