// FreeSpaceTriangulation's queries (CGAL, types in cgal.hpp): point location, the triangles around a
// vertex, the orientation predicate, the checks the tests use, memory.
#include <cmath>

#include "representations/navmesh/cgal.hpp"
#include "representations/navmesh/navmesh.hpp"

namespace navbench {

using namespace navmesh_detail;

void FreeSpaceTriangulation::triangles_around(std::uint32_t v, std::vector<std::int32_t>& out) const {
  out.clear();
  if (!point_alive(v)) return;
  const Cdt& cdt = cgal_->cdt;
  auto fc = cdt.incident_faces(cgal_->vh[v]), done = fc;
  do out.push_back(cdt.is_infinite(fc) ? -1 : fc->info().id);
  while (++fc != done);
}

bool FreeSpaceTriangulation::point_alive(std::uint32_t v) const {
  return v < cgal_->vh.size() && cgal_->vh[v] != Cdt::Vertex_handle();
}

bool FreeSpaceTriangulation::valid_for_tests() const {
  const Cdt& cdt = cgal_->cdt;
  if (!cdt.is_valid()) return false;
  std::vector<std::uint8_t> seen(corners_.size(), 0);
  for (auto f : cdt.finite_face_handles()) {
    const std::int32_t t = f->info().id;
    if (t < 0) continue;
    if (std::size_t(t) >= corners_.size() || seen[std::size_t(t)]++) return false;
    for (int i = 0; i < 3; ++i) {
      if (corners_[std::size_t(t)][i] != f->vertex(i)->info() || neighbors_[std::size_t(t)][i] != f->neighbor(i)->info().id) return false;
      if (cgal_->vh[f->vertex(i)->info()] != f->vertex(i)) return false;
    }
  }
  for (std::size_t t = 0; t < corners_.size(); ++t)
    if (bool(seen[t]) != alive(std::uint32_t(t))) return false;
  return true;
}

std::int32_t FreeSpaceTriangulation::locate(Point p) const {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || corners_.empty()) return -1;
  const Cdt& cdt = cgal_->cdt;
  const P2 q(p.x, p.y);
  Cdt::Locate_type lt;
  int li = 0;
  Face_handle f = cdt.locate(q, lt, li, cgal_->hint_for(p.x, p.y));
  switch (lt) {
    case Cdt::FACE:
      return f->info().id;
    case Cdt::EDGE:
      return f->info().id >= 0 ? f->info().id : f->neighbor(li)->info().id;
    case Cdt::VERTEX:
      return cgal_->face_at_vertex(f->vertex(li));
    default:  // outside the convex hull
      return -1;
  }
}

int FreeSpaceTriangulation::orientation(Point a, Point b, Point c) {
  return int(CGAL::orientation(P2(a.x, a.y), P2(b.x, b.y), P2(c.x, c.y)));
}

std::size_t FreeSpaceTriangulation::memory_bytes() const {
  const auto& tds = cgal_->cdt.tds();
  return tds.faces().capacity() * sizeof(Tds::Face) + tds.vertices().capacity() * sizeof(Tds::Vertex) +
         cgal_->hint.capacity() * 4 + cgal_->vh.capacity() * sizeof(Cdt::Vertex_handle) + cgal_->upd.state.capacity() +
         (cgal_->upd.free_points.capacity() + cgal_->upd.free_ids.capacity()) * 4 + points_.capacity() * sizeof(Point) +
         corners_.capacity() * sizeof(corners_[0]) + neighbors_.capacity() * sizeof(neighbors_[0]) +
         component_.capacity() * sizeof(std::int32_t);
}

}  // namespace navbench
