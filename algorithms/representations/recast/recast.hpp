// recast: the navigation mesh games ship (Recast/Detour, Mononen; under Unity's, Unreal's and
// Godot's navigation), built with the real library from any map navbench reads (detour_mesh.hpp)
// and searched like navmesh: its convex polygons are the cells, the edges they share the portals,
// graph vertices the portals' midpoints, linked when they border one polygon — Detour's own
// findPath searches the same polygons (docs/recast.md). Voxelisation and contour simplification
// move the walkable border, so paths may clip obstacles: the validity test reports it, nothing
// here corrects it.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/recast/detour_mesh.hpp"
#include "representations/representation.hpp"

namespace navbench {

// Recast's parameters of `--rep recast:...` (docs/recast.md), checked; throws std::invalid_argument.
RecastConfig recast_config(Params& params);

class RecastMesh : public BuiltGraph<CsrGraph>, public StoredPositions, public ConvexCellQueries<RecastMesh> {
 public:
  RecastMesh(const Map& map, Params& params);

  // cell = the polygon holding p (closed, so a point on a shared edge gets one of them); a point
  // no polygon holds does not attach (the mesh does not reach it: it is never moved onto the mesh).
  std::optional<Attachment> attach(Point p) const;
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  std::vector<Segment> structure() const;

  const DetourMesh& mesh() const { return mesh_; }
  // The polygon whose closed area holds p, or -1.
  std::int32_t locate(Point p) const;

 private:
  DetourMesh mesh_;
  std::vector<std::vector<Vertex>> cell_portals_;  // per polygon, its portals
  std::vector<std::int32_t> component_;            // per polygon
  // Point location: polygons listed per square bucket of side bucket_ their bounding box touches.
  double bucket_ = 1;
  int bw_ = 0, bh_ = 0;
  Point origin_{0, 0};
  std::vector<std::uint32_t> bucket_begin_, bucket_polys_;
};

}  // namespace navbench
