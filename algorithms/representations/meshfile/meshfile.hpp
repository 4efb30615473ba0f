// navmesh-file: a navigation mesh read from a file (Polyanya's .mesh, version 2; Cui, Harabor &
// Grastien, IJCAI 2017), searched on its own convex polygons exactly as navmesh searches its cells
// (Recast/Detour's scheme, Mononen): the polygons are the rooms, the edges two of them share the
// doors (portals); graph vertices are the portals' midpoints, linked when they border one polygon,
// so the shared A* and the shared smoothing stage (the funnel over the corridor) run on the
// polygons the any-angle literature publishes. The build reads the polygons from the file the map
// came from (Map::path, read and checked by datasets/polyanya.hpp, as a game loads its baked mesh)
// and requires the map's free space to be theirs: on any other map, and on a mesh's map shrunk by a
// radius, it throws UnsupportedMap (the run skips it with a note).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "representations/built_graph.hpp"
#include "representations/capabilities.hpp"
#include "representations/csr_graph.hpp"
#include "representations/portal_mesh.hpp"
#include "representations/representation.hpp"

namespace navbench {

class MeshFile : public PortalMesh, public ConvexCellQueries<MeshFile> {
 public:
  MeshFile(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): only maps read from a .mesh; the file's
  // polygons tile the map's free space exactly (the map is their union), so unlike recast no
  // approximation; no parameters.
  static constexpr Capabilities kCapabilities{.mesh_only = true, .corridor = true};

  // cell = the polygon whose closed area holds p (a point on a shared edge gets one of them).
  std::optional<Attachment> attach(Point p) const;
  // The portals crossed from start's polygon to goal's (corridor_through_portals).
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  std::vector<Segment> structure() const;  // the polygons' outlines

  // The polygon whose closed area holds p, or -1.
  std::int32_t locate(Point p) const;
  std::size_t num_polygons() const { return polygons_.size(); }
  struct Portal {
    std::uint32_t from, to;    // the two polygons
    std::uint32_t right, left;  // vertex ids as seen crossing from `from` into `to`
  };
  const std::vector<Portal>& portals() const { return portals_; }

 private:
  // The file's polygons: edge i of polygon p runs counter-clockwise from vertices_[polygons_[p][i]]
  // to the next corner; neighbours_[p][i] is the polygon across it, or -1.
  std::vector<Point> vertices_;
  std::vector<std::vector<std::uint32_t>> polygons_;
  std::vector<std::vector<std::int32_t>> neighbours_;
  std::vector<Portal> portals_;  // graph vertex v is portal v (pos_[v] its midpoint)
  // The polygons as buckets_ reads them: corner k of polygon i.
  auto corner_count() const {
    return [this](std::size_t i) { return polygons_[i].size(); };
  }
  auto corner() const {
    return [this](std::size_t i, std::size_t k) { return vertices_[polygons_[i][k]]; };
  }
};

}  // namespace navbench
