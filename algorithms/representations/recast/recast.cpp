#include "representations/recast/recast.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "representations/navmesh/navmesh.hpp"

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
  link_portals(
      polys.size(), portals.size(),
      [&](Vertex v) {
        const DetourPortal& p = portals[v];
        return PortalEnds{p.from, p.to, p.right, p.left};
      },
      [this](Point a, Point b, std::uint32_t polygon) { return price(*this, a, b, polygon); });
  buckets_.build(polys.size(), corner_count(), corner(), mesh_.config().cs);
}

std::int32_t RecastMesh::locate(Point p) const {
  return buckets_.locate(p, corner_count(), corner(), [](const Point& a, const Point& e, const Point& q) {
    return (e.x - a.x) * (q.y - a.y) - (e.y - a.y) * (q.x - a.x);
  });
}

OwnAnswer RecastMesh::own_search(Point start, Point goal) const {
  DetourAnswer a = detour_->find(start, goal);
  OwnAnswer out;
  out.status = a.status == DetourAnswer::Status::found     ? OwnAnswer::Status::found
               : a.status == DetourAnswer::Status::no_path ? OwnAnswer::Status::no_path
                                                           : OwnAnswer::Status::error;
  out.path = std::move(a.path);
  out.reason = std::move(a.reason);
  if (a.unreached) {
    const std::string note = mesh_.unreached_note();
    if (!note.empty()) out.reason += " (" + note + ")";
  }
  out.nodes = a.nodes;
  return out;
}

std::string RecastMesh::miss_reason(const Query& q) const {
  const bool start = locate(q.start) < 0, goal = !start && locate(q.goal) < 0;
  std::string why = start  ? "the mesh does not reach the free start"
                    : goal ? "the mesh does not reach the free goal"
                           : "no portal of the mesh joins the start's polygon to the goal's";
  const std::string note = mesh_.unreached_note();
  return note.empty() ? why : why + " (" + note + ")";
}

std::optional<Attachment> RecastMesh::attach(Point p) const {
  return attach_in(locate(p), p, [this](Point a, Point b, std::uint32_t polygon) { return price(*this, a, b, polygon); });
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
                   buckets_.memory_bytes();
  return s;
}

void RecastMesh::structure(const SegmentSink& emit) const {
  for (const auto& p : mesh_.polygons())
    for (std::size_t i = 0; i < p.corners.size(); ++i) emit({p.corners[i], p.corners[(i + 1) % p.corners.size()]});
}

}  // namespace navbench
