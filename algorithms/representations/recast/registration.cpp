// The registration of recast (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/recast/recast.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::RecastMesh>(
      "recast",
      "Recast/Detour navigation mesh (librecast, docs/recast.md): voxelised walkable area, regions, simplified contours, convex polygons; searched between portal midpoints like navmesh"));
}
const navbench::Registration recast("recast", add);

}  // namespace
