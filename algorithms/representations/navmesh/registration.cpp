// The registration of navmesh and navmesh-vertices (search/registration.hpp): what the type declares is checked by
// make_entry at compile time; the entries join the registry in this order.
#include "search/make_entry.hpp"
#include "representations/navmesh/navmesh.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::NavMesh>(
      "navmesh",
      "CGAL constrained Delaunay triangulation, triangles as nodes, edge midpoints (merge)"));
  r.add(navbench::make_entry<navbench::NavMeshVertices>(
      "navmesh-vertices",
      "CGAL constrained Delaunay triangulation, triangle corners as nodes"));
}
const navbench::Registration navmesh("navmesh", add);

}  // namespace
