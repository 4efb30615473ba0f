// The two graphs over the triangulated free space on a changing map (docs/changing-maps.md) (no CGAL here: see triangulation*.cpp).
#include "representations/navmesh/navmesh.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "representations/navmesh/internal.hpp"

namespace navbench {

using navmesh_detail::dist;

namespace {
// Which corner (0, 1, 2) of triangle t point `corner` is.
int corner_slot(const FreeSpaceTriangulation& tri, std::uint32_t t, std::uint32_t corner) {
  const auto& c = tri.corners(t);
  return c[0] == corner ? 0 : c[1] == corner ? 1 : 2;
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// NavMesh

bool NavMesh::update(const Map& map, const std::vector<CellChange>& changed) {
  if (map.kind != MapKind::grid || changed.size() * 4 > map.grid.cells.size()) return false;
  if (!tri_.update(map.grid, changed)) return false;
  if (merge_) {
    derive_cells();
    build_graph();
    return true;
  }
  const auto& d = tri_.delta();
  const std::size_t T = tri_.num_triangles();
  if (cell_of_.size() < T) {  // new triangle ids: their cells and slots
    const std::size_t old = cell_of_.size();
    cell_of_.resize(T);
    std::iota(cell_of_.begin() + std::ptrdiff_t(old), cell_of_.end(), std::int32_t(old));
    cell_begin_.resize(T + 1);
    cell_portal_begin_.resize(T + 1);
    cell_portal_end_.resize(T);
    for (std::size_t t = old; t <= T; ++t) cell_begin_[t] = cell_portal_begin_[t] = std::uint32_t(3 * t);
    for (std::size_t t = old; t < T; ++t) cell_portal_end_[t] = std::uint32_t(3 * t);
    cell_verts_.resize(3 * T);
    cell_portals_.resize(3 * T, CsrGraph::null_vertex());
  }
  auto drop = [&](std::uint32_t c, Vertex p) {
    for (std::uint32_t i = cell_portal_begin_[c]; i < cell_portal_end_[c]; ++i)
      if (cell_portals_[i] == p) {
        cell_portals_[i] = cell_portals_[--cell_portal_end_[c]];
        return;
      }
  };
  // 1. The portals of removed (or changed) triangles go; the rows of the other portals of their
  // neighbour cells lose them.
  std::vector<Vertex>& rows = scratch_;
  rows.clear();
  for (const std::uint32_t t : d.removed) {
    for (std::uint32_t i = cell_portal_begin_[t]; i < cell_portal_end_[t]; ++i) {
      const Vertex p = cell_portals_[i];
      const std::uint32_t u = std::uint32_t(portals_[p].from == std::int32_t(t) ? portals_[p].to : portals_[p].from);
      drop(u, p);
      rows.insert(rows.end(), cell_portals_.begin() + cell_portal_begin_[u], cell_portals_.begin() + cell_portal_end_[u]);
      graph_.remove_vertex(p);
      portals_[p].from = portals_[p].to = -1;
    }
    cell_portal_end_[t] = cell_portal_begin_[t];
  }
  for (const Vertex q : rows)
    if (portals_[q].from >= 0) graph_.filter_out_edges(q, [&](Vertex w) { return portals_[w].from >= 0; });
  // 2. The portals of new (or changed) triangles, then their graph edges to the other portals of
  // both their cells.
  rows.clear();
  for (const std::uint32_t t : d.added)
    for (int i = 0; i < 3; ++i) cell_verts_[3 * t + i] = tri_.corners(t)[i];
  for (const std::uint32_t t : d.added)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = tri_.neighbor(t, i);
      if (u < 0) continue;
      bool have = false;
      for (std::uint32_t k = cell_portal_begin_[t]; k < cell_portal_end_[t]; ++k) {
        const PortalInfo& q = portals_[cell_portals_[k]];
        have |= q.from == u || q.to == u;
      }
      if (have) continue;
      if (cell_portal_end_[t] - cell_portal_begin_[t] >= 3 || cell_portal_end_[std::size_t(u)] - cell_portal_begin_[std::size_t(u)] >= 3)
        throw std::logic_error("navmesh update: a triangle with more than three portals");
      const Vertex p = graph_.add_vertex();
      if (p >= portals_.size()) portals_.resize(p + 1), pos_.resize(p + 1);
      portals_[p] = edge_portal(t, i, std::int32_t(t), u);
      pos_[p] = portal_mid(portals_[p]);
      cell_portals_[cell_portal_end_[t]++] = p;
      cell_portals_[cell_portal_end_[std::size_t(u)]++] = p;
      rows.push_back(p);
    }
  fresh_.resize(portals_.size(), 0);
  for (const Vertex p : rows) fresh_[p] = 1;
  for (const Vertex p : rows)
    for (const std::int32_t c : {portals_[p].from, portals_[p].to})
      for (std::uint32_t k = cell_portal_begin_[std::size_t(c)]; k < cell_portal_end_[std::size_t(c)]; ++k) {
        const Vertex q = cell_portals_[k];
        if (q == p || (fresh_[q] && q < p)) continue;  // a pair of new portals once
        const double w = dist(pos_[p], pos_[q]);
        graph_.append_out_edges(p, &q, &w, 1);
        graph_.append_out_edges(q, &p, &w, 1);
      }
  for (const Vertex p : rows) fresh_[p] = 0;
  return true;
}

// ---------------------------------------------------------------------------------------------
// NavMeshVertices

// Point a's fans and owner (as the constructor: the fan locate() picks), its vertex (made, or
// listed in `lost` when no triangle is left around it), and its corner slots in the triangles
// around it. around: scratch.
void NavMeshVertices::refan_point(std::uint32_t a, std::vector<std::int32_t>& around, std::vector<Vertex>& lost) {
  const auto& pts = tri_.points();
  const Vertex none = CsrGraph::null_vertex();
  auto slot = [&](std::uint32_t t, std::uint32_t corner) { return corner_slot(tri_, t, corner); };
  tri_.triangles_around(a, around);
  const auto gap = std::find(around.begin(), around.end(), -1);
  const bool any = std::any_of(around.begin(), around.end(), [](std::int32_t t) { return t >= 0; });
  Vertex& v = vertex_of_point_[a];
  if (!any) {
    if (v != none) lost.push_back(v), v = none;
    return;
  }
  if (v == none) {
    v = graph_.add_vertex();
    if (v >= pos_.size()) pos_.resize(v + 1), point_of_vertex_.resize(v + 1);
    point_of_vertex_[v] = a;
  }
  pos_[v] = pts[a];
  // Fans: maximal runs of triangles between non-domain faces; more than one = a pinch point.
  std::rotate(around.begin(), gap, around.end());
  std::size_t fans = 0;
  for (std::size_t i = 0; i < around.size(); ++i)
    fans += around[i] >= 0 && (i == 0 || around[i - 1] < 0);
  std::int32_t owner = -1;
  if (fans > 1) owner = tri_.locate(pts[a]);
  bool in_owner = false;
  for (std::size_t i = 0; i < around.size(); ++i) {
    const std::int32_t t = around[i];
    if (t < 0) continue;
    if (i == 0 || around[i - 1] < 0) {  // a fan starts: is the owner in it?
      in_owner = fans <= 1;
      for (std::size_t j = i; j < around.size() && around[j] >= 0 && !in_owner; ++j) in_owner = around[j] == owner;
    }
    corner_vertex_[std::size_t(t)][slot(std::uint32_t(t), a)] = in_owner ? v : none;
  }
}

// The corners of the triangles the triangulation update removed or made are the points whose fans
// may have changed: each gets its fans, pinch owner (as the constructor: the fan locate() picks)
// and graph row again; the rows of their unchanged neighbours gain or lose just the edges to them.
bool NavMeshVertices::update(const Map& map, const std::vector<CellChange>& changed) {
  if (map.kind != MapKind::grid || changed.size() * 4 > map.grid.cells.size()) return false;
  if (!tri_.update(map.grid, changed)) return false;
  const auto& d = tri_.delta();
  const auto& pts = tri_.points();
  const Vertex none = CsrGraph::null_vertex();
  const std::size_t T = tri_.num_triangles();
  corner_vertex_.resize(T, {none, none, none});
  vertex_of_point_.resize(pts.size(), none);
  for (const std::uint32_t t : d.removed) corner_vertex_[t] = {none, none, none};
  // The affected points, each once.
  std::vector<std::uint32_t> P;
  in_p_.resize(pts.size(), 0);
  auto add = [&](std::uint32_t c) {
    if (c < pts.size() && !in_p_[c]) in_p_[c] = 1, P.push_back(c);
  };
  for (const auto& cs : d.removed_corners)
    for (const std::uint32_t c : cs) add(c);
  for (const std::uint32_t t : d.added)
    for (const std::uint32_t c : tri_.corners(t)) add(c);
  // Their old rows (targets), before anything changes.
  std::vector<std::uint32_t> old_begin(P.size() + 1, 0);
  std::vector<Vertex> old_targets, old_v(P.size());
  for (std::size_t k = 0; k < P.size(); ++k) {
    const Vertex v = old_v[k] = vertex_of_point_[P[k]];
    if (v != none)
      for (auto [it, end] = out_edges(v, graph_); it != end; ++it) old_targets.push_back(target(*it, graph_));
    old_begin[k + 1] = std::uint32_t(old_targets.size());
  }
  // Fans and owner of every affected point; its corner slots in the triangles around it.
  std::vector<std::int32_t> around;
  std::vector<Vertex> lost;  // graph vertices of points that have no triangle any more
  auto slot = [&](std::uint32_t t, std::uint32_t corner) { return corner_slot(tri_, t, corner); };
  for (const std::uint32_t a : P) refan_point(a, around, lost);
  // New rows: the triangle edges at a's vertex whose other end has a vertex in that triangle.
  std::vector<Vertex> nt;
  std::vector<double> nw;
  std::vector<Vertex> fresh_targets;
  std::vector<std::uint32_t> fresh_begin(P.size() + 1, 0);
  for (std::size_t k = 0; k < P.size(); ++k) {
    const std::uint32_t a = P[k];
    const Vertex v = vertex_of_point_[a];
    if (v != none) {
      tri_.triangles_around(a, around);
      for (const std::int32_t t : around) {
        if (t < 0) continue;
        const int i = slot(std::uint32_t(t), a);
        if (corner_vertex_[std::size_t(t)][i] != v) continue;
        for (const int j : {(i + 1) % 3, (i + 2) % 3}) {
          const Vertex w = corner_vertex_[std::size_t(t)][j];
          if (w != none && std::find(fresh_targets.begin() + fresh_begin[k], fresh_targets.end(), w) == fresh_targets.end())
            fresh_targets.push_back(w);
        }
      }
    }
    fresh_begin[k + 1] = std::uint32_t(fresh_targets.size());
  }
  // Apply: affected rows replaced; unaffected neighbours lose or gain the edge to a.
  for (std::size_t k = 0; k < P.size(); ++k) {
    const std::uint32_t a = P[k];
    const Vertex v = vertex_of_point_[a];
    const auto ob = old_targets.begin() + old_begin[k], oe = old_targets.begin() + old_begin[k + 1];
    const auto nb = fresh_targets.begin() + fresh_begin[k], ne = fresh_targets.begin() + fresh_begin[k + 1];
    const Vertex was = old_v[k];
    for (auto it = ob; it != oe; ++it) {
      const Vertex w = *it;
      if (in_p_[point_of_vertex_[w]] || std::find(nb, ne, w) != ne) continue;
      graph_.filter_out_edges(w, [&](Vertex x) { return x != was; });
    }
    if (v == none) continue;
    nt.assign(nb, ne);
    nw.clear();
    for (const Vertex w : nt) nw.push_back(dist(pos_[v], pos_[w]));
    graph_.set_out_edges(v, nt.data(), nw.data(), nt.size());
    for (auto it = nb; it != ne; ++it) {
      const Vertex w = *it;
      if (in_p_[point_of_vertex_[w]] || std::find(ob, oe, w) != oe) continue;
      const double wt = dist(pos_[v], pos_[w]);
      graph_.append_out_edges(w, &v, &wt, 1);
    }
  }
  for (const Vertex v : lost) graph_.remove_vertex(v);
  for (const std::uint32_t c : P) in_p_[c] = 0;
  return true;
}

}  // namespace navbench
