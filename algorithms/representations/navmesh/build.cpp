// The two graphs over the triangulated free space, their build (no CGAL here: see triangulation*.cpp).
#include "representations/navmesh/navmesh.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <boost/graph/graph_concepts.hpp>

#include "representations/navmesh/internal.hpp"
#include "representations/union_find.hpp"

namespace navbench {

using navmesh_detail::dist;

static_assert(Representation<NavMesh> && Representation<NavMeshVertices>);  // declared features: make_entry checks them

// ---------------------------------------------------------------------------------------------
// NavMesh

NavMesh::NavMesh(const Map& map, Params& params)
    : merge_(params.flag(param(kParams, "merge"))), tri_((params.finish("navmesh"), map)) {
  // (params.finish runs before the triangulation is built: a bad key costs nothing)
  price_on(map);  // docs/terrain.md: on a weighted map edges and links cost their integral
  derive_cells();
  build_graph();
}

void NavMesh::derive_cells() {
  const std::size_t T = tri_.num_triangles();
  if (merge_) {
    // Hertel-Mehlhorn over the live triangles (all of them but after an update).
    std::vector<std::int32_t> idx(T, -1);
    std::vector<std::array<std::uint32_t, 3>> cs;
    std::vector<std::array<std::int32_t, 3>> ns;
    std::uint32_t n = 0;
    for (std::uint32_t t = 0; t < T; ++t)
      if (tri_.alive(t)) idx[t] = std::int32_t(n++);
    const bool compact = n == T;
    if (!compact) {
      cs.reserve(n), ns.reserve(n);
      for (std::uint32_t t = 0; t < T; ++t) {
        if (idx[t] < 0) continue;
        cs.push_back(tri_.corners(t));
        std::array<std::int32_t, 3> nb;
        for (int i = 0; i < 3; ++i) nb[i] = tri_.neighbor(t, i) >= 0 ? idx[std::size_t(tri_.neighbor(t, i))] : -1;
        ns.push_back(nb);
      }
    }
    ConvexCells m = compact ? merge_convex(tri_.all_corners(), tri_.all_neighbors(), tri_.points())
                            : merge_convex(cs, ns, tri_.points());
    cell_of_.assign(T, -1);
    for (std::uint32_t t = 0; t < T; ++t)
      if (idx[t] >= 0) cell_of_[t] = m.cell_of[std::size_t(idx[t])];
    cell_begin_ = std::move(m.begin);
    cell_verts_ = std::move(m.verts);
    cell_verts_.shrink_to_fit();
    cell_component_.assign(num_cells(), -1);
    for (std::uint32_t t = 0; t < T; ++t)
      if (cell_of_[t] >= 0) cell_component_[std::size_t(cell_of_[t])] = tri_.component(t);
    return;
  }
  cell_of_.resize(T);
  std::iota(cell_of_.begin(), cell_of_.end(), 0);
  cell_begin_.resize(T + 1);
  cell_verts_.resize(3 * T);
  for (std::uint32_t t = 0; t < T; ++t) {
    cell_begin_[t] = 3 * t;
    for (int i = 0; i < 3; ++i) cell_verts_[3 * t + i] = tri_.corners(t)[i];
  }
  cell_begin_[T] = std::uint32_t(3 * T);
}

// Hertel & Mehlhorn (1983): drop a diagonal between two convex cells whenever their union is still
// convex, i.e. the angles at both ends of the diagonal stay <= 180 degrees. The result has at most
// four times the minimum number of convex pieces. Longest diagonals go first, which favours fat
// cells (the same greedy order as Recast's polygon merging, which merges along the longest edge).
ConvexCells merge_convex(const std::vector<std::array<std::uint32_t, 3>>& corners,
                         const std::vector<std::array<std::int32_t, 3>>& neighbors, const std::vector<Point>& pts) {
  const std::size_t T = corners.size();
  std::vector<std::vector<std::uint32_t>> poly(T);
  for (std::uint32_t t = 0; t < T; ++t) poly[t] = {corners[t][0], corners[t][1], corners[t][2]};
  std::vector<std::uint32_t> parent(T);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  struct Diagonal {
    double len2;
    std::uint32_t t;
    int i;
  };
  std::vector<Diagonal> diagonals;
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = neighbors[t][i];
      if (u <= std::int32_t(t)) continue;
      const Point a = pts[corners[t][(i + 1) % 3]], b = pts[corners[t][(i + 2) % 3]];
      diagonals.push_back({(a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y), t, i});
    }
  std::stable_sort(diagonals.begin(), diagonals.end(), [](const Diagonal& x, const Diagonal& y) { return x.len2 > y.len2; });

