// The registration of navmesh-tiles (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/navmesh_tiles/navmesh_tiles.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::NavMeshTiles>(
      "navmesh-tiles",
      "navmesh per square tile (CGAL per tile, Recast-style): updates triangulate only the changed tiles (tile)"));
}
const navbench::Registration navmesh_tiles("navmesh_tiles", add);

}  // namespace
