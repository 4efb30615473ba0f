#include "representations/meshfile/meshfile.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/exact.hpp"
#include "representations/navmesh/navmesh.hpp"  // corridor_through_portals (a template: no link)
#include "representations/union_find.hpp"

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
  const auto& polys = polygons_;
  const auto& verts = vertices_;
  cell_portals_.resize(polys.size());
  UnionFind uf(polys.size());
  // One portal per shared edge, made from the lower-numbered polygon's side: its edge i runs
  // counter-clockwise from corner i to corner i + 1, so crossing out of it corner i is on the right.
  for (std::uint32_t p = 0; p < polys.size(); ++p) {
    const auto& vs = polys[p];
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const std::int32_t q = neighbours_[p][i];
      if (q <= std::int32_t(p)) continue;  // none, or made from q's side
      const Portal portal{p, std::uint32_t(q), vs[i], vs[(i + 1) % vs.size()]};
      const Vertex v = Vertex(portals_.size());
      portals_.push_back(portal);
      pos_.push_back({(verts[portal.right].x + verts[portal.left].x) / 2, (verts[portal.right].y + verts[portal.left].y) / 2});
      cell_portals_[p].push_back(v);
      cell_portals_[std::size_t(q)].push_back(v);
      uf.unite(p, std::size_t(q));
    }
  }
  component_.resize(polys.size());
  for (std::size_t c = 0; c < polys.size(); ++c) component_[c] = std::int32_t(uf.find(c));
  // Two portals of one convex polygon see each other.
  std::vector<CsrGraph::WeightedEdge> edges;
  for (const auto& ps : cell_portals_)
    for (std::size_t i = 0; i < ps.size(); ++i)
      for (std::size_t j = i + 1; j < ps.size(); ++j) edges.push_back({ps[i], ps[j], distance(pos_[ps[i]], pos_[ps[j]])});
  graph_ = CsrGraph(portals_.size(), std::move(edges));
  build_buckets();
}

void MeshFile::build_buckets() {
  const auto& polys = polygons_;
  const auto& verts = vertices_;
  double minx = 1e300, miny = 1e300, maxx = -1e300, maxy = -1e300;
  for (const Point& c : verts)
    minx = std::min(minx, c.x), miny = std::min(miny, c.y), maxx = std::max(maxx, c.x), maxy = std::max(maxy, c.y);
  origin_ = {minx, miny};
  // Buckets about four polygons wide on average.
  const double area = std::max(1e-9, (maxx - minx) * (maxy - miny));
  bucket_ = std::max(1e-6, std::sqrt(4 * area / double(std::max<std::size_t>(1, polys.size()))));
  bw_ = std::max(1, int(std::ceil((maxx - minx) / bucket_)) + 1);
  bh_ = std::max(1, int(std::ceil((maxy - miny) / bucket_)) + 1);
  std::vector<std::vector<std::uint32_t>> lists(std::size_t(bw_) * std::size_t(bh_));
  for (std::uint32_t i = 0; i < polys.size(); ++i) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (std::uint32_t k : polys[i]) {
      const Point& c = verts[k];
      x0 = std::min(x0, c.x), y0 = std::min(y0, c.y), x1 = std::max(x1, c.x), y1 = std::max(y1, c.y);
    }
    const int bx0 = int((x0 - minx) / bucket_), bx1 = int((x1 - minx) / bucket_);
    const int by0 = int((y0 - miny) / bucket_), by1 = int((y1 - miny) / bucket_);
    for (int by = by0; by <= by1; ++by)
      for (int bx = bx0; bx <= bx1; ++bx) lists[std::size_t(by) * std::size_t(bw_) + std::size_t(bx)].push_back(i);
  }
  bucket_begin_.push_back(0);
  for (const auto& l : lists) {
    bucket_polys_.insert(bucket_polys_.end(), l.begin(), l.end());
    bucket_begin_.push_back(std::uint32_t(bucket_polys_.size()));
  }
}

std::int32_t MeshFile::locate(Point p) const {
  const double fx = (p.x - origin_.x) / bucket_, fy = (p.y - origin_.y) / bucket_;
  if (!(fx >= 0 && fy >= 0)) return -1;
  const int bx = int(fx), by = int(fy);
  if (bx >= bw_ || by >= bh_) return -1;
  const std::size_t b = std::size_t(by) * std::size_t(bw_) + std::size_t(bx);
  for (std::uint32_t k = bucket_begin_[b]; k < bucket_begin_[b + 1]; ++k) {
    const auto& vs = polygons_[bucket_polys_[k]];
    bool inside = true;
    for (std::size_t i = 0; i < vs.size() && inside; ++i) {
      // On or left of every edge, by the exact orientation test (a point on a shared edge or a
      // vertex is in every polygon holding it; the first listed is taken).
      const Point& a = vertices_[vs[i]];
      const Point& e = vertices_[vs[(i + 1) % vs.size()]];
      inside = exact::orient2d(a, e, p) >= 0;
    }
    if (inside) return std::int32_t(bucket_polys_[k]);
  }
  return -1;
}

std::optional<Attachment> MeshFile::attach(Point p) const {
  const std::int32_t c = locate(p);
  if (c < 0) return std::nullopt;
  Attachment a;
  a.cell = c;
  a.component = component_[std::size_t(c)];
  for (Vertex v : cell_portals_[std::size_t(c)]) a.links.push_back({v, distance(p, pos_[v])});
  return a;
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
                   bucket_polys_.capacity() * 4 + bucket_begin_.capacity() * 4 + component_.capacity() * 4;
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
