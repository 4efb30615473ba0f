#include "representations/meshfile/meshfile.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/exact.hpp"
#include "representations/navmesh/navmesh.hpp"  // corridor_through_portals (a template: no link)

namespace navbench {

namespace {

bool same_rings(const PolygonShape& a, const PolygonShape& b) { return a.rings == b.rings; }

// The map's free space is exactly the union of the mesh's polygons (as load_polyanya_mesh made it).
bool same_free_space(const PolygonMap& a, const PolygonMap& b) {
  if (!same_rings(a.walkable, b.walkable) || a.obstacles.size() != b.obstacles.size()) return false;
  for (std::size_t i = 0; i < a.obstacles.size(); ++i)
    if (!same_rings(a.obstacles[i], b.obstacles[i])) return false;
  return true;
}

}  // namespace

MeshFile::MeshFile(const Map& map, Params& params) {
  params.finish("navmesh-file");
  if (map.kind != MapKind::polygon || !map.mesh)
    throw UnsupportedMap("navmesh-file needs a map read from a navigation mesh (.mesh)");
  if (!same_free_space(map.mesh->free_space, map.polygons))
    throw UnsupportedMap("navmesh-file: the map's free space is not its mesh's (shrunk by a radius?)");
  vertices_ = map.mesh->vertices;
  polygons_ = map.mesh->polygons;
  neighbours_ = map.mesh->across;
  // One portal per shared edge, made from the lower-numbered polygon's side: its edge i runs
  // counter-clockwise from corner i to corner i + 1, so crossing out of it corner i is on the right.
  for (std::uint32_t p = 0; p < polygons_.size(); ++p) {
    const auto& vs = polygons_[p];
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const std::int32_t q = neighbours_[p][i];  // none (-1), or made from q's side when q < p
      if (q > std::int32_t(p)) portals_.push_back({p, std::uint32_t(q), vs[i], vs[(i + 1) % vs.size()]});
    }
  }
  link_portals(
      polygons_.size(), portals_.size(),
      [&](Vertex v) {
        const Portal& e = portals_[v];
        return PortalEnds{e.from, e.to, vertices_[e.right], vertices_[e.left]};
      },
      [](Point a, Point b, std::uint32_t) { return distance(a, b); });
  buckets_.build(polygons_.size(), corner_count(), corner(), 1e-6);
}

std::int32_t MeshFile::locate(Point p) const {
  return buckets_.locate(p, corner_count(), corner(), [](const Point& a, const Point& e, const Point& q) { return exact::orient2d(a, e, q); });
}

std::optional<Attachment> MeshFile::attach(Point p) const {
  return attach_in(locate(p), p, [](Point a, Point b, std::uint32_t) { return distance(a, b); });
}

std::optional<Corridor> MeshFile::corridor(const Query& q) const {
  return corridor_through_portals(q, portals_.size(), [&](Vertex v) {
    const Portal& p = portals_[v];
    return PortalSides{std::int32_t(p.from), std::int32_t(p.to), vertices_[p.right], vertices_[p.left]};
  });
}

BuildStats MeshFile::stats() const {
  BuildStats s;
  s.vertices = graph_.num_vertices();
  s.edges = graph_.num_edges();
  std::size_t mesh_bytes = vertices_.capacity() * sizeof(Point);
  for (std::size_t p = 0; p < polygons_.size(); ++p)
    mesh_bytes += polygons_[p].capacity() * 4 + neighbours_[p].capacity() * 4;
  s.memory_bytes = mesh_bytes + graph_.memory_bytes() + pos_.capacity() * sizeof(Point) + portals_.capacity() * sizeof(Portal) +
                   buckets_.memory_bytes() + component_.capacity() * 4;
  for (const auto& ps : cell_portals_) s.memory_bytes += ps.capacity() * sizeof(Vertex);
  return s;
}

std::vector<Segment> MeshFile::structure() const {
  std::vector<Segment> out;
  for (const auto& vs : polygons_)
    for (std::size_t i = 0; i < vs.size(); ++i)
      out.push_back({vertices_[vs[i]], vertices_[vs[(i + 1) % vs.size()]]});
  return out;
}

}  // namespace navbench
