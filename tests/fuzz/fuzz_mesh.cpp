// libFuzzer target: a Polyanya navigation mesh (.mesh, datasets/polyanya.hpp), read and made the
// polygon map `navbench run --map FILE.mesh` searches. The contract: a mesh whose every index is in
// range and every list of its announced length, and a polygon map of finite rings, or InputError.
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/polyanya.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(fuzz::text(data, size));
  try {
    const PolyanyaMesh m = read_polyanya_mesh(in, "fuzz.mesh");
    const int V = int(m.vertices.size()), P = int(m.polygons.size());
    require(V >= 3 && P >= 1 && m.vertex_polygons.size() == m.vertices.size() && m.neighbours.size() == m.polygons.size(),
            "one list per vertex and per polygon");
    for (const Point& v : m.vertices) require(std::isfinite(v.x) && std::isfinite(v.y), "vertices finite");
    for (const auto& l : m.vertex_polygons)
      for (int p : l) require(p >= -1 && p < P, "a vertex's polygons in range");
    for (int i = 0; i < P; ++i) {
      require(m.polygons[std::size_t(i)].size() >= 3 && m.neighbours[std::size_t(i)].size() == m.polygons[std::size_t(i)].size(),
              "a polygon has >= 3 vertices and a neighbour per edge");
      for (int v : m.polygons[std::size_t(i)]) require(v >= 0 && v < V, "a polygon's vertices in range");
      for (int n : m.neighbours[std::size_t(i)]) require(n >= -1 && n < P && n != i, "a polygon's neighbours in range, not itself");
    }
    fuzz::check_polygons(mesh_polygon_map(m, "fuzz.mesh"));
  } catch (const base::InputError& e) {
    fuzz::one_line(e.what(), "fuzz.mesh");
  }
  return 0;
}
