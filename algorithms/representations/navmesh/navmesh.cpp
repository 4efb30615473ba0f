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

static_assert(Representation<NavMesh> && Representation<NavMeshVertices>);  // declared features: make_entry checks them

// ---------------------------------------------------------------------------------------------
// CsrGraph


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
  auto slot = [&](std::uint32_t t, std::uint32_t corner) {
    const auto& c = tri_.corners(t);
    return c[0] == corner ? 0 : c[1] == corner ? 1 : 2;
  };
  for (const std::uint32_t a : P) {
    tri_.triangles_around(a, around);
    const auto gap = std::find(around.begin(), around.end(), -1);
    const bool any = std::any_of(around.begin(), around.end(), [](std::int32_t t) { return t >= 0; });
    Vertex& v = vertex_of_point_[a];
    if (!any) {
      if (v != none) lost.push_back(v), v = none;
      continue;
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
