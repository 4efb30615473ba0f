// The two graphs over the triangulated free space (no CGAL here: see triangulation.cpp).
#include "representations/navmesh/navmesh.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <boost/graph/graph_concepts.hpp>

#include "representations/union_find.hpp"

namespace navbench {

namespace {
// Euclidean length without std::hypot's overflow care (coordinates are map units): a third of the
// graph build on large maps went to hypot.
inline double dist(Point a, Point b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); }
}  // namespace

static_assert(Representation<NavMesh> && HasCorridor<NavMesh>);
static_assert(Representation<NavMeshVertices>);

// ---------------------------------------------------------------------------------------------
// CsrGraph


// ---------------------------------------------------------------------------------------------
// NavMesh

NavMesh::NavMesh(const Map& map, Params& params)
    : merge_(params.get_bool("merge", false)), tri_((params.finish("navmesh"), map)) {
  // (params.finish runs before the triangulation is built: a bad key costs nothing)
  const std::size_t T = tri_.num_triangles();
  cell_of_.resize(T);
  std::iota(cell_of_.begin(), cell_of_.end(), 0);
  cell_begin_.resize(T + 1);
  cell_verts_.resize(3 * T);
  for (std::uint32_t t = 0; t < T; ++t) {
    cell_begin_[t] = 3 * t;
    for (int i = 0; i < 3; ++i) cell_verts_[3 * t + i] = tri_.corners(t)[i];
  }
  cell_begin_[T] = std::uint32_t(3 * T);
  if (merge_) merge_cells();
  cell_component_.resize(num_cells());
  for (std::uint32_t t = 0; t < T; ++t) cell_component_[cell_of_[t]] = tri_.component(t);
  build_graph();
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

void NavMesh::merge_cells() {
  ConvexCells m = merge_convex(tri_.all_corners(), tri_.all_neighbors(), tri_.points());
  cell_of_ = std::move(m.cell_of);
  cell_begin_ = std::move(m.begin);
  cell_verts_ = std::move(m.verts);
  cell_verts_.shrink_to_fit();
}

void NavMesh::build_graph() {
  const std::size_t T = tri_.num_triangles(), C = num_cells();
  const auto& pts = tri_.points();
  // Portals: triangle edges between two different cells, each once.
  portals_.reserve(3 * T / 2);
  mid_.reserve(3 * T / 2);
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = tri_.neighbor(t, i);
      if (u <= std::int32_t(t) || cell_of_[t] == cell_of_[u]) continue;
      // seen from inside t, corner i then (i+1) then (i+2) turn left: (i+1) is on the right
      const PortalInfo p{cell_of_[t], cell_of_[u], tri_.corners(t)[(i + 1) % 3], tri_.corners(t)[(i + 2) % 3]};
      portals_.push_back(p);
      mid_.push_back({(pts[p.right].x + pts[p.left].x) / 2, (pts[p.right].y + pts[p.left].y) / 2});
    }
  portals_.shrink_to_fit();
  mid_.shrink_to_fit();
  // Cell -> its portals.
  cell_portal_begin_.assign(C + 1, 0);
  for (const auto& p : portals_) ++cell_portal_begin_[p.from + 1], ++cell_portal_begin_[p.to + 1];
  std::partial_sum(cell_portal_begin_.begin(), cell_portal_begin_.end(), cell_portal_begin_.begin());
  cell_portals_.resize(cell_portal_begin_[C]);
  std::vector<std::uint32_t> fill(cell_portal_begin_.begin(), cell_portal_begin_.end() - 1);
  for (Vertex v = 0; v < Vertex(portals_.size()); ++v) {
    cell_portals_[fill[portals_[v].from]++] = v;
    cell_portals_[fill[portals_[v].to]++] = v;
  }
  // Two portals of one cell see each other (the cell is convex).
  std::vector<CsrGraph::WeightedEdge> edges;
  std::size_t pairs = 0;
  for (std::size_t c = 0; c < C; ++c) {
    const std::size_t k = cell_portal_begin_[c + 1] - cell_portal_begin_[c];
    pairs += k * (k - 1) / 2;
  }
  edges.reserve(pairs);
  for (std::size_t c = 0; c < C; ++c)
    for (std::uint32_t i = cell_portal_begin_[c]; i < cell_portal_begin_[c + 1]; ++i)
      for (std::uint32_t j = i + 1; j < cell_portal_begin_[c + 1]; ++j) {
        const Vertex a = cell_portals_[i], b = cell_portals_[j];
        edges.push_back({a, b, dist(mid_[a], mid_[b])});
      }
  graph_ = CsrGraph(portals_.size(), std::move(edges));
}

std::optional<Attachment> NavMesh::attach(Point p) const {
  const std::int32_t t = tri_.locate(p);
  if (t < 0) return std::nullopt;
  const std::int32_t c = cell_of_[t];
  Attachment a;
  a.cell = c;
  a.component = cell_component_[c];
  a.links.reserve(cell_portal_begin_[c + 1] - cell_portal_begin_[c]);
  for (std::uint32_t i = cell_portal_begin_[c]; i < cell_portal_begin_[c + 1]; ++i)
    a.links.push_back({cell_portals_[i], dist(p, mid_[cell_portals_[i]])});
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
  s.vertices = num_vertices(graph_);
  s.edges = graph_.num_edges();
  s.memory_bytes = tri_.memory_bytes() + graph_.memory_bytes() + cell_of_.capacity() * 4 + cell_begin_.capacity() * 4 +
                   cell_verts_.capacity() * 4 + cell_component_.capacity() * 4 + cell_portal_begin_.capacity() * 4 +
                   cell_portals_.capacity() * sizeof(Vertex) + portals_.capacity() * sizeof(PortalInfo) +
                   mid_.capacity() * sizeof(Point);
  return s;
}

// ---------------------------------------------------------------------------------------------
// NavMeshVertices

NavMeshVertices::NavMeshVertices(const Map& map, Params& params)
    : tri_((params.finish("navmesh-vertices"), map)) {
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
  // a waypoint: a path may touch a pinch point only from that side (SPEC §1, free_space.hpp). The
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
  for (std::uint32_t s = 0; s < 3 * T; ++s) {
    const std::uint32_t c = tri_.corners(s / 3)[s % 3], r = find(s);
    if (pinched[c] && r != fan_root[c]) {
      corner_vertex_[s / 3][s % 3] = CsrGraph::null_vertex();
      continue;
    }
    if (id[r] == CsrGraph::null_vertex()) {
      id[r] = Vertex(pos_.size());
      pos_.push_back(pts[c]);
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
      if (a != CsrGraph::null_vertex() && b != CsrGraph::null_vertex()) edges.push_back({a, b, dist(pos_[a], pos_[b])});
    }
  graph_ = CsrGraph(pos_.size(), std::move(edges));
}

std::optional<Attachment> NavMeshVertices::attach(Point p) const {
  const std::int32_t t = tri_.locate(p);
  if (t < 0) return std::nullopt;
  Attachment a;
  a.cell = t;
  a.component = tri_.component(std::uint32_t(t));
  for (Vertex v : corner_vertex_[t])
    if (v != CsrGraph::null_vertex()) a.links.push_back({v, dist(p, pos_[v])});
  return a;
}

BuildStats NavMeshVertices::stats() const {
  BuildStats s;
  s.vertices = num_vertices(graph_);
  s.edges = graph_.num_edges();
  s.memory_bytes = tri_.memory_bytes() + graph_.memory_bytes() + corner_vertex_.capacity() * sizeof(corner_vertex_[0]) +
                   pos_.capacity() * sizeof(Point);
  return s;
}

}  // namespace navbench
