// The one translation unit that compiles CGAL: the constrained Delaunay triangulation of the free
// space, its domain faces, point location. Everything leaves here as plain arrays (navmesh.hpp).
#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_2_algorithms.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "representations/navmesh/navmesh.hpp"

namespace navbench {

namespace {

// Exact predicates, double constructions: grid corners are small integers, so every predicate the
// triangulation and point location evaluate is decided exactly.
using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using P2 = K::Point_2;
using Vb = CGAL::Triangulation_vertex_base_with_info_2<std::uint32_t, K>;
// Face info: id of the domain triangle, -1 outside the free space.
struct FaceInfo {
  std::int32_t id = -1;
};
using Fb = CGAL::Triangulation_face_base_with_info_2<FaceInfo, K, CGAL::Constrained_triangulation_face_base_2<K>>;
using Tds = CGAL::Triangulation_data_structure_2<Vb, Fb>;
// Polygon rings may cross (overlapping obstacles): Exact_predicates_tag lets CGAL split crossing
// constraints at their (constructed) intersection point.
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<K, Tds, CGAL::Exact_predicates_tag>;
using Face_handle = Cdt::Face_handle;

using Segments = std::vector<std::pair<std::size_t, std::size_t>>;

// Constraints of a grid map, straight from the bitmap: on each horizontal grid line the maximal runs
// of unit edges whose cell above and cell below differ in passability, and likewise on vertical
// lines (the map's outside counts as blocked). A run is cut at a pinch corner, where it crosses a
// perpendicular run, so every pinch point is a triangulation vertex and no constraints cross.
// One sweep over the lines y = 0..H: corner ids are kept for the current line only and vertical
// runs stay open across lines, so the extra memory is O(W), not O(W x H).
// Restricted to the rectangle [x0, x1) x [y0, y1) of cells, cells outside it counting as blocked
// (a tile of navmesh-tiles: its free cells' boundary, the rectangle's border included).
void grid_constraints(const GridMap& g, std::vector<P2>& pts, Segments& segs, int x0, int y0, int x1, int y1) {
  const int W = x1 - x0;
  std::vector<std::size_t> row_id(std::size_t(W) + 1);
  std::vector<int> row_of(std::size_t(W) + 1, y0 - 1);                   // line whose id row_id holds
  std::vector<std::size_t> open(std::size_t(W) + 1, ~std::size_t(0));   // start vertex of an open vertical run
  auto free = [&](int x, int y) { return x >= x0 && x < x1 && y >= y0 && y < y1 && g.passable(x, y); };
  for (int y = y0; y <= y1; ++y) {
    auto id = [&](int x) {
      if (row_of[x - x0] != y) {
        row_of[x - x0] = y;
        row_id[x - x0] = pts.size();
        pts.emplace_back(x, y);
      }
      return row_id[x - x0];
    };
    int start = -1;
    for (int x = x0; x <= x1; ++x) {
      // horizontal run on line y through the unit edge (x, y)-(x+1, y)
      const bool h_edge = x < x1 && free(x, y - 1) != free(x, y);
      const bool h_cut = h_edge && start >= 0 && free(x - 1, y - 1) != free(x, y - 1);  // pinch at (x, y)
      if (start >= 0 && (!h_edge || h_cut)) {
        segs.emplace_back(id(start), id(x));
        start = -1;
      }
      if (h_edge && start < 0) start = x;
      // vertical run on line x through the unit edge (x, y)-(x, y+1)
      std::size_t& op = open[std::size_t(x - x0)];
      const bool v_edge = y < y1 && free(x - 1, y) != free(x, y);
      const bool v_cut = v_edge && op != ~std::size_t(0) && free(x - 1, y - 1) != free(x - 1, y);
      if (op != ~std::size_t(0) && (!v_edge || v_cut)) {
        segs.emplace_back(op, id(x));
        op = ~std::size_t(0);
      }
      if (v_edge && op == ~std::size_t(0)) op = id(x);
    }
  }
}

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

P2 centroid(Face_handle f) {
  const P2 &a = f->vertex(0)->point(), &b = f->vertex(1)->point(), &c = f->vertex(2)->point();
  return P2((a.x() + b.x() + c.x()) / 3.0, (a.y() + b.y() + c.y()) / 3.0);
}

// Grid maps: no face crosses a free/blocked boundary (every such unit edge is constrained), so a
// face is free iff the cell under its centroid is (the centroid of an integer triangle is k/3 for
// integers k: exact enough for floor()). Only cells of [x0, x1) x [y0, y1) count. Numbers the free
// faces from `next` on; returns the next number.
std::int32_t mark_grid_faces(Cdt& cdt, const GridMap& g, int x0, int y0, int x1, int y1, std::int32_t next) {
  for (auto f : cdt.finite_face_handles()) {
    const P2 c = centroid(f);
    const int cx = int(std::floor(c.x())), cy = int(std::floor(c.y()));
    if (cx >= x0 && cx < x1 && cy >= y0 && cy < y1 && g.passable(cx, cy)) f->info().id = next++;
  }
  return next;
}

// The numbered (domain) faces as arrays: corner vertex ids (vertex info) and the domain neighbour
// across each edge (-1 for infinite or non-domain faces).
void export_faces(const Cdt& cdt, std::int32_t n, std::vector<std::array<std::uint32_t, 3>>& corners,
                  std::vector<std::array<std::int32_t, 3>>& neighbors) {
  corners.resize(std::size_t(n));
  neighbors.resize(std::size_t(n));
  for (auto f : cdt.finite_face_handles()) {
    const std::int32_t id = f->info().id;
    if (id < 0) continue;
    for (int i = 0; i < 3; ++i) {
      corners[id][i] = f->vertex(i)->info();
      neighbors[id][i] = f->neighbor(i)->info().id;
    }
  }
}

}  // namespace

struct FreeSpaceTriangulation::Cgal {
  Cdt cdt;
  // Point-location hints: a face near the centre of each bucket of a coarse grid over the map, so a
  // locate walks a few triangles instead of crossing the map.
  std::vector<Face_handle> hint;
  double x0 = 0, y0 = 0, inv = 1;
  int bw = 0, bh = 0;

