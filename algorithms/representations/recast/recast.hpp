// recast: the navigation mesh games ship (Recast/Detour, Mononen; under Unity's, Unreal's and
// Godot's navigation), built with the real library from any map navbench reads (detour_mesh.hpp)
// and searched like navmesh: its convex polygons are the cells, the edges they share the portals,
// graph vertices the portals' midpoints, linked when they border one polygon — Detour's own
// findPath searches the same polygons (docs/recast.md). Voxelisation and contour simplification
// move the walkable border, so paths may clip obstacles: the validity test reports it, nothing
// here corrects it.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "representations/built_graph.hpp"
#include "representations/capabilities.hpp"
#include "representations/csr_graph.hpp"
#include "representations/portal_mesh.hpp"
#include "representations/recast/detour_mesh.hpp"
#include "representations/recast/detour_query.hpp"
#include "representations/representation.hpp"

namespace navbench {

// Recast's parameters of `--rep recast:...` (docs/recast.md), checked; throws std::invalid_argument.
RecastConfig recast_config(Params& params);

class RecastMesh : public PortalMesh, public ConvexCellQueries<RecastMesh>, public SegmentPricing {
 public:
  RecastMesh(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): what it does, and Recast's parameters with
  // RecastDemo's defaults (docs/recast.md).
  // An agent radius through Recast's erosion (radius = own_erosion: built on the map itself with
  // radius=R), terrain through area types and dtQueryFilter's area costs (AreaTable), changing maps
  // by rebuilding the touched tiles in place (equal to a fresh build).
  static constexpr Capabilities kCapabilities{.radius = RadiusSupport::own_erosion, .weights = true, .corridor = true,
                                              .update_in_place = true, .approximate_space = true, .may_miss = true,
                                              .own_search = true};
  // The batteries' floors (docs/testing.md#floors): where its mesh does not reach a free query point
  // (regions dropped, contours simplified), per battery, variant (tests/support/battery.cpp) and map.
  static constexpr std::array kFloors{
      // min_region=8 drops every region under 64 voxels: the largest hand map holds 50 walkable voxels.
      Floor{"Conformance", "", "*", 0,
            "its default min_region=8 drops regions under 64 voxels, and no hand map has one (the rows: Recast's regions hold 0 "
            "of the walkable voxels); the min_region=0 variants run these maps"},
      // The watershed partition keeps no region on one-cell-wide free space (0 of 1, 121, 5 and 14 voxels).
      Floor{"Conformance", "min_region=0,max_error=0", "one", 0, "the watershed partition keeps no region on a one-cell map (0 of 1 walkable voxel)"},
      Floor{"Conformance", "min_region=0,max_error=0", "corridor", 0,
            "the watershed partition keeps no region in one-cell-wide corridors (0 of 121 voxels)"},
      Floor{"Conformance", "min_region=0,max_error=0", "pinch", 0,
            "the watershed partition keeps no region on one-cell-wide free space (0 of 5 voxels)"},
      Floor{"Conformance", "min_region=0,max_error=0", "pinch2", 0,
            "the watershed partition keeps no region on one-cell-wide free space (0 of 14 voxels)"},
      // Monotone regions in 4-voxel tiles: no polygon holds some query points (the mesh does not reach them).
      Floor{"Conformance", "min_region=0,partition=monotone,tile=4", "open", 2},
      Floor{"Conformance", "min_region=0,partition=monotone,tile=4", "walls", 1},
      Floor{"Conformance", "min_region=0,partition=monotone,tile=4", "one", 0,
            "no polygon of its mesh holds the one cell's points (the mesh does not reach the start)"},
      Floor{"Conformance", "min_region=0,partition=monotone,tile=4", "corridor", 0,
            "no polygon of its mesh holds the corridor's query points (the mesh does not reach the start)"},
      // Recast drops regions under min_region^2 voxels, and monotone regions in 4-voxel tiles leave
      // query points outside every polygon: the mesh does not reach them. Each floor is the count
      // the entry finds, the same in the GCC and the clang builds (NAVBENCH_FLOOR_COUNTS=1,
      // docs/testing.md#random-inputs): the change sequences are drawn in one order under both. Until
      // their patches' x and y were drawn into named variables, GCC drew them in the other order and
      // built other sequences (mixed: 188 queries with a path instead of 198; recast 264 on blocks
      // and 166 on mixed, the monotone tiles 241 on blocks), which bd55201 took for Recast's voxels
      // differing between the compilers; both builds link the one Debian libRecast.so.1.
      Floor{"UpdateBattery", "", "blocks", 258},           // of 278
      Floor{"UpdateBattery", "", "mixed", 165},            // of 198
      Floor{"UpdateBattery", "", "doors", 33},             // of 35
      Floor{"UpdateBattery", "", "blocks-scenario", 33},   // of 35
      Floor{"UpdateBattery", "min_region=0,max_error=0", "mixed", 197},  // of 198
      Floor{"UpdateBattery", "min_region=0,partition=monotone,tile=4", "blocks", 232},          // of 278
      Floor{"UpdateBattery", "min_region=0,partition=monotone,tile=4", "mixed", 147},           // of 198
      Floor{"UpdateBattery", "min_region=0,partition=monotone,tile=4", "doors", 34},            // of 35
      Floor{"UpdateBattery", "min_region=0,partition=monotone,tile=4", "blocks-scenario", 32},  // of 35
      // The mesh does not reach some free query points (small regions dropped, contours simplified).
      Floor{"WeightsBattery", "", "weighted0", 11},  // of 12
      Floor{"WeightsBattery", "", "terrain0", 24},   // of 25
      Floor{"WeightsBattery", "", "terrain1", 21},   // of 25
      Floor{"WeightsBattery", "", "terrain2", 23},   // of 25
      Floor{"WeightsBattery", "", "terrain3", 24},   // of 25
      Floor{"WeightsBattery", "", "terrain4", 19},   // of 24
      Floor{"WeightsBattery", "", "terrain5", 21},   // of 25
      Floor{"WeightsBattery", "min_region=0,max_error=0", "terrain0", 24},  // of 25
      Floor{"WeightsBattery", "min_region=0,max_error=0", "terrain3", 24},  // of 25
      Floor{"WeightsBattery", "min_region=0,partition=monotone,tile=4", "weighted0", 10},  // of 12
      Floor{"WeightsBattery", "min_region=0,partition=monotone,tile=4", "terrain0", 24},   // of 25
      Floor{"WeightsBattery", "min_region=0,partition=monotone,tile=4", "terrain1", 21},   // of 25
      Floor{"WeightsBattery", "min_region=0,partition=monotone,tile=4", "terrain2", 23},   // of 25
      Floor{"WeightsBattery", "min_region=0,partition=monotone,tile=4", "terrain3", 24},   // of 25
      Floor{"WeightsBattery", "min_region=0,partition=monotone,tile=4", "terrain4", 22},   // of 24
      Floor{"SmoothingMapsData", "", "den520d", 39},  // of 40: the mesh does not reach one free start
  };
  static constexpr std::array kParams{
      ParamDecl{"cs", ParamType::real, 1, 1e-3, 1e3, "cell size: map units per voxel (rcConfig::cs)"},
      ParamDecl{"partition", ParamType::choice, 0, 0, 2, "Recast's region partition", nullptr, "watershed,monotone,layers"},
      ParamDecl{"max_error", ParamType::real, 1.3, 0, 100, "contour simplification error in voxels (maxSimplificationError)"},
      ParamDecl{"max_edge", ParamType::real, 12, 0, 1e6, "longest contour edge in map units (0: no limit)"},
      ParamDecl{"nvp", ParamType::integer, 6, 3, 6, "vertices per polygon (maxVertsPerPoly)"},
      ParamDecl{"tile", ParamType::integer, 32, 0, 4096, "tile side in voxels (0: one tile)"},
      ParamDecl{"min_region", ParamType::integer, 8, 0, 1000, "regions under min_region^2 voxels are dropped"},
      ParamDecl{"merge_region", ParamType::integer, 20, 0, 1000, "regions under merge_region^2 voxels merge into a neighbour"},
      ParamDecl{"pool", ParamType::integer, 4096, 16, 65535, "Detour's node pool (dtNavMeshQuery maxNodes)"},
      ParamDecl{"radius", ParamType::real, 0, 0, 1e6, "agent radius in map units: Recast erodes ceil(radius / cs) voxels (walkableRadius); --radius sets it"}};

