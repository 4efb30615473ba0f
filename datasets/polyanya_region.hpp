// The geometry behind datasets/polyanya.cpp: the checks of a mesh's topology and of a .poly's
// rings, and the walkable region of each as a polygon map.
#pragma once
#include <string>
#include <vector>

#include "datasets/polyanya.hpp"

namespace navbench {

// Every neighbour entry is the polygon across that edge (-1 where none is), no directed edge
// belongs to two polygons (they would overlap), every vertex's polygon list holds exactly the
// polygons around it (and -1 entries). `poly_line[i]`: the line polygon i was read from.
void check_mesh_topology(const PolyanyaMesh& m, const std::string& file, const std::vector<long>& poly_line);

// A .poly polygon must be simple (no self-intersection, no repeated point): polygon `index` at `line`.
void check_simple_ring(const std::vector<Point>& ring, const std::string& file, long line, int index);

}  // namespace navbench
