// The registration of grid4 and grid8 (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/grid/grid.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::Grid4>(
      "grid4",
      "4-connected grid, cells as vertices (implicit Boost.Graph)"));
  r.add(navbench::make_entry<navbench::Grid8>(
      "grid8",
      "8-connected grid, diagonal sqrt(2), no corner cutting (implicit Boost.Graph)"));
}
const navbench::Registration grid("grid", add);

}  // namespace
