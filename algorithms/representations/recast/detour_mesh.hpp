// The Recast/Detour navigation mesh of a map, built with the real library (Mononen's
// recastnavigation, Debian's librecast-dev): the walkable area rasterised as a flat heightfield,
// then Recast's own pipeline (compact heightfield, erosion, regions, contours, polygon mesh, detail
// mesh, dtCreateNavMeshData), tile by tile into one dtNavMesh as a game builds it
// (docs/recast.md). This header is Recast-free: the library is confined to detour_mesh.cpp and
// detour_query.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"

class dtNavMesh;

namespace navbench {

// Recast's build settings, in the units Recast's rcConfig uses (docs/recast.md).
struct RecastConfig {
  double cs = 1.0;              // cell size: map units per voxel (rcConfig::cs)
  enum class Partition { watershed, monotone, layers } partition = Partition::watershed;
  double max_error = 1.3;       // contour simplification error in voxels (rcConfig::maxSimplificationError)
  double max_edge = 12;         // longest contour edge in map units (rcConfig::maxEdgeLen = max_edge / cs; 0: no limit)
  int nvp = 6;                  // vertices per polygon (rcConfig::maxVertsPerPoly, 3 .. 6)
  int tile = 32;                // tile side in voxels (rcConfig::tileSize); 0: one tile for the whole map
  int min_region = 8;           // regions smaller than min_region^2 voxels are dropped (rcConfig::minRegionArea)
  int merge_region = 20;        // regions smaller than merge_region^2 voxels merge into a neighbour
  double radius = 0;            // agent radius in map units; Recast erodes by walkableRadius = ceil(radius / cs) voxels
  int pool = 4096;              // Detour's node pool (dtNavMeshQuery::init maxNodes)
  std::string partition_name() const;
  // rcConfig::walkableRadius: the radius rounded up to whole voxels (docs/recast.md).
  int radius_voxels() const;
};

// Terrain costs as Recast area types (docs/recast.md#terrain-costs-area-types-and-detours-query-filter):
// Detour's polygons carry an area id of 6 bits; 0 is Recast's unwalkable area, so a map's weights go to the areas 1 .. 63.
// Rule: with at most 63 distinct weights each weight is an area of its own, costing that weight;
// with more, [least, greatest] is cut into 63 bins of equal ratio, and a bin's area costs the
// geometric middle of the bin (so a cell's price is off by at most the square root of the ratio).
class AreaTable {
 public:
  static constexpr int kAreas = 63;
  AreaTable() { cost_.fill(1.0f); }  // unweighted: every free cell is area 1, costing 1
  explicit AreaTable(const GridMap& g);
  unsigned char area(double weight) const;
  // Per area id 0 .. 63 the cost Detour's dtQueryFilter gets (unused ids 1).
  const std::array<float, 64>& costs() const { return cost_; }
  bool exact() const { return exact_; }  // every weight its own area
  int used() const { return used_; }

 private:
  std::vector<double> distinct_;  // exact: the sorted weights, area = 1 + index
  double least_ = 1, ratio_ = 1;  // binned: area = 1 + floor(log(w / least) / log(ratio))
  bool exact_ = true;
  int used_ = 1;
  std::array<float, 64> cost_{};
};

// One polygon of the built mesh in map coordinates, corners counter-clockwise in (x, y).
struct DetourPolygon {
  std::vector<Point> corners;
  std::uint32_t ref = 0;  // its dtPolyRef
};

// A shared edge (or, across a tile border, the shared part of an edge) between two polygons, its
// ends as seen crossing from `from` into `to`.
struct DetourPortal {
  std::uint32_t from, to;  // polygon indices
  Point right, left;
};

class DetourMesh {
 public:
  // Throws std::invalid_argument (one line) when Recast or Detour fails or the map is too large for
  // the tile size; the map must be a grid or polygon map with a finite extent.
  DetourMesh(const Map& map, const RecastConfig& cfg);
  // docs/changing-maps.md, grid maps: rebuilds in place (dtNavMesh::removeTile / addTile) the tiles
  // whose voxels (or their border) lie in a changed cell; `map` holds the new cells. Every tile
  // sits in the slot and with the ids a fresh build gives it, so the mesh equals a fresh build's.
  // Returns the number of tiles rebuilt; -1 (cannot: rebuild) on a polygon map or another size.
  int update(const Map& map, const std::vector<CellChange>& changed);
  ~DetourMesh();
  DetourMesh(DetourMesh&&) noexcept;
  DetourMesh& operator=(DetourMesh&&) noexcept;

  const dtNavMesh& navmesh() const { return *nav_; }
  const RecastConfig& config() const { return cfg_; }
  const std::vector<DetourPolygon>& polygons() const { return polys_; }
  const std::vector<DetourPortal>& portals() const { return portals_; }
  const AreaTable& areas() const { return areas_; }
  // Polygon i's Recast area id (1 .. 63; AreaTable).
  unsigned char area(std::size_t i) const { return poly_area_[i]; }
  // The polygon index of a dtPolyRef of this mesh, or -1.
  std::int32_t polygon_of(std::uint32_t ref) const;
  // The height (Recast's y) of the flat mesh: where query points are placed for Detour.
  float floor_y() const { return floor_y_; }
  // Bytes of the dtNavMesh tiles' data (what a game keeps).
  std::size_t data_bytes() const;
  // Warnings Recast logged during the build (e.g. "Multiple outlines for region", which means a
  // hole inside a region was dropped from its contour: docs/recast.md).
  int warnings() const;
  int tiles() const;
  // The walkable voxels (after erosion) of the tiles' own squares, and those of them that Recast's
  // partition put in a region: a voxel in no region (a region under min_region dropped, or, with
  // the watershed partition, voxels none of whose regions could be seeded: docs/recast.md) gets no
  // polygon, so a query point there is a missed path.
  std::size_t walkable_voxels() const;
  std::size_t region_voxels() const;
  // "" when every walkable voxel is in a region, else what a missed path's row says of the mesh:
  // "Recast's regions hold R of W walkable voxels" (with a percentage).
  std::string unreached_note() const;
  int rebuilt() const { return rebuilt_; }  // tiles the last update() rebuilt

 private:
  struct Deleter {
    void operator()(dtNavMesh* m) const;
  };
  void extract();
  // Builds tile (tx, tz) from the map's areas (Recast area of a point, 0: not walkable) and puts it
  // in its slot (tz * ntx + tx), replacing what is there.
  void place_tile(const std::function<unsigned char(double, double)>& area_at, int tx, int tz);
  RecastConfig cfg_;
  AreaTable areas_;
  float orig_[3] = {0, 0, 0};
  int vx_ = 0, vz_ = 0, ntx_ = 1, ntz_ = 1;
  int map_w_ = 0, map_h_ = 0;  // a grid map's size (update() needs the same)
  std::vector<int> tile_bytes_, tile_warnings_;  // per slot: the tile's data size, Recast's warnings
  std::vector<std::size_t> tile_walkable_, tile_regioned_;  // per slot: walkable voxels, those in a region
  std::vector<unsigned char> poly_area_;
  std::unique_ptr<dtNavMesh, Deleter> nav_;
  std::vector<DetourPolygon> polys_;
  std::vector<DetourPortal> portals_;
  std::vector<std::uint32_t> tile_base_;  // per Detour tile index: index of its first polygon
  float floor_y_ = 0;
  int rebuilt_ = 0;
};

}  // namespace navbench
