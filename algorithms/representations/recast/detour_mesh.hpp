// The Recast/Detour navigation mesh of a map, built with the real library (Mononen's
// recastnavigation, Debian's librecast-dev): the walkable area rasterised as a flat heightfield,
// then Recast's own pipeline (compact heightfield, erosion, regions, contours, polygon mesh, detail
// mesh, dtCreateNavMeshData), tile by tile into one dtNavMesh as a game builds it
// (docs/recast.md). This header is Recast-free: the library is confined to detour_mesh.cpp and
// detour_query.cpp.
#pragma once
#include <array>
#include <cstdint>
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
  int tile = 64;                // tile side in voxels (rcConfig::tileSize); 0: one tile for the whole map
  int min_region = 8;           // regions smaller than min_region^2 voxels are dropped (rcConfig::minRegionArea)
  int merge_region = 20;        // regions smaller than merge_region^2 voxels merge into a neighbour
  int radius_voxels = 0;        // rcConfig::walkableRadius: an agent's radius, rounded up to whole voxels
  int pool = 4096;              // Detour's node pool (dtNavMeshQuery::init maxNodes)
  std::string partition_name() const;
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
  ~DetourMesh();
  DetourMesh(DetourMesh&&) noexcept;
  DetourMesh& operator=(DetourMesh&&) noexcept;

  const dtNavMesh& navmesh() const { return *nav_; }
  const RecastConfig& config() const { return cfg_; }
  const std::vector<DetourPolygon>& polygons() const { return polys_; }
  const std::vector<DetourPortal>& portals() const { return portals_; }
  // The polygon index of a dtPolyRef of this mesh, or -1.
  std::int32_t polygon_of(std::uint32_t ref) const;
  // The height (Recast's y) of the flat mesh: where query points are placed for Detour.
  float floor_y() const { return floor_y_; }
  // Bytes of the dtNavMesh tiles' data (what a game keeps).
  std::size_t data_bytes() const { return data_bytes_; }
  // Warnings Recast logged during the build (e.g. "Multiple outlines for region", which means a
  // hole inside a region was dropped from its contour: docs/recast.md).
  int warnings() const { return warnings_; }
  int tiles() const { return tiles_; }

 private:
  struct Deleter {
    void operator()(dtNavMesh* m) const;
  };
  void extract();
  RecastConfig cfg_;
  std::unique_ptr<dtNavMesh, Deleter> nav_;
  std::vector<DetourPolygon> polys_;
  std::vector<DetourPortal> portals_;
  std::vector<std::uint32_t> tile_base_;  // per Detour tile index: index of its first polygon
  float floor_y_ = 0;
  std::size_t data_bytes_ = 0;
  int warnings_ = 0, tiles_ = 0;
};

}  // namespace navbench
