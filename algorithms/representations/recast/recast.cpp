#include "representations/recast/recast.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "representations/navmesh/navmesh.hpp"
#include "representations/union_find.hpp"

namespace navbench {

namespace {
// An edge or link inside `polygon` (docs/recast.md#terrain-costs-area-types-and-detours-query-filter):
// the exact path-cost integral on a weighted map (docs/terrain.md), the length unweighted; where the
// segment crosses a blocked cell the simplified polygon covers (an infinite integral), its length
// times the polygon's area cost, what the mesh claims: the search sees the mesh's edge and the
// validity test judges the path.
double price(const RecastMesh& r, Point a, Point b, std::uint32_t polygon) {
  const double exact = r.segment_cost(a, b);
  if (std::isfinite(exact)) return exact;
  return distance(a, b) * double(r.mesh().areas().costs()[r.mesh().area(polygon)]);
}
}  // namespace

RecastConfig recast_config(Params& params) {
  const auto& d = RecastMesh::kParams;
  RecastConfig c;
  c.cs = params.real(param(d, "cs"));
  c.partition = RecastConfig::Partition(params.choice(param(d, "partition")));
  c.max_error = params.real(param(d, "max_error"));
  c.max_edge = params.real(param(d, "max_edge"));
  c.nvp = params.integer(param(d, "nvp"));
  c.tile = params.integer(param(d, "tile"));
  c.min_region = params.integer(param(d, "min_region"));
  c.merge_region = params.integer(param(d, "merge_region"));
  c.pool = params.integer(param(d, "pool"));
  c.radius = params.real(param(d, "radius"));
  return c;
}

RecastMesh::RecastMesh(const Map& map, Params& params) : mesh_(map, [&] {
  RecastConfig c = recast_config(params);
  params.finish("recast");
  return c;
}()) {
  price_on(map);  // docs/terrain.md: on a weighted map edges and links cost their integral
  detour_ = std::make_unique<DetourQuery>(mesh_);
  layout();
}

bool RecastMesh::update(const Map& map, const std::vector<CellChange>& changed) {
  if (mesh_.update(map, changed) < 0) return false;
  price_on(map);
  layout();
  return true;
}

void RecastMesh::layout() {
  const auto& polys = mesh_.polygons();
  const auto& portals = mesh_.portals();
  cell_portals_.assign(polys.size(), {});
  pos_.clear();
  pos_.reserve(portals.size());
  UnionFind uf(polys.size());
  for (Vertex v = 0; v < portals.size(); ++v) {
    const DetourPortal& p = portals[v];
    pos_.push_back({(p.right.x + p.left.x) / 2, (p.right.y + p.left.y) / 2});
    cell_portals_[p.from].push_back(v);
    cell_portals_[p.to].push_back(v);
    uf.unite(p.from, p.to);
  }
  component_.resize(polys.size());
  for (std::size_t c = 0; c < polys.size(); ++c) component_[c] = std::int32_t(uf.find(c));
  // Two portals of one convex polygon see each other.
  std::vector<CsrGraph::WeightedEdge> edges;
  for (std::uint32_t c = 0; c < cell_portals_.size(); ++c) {
    const auto& ps = cell_portals_[c];
    for (std::size_t i = 0; i < ps.size(); ++i)
      for (std::size_t j = i + 1; j < ps.size(); ++j) edges.push_back({ps[i], ps[j], price(*this, pos_[ps[i]], pos_[ps[j]], c)});
  }
  graph_ = CsrGraph(portals.size(), std::move(edges));

  // Buckets about four polygons wide on average.
  double minx = 1e300, miny = 1e300, maxx = -1e300, maxy = -1e300;
  for (const auto& p : polys)
    for (const Point& c : p.corners)
      minx = std::min(minx, c.x), miny = std::min(miny, c.y), maxx = std::max(maxx, c.x), maxy = std::max(maxy, c.y);
  origin_ = {minx, miny};
  const double area = std::max(1e-9, (maxx - minx) * (maxy - miny));
  bucket_ = std::max(mesh_.config().cs, std::sqrt(4 * area / double(std::max<std::size_t>(1, polys.size()))));
  bw_ = std::max(1, int(std::ceil((maxx - minx) / bucket_)) + 1);
  bh_ = std::max(1, int(std::ceil((maxy - miny) / bucket_)) + 1);
  std::vector<std::vector<std::uint32_t>> lists(std::size_t(bw_) * std::size_t(bh_));
  for (std::uint32_t i = 0; i < polys.size(); ++i) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (const Point& c : polys[i].corners) x0 = std::min(x0, c.x), y0 = std::min(y0, c.y), x1 = std::max(x1, c.x), y1 = std::max(y1, c.y);
    const int bx0 = int((x0 - minx) / bucket_), bx1 = int((x1 - minx) / bucket_);
    const int by0 = int((y0 - miny) / bucket_), by1 = int((y1 - miny) / bucket_);
    for (int by = by0; by <= by1; ++by)
      for (int bx = bx0; bx <= bx1; ++bx) lists[std::size_t(by) * std::size_t(bw_) + std::size_t(bx)].push_back(i);
  }
  bucket_begin_.assign(1, 0);
  bucket_polys_.clear();
  for (const auto& l : lists) {
    bucket_polys_.insert(bucket_polys_.end(), l.begin(), l.end());
    bucket_begin_.push_back(std::uint32_t(bucket_polys_.size()));
  }
}