  // cell = the polygon holding p (closed, so a point on a shared edge gets one of them); a point
  // no polygon holds does not attach (the mesh does not reach it: it is never moved onto the mesh).
  std::optional<Attachment> attach(Point p) const;
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  void structure(const SegmentSink& emit) const;
  // docs/changing-maps.md, grid maps: Recast rebuilds the touched tiles in place (DetourMesh::update),
  // then navbench's graph over the mesh is laid out again. False (rebuild) on polygon maps or
  // another size.
  bool update(const Map& map, const std::vector<CellChange>& changed);

  // Detour's own query (detour_query.hpp): `--search detour`.
  OwnAnswer own_search(Point start, Point goal) const;
  // Declared with may_miss: a free point no polygon holds, or start and goal on parts of the mesh
  // no portal joins; with the walkable voxels in no region (unreached_note()) when there are any.
  std::string miss_reason(const Query& q) const;
  // The walkable voxels Recast's partition put in no region, "" when none (DetourMesh::unreached_note).
  std::string unreached_note() const { return mesh_.unreached_note(); }

  const DetourMesh& mesh() const { return mesh_; }
  // The polygon whose closed area holds p, or -1.
  std::int32_t locate(Point p) const;

 private:
  void layout();  // the graph, components and point location over mesh_
  DetourMesh mesh_;
  std::unique_ptr<DetourQuery> detour_;  // its pool of dtNavMeshQuery objects (one per thread at a time)
  // The polygons as buckets_ reads them: corner k of polygon i.
  auto corner_count() const {
    return [this](std::size_t i) { return mesh_.polygons()[i].corners.size(); };
  }
  auto corner() const {
    return [this](std::size_t i, std::size_t k) { return mesh_.polygons()[i].corners[k]; };
  }
};

}  // namespace navbench
