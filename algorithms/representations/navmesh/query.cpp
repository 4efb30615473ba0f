// The two graphs over the triangulated free space, their queries (no CGAL here: see triangulation*.cpp).
#include "representations/navmesh/navmesh.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "representations/navmesh/internal.hpp"

namespace navbench {

using navmesh_detail::dist;

// ---------------------------------------------------------------------------------------------
// NavMesh

std::optional<Attachment> NavMesh::attach(Point p) const {
  const std::int32_t t = tri_.locate(p);
  if (t < 0) return std::nullopt;
  const std::int32_t c = cell_of_[t];
  Attachment a;
  a.cell = c;
  a.component = cell_component(std::uint32_t(c));
  a.links.reserve(cell_portal_end_[c] - cell_portal_begin_[c]);
  for (std::uint32_t i = cell_portal_begin_[c]; i < cell_portal_end_[c]; ++i)
    a.links.push_back({cell_portals_[i], weighted_ ? segment_cost(p, pos_[cell_portals_[i]]) : dist(p, pos_[cell_portals_[i]])});
  return a;
}

std::optional<Corridor> NavMesh::corridor(const Query& q) const {
  const auto& pts = tri_.points();
  return corridor_through_portals(q, portals_.size(), [&](Vertex v) {
    const PortalInfo& p = portals_[v];
    return PortalSides{p.from, p.to, pts[p.right], pts[p.left]};
  });
}

BuildStats NavMesh::stats() const {
  BuildStats s;
  s.vertices = graph_.num_live_vertices();
  s.edges = graph_.num_edges();
  s.memory_bytes = tri_.memory_bytes() + graph_.memory_bytes() + cell_of_.capacity() * 4 + cell_begin_.capacity() * 4 +
                   cell_verts_.capacity() * 4 + cell_component_.capacity() * 4 + cell_portal_begin_.capacity() * 4 +
                   cell_portal_end_.capacity() * 4 + cell_portals_.capacity() * sizeof(Vertex) +
                   portals_.capacity() * sizeof(PortalInfo) + pos_.capacity() * sizeof(Point) + fresh_.capacity();
  return s;
}

// ---------------------------------------------------------------------------------------------
// NavMeshVertices

std::optional<Attachment> NavMeshVertices::attach(Point p) const {
  const std::int32_t t = tri_.locate(p);
  if (t < 0) return std::nullopt;
  Attachment a;
  a.cell = t;
  a.component = tri_.component(std::uint32_t(t));
  for (Vertex v : corner_vertex_[t])
    if (v != CsrGraph::null_vertex()) a.links.push_back({v, weighted_ ? segment_cost(p, pos_[v]) : dist(p, pos_[v])});
  return a;
}

BuildStats NavMeshVertices::stats() const {
  BuildStats s;
  s.vertices = graph_.num_live_vertices();
  s.edges = graph_.num_edges();
  s.memory_bytes = tri_.memory_bytes() + graph_.memory_bytes() + corner_vertex_.capacity() * sizeof(corner_vertex_[0]) +
                   pos_.capacity() * sizeof(Point) + vertex_of_point_.capacity() * sizeof(Vertex) +
                   point_of_vertex_.capacity() * 4 + in_p_.capacity();
  return s;
}

}  // namespace navbench
