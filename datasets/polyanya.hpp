// Polyanya's map formats (Cui, Harabor & Grastien, "Compromise-free Pathfinding on a Navigation
// Mesh", IJCAI 2017; the specs in Polyanya's utils/spec/): navigation meshes (.mesh, version 2)
// and polygon maps (.poly, version 1), read as polygon maps (docs/maps.md, SPEC §13).
// Polyanya's point scenarios are Moving AI scenario files whose coordinates are points
// (datasets/movingai.hpp reads them; a polygon map places a query at (x, y) itself).
// A file that does not follow its spec throws InputError("file:line: reason" / "file: reason").
#pragma once
#include <istream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "geometry/map.hpp"

namespace navbench {

// A .mesh, version 2: V vertices, each with the polygons around it counter-clockwise (-1: outside
// or obstacle), and P convex polygons, each with its vertices counter-clockwise and its
// neighbours: neighbours[i] is across the edge vertices[i-1] - vertices[i] (version 2; index i-1
// wraps around), -1 where there is none.
struct PolyanyaMesh {
  std::vector<Point> vertices;
  std::vector<std::vector<int>> vertex_polygons;
  std::vector<std::vector<int>> polygons;    // vertex indices
  std::vector<std::vector<int>> neighbours;  // polygon indices or -1
};

// Reads and checks a mesh: the header, every index in range, each list of its announced length,
// every polygon convex and counter-clockwise (positive area, no clockwise turn), every neighbour
// entry the polygon across that edge (or -1 when no polygon is), every vertex's polygons holding it.
PolyanyaMesh read_polyanya_mesh(std::istream& in, const std::string& file);

// The walkable area of a mesh, the union of its polygons, as a polygon map: its boundary traced
// from the edges no two polygons share (a vertex where two free sectors meet splits the loops, so
// it stays a pinch point), then walkable = the bounding box, obstacles = the box minus the union.
PolygonMap mesh_polygon_map(const PolyanyaMesh& mesh, const std::string& file);

// A .poly (version 1): N simple polygons; the walkable area is their symmetric difference (the
// spec's rule: a point is walkable when an odd number of polygons hold it). Each polygon is a ring
// of points (not closed).
std::vector<std::vector<Point>> read_polyanya_poly(std::istream& in, const std::string& file);
PolygonMap poly_polygon_map(const std::vector<std::vector<Point>>& polygons, const std::string& file);

// name = file name without extension, collection = folder, kind polygon, min/max the bounding box.
Map load_polyanya_mesh(const std::string& path);
Map load_polyanya_poly(const std::string& path);

}  // namespace navbench
