// The one place the free space is triangulated (CGAL, types in cgal.hpp): the constrained Delaunay
// triangulation of a map's free space and its domain faces, and a tile's of navmesh-tiles.
// Everything leaves here as plain arrays (navmesh.hpp).
#include <CGAL/Polygon_2_algorithms.h>

#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "representations/navmesh/cgal.hpp"
#include "representations/navmesh/navmesh.hpp"

namespace navbench {

using namespace navmesh_detail;
namespace bgi = boost::geometry::index;
using BPoint = boost::geometry::model::d2::point_xy<double>;
using BBox = boost::geometry::model::box<BPoint>;

namespace {

// A ring without repeated consecutive points; throws on fewer than 3 points or bad coordinates.
std::vector<P2> clean_ring(const std::vector<Point>& ring) {
  std::vector<P2> out;
  for (const Point& p : ring) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
      throw std::invalid_argument("polygon map has a non-finite coordinate");
    P2 q(p.x, p.y);
    if (out.empty() || out.back() != q) out.push_back(q);
  }
  while (out.size() > 1 && out.front() == out.back()) out.pop_back();
  if (out.size() < 3) throw std::invalid_argument("polygon map has a ring with fewer than 3 distinct points");
  return out;
}

struct Ring {
  std::vector<P2> pts;
  CGAL::Bbox_2 box;
  bool strictly_inside(const P2& p) const {
    if (p.x() <= box.xmin() || p.x() >= box.xmax() || p.y() <= box.ymin() || p.y() >= box.ymax()) return false;
    return CGAL::bounded_side_2(pts.begin(), pts.end(), p, K()) == CGAL::ON_BOUNDED_SIDE;
  }
};
struct Shape {
  std::vector<Ring> rings;  // [0] outer, then holes
  bool contains(const P2& p) const {
    if (!rings[0].strictly_inside(p)) return false;
    for (std::size_t i = 1; i < rings.size(); ++i)
      if (rings[i].strictly_inside(p)) return false;
    return true;
  }
};

Shape make_shape(const PolygonShape& s, std::vector<P2>& pts, Segments& segs) {
  Shape out;
  for (const auto& raw : s.rings) {
    Ring r;
    r.pts = clean_ring(raw);
    r.box = CGAL::bbox_2(r.pts.begin(), r.pts.end());
    const std::size_t base = pts.size();
    pts.insert(pts.end(), r.pts.begin(), r.pts.end());
    for (std::size_t i = 0; i < r.pts.size(); ++i) segs.emplace_back(base + i, base + (i + 1) % r.pts.size());
    out.rings.push_back(std::move(r));
  }
  return out;
}

}  // namespace

FreeSpaceTriangulation::~FreeSpaceTriangulation() = default;
FreeSpaceTriangulation::FreeSpaceTriangulation(FreeSpaceTriangulation&&) noexcept = default;
FreeSpaceTriangulation& FreeSpaceTriangulation::operator=(FreeSpaceTriangulation&&) noexcept = default;

