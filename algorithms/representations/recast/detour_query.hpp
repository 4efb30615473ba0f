// Detour's own query on a DetourMesh: what a game runs (findNearestPoly, findPath,
// findStraightPath; dtQueryFilter with every flag and the mesh's area costs: 1 unweighted, the
// AreaTable's on terrain), as a search only `recast` has (docs/recast.md).
// Thread-safe: each call takes a dtNavMeshQuery of its own from a pool (one per thread at a time).
#pragma once
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "geometry/point.hpp"
#include "representations/recast/detour_mesh.hpp"

class dtNavMeshQuery;
class dtNavMesh;

namespace navbench {

struct DetourAnswer {
  enum class Status { found, no_path, error } status = Status::error;
  // The path from the query's start to its goal: where Detour placed a point on the mesh at a
  // distance (findNearestPoly), the joining piece is part of the path, so the validity test sees it.
  Polyline path;
  std::string reason;  // why not found (no_path: the mesh does not reach a point; error: the node pool ran out)
  int nodes = 0;       // nodes of Detour's node pool the search used (its generated states)
  bool unreached = false;  // no polygon within snap() of the start or the goal
};

class DetourQuery {
 public:
  explicit DetourQuery(const DetourMesh& mesh);
  ~DetourQuery();
  // How far (map units, horizontally) findNearestPoly looks for the mesh around a query point:
  // RecastDemo's 2 voxels.
  double snap() const { return 2 * cs_; }
  DetourAnswer find(Point start, Point goal) const;

 private:
  struct Deleter {
    void operator()(dtNavMeshQuery* q) const;
  };
  using QueryPtr = std::unique_ptr<dtNavMeshQuery, Deleter>;
  QueryPtr acquire() const;
  void release(QueryPtr q) const;
  // What it reads of the mesh (the dtNavMesh stays where the DetourMesh put it when that moves).
  const dtNavMesh* nav_;
  float floor_y_;
  double cs_;
  int nodes_;
  std::array<float, 64> area_cost_;  // the mesh's AreaTable: dtQueryFilter's area costs
  mutable std::mutex mutex_;
  mutable std::vector<QueryPtr> pool_;
};

}  // namespace navbench