  // The corner prev -> at -> next of a counter-clockwise polygon is at most 180 degrees. Straight
  // (180) is fine; a collinear fold back (0 / 360: both cells have a straight angle at `at`, the
  // union would keep a slit) is not.
  auto convex_corner = [](Point prev, Point at, Point next) {
    const int o = FreeSpaceTriangulation::orientation(prev, at, next);
    return o > 0 || (o == 0 && (prev.x - at.x) * (next.x - at.x) + (prev.y - at.y) * (next.y - at.y) < 0);
  };
  std::vector<std::uint32_t> merged;
  for (const Diagonal& d : diagonals) {
    const std::uint32_t P = find(d.t), Q = find(std::uint32_t(neighbors[d.t][d.i]));
    if (P == Q) continue;
    const std::uint32_t a = corners[d.t][(d.i + 1) % 3], b = corners[d.t][(d.i + 2) % 3];
    auto& p = poly[P];
    auto& q = poly[Q];
    const std::size_t n = p.size(), m = q.size();
    // P runs a -> b along the diagonal (counter-clockwise), Q runs b -> a.
    const std::size_t ia = std::size_t(std::find(p.begin(), p.end(), a) - p.begin());
    const std::size_t jb = std::size_t(std::find(q.begin(), q.end(), b) - q.begin());
    if (ia == n || jb == m || p[(ia + 1) % n] != b || q[(jb + 1) % m] != a)
      throw std::logic_error("navmesh: inconsistent cell boundary while merging");
    const std::uint32_t p_before_a = p[(ia + n - 1) % n], p_after_b = p[(ia + 2) % n];
    const std::uint32_t q_before_b = q[(jb + m - 1) % m], q_after_a = q[(jb + 2) % m];
    if (!convex_corner(pts[p_before_a], pts[a], pts[q_after_a]) || !convex_corner(pts[q_before_b], pts[b], pts[p_after_b]))
      continue;  // a reflex angle would appear: the diagonal is essential
    merged.clear();
    for (std::size_t k = 0; k < n; ++k) merged.push_back(p[(ia + 1 + k) % n]);      // b ... a along P
    for (std::size_t k = 2; k < m; ++k) merged.push_back(q[(jb + k) % m]);          // after a ... before b along Q
    p.swap(merged);
    std::vector<std::uint32_t>().swap(q);
    parent[Q] = P;
  }

  // Compact the surviving cells.
  ConvexCells out;
  std::vector<std::int32_t> id(T, -1);
  out.begin.assign(1, 0);
  for (std::uint32_t t = 0; t < T; ++t) {
    if (find(t) != t) continue;
    id[t] = std::int32_t(out.begin.size() - 1);
    out.verts.insert(out.verts.end(), poly[t].begin(), poly[t].end());
    out.begin.push_back(std::uint32_t(out.verts.size()));
  }
  out.cell_of.resize(T);
  for (std::uint32_t t = 0; t < T; ++t) out.cell_of[t] = id[find(t)];
  return out;
}

void NavMesh::build_graph() {
  const std::size_t T = tri_.num_triangles(), C = num_cells();
  // Portals: triangle edges between two different cells, each once.
  portals_.clear();
  pos_.clear();
  portals_.reserve(3 * T / 2);
  pos_.reserve(3 * T / 2);
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = tri_.neighbor(t, i);
      if (u <= std::int32_t(t) || cell_of_[t] == cell_of_[u]) continue;
      const PortalInfo p = edge_portal(t, i, cell_of_[t], cell_of_[u]);
      portals_.push_back(p);
      pos_.push_back(portal_mid(p));
    }
  portals_.shrink_to_fit();
  pos_.shrink_to_fit();
  // Cell -> its portals: packed with merge=1, three slots a triangle without (update() edits them).
  cell_portal_begin_.assign(C + 1, 0);
  cell_portal_end_.assign(C, 0);
  for (const auto& p : portals_) ++cell_portal_end_[std::size_t(p.from)], ++cell_portal_end_[std::size_t(p.to)];
  for (std::size_t c = 0; c < C; ++c) {
    const std::uint32_t k = cell_portal_end_[c];
    cell_portal_begin_[c + 1] = merge_ ? cell_portal_begin_[c] + k : std::uint32_t(3 * (c + 1));
    cell_portal_end_[c] = cell_portal_begin_[c];
  }
  cell_portals_.assign(cell_portal_begin_[C], CsrGraph::null_vertex());
  for (Vertex v = 0; v < Vertex(portals_.size()); ++v) {
    cell_portals_[cell_portal_end_[std::size_t(portals_[v].from)]++] = v;
    cell_portals_[cell_portal_end_[std::size_t(portals_[v].to)]++] = v;
  }
  // Two portals of one cell see each other (the cell is convex).
  std::vector<CsrGraph::WeightedEdge> edges;
  std::size_t pairs = 0;
  for (std::size_t c = 0; c < C; ++c) {
    const std::size_t k = cell_portal_end_[c] - cell_portal_begin_[c];
    pairs += k * (k - 1) / 2;
  }
  edges.reserve(pairs);
  for (std::size_t c = 0; c < C; ++c)
    for (std::uint32_t i = cell_portal_begin_[c]; i < cell_portal_end_[c]; ++i)
      for (std::uint32_t j = i + 1; j < cell_portal_end_[c]; ++j) {
        const Vertex a = cell_portals_[i], b = cell_portals_[j];
        edges.push_back({a, b, weighted_ ? segment_cost(pos_[a], pos_[b]) : dist(pos_[a], pos_[b])});
      }
  graph_ = CsrGraph(portals_.size(), std::move(edges));
}

