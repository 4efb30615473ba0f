// The registration of quadtree (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/quadtree/quadtree.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::QuadTree>(
      "quadtree",
      "quadtree navigation mesh: merged free cells, portal midpoints (min, merge, aspect)"));
}
const navbench::Registration quadtree("quadtree", add);

}  // namespace
