#include "representations/recast/detour_query.hpp"

#include <cmath>

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/DetourNode.h>

namespace navbench {

namespace {
constexpr int kMaxPolys = 8192;  // longest corridor findPath may return
}

void DetourQuery::Deleter::operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }

DetourQuery::DetourQuery(const DetourMesh& mesh)
    : nav_(&mesh.navmesh()), floor_y_(mesh.floor_y()), cs_(mesh.config().cs), nodes_(mesh.config().pool),
      area_cost_(mesh.areas().costs()) {}
DetourQuery::~DetourQuery() = default;

DetourQuery::QueryPtr DetourQuery::acquire() const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!pool_.empty()) {
      QueryPtr q = std::move(pool_.back());
      pool_.pop_back();
      return q;
    }
  }
  QueryPtr q(dtAllocNavMeshQuery());
  if (!q || dtStatusFailed(q->init(nav_, nodes_))) return nullptr;
  return q;
}

void DetourQuery::release(QueryPtr q) const {
  std::lock_guard<std::mutex> lock(mutex_);
  pool_.push_back(std::move(q));
}

DetourAnswer DetourQuery::find(Point start, Point goal) const {
  DetourAnswer out;
  QueryPtr q = acquire();
  if (!q) {
    out.reason = "Detour's query could not be made (node pool too large?)";
    return out;
  }
  dtQueryFilter filter;  // every flag included; each area costs its terrain's weight (AreaTable)
  for (int a = 0; a < DT_MAX_AREAS; ++a) filter.setAreaCost(a, area_cost_[std::size_t(a)]);
  const float y = floor_y_;
  const float ext[3] = {float(snap()), 2.0f, float(snap())};
  const float s[3] = {float(start.x), y, float(start.y)}, g[3] = {float(goal.x), y, float(goal.y)};
  dtPolyRef sref = 0, gref = 0;
  float sp[3], gp[3];
  q->findNearestPoly(s, ext, &filter, &sref, sp);
  q->findNearestPoly(g, ext, &filter, &gref, gp);
  if (!sref || !gref) {
    out.status = DetourAnswer::Status::no_path;
    out.reason = std::string("the mesh does not reach the ") + (!sref ? "start" : "goal");
    out.unreached = true;
    release(std::move(q));
    return out;
  }
  std::vector<dtPolyRef> polys(kMaxPolys);
  int npolys = 0;
  const dtStatus st = q->findPath(sref, gref, sp, gp, &filter, polys.data(), &npolys, kMaxPolys);
  out.nodes = q->getNodePool() ? q->getNodePool()->getNodeCount() : 0;
  if (dtStatusFailed(st) || npolys == 0) {
    out.reason = "findPath failed";
  } else if (polys[std::size_t(npolys - 1)] != gref) {
    // A partial path: Detour stopped at the polygon nearest the goal.
    if (dtStatusDetail(st, DT_OUT_OF_NODES)) out.reason = "Detour's node pool ran out";
    else out.status = DetourAnswer::Status::no_path;
  } else if (dtStatusDetail(st, DT_BUFFER_TOO_SMALL)) {
    out.reason = "corridor longer than findPath's buffer";
  } else {
    std::vector<float> pts(3 * kMaxPolys);
    int npts = 0;
    const dtStatus ss = q->findStraightPath(sp, gp, polys.data(), npolys, pts.data(), nullptr, nullptr, &npts, kMaxPolys);
    if (dtStatusFailed(ss) || npts < 1 || dtStatusDetail(ss, DT_BUFFER_TOO_SMALL)) {
      out.reason = "findStraightPath failed";
    } else {
      out.status = DetourAnswer::Status::found;
      out.path.push_back(start);
      for (int i = 0; i < npts; ++i) {
        const Point p{double(pts[3 * std::size_t(i)]), double(pts[3 * std::size_t(i) + 2])};
        // Detour works in floats: a point it returns within float rounding of the query point is that point.
        if (distance(p, out.path.back()) > 1e-5 * (1 + std::abs(p.x) + std::abs(p.y))) out.path.push_back(p);
      }
      if (distance(out.path.back(), goal) > 1e-5 * (1 + std::abs(goal.x) + std::abs(goal.y))) out.path.push_back(goal);
      else out.path.back() = goal;
    }
  }
  release(std::move(q));
  return out;
}

}  // namespace navbench