  // The domain face a point on vertex v joins. Where free space pinches at v (several fans of domain
  // faces, separated by obstacles), the fan that owns the point, by FreeSpace's rule (SPEC §1
  // pinch semantics, geometry/free_space.hpp): the fan wider than 180 degrees if there is one, else
  // the first holding the direction (1,1), (1,-1), (-1,-1), (-1,1). -1 when no domain face.
  std::int32_t face_at_vertex(Cdt::Vertex_handle v) const {
    // Faces around v, counter-clockwise, starting after a non-domain face when there is one.
    std::vector<Face_handle> around;
    auto fc = cdt.incident_faces(v), done = fc;
    do around.push_back(fc); while (++fc != done);
    const auto gap = std::find_if(around.begin(), around.end(), [](Face_handle f) { return f->info().id < 0; });
    if (gap == around.end()) return around.front()->info().id;  // free all round: no pinch
    std::rotate(around.begin(), gap, around.end());
    const P2& p = v->point();
    // Fans: maximal runs of domain faces. A fan spans counter-clockwise from the ray p->first
    // corner of its first face to the ray p->last corner of its last face.
    struct Fan {
      Face_handle first, last;
    };
    std::vector<Fan> fans;
    for (std::size_t i = 0; i < around.size(); ++i) {
      if (around[i]->info().id < 0) continue;
      if (i == 0 || around[i - 1]->info().id < 0) fans.push_back({around[i], around[i]});
      else fans.back().last = around[i];
    }
    if (fans.empty()) return -1;
    auto ray_start = [&](const Fan& f) { return f.first->vertex(Cdt::ccw(f.first->index(v)))->point(); };
    auto ray_end = [&](const Fan& f) { return f.last->vertex(Cdt::cw(f.last->index(v)))->point(); };
    for (const Fan& f : fans)
      if (CGAL::orientation(p, ray_start(f), ray_end(f)) == CGAL::RIGHT_TURN) return f.first->info().id;
    static constexpr double kProbe[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
    for (const auto& d : kProbe) {
      const P2 ahead(p.x() + d[0], p.y() + d[1]);
      for (const Fan& f : fans)  // a fan narrower than 180 degrees: inside both bounding rays
        if (CGAL::orientation(p, ray_start(f), ahead) != CGAL::RIGHT_TURN &&
            CGAL::orientation(p, ahead, ray_end(f)) != CGAL::RIGHT_TURN)
          return f.first->info().id;
    }
    return fans.front().first->info().id;
  }

  std::size_t bucket(double x, double y) const {
    const int bx = std::clamp(int((x - x0) * inv), 0, bw - 1);
    const int by = std::clamp(int((y - y0) * inv), 0, bh - 1);
    return std::size_t(by) * bw + bx;
  }
  Face_handle hint_for(double x, double y) const { return hint[bucket(x, y)]; }
};

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
  for (auto v : cdt.finite_vertex_handles()) {
    v->info() = std::uint32_t(points_.size());
    points_.push_back({v->point().x(), v->point().y()});
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
      if (std::any_of(obstacles.begin(), obstacles.end(), [&](const Shape& o) { return o.contains(*sample); }))
        continue;
      for (Face_handle f : region) mark(f);
    }
  }