// ---------------------------------------------------------------------------------------------
// NavMeshVertices

NavMeshVertices::NavMeshVertices(const Map& map, Params& params)
    : tri_((params.finish("navmesh-vertices"), map)) {
  price_on(map);  // docs/terrain.md: on a weighted map edges and links cost their integral
  const std::size_t T = tri_.num_triangles();
  const auto& pts = tri_.points();
  // Corner slots (t, i) of one triangulation vertex are united across every shared edge at that
  // vertex: each resulting class is one fan of free triangles around the vertex, and fans split by
  // obstacles (a pinch point) stay apart.
  UnionFind fans(3 * T);
  auto find = [&](std::uint32_t x) { return std::uint32_t(fans.find(std::int32_t(x))); };
  auto slot = [&](std::uint32_t t, std::uint32_t corner) {
    const auto& c = tri_.corners(t);
    return 3 * t + std::uint32_t(c[0] == corner ? 0 : c[1] == corner ? 1 : 2);
  };
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = tri_.neighbor(t, i);
      if (u <= std::int32_t(t)) continue;
      for (int k : {(i + 1) % 3, (i + 2) % 3}) {
        fans.unite(std::int32_t(3 * t + std::uint32_t(k)), std::int32_t(slot(std::uint32_t(u), tri_.corners(t)[k])));
      }
    }
  // At a pinch point only the fan that owns the point (FreeSpace's rule, the fan locate() picks) is
  // a waypoint: a path may touch a pinch point only from that side (docs/maps.md, free_space.hpp). The
  // other fans get no vertex there; their triangles keep their other corners (on grid maps a
  // triangle never has all three corners on the non-owning side of pinches, nor an edge with both
  // ends so, so no connection is lost).
  const std::uint32_t none = ~std::uint32_t(0);
  std::vector<std::uint32_t> fan_root(pts.size(), none);  // root of the first fan seen at a point
  std::vector<std::uint8_t> pinched(pts.size(), 0);
  for (std::uint32_t s = 0; s < 3 * T; ++s) {
    const std::uint32_t c = tri_.corners(s / 3)[s % 3], r = find(s);
    if (fan_root[c] == none) fan_root[c] = r;
    else if (fan_root[c] != r) pinched[c] = 1;
  }
  for (std::uint32_t c = 0; c < pts.size(); ++c) {
    if (!pinched[c]) continue;
    const std::int32_t t = tri_.locate(pts[c]);
    fan_root[c] = t >= 0 ? find(slot(std::uint32_t(t), c)) : none;
  }
  std::vector<Vertex> id(3 * T, CsrGraph::null_vertex());
  corner_vertex_.resize(T);
  vertex_of_point_.assign(pts.size(), CsrGraph::null_vertex());
  for (std::uint32_t s = 0; s < 3 * T; ++s) {
    const std::uint32_t c = tri_.corners(s / 3)[s % 3], r = find(s);
    if (pinched[c] && r != fan_root[c]) {
      corner_vertex_[s / 3][s % 3] = CsrGraph::null_vertex();
      continue;
    }
    if (id[r] == CsrGraph::null_vertex()) {
      id[r] = Vertex(pos_.size());
      pos_.push_back(pts[c]);
      point_of_vertex_.push_back(c);
      vertex_of_point_[c] = id[r];
    }
    corner_vertex_[s / 3][s % 3] = id[r];
  }
  pos_.shrink_to_fit();
  // Every triangle edge once: an edge shared by two free triangles is listed by the lower id.
  std::vector<CsrGraph::WeightedEdge> edges;
  edges.reserve(3 * T);
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = tri_.neighbor(t, i);
      if (u >= 0 && u < std::int32_t(t)) continue;
      const Vertex a = corner_vertex_[t][(i + 1) % 3], b = corner_vertex_[t][(i + 2) % 3];
      if (a != CsrGraph::null_vertex() && b != CsrGraph::null_vertex())
        edges.push_back({a, b, weighted_ ? segment_cost(pos_[a], pos_[b]) : dist(pos_[a], pos_[b])});
    }
  graph_ = CsrGraph(pos_.size(), std::move(edges));
}

}  // namespace navbench
