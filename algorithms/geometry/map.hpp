// The map types every layer agrees on (docs/maps.md): an occupancy grid (Moving AI) or a polygon map (WKT).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "geometry/point.hpp"

namespace navbench {

// Moving AI grid: cell (x, y) is the closed unit square [x, x+1] x [y, y+1]; y = 0 is the top row.
struct GridMap {
  int width = 0, height = 0;
  std::vector<std::uint8_t> cells;  // 1 = passable, row-major, y * width + x
  // A weighted map (docs/terrain.md): each cell's weight >= 1, row-major like cells (1 in blocked
  // cells). Empty: every passable cell weighs 1, the unweighted map.
  std::vector<double> weights;

  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  bool passable(int x, int y) const { return inside(x, y) && cells[std::size_t(y) * width + x] != 0; }
  bool weighted() const { return !weights.empty(); }
  double weight(int x, int y) const { return weights.empty() ? 1.0 : weights[std::size_t(y) * width + x]; }
};

// Polygon map (docs/maps.md): one walkable outer boundary (rings of x,y; first ring outer, rest holes)
// plus obstacle polygons in the same form. Coordinates are map units.
struct PolygonShape {
  std::vector<std::vector<Point>> rings;  // rings[0] outer, rings[1..] holes; not closed (no repeat)
};
struct PolygonMap {
  PolygonShape walkable;                  // may consist of one polygon with holes
  std::vector<PolygonShape> obstacles;
};

// One cell of a grid map that a change (docs/changing-maps.md) set to a new value.
struct CellChange {
  int x, y;
  std::uint8_t passable;  // the new value: 1 free, 0 blocked
};

enum class MapKind { grid, polygon };

// How a map read from an occupancy image (a ROS map_server map or a bare PNG/PGM; docs/maps.md)
// was read, and where its cells are in the world: cell (x, y) of an H-row map has its lower-left
// corner at metres (x * resolution + origin_x, (H - 1 - y) * resolution + origin_y).
struct MapFrame {
  double resolution = 0;  // metres per cell; 0 for a bare image (no scale known)
  double origin_x = 0, origin_y = 0, yaw = 0;  // yaw is read and reported, not applied
  std::string image;      // the image file read
  std::string mode = "trinary";  // trinary | scale | raw
  bool negate = false;
  double occupied_thresh = 0.65, free_thresh = 0.196;
  bool unknown_free = false;  // unknown cells read as free (default: blocked)
  double wmax = 5;            // scale mode: the weight of a cell at occupied_thresh
  long free_cells = 0, occupied_cells = 0, unknown_cells = 0, between_cells = 0;  // as the rule read them
};

// The convex polygons of the navigation mesh a polygon map was read from (Polyanya's .mesh,
// datasets/polyanya.hpp), kept for the representations that search the file's own polygons
// (navmesh-file): the vertices, each polygon's vertex ids counter-clockwise, and for each polygon
// edge i (vertex i to vertex i + 1) the polygon across it (-1: none).
struct MeshPolygons {
  std::vector<Point> vertices;
  std::vector<std::vector<std::uint32_t>> polygons;
  std::vector<std::vector<std::int32_t>> across;
  PolygonMap free_space;  // their union, as the reader made the map's `polygons`
};

struct Map {
  std::string name;        // file name without extension (.map / .wkt)
  std::string collection;  // name of the folder holding it
  std::string path;        // the file it came from ("" when generated in memory)
  MapKind kind = MapKind::grid;
  GridMap grid;            // kind == grid
  PolygonMap polygons;     // kind == polygon
  // Bounding box of everything that can be free: [0,W]x[0,H] for grids.
  Point min{0, 0}, max{0, 0};
  // Where the weights of a weighted grid came from (docs/terrain.md): the --terrain text or the
  // cost layer's file name, the column `terrain`; "" on an unweighted map.
  std::string terrain;
  // Maps read from an occupancy image (ROS map_server, PNG/PGM): how, and their place in the world.
  std::optional<MapFrame> frame;
  // Maps read from a navigation mesh file: its polygons (a map shrunk by a radius keeps the pointer,
  // but its free space is no longer the mesh's).
  std::shared_ptr<const MeshPolygons> mesh;

  // A grid map with cell weights (docs/terrain.md).
  bool weighted() const { return kind == MapKind::grid && grid.weighted(); }
};

// The same map and free space without its weights: what the Euclidean optimum is built on.
inline Map without_weights(Map m) {
  m.grid.weights.clear();
  return m;
}

// Builds a Map from a grid (name/collection left to the caller).
inline Map make_grid_map(GridMap g, std::string name = {}, std::string collection = {}) {
  Map m;
  m.name = std::move(name);
  m.collection = std::move(collection);
  m.kind = MapKind::grid;
  m.max = {double(g.width), double(g.height)};
  m.grid = std::move(g);
  return m;
}

}  // namespace navbench