  export_faces(cdt, next, corners_, neighbors_);
  // Components: flood over shared edges.
  component_.assign(std::size_t(next), -1);
  std::vector<std::uint32_t> stack;
  for (std::uint32_t t = 0; t < std::uint32_t(next); ++t) {
    if (component_[t] >= 0) continue;
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

  // Hint buckets: about one bucket per two faces, each holding a face whose centroid falls in it
  // (buckets no centroid falls in, under large faces, take the previous bucket's face).
  double xmin = points_[0].x, xmax = xmin, ymin = points_[0].y, ymax = ymin;
  for (const Point& p : points_) {
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  const double wx = std::max(xmax - xmin, 1e-9), wy = std::max(ymax - ymin, 1e-9);
  const double buckets = std::max(1.0, double(cdt.number_of_faces()) / 2.0);
  const double side = std::sqrt(wx * wy / buckets);
  Cgal& c = *cgal_;
  c.x0 = xmin, c.y0 = ymin;
  c.bw = std::clamp(int(std::ceil(wx / side)), 1, 4096);
  c.bh = std::clamp(int(std::ceil(wy / side)), 1, 4096);
  c.inv = std::min(double(c.bw) / wx, double(c.bh) / wy);
  c.hint.assign(std::size_t(c.bw) * c.bh, Face_handle());
  for (auto f : cdt.finite_face_handles()) {
    const P2 m = centroid(f);
    c.hint[c.bucket(m.x(), m.y())] = f;
  }
  Face_handle last = cdt.finite_faces_begin();
  for (auto& h : c.hint) {
    if (h == Face_handle()) h = last;
    else last = h;
  }
}

void triangulate_grid_tile(const GridMap& g, int x0, int y0, int x1, int y1, TileTriangles& out) {
  out.points.clear();
  out.corners.clear();
  out.neighbors.clear();
  std::vector<P2> pts;
  Segments segs;
  grid_constraints(g, pts, segs, x0, y0, x1, y1);
  if (segs.empty()) return;  // no free cell (a free cell always has constrained sides)
  Cdt cdt;
  cdt.insert_constraints(pts.begin(), pts.end(), segs.begin(), segs.end());
  if (cdt.dimension() < 2) return;
  for (auto v : cdt.finite_vertex_handles()) {
    v->info() = std::uint32_t(out.points.size());
    out.points.push_back({v->point().x(), v->point().y()});
  }
  export_faces(cdt, mark_grid_faces(cdt, g, x0, y0, x1, y1, 0), out.corners, out.neighbors);
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
         cgal_->hint.capacity() * sizeof(Face_handle) + points_.capacity() * sizeof(Point) +
         corners_.capacity() * sizeof(corners_[0]) + neighbors_.capacity() * sizeof(neighbors_[0]) +
         component_.capacity() * sizeof(std::int32_t);
}

}  // namespace navbench