std::int32_t RecastMesh::locate(Point p) const {
  const double fx = (p.x - origin_.x) / bucket_, fy = (p.y - origin_.y) / bucket_;
  if (!(fx >= 0 && fy >= 0)) return -1;
  const int bx = int(fx), by = int(fy);
  if (bx >= bw_ || by >= bh_) return -1;
  const std::size_t b = std::size_t(by) * std::size_t(bw_) + std::size_t(bx);
  const auto& polys = mesh_.polygons();
  for (std::uint32_t k = bucket_begin_[b]; k < bucket_begin_[b + 1]; ++k) {
    const auto& c = polys[bucket_polys_[k]].corners;
    bool inside = true;
    for (std::size_t i = 0; i < c.size() && inside; ++i) {
      const Point& a = c[i];
      const Point& e = c[(i + 1) % c.size()];
      inside = (e.x - a.x) * (p.y - a.y) - (e.y - a.y) * (p.x - a.x) >= 0;  // on or left of every edge
    }
    if (inside) return std::int32_t(bucket_polys_[k]);
  }
  return -1;
}

OwnAnswer RecastMesh::own_search(Point start, Point goal) const {
  DetourAnswer a = detour_->find(start, goal);
  OwnAnswer out;
  out.status = a.status == DetourAnswer::Status::found     ? OwnAnswer::Status::found
               : a.status == DetourAnswer::Status::no_path ? OwnAnswer::Status::no_path
                                                           : OwnAnswer::Status::error;
  out.path = std::move(a.path);
  out.reason = std::move(a.reason);
  out.nodes = a.nodes;
  return out;
}

std::optional<Attachment> RecastMesh::attach(Point p) const {
  const std::int32_t c = locate(p);
  if (c < 0) return std::nullopt;
  Attachment a;
  a.cell = c;
  a.component = component_[std::size_t(c)];
  for (Vertex v : cell_portals_[std::size_t(c)]) a.links.push_back({v, price(*this, p, pos_[v], std::uint32_t(c))});
  return a;
}

std::optional<Corridor> RecastMesh::corridor(const Query& q) const {
  const auto& portals = mesh_.portals();
  return corridor_through_portals(q, portals.size(), [&](Vertex v) {
    const DetourPortal& p = portals[v];
    return PortalSides{std::int32_t(p.from), std::int32_t(p.to), p.right, p.left};
  });
}

BuildStats RecastMesh::stats() const {
  BuildStats s;
  s.vertices = graph_.num_vertices();
  s.edges = graph_.num_edges();
  // What a game keeps (the dtNavMesh tiles) plus navbench's graph over it.
  s.memory_bytes = mesh_.data_bytes() + graph_.memory_bytes() + pos_.capacity() * sizeof(Point) +
                   bucket_polys_.capacity() * 4 + bucket_begin_.capacity() * 4;
  return s;
}

void RecastMesh::structure(const SegmentSink& emit) const {
  for (const auto& p : mesh_.polygons())
    for (std::size_t i = 0; i < p.corners.size(); ++i) emit({p.corners[i], p.corners[(i + 1) % p.corners.size()]});
}

}  // namespace navbench
