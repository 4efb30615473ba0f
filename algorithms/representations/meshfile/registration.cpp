// The registration of navmesh-file (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/meshfile/meshfile.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::MeshFile>(
      "navmesh-file",
      "navmesh on the convex polygons of the navigation mesh the map was read from (Polyanya's .mesh), portal midpoints; other maps: not supported"));
}
const navbench::Registration meshfile("meshfile", add);

}  // namespace
