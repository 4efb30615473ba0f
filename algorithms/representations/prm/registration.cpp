// The registration of prm and prm-star (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/prm/prm.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::Prm>(
      "prm",
      "probabilistic roadmap (Kavraki et al. 1996): samples seeded free points, each joined to its k nearest (Boost.Geometry rtree) where the segment is valid; may miss a path that exists"));
  r.add(navbench::make_entry<navbench::PrmStar>(
      "prm-star",
      "PRM* (Karaman & Frazzoli 2011): samples seeded free points joined within the radius gamma sqrt(6 A / pi) (log n / n)^(1/2), A the free area; asymptotically optimal; may miss a path that exists"));
}
const navbench::Registration prm("prm", add);

}  // namespace