FreeSpaceTriangulation::FreeSpaceTriangulation(const Map& map) : cgal_(std::make_unique<Cgal>()) {
  std::vector<P2> pts;
  Segments segs;
  Shape walkable;
  std::vector<Shape> obstacles;
  if (map.kind == MapKind::grid) {
    grid_constraints(map.grid, pts, segs, 0, 0, map.grid.width, map.grid.height);
  } else {
    if (map.polygons.walkable.rings.empty()) throw std::invalid_argument("polygon map has no walkable outer ring");
    walkable = make_shape(map.polygons.walkable, pts, segs);
    for (const auto& o : map.polygons.obstacles)
      if (!o.rings.empty()) obstacles.push_back(make_shape(o, pts, segs));
  }
  Cdt& cdt = cgal_->cdt;
  // Spatially sorted point insertion, then the constraints between the inserted vertices.
  cdt.insert_constraints(pts.begin(), pts.end(), segs.begin(), segs.end());
  pts.clear();
  pts.shrink_to_fit();

  points_.reserve(cdt.number_of_vertices());
  cgal_->vh.reserve(cdt.number_of_vertices());
  for (auto v : cdt.finite_vertex_handles()) {
    v->info() = std::uint32_t(points_.size());
    points_.push_back({v->point().x(), v->point().y()});
    cgal_->vh.push_back(v);
  }
  if (map.kind == MapKind::grid) {
    cgal_->grid = true;
    cgal_->W = map.grid.width, cgal_->H = map.grid.height;
  }
  if (cdt.dimension() < 2) return;  // no free cell, or a degenerate polygon map: no triangle

  // Domain marking. Grid maps: no face crosses a free/blocked boundary (every such unit edge is
  // constrained), so a face is free iff the cell holding its centroid is passable; the centroid of
  // an integer triangle is exact enough for floor() (it is k/3 for integers k). Polygon maps: the
  // faces are flooded in regions bounded by constrained edges (CGAL's polygon_triangulation example
  // counts nesting levels this way); each region is classified by testing one interior point
  // against the rings, which stays right where obstacles overlap (a nesting-level parity would not).
  std::int32_t next = 0;
  auto mark = [&](Face_handle f) { f->info().id = next++; };
  if (map.kind == MapKind::grid) {
    next = mark_grid_faces(cdt, map.grid, 0, 0, map.grid.width, map.grid.height, next);
  } else {
    std::vector<std::pair<BBox, std::size_t>> boxes;
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
      const CGAL::Bbox_2& b = obstacles[i].rings[0].box;
      boxes.push_back({BBox(BPoint(b.xmin(), b.ymin()), BPoint(b.xmax(), b.ymax())), i});
    }
    const bgi::rtree<std::pair<BBox, std::size_t>, bgi::rstar<16>> obstacle_boxes(boxes.begin(), boxes.end());
    std::vector<Face_handle> region, stack;
    std::vector<Face_handle> all;
    for (auto f : cdt.all_face_handles()) all.push_back(f), f->info().id = -2;  // -2: not visited
    for (Face_handle seed : all) {
      if (seed->info().id != -2) continue;
      region.clear();
      stack.assign(1, seed);
      seed->info().id = -1;
      bool outside = false;
      std::optional<P2> sample;
      while (!stack.empty()) {
        Face_handle f = stack.back();
        stack.pop_back();
        region.push_back(f);
        if (cdt.is_infinite(f)) {
          outside = true;
        } else if (!sample) {
          const P2 c = centroid(f);
          const P2 &a = f->vertex(0)->point(), &b = f->vertex(1)->point(), &d = f->vertex(2)->point();
          if (CGAL::orientation(a, b, c) == CGAL::LEFT_TURN && CGAL::orientation(b, d, c) == CGAL::LEFT_TURN &&
              CGAL::orientation(d, a, c) == CGAL::LEFT_TURN)
            sample = c;
        }
        for (int i = 0; i < 3; ++i) {
          Face_handle n = f->neighbor(i);
          if (n->info().id == -2 && !f->is_constrained(i)) {
            n->info().id = -1;
            stack.push_back(n);
          }
        }
      }
      if (outside || !sample || !walkable.contains(*sample)) continue;
      bool blocked = false;  // the obstacles whose box holds the sample (an rtree: not every obstacle per region)
      const BBox at(BPoint(sample->x(), sample->y()), BPoint(sample->x(), sample->y()));
      for (auto it = obstacle_boxes.qbegin(bgi::intersects(at)); !blocked && it != obstacle_boxes.qend(); ++it)
        blocked = obstacles[it->second].contains(*sample);
      if (blocked) continue;
      for (Face_handle f : region) mark(f);
    }
  }

  export_faces(cdt, next, corners_, neighbors_);
  flood_components();

  cgal_->make_hints();
}

void triangulate_grid_tile(const GridMap& g, int x0, int y0, int x1, int y1, TileTriangles& out) {
  out.points.clear();
  out.corners.clear();
  out.neighbors.clear();
  std::vector<P2> pts;
  Segments segs;
  grid_constraints(g, pts, segs, x0, y0, x1, y1);
  if (segs.empty()) return;  // no free cell (a free cell always has constrained sides)
  TileCdt cdt;
  // A tile has a few dozen points, already in row order: inserted one by one, each located from the
  // previous one, they triangulate faster than with insert_constraints' spatial sort, into the same
  // triangles (docs/measurements.md); the constraints follow.
  std::vector<TileCdt::Vertex_handle> vh;
  vh.reserve(pts.size());
  TileCdt::Face_handle hint;
  for (const P2& p : pts) {
    vh.push_back(cdt.insert(p, hint));
    hint = vh.back()->face();
  }
  for (const auto& [a, b] : segs) cdt.insert_constraint(vh[a], vh[b]);
  if (cdt.dimension() < 2) return;
  for (auto v : cdt.finite_vertex_handles()) {
    v->info() = std::uint32_t(out.points.size());
    out.points.push_back({v->point().x(), v->point().y()});
  }
  export_faces(cdt, mark_grid_faces(cdt, g, x0, y0, x1, y1, 0), out.corners, out.neighbors);
}

// Components: flood over shared edges (dead ids get -1).
void FreeSpaceTriangulation::flood_components() {
  const std::size_t T = corners_.size();
  component_.assign(T, -1);
  component_size_.clear();
  num_components_ = 0;
  std::vector<std::uint32_t> stack;
  for (std::uint32_t t = 0; t < T; ++t) {
    if (component_[t] >= 0 || !alive(t)) continue;
    component_[t] = num_components_;
    stack.assign(1, t);
    while (!stack.empty()) {
      const std::uint32_t u = stack.back();
      stack.pop_back();
      for (int i = 0; i < 3; ++i) {
        const std::int32_t n = neighbors_[u][i];
        if (n >= 0 && component_[n] < 0) {
          component_[n] = num_components_;
          stack.push_back(std::uint32_t(n));
        }
      }
    }
    ++num_components_;
  }
  component_size_.assign(std::size_t(num_components_), 0);
  free_ids_.clear();
  for (const std::int32_t c : component_)
    if (c >= 0) ++component_size_[std::size_t(c)];
}

}  // namespace navbench
