// The one translation unit that compiles CGAL: the constrained Delaunay triangulation of the free
// space, its domain faces, point location. Everything leaves here as plain arrays (navmesh.hpp).
#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_2_algorithms.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "representations/navmesh/navmesh.hpp"

namespace navbench {

namespace {

// Exact predicates, double constructions: grid corners are small integers, so every predicate the
// triangulation and point location evaluate is decided exactly.
using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using P2 = K::Point_2;
using Vb = CGAL::Triangulation_vertex_base_with_info_2<std::uint32_t, K>;
// Face info: id of the domain triangle, -1 outside the free space; stamp: the update that last
// recorded the face (see Recorder).
struct FaceInfo {
  std::int32_t id = -1;
  std::uint32_t stamp = 0;
};

// What an update() changed in the triangulation data structure, recorded by the faces themselves:
// every face created, or whose vertices, neighbours or constraint marks were set (CGAL edits a
// face only through these setters, flips included), and the ids of the numbered faces destroyed.
// Set for the current thread during an update only.
struct Recorder {
  std::uint32_t epoch = 0;
  std::vector<void*> touched;
  std::vector<std::int32_t> freed;
};
thread_local Recorder* g_recorder = nullptr;

template <class Gt, class Fb0 = CGAL::Constrained_triangulation_face_base_2<Gt>>
class RecordingFace : public Fb0 {
 public:
  using Vertex_handle = typename Fb0::Vertex_handle;
  using Face_handle = typename Fb0::Face_handle;
  template <class TDS2>
  struct Rebind_TDS {
    using Other = RecordingFace<Gt, typename Fb0::template Rebind_TDS<TDS2>::Other>;
  };
  RecordingFace() { touch(); }
  RecordingFace(Vertex_handle a, Vertex_handle b, Vertex_handle c) : Fb0(a, b, c) { touch(); }
  RecordingFace(Vertex_handle a, Vertex_handle b, Vertex_handle c, Face_handle n0, Face_handle n1, Face_handle n2)
      : Fb0(a, b, c, n0, n1, n2) {
    touch();
  }
  RecordingFace(Vertex_handle a, Vertex_handle b, Vertex_handle c, Face_handle n0, Face_handle n1, Face_handle n2,
                bool c0, bool c1, bool c2)
      : Fb0(a, b, c, n0, n1, n2, c0, c1, c2) {
    touch();
  }
  RecordingFace(const RecordingFace& o) : Fb0(o) { touch(); }  // a copy is a new face: no id
  RecordingFace& operator=(const RecordingFace& o) {
    Fb0::operator=(o);
    info_ = FaceInfo{};
    touch();
    return *this;
  }
  ~RecordingFace() {
    if (g_recorder && info_.id >= 0) g_recorder->freed.push_back(info_.id);
  }
  void set_vertex(int i, Vertex_handle v) { touch(), Fb0::set_vertex(i, v); }
  void set_vertices() { touch(), Fb0::set_vertices(); }
  void set_vertices(Vertex_handle a, Vertex_handle b, Vertex_handle c) { touch(), Fb0::set_vertices(a, b, c); }
  void set_neighbor(int i, Face_handle n) { touch(), Fb0::set_neighbor(i, n); }
  void set_neighbors() { touch(), Fb0::set_neighbors(); }
  void set_neighbors(Face_handle a, Face_handle b, Face_handle c) { touch(), Fb0::set_neighbors(a, b, c); }
  void set_constraint(int i, bool b) { touch(), Fb0::set_constraint(i, b); }
  void set_constraints(bool a, bool b, bool c) { touch(), Fb0::set_constraints(a, b, c); }
  void reorient() { touch(), Fb0::reorient(); }
  void ccw_permute() { touch(), Fb0::ccw_permute(); }
  void cw_permute() { touch(), Fb0::cw_permute(); }
  FaceInfo& info() { return info_; }
  const FaceInfo& info() const { return info_; }

 private:
  void touch() {
    if (g_recorder && info_.stamp != g_recorder->epoch) {
      info_.stamp = g_recorder->epoch;
      g_recorder->touched.push_back(this);
    }
  }
  FaceInfo info_;
};
using Fb = RecordingFace<K>;
using Tds = CGAL::Triangulation_data_structure_2<Vb, Fb>;
// Polygon rings may cross (overlapping obstacles): Exact_predicates_tag lets CGAL split crossing
// constraints at their (constructed) intersection point.
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<K, Tds, CGAL::Exact_predicates_tag>;
using Face_handle = Cdt::Face_handle;
// A tile of navmesh-tiles is triangulated afresh whenever it changes, never edited: its faces
// record nothing (RecordingFace's check costs ~8 % of a CDT build).
using TileFb = CGAL::Triangulation_face_base_with_info_2<FaceInfo, K, CGAL::Constrained_triangulation_face_base_2<K>>;
using TileCdt = CGAL::Constrained_Delaunay_triangulation_2<K, CGAL::Triangulation_data_structure_2<Vb, TileFb>,
                                                           CGAL::Exact_predicates_tag>;

using Segments = std::vector<std::pair<std::size_t, std::size_t>>;

// Constraints of a grid map, straight from the bitmap: on each horizontal grid line the maximal runs
// of unit edges whose cell above and cell below differ in passability, and likewise on vertical
// lines (the map's outside counts as blocked). A run is cut at a pinch corner, where it crosses a
// perpendicular run, so every pinch point is a triangulation vertex and no constraints cross.
// One sweep over the lines y = 0..H: corner ids are kept for the current line only and vertical
// runs stay open across lines, so the extra memory is O(W), not O(W x H).
// Restricted to the rectangle [x0, x1) x [y0, y1) of cells, cells outside it counting as blocked
// (a tile of navmesh-tiles: its free cells' boundary, the rectangle's border included).
// The boundary rules of both (the build's sweep and update()'s tracing), on a bitmap `free`:
// where a unit edge separates free from blocked, and where a run along it is cut (a pinch corner, or
// a perpendicular boundary).
template <class Free>
struct GridBoundary {
  Free free;
  bool h_edge(int x, int y) const { return free(x, y - 1) != free(x, y); }  // edge (x, y)-(x+1, y)
  bool h_cut(int x, int y) const { return free(x - 1, y - 1) != free(x, y - 1); }  // at (x, y)
  bool v_edge(int x, int y) const { return free(x - 1, y) != free(x, y); }  // edge (x, y)-(x, y+1)
  bool v_cut(int x, int y) const { return free(x - 1, y - 1) != free(x - 1, y); }  // at (x, y)
};
template <class Free>
GridBoundary<Free> grid_boundary(Free free) {
  return {free};
}

// On a weighted map (docs/terrain.md) the borders between cells of different weights are
// constraints too, so that every triangle lies on one weight: the same sweep over a cell's label
// (0 blocked, else its weight). A run is then also cut where a perpendicular border meets it from
// either side (with two labels the two sides agree; with more they need not).
template <class Label>
struct LabelBoundary {
  Label label;
  bool h_edge(int x, int y) const { return label(x, y - 1) != label(x, y); }
  bool h_cut(int x, int y) const { return label(x - 1, y - 1) != label(x, y - 1) || label(x - 1, y) != label(x, y); }
  bool v_edge(int x, int y) const { return label(x - 1, y) != label(x, y); }
  bool v_cut(int x, int y) const { return label(x - 1, y - 1) != label(x - 1, y) || label(x, y - 1) != label(x, y); }
};

template <class Boundary>
void boundary_runs(const Boundary& B, std::vector<P2>& pts, Segments& segs, int x0, int y0, int x1, int y1);

void grid_constraints(const GridMap& g, std::vector<P2>& pts, Segments& segs, int x0, int y0, int x1, int y1) {
  if (g.weighted()) {
    const LabelBoundary<std::function<double(int, int)>> B{[&](int x, int y) {
      return x >= x0 && x < x1 && y >= y0 && y < y1 && g.passable(x, y) ? g.weight(x, y) : 0.0;
    }};
    boundary_runs(B, pts, segs, x0, y0, x1, y1);
    return;
  }
  boundary_runs(grid_boundary([&](int x, int y) { return x >= x0 && x < x1 && y >= y0 && y < y1 && g.passable(x, y); }), pts,
                segs, x0, y0, x1, y1);
}

template <class Boundary>
void boundary_runs(const Boundary& B, std::vector<P2>& pts, Segments& segs, int x0, int y0, int x1, int y1) {
  const int W = x1 - x0;
  std::vector<std::size_t> row_id(std::size_t(W) + 1);
  std::vector<int> row_of(std::size_t(W) + 1, y0 - 1);                   // line whose id row_id holds
  std::vector<std::size_t> open(std::size_t(W) + 1, ~std::size_t(0));   // start vertex of an open vertical run
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
      const bool h_edge = x < x1 && B.h_edge(x, y);
      const bool h_cut = h_edge && start >= 0 && B.h_cut(x, y);
      if (start >= 0 && (!h_edge || h_cut)) {
        segs.emplace_back(id(start), id(x));
        start = -1;
      }
      if (h_edge && start < 0) start = x;
      // vertical run on line x through the unit edge (x, y)-(x, y+1)
      std::size_t& op = open[std::size_t(x - x0)];
      const bool v_edge = y < y1 && B.v_edge(x, y);
      const bool v_cut = v_edge && op != ~std::size_t(0) && B.v_cut(x, y);
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

template <class FaceHandle>
P2 centroid(FaceHandle f) {
  const P2 &a = f->vertex(0)->point(), &b = f->vertex(1)->point(), &c = f->vertex(2)->point();
  return P2((a.x() + b.x() + c.x()) / 3.0, (a.y() + b.y() + c.y()) / 3.0);
}

// Grid maps: no face crosses a free/blocked boundary (every such unit edge is constrained), so a
// face is free iff the cell under its centroid is (the centroid of an integer triangle is k/3 for
// integers k: exact enough for floor()). Only cells of [x0, x1) x [y0, y1) count. Numbers the free
// faces from `next` on; returns the next number.
template <class FaceHandle>
bool grid_face_free(FaceHandle f, const GridMap& g, int x0, int y0, int x1, int y1) {
  const P2 c = centroid(f);
  const int cx = int(std::floor(c.x())), cy = int(std::floor(c.y()));
  return cx >= x0 && cx < x1 && cy >= y0 && cy < y1 && g.passable(cx, cy);
}
template <class Tri>
std::int32_t mark_grid_faces(Tri& cdt, const GridMap& g, int x0, int y0, int x1, int y1, std::int32_t next) {
  for (auto f : cdt.finite_face_handles())
    if (grid_face_free(f, g, x0, y0, x1, y1)) f->info().id = next++;
  return next;
}

// The numbered (domain) faces as arrays: corner vertex ids (vertex info) and the domain neighbour
// across each edge (-1 for infinite or non-domain faces).
template <class Tri>
void export_faces(const Tri& cdt, std::int32_t n, std::vector<std::array<std::uint32_t, 3>>& corners,
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
  std::vector<Cdt::Vertex_handle> vh;  // point id -> vertex (null: removed by an update)
  // Point-location hints: the point id of a vertex near the centre of each bucket of a coarse grid
  // over the map, so a locate walks a few triangles instead of crossing the map. (Vertices, not
  // faces: an update deletes faces in places it cannot list cheaply, but removes vertices itself.)
  std::vector<std::uint32_t> hint;
  double x0 = 0, y0 = 0, inv = 1;
  int bw = 0, bh = 0;
  // Grid maps, for update(): the bitmap the triangulation was made from, the free ids.
  bool grid = false;
  int W = 0, H = 0;
  // Per grid corner (x, y): bit 0 cell (x, y) is free (as triangulated); the others are update()
  // scratch, zero between updates (see FreeSpaceTriangulation::update). Made by the first update:
  // a map that never changes keeps none.
  std::vector<std::uint8_t> state;
  std::vector<std::uint32_t> free_points;
  std::vector<std::int32_t> free_ids;
  std::uint32_t epoch = 1;  // face stamps of an update: epoch (recorded), +1 (checked), +2 (written)
  bool corners_in = false;  // the map's corners are vertices

  // The domain face a point on vertex v joins. Where free space pinches at v (several fans of domain
  // faces, separated by obstacles), the fan that owns the point, by FreeSpace's rule (docs/maps.md
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
  // Hint buckets: about one bucket per two faces, each holding a corner of a face whose centroid
  // falls in it (buckets no centroid falls in, under large faces, take the previous bucket's).
  // Made at the build, and again when updates have grown the faces eightfold (a map built all
  // free has one bucket).
  void make_hints() {
    const P2& p0 = cdt.finite_vertices_begin()->point();
    double xmin = p0.x(), xmax = xmin, ymin = p0.y(), ymax = ymin;
    for (auto v : cdt.finite_vertex_handles()) {
      xmin = std::min(xmin, v->point().x()), xmax = std::max(xmax, v->point().x());
      ymin = std::min(ymin, v->point().y()), ymax = std::max(ymax, v->point().y());
    }
    const double wx = std::max(xmax - xmin, 1e-9), wy = std::max(ymax - ymin, 1e-9);
    const double buckets = std::max(1.0, double(cdt.number_of_faces()) / 2.0);
    const double side = std::sqrt(wx * wy / buckets);
    Cgal& c = *this;
    c.x0 = xmin, c.y0 = ymin;
    c.bw = std::clamp(int(std::ceil(wx / side)), 1, 4096);
    c.bh = std::clamp(int(std::ceil(wy / side)), 1, 4096);
    c.inv = std::min(double(c.bw) / wx, double(c.bh) / wy);
    const std::uint32_t none = ~std::uint32_t(0);
    c.hint.assign(std::size_t(c.bw) * c.bh, none);
    for (auto f : cdt.finite_face_handles()) {
      const P2 m = centroid(f);
      c.hint[c.bucket(m.x(), m.y())] = f->vertex(0)->info();
    }
    std::uint32_t last = cdt.finite_faces_begin()->vertex(0)->info();
    for (auto& h : c.hint) {
      if (h == none) h = last;
      else last = h;
    }
  }
  Face_handle hint_for(double x, double y) const {
    if (hint.empty()) return Face_handle();
    // (during an update a bucket's vertex may be gone: a bucket before it then)
    for (std::size_t b = bucket(x, y), k = 0; k < 16; ++k, b = b > 0 ? b - 1 : hint.size() - 1)
      if (const auto v = vh[hint[b]]; v != Cdt::Vertex_handle()) return v->face();
    return Face_handle();
  }
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
}

namespace {

// A constraint run on the grid: from corner (x0, y0) to (x1, y1), horizontal or vertical.
struct Run {
  int x0, y0, x1, y1;
  auto operator<=>(const Run&) const = default;
};

enum : std::uint8_t { kFree = 1, kChanged = 2, kSeen = 4 };

// The runs (as grid_constraints makes them on the whole map) that hold a corner of a changed cell,
// on the bitmap `free` (outside the map: blocked). done[corner] & hbit / vbit marks the horizontal
// / vertical unit edge from that corner as traced (cleared again before returning).
template <class Free>
void runs_through(const std::vector<CellChange>& changed, int W, int H, Free&& free, std::uint8_t* done, std::uint8_t hbit,
                  std::uint8_t vbit, std::vector<Run>& out) {
  const std::size_t S = std::size_t(W) + 1;
  const auto B = grid_boundary(free);
  const std::size_t first = out.size();
  for (const CellChange& ch : changed)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const int x = ch.x + dx, y = ch.y + dy;
        // (a corner whose cell (x, y) changed too is visited from that cell)
        if ((dx || dy) && x < W && y < H && (done[std::size_t(y) * S + std::size_t(x)] & kChanged)) continue;
        for (const int e : {x - 1, x}) {
          if (e < 0 || e >= W || (done[std::size_t(y) * S + std::size_t(e)] & hbit) || !B.h_edge(e, y)) continue;
          int a = e, b = e + 1;
          while (a > 0 && B.h_edge(a - 1, y) && !B.h_cut(a, y)) --a;
          while (b < W && B.h_edge(b, y) && !B.h_cut(b, y)) ++b;
          for (int k = a; k < b; ++k) done[std::size_t(y) * S + std::size_t(k)] |= hbit;
          out.push_back({a, y, b, y});
        }
        for (const int e : {y - 1, y}) {
          if (e < 0 || e >= H || (done[std::size_t(e) * S + std::size_t(x)] & vbit) || !B.v_edge(x, e)) continue;
          int a = e, b = e + 1;
          while (a > 0 && B.v_edge(x, a - 1) && !B.v_cut(x, a)) --a;
          while (b < H && B.v_edge(x, b) && !B.v_cut(x, b)) ++b;
          for (int k = a; k < b; ++k) done[std::size_t(k) * S + std::size_t(x)] |= vbit;
          out.push_back({x, a, x, b});
        }
      }
  for (std::size_t r = first; r < out.size(); ++r) {
    const Run& run = out[r];
    if (run.y0 == run.y1)
      for (int k = run.x0; k < run.x1; ++k) done[std::size_t(run.y0) * S + std::size_t(k)] &= std::uint8_t(~hbit);
    else
      for (int k = run.y0; k < run.y1; ++k) done[std::size_t(k) * S + std::size_t(run.x0)] &= std::uint8_t(~vbit);
  }
  std::sort(out.begin() + std::ptrdiff_t(first), out.end());
}

struct RecorderScope {
  explicit RecorderScope(Recorder* r) { g_recorder = r; }
  ~RecorderScope() { g_recorder = nullptr; }
};

}  // namespace

bool FreeSpaceTriangulation::update(const GridMap& g, const std::vector<CellChange>& changed) {
  Cgal& c = *cgal_;
  Cdt& cdt = c.cdt;
  if (!c.grid || g.width != c.W || g.height != c.H) return false;
  const int W = c.W, H = c.H;
  for (const CellChange& ch : changed)
    if (ch.x < 0 || ch.y < 0 || ch.x >= W || ch.y >= H) return false;
  delta_.removed.clear();
  delta_.removed_corners.clear();
  delta_.added.clear();
  if (changed.empty()) return true;

  const std::size_t S = std::size_t(W) + 1;
  if (c.state.empty()) {
    // The first update: the bitmap as triangulated is the new one but for the changed cells, whose
    // old value the triangulation holds: the face under a cell's centre is a domain face iff the
    // cell was free (no face crosses a cell's boundary; a centre lies on no grid line, so on no
    // constrained edge, and on no vertex).
    c.state.assign(S * std::size_t(H + 1), 0);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) c.state[std::size_t(y) * S + std::size_t(x)] = g.passable(x, y) ? kFree : 0;
    Face_handle hint;
    for (const CellChange& ch : changed) {
      bool was_free = false;
      if (cdt.dimension() == 2) {
        Cdt::Locate_type lt;
        int li = 0;
        const double x = ch.x + 0.5, y = ch.y + 0.5;
        const Face_handle f = cdt.locate(P2(x, y), lt, li, hint != Face_handle() ? hint : c.hint_for(x, y));
        if (lt == Cdt::FACE || lt == Cdt::EDGE) {
          was_free = f->info().id >= 0 || (lt == Cdt::EDGE && f->neighbor(li)->info().id >= 0);
          hint = f;
        } else if (lt == Cdt::VERTEX) {
          throw std::logic_error("navmesh update: a cell centre is a vertex");
        }
      }
      c.state[std::size_t(ch.y) * S + std::size_t(ch.x)] = was_free ? kFree : 0;
    }
  }

  // 1. The runs through a corner of a changed cell, before and after; only the differing ones change.
  std::uint8_t* state = c.state.data();
  std::vector<Run> before, after, gone, come;
  for (const CellChange& ch : changed) state[std::size_t(ch.y) * S + std::size_t(ch.x)] |= kChanged;
  runs_through(changed, W, H, [&](int x, int y) {
    return x >= 0 && y >= 0 && x < W && y < H && (state[std::size_t(y) * S + std::size_t(x)] & kFree);
  }, state, 16, 32, before);
  runs_through(changed, W, H, [&](int x, int y) { return x >= 0 && y >= 0 && x < W && y < H && g.passable(x, y); }, state, 16,
               32, after);
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(gone));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(come));
  for (const CellChange& ch : changed) {
    std::uint8_t& st = state[std::size_t(ch.y) * S + std::size_t(ch.x)];
    st = std::uint8_t((st & ~kFree) | (g.passable(ch.x, ch.y) ? kFree : 0));  // the map's value: a cell may be listed twice
  }
  // Spatially near runs one after another: each locate starts at the previous vertex.
  auto spatial = [](const Run& a, const Run& b) {
    return std::tuple(a.y0 >> 5, a.x0 >> 5, a.y0, a.x0) < std::tuple(b.y0 >> 5, b.x0 >> 5, b.y0, b.x0);
  };
  std::sort(gone.begin(), gone.end(), spatial);
  std::sort(come.begin(), come.end(), spatial);

  Cdt::Vertex_handle near;  // the last vertex found or made: the next locate starts there if near
  auto start = [&](double x, double y) {
    if (near != Cdt::Vertex_handle() && std::abs(near->point().x() - x) + std::abs(near->point().y() - y) < 16) return near->face();
    return c.hint_for(x, y);
  };
  auto vertex_at = [&](int x, int y) {
    Cdt::Locate_type lt;
    int li = 0;
    const Face_handle f = cdt.locate(P2(x, y), lt, li, start(x, y));
    if (lt != Cdt::VERTEX) throw std::logic_error("navmesh update: a constraint end is not a vertex");
    return near = f->vertex(li);
  };
  auto new_point_id = [&](Cdt::Vertex_handle v) {
    std::uint32_t id;
    if (!c.free_points.empty()) {
      id = c.free_points.back();
      c.free_points.pop_back();
    } else {
      id = std::uint32_t(points_.size());
      points_.emplace_back();
      c.vh.emplace_back();
    }
    v->info() = id;
    c.vh[id] = v;
    points_[id] = {v->point().x(), v->point().y()};
  };
  std::vector<std::uint32_t> made;  // ids of the vertices inserted
  auto insert_point = [&](int x, int y) {
    const std::size_t n = cdt.number_of_vertices();
    near = cdt.insert(P2(x, y), start(x, y));
    if (cdt.number_of_vertices() != n) new_point_id(near), made.push_back(near->info());
    return near;
  };

  Recorder rec;
  rec.epoch = c.epoch;
  std::size_t removed_vertices = 0;
  c.epoch += 3;
  {
    RecorderScope scope(&rec);
    // The map's corners stay vertices from the first update on: the convex hull stays the map's
    // rectangle, so removing vertices never lowers the dimension. (A corner that is no vertex lies
    // in blocked cells only, where no domain face sees it: the free space's triangles are unchanged.)
    if (!c.corners_in)
      for (const auto& [x, y] : {std::pair{0, 0}, {W, 0}, {W, H}, {0, H}}) insert_point(x, y);
    c.corners_in = true;
    // 2. Remove the old constraints, then the vertices no constraint needs any more.
    std::vector<Cdt::Vertex_handle> ends;
    for (const Run& r : gone) {
      const auto a = vertex_at(r.x0, r.y0), b = vertex_at(r.x1, r.y1);
      Face_handle f;
      int i = 0;
      if (!cdt.is_edge(a, b, f, i) || !f->is_constrained(i))
        throw std::logic_error("navmesh update: a constraint run is not one constrained edge");
      cdt.remove_constrained_edge(f, i);
      ends.push_back(a), ends.push_back(b);
    }
    std::vector<std::uint64_t> keep;  // ends of the new runs
    for (const Run& r : come)
      keep.push_back(std::uint64_t(r.y0) << 32 | std::uint32_t(r.x0)), keep.push_back(std::uint64_t(r.y1) << 32 | std::uint32_t(r.x1));
    std::sort(keep.begin(), keep.end());
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    for (const auto v : ends) {
      const int x = int(v->point().x()), y = int(v->point().y());
      if ((x == 0 || x == W) && (y == 0 || y == H)) continue;
      if (std::binary_search(keep.begin(), keep.end(), std::uint64_t(y) << 32 | std::uint32_t(x))) continue;
      if (cdt.are_there_incident_constraints(v)) continue;
      const std::uint32_t id = v->info();
      if (near == v) near = Cdt::Vertex_handle();
      cdt.remove(v);
      c.vh[id] = Cdt::Vertex_handle();
      c.free_points.push_back(id);
      ++removed_vertices;
    }
    // 3. Insert the new constraints.
    for (const Run& r : come) {
      const auto a = insert_point(r.x0, r.y0), b = insert_point(r.x1, r.y1);
      const std::size_t n = cdt.number_of_vertices();
      cdt.insert_constraint(a, b);
      if (cdt.number_of_vertices() != n) throw std::logic_error("navmesh update: a new constraint crosses another");
    }
  }

  // Hints: new vertices take their buckets; buckets whose vertex went take the previous bucket's.
  if (!c.hint.empty())
    for (const std::uint32_t id : made)
      if (c.vh[id] != Cdt::Vertex_handle()) c.hint[c.bucket(points_[id].x, points_[id].y)] = id;
  if (removed_vertices > 0) {
    std::uint32_t last = near != Cdt::Vertex_handle() ? near->info() : cdt.finite_vertices_begin()->info();
    for (auto& h : c.hint) {
      if (c.vh[h] == Cdt::Vertex_handle()) h = last;
      else last = h;
    }
  }
  if (cdt.dimension() == 2 && cdt.number_of_faces() > 8 * std::max<std::size_t>(c.hint.size(), 1)) c.make_hints();

  // 4. Domain marks. A face is free iff the cell under its centroid is (as mark_grid_faces). The
  // faces to check: those CGAL recorded, and the face at the centre of every changed cell; from
  // each whose mark was wrong, the flood over unconstrained edges goes on while marks are wrong.
  // Why that is all: an unrecorded face kept its vertices, neighbours and constraint marks; if its
  // mark is wrong, so is every face it reaches over an unconstrained edge, up to a recorded face
  // (then found from there) or all round a region bounded by unchanged constraints, which is then a
  // union of flipped cells (found from a changed cell's centre).
  const std::uint32_t checked = rec.epoch + 1;
  auto& faces = cdt.tds().faces();
  std::vector<Face_handle> seeds, stack, flipped;
  for (void* p : rec.touched) {
    const auto it = faces.iterator_to(*static_cast<Tds::Face*>(p));
    if (faces.is_used(it)) seeds.push_back(it);
  }
  const std::size_t recorded = seeds.size();
  // A region with no recorded face is bounded by unchanged constraints and holds only changed cells
  // whose four neighbours changed too (a changed cell beside an unchanged one or the map's edge has
  // a boundary edge that appeared or went, whose faces were recorded); one cell centre per
  // 4-connected group of such cells of one value finds it.
  auto interior = [&](int x, int y) {
    if (x <= 0 || y <= 0 || x >= W - 1 || y >= H - 1) return false;
    const std::size_t i = std::size_t(y) * S + std::size_t(x);
    return (state[i - 1] & state[i + 1] & state[i - S] & state[i + S] & kChanged) != 0;
  };
  std::vector<std::pair<int, int>> group;
  for (const CellChange& ch : changed) {
    if ((state[std::size_t(ch.y) * S + std::size_t(ch.x)] & kSeen) || !interior(ch.x, ch.y)) continue;
    const double x = ch.x + 0.5, y = ch.y + 0.5;
    Cdt::Locate_type lt;
    int li = 0;
    seeds.push_back(cdt.locate(P2(x, y), lt, li, start(x, y)));
    near = seeds.back()->vertex(0);
    const bool v = g.passable(ch.x, ch.y);
    state[std::size_t(ch.y) * S + std::size_t(ch.x)] |= kSeen;
    group.assign(1, {ch.x, ch.y});
    while (!group.empty()) {
      const auto [gx, gy] = group.back();
      group.pop_back();
      for (const auto& [nx, ny] : {std::pair{gx - 1, gy}, {gx + 1, gy}, {gx, gy - 1}, {gx, gy + 1}}) {
        std::uint8_t& st = state[std::size_t(ny) * S + std::size_t(nx)];
        if ((st & kSeen) || !(st & kChanged) || g.passable(nx, ny) != v || !interior(nx, ny)) continue;
        st |= kSeen;
        group.push_back({nx, ny});
      }
    }
  }
  for (const CellChange& ch : changed) state[std::size_t(ch.y) * S + std::size_t(ch.x)] &= kFree;
  auto truth = [&](Face_handle f) { return !cdt.is_infinite(f) && grid_face_free(f, g, 0, 0, W, H); };
  // (ids that die in this update join c.free_ids only at its end: reused from the next one on)
  std::vector<std::int32_t> died = std::move(rec.freed), born;
  auto fix = [&](Face_handle f) {
    if (f->info().id >= 0) {
      died.push_back(f->info().id);
      f->info().id = -1;
    } else if (!c.free_ids.empty()) {
      f->info().id = c.free_ids.back();
      c.free_ids.pop_back();
      born.push_back(f->info().id);
    } else {
      f->info().id = std::int32_t(corners_.size());
      corners_.push_back({kDead, kDead, kDead});
      neighbors_.push_back({-1, -1, -1});
      born.push_back(f->info().id);
    }
    flipped.push_back(f);
  };
  for (const Face_handle s0 : seeds) {
    if (s0->info().stamp == checked) continue;
    s0->info().stamp = checked;
    if (truth(s0) == (s0->info().id >= 0)) continue;
    fix(s0);
    stack.assign(1, s0);
    while (!stack.empty()) {
      const Face_handle f = stack.back();
      stack.pop_back();
      for (int i = 0; i < 3; ++i) {
        const Face_handle n = f->neighbor(i);
        if (f->is_constrained(i) || n->info().stamp == checked) continue;
        n->info().stamp = checked;
        if (truth(n) == (n->info().id >= 0)) continue;
        fix(n);
        stack.push_back(n);
      }
    }
  }

  // 5. The rows to write: recorded and flipped faces, and the neighbours of flipped ones.
  std::vector<Face_handle> rows(seeds.begin(), seeds.begin() + std::ptrdiff_t(recorded));
  for (const Face_handle f : flipped) {
    rows.push_back(f);
    for (int i = 0; i < 3; ++i) rows.push_back(f->neighbor(i));
  }
  std::sort(born.begin(), born.end());
  for (const std::int32_t t : died) {
    delta_.removed.push_back(std::uint32_t(t));
    delta_.removed_corners.push_back(corners_[std::size_t(t)]);
  }
  for (const std::int32_t t : died) {
    corners_[std::size_t(t)] = {kDead, kDead, kDead};
    neighbors_[std::size_t(t)] = {-1, -1, -1};
  }
  const std::uint32_t written = rec.epoch + 2;
  for (const Face_handle f : rows) {
    const std::int32_t t = f->info().id;
    if (t < 0 || f->info().stamp == written) continue;
    f->info().stamp = written;
    std::array<std::uint32_t, 3> cs;
    std::array<std::int32_t, 3> ns;
    for (int i = 0; i < 3; ++i) cs[i] = f->vertex(i)->info(), ns[i] = f->neighbor(i)->info().id;
    const bool is_new = std::binary_search(born.begin(), born.end(), t);
    if (!is_new && cs == corners_[std::size_t(t)] && ns == neighbors_[std::size_t(t)]) continue;
    if (!is_new) {
      delta_.removed.push_back(std::uint32_t(t));
      delta_.removed_corners.push_back(corners_[std::size_t(t)]);
    }
    delta_.added.push_back(std::uint32_t(t));
    corners_[std::size_t(t)] = cs;
    neighbors_[std::size_t(t)] = ns;
  }
  c.free_ids.insert(c.free_ids.end(), died.begin(), died.end());
  flood_components();
  return true;
}

void FreeSpaceTriangulation::triangles_around(std::uint32_t v, std::vector<std::int32_t>& out) const {
  out.clear();
  if (!point_alive(v)) return;
  const Cdt& cdt = cgal_->cdt;
  auto fc = cdt.incident_faces(cgal_->vh[v]), done = fc;
  do out.push_back(cdt.is_infinite(fc) ? -1 : fc->info().id);
  while (++fc != done);
}

bool FreeSpaceTriangulation::point_alive(std::uint32_t v) const {
  return v < cgal_->vh.size() && cgal_->vh[v] != Cdt::Vertex_handle();
}

bool FreeSpaceTriangulation::valid_for_tests() const {
  const Cdt& cdt = cgal_->cdt;
  if (!cdt.is_valid()) return false;
  std::vector<std::uint8_t> seen(corners_.size(), 0);
  for (auto f : cdt.finite_face_handles()) {
    const std::int32_t t = f->info().id;
    if (t < 0) continue;
    if (std::size_t(t) >= corners_.size() || seen[std::size_t(t)]++) return false;
    for (int i = 0; i < 3; ++i) {
      if (corners_[std::size_t(t)][i] != f->vertex(i)->info() || neighbors_[std::size_t(t)][i] != f->neighbor(i)->info().id) return false;
      if (cgal_->vh[f->vertex(i)->info()] != f->vertex(i)) return false;
    }
  }
  for (std::size_t t = 0; t < corners_.size(); ++t)
    if (bool(seen[t]) != alive(std::uint32_t(t))) return false;
  return true;
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
         cgal_->hint.capacity() * 4 + cgal_->vh.capacity() * sizeof(Cdt::Vertex_handle) + cgal_->state.capacity() +
         (cgal_->free_points.capacity() + cgal_->free_ids.capacity()) * 4 + points_.capacity() * sizeof(Point) +
         corners_.capacity() * sizeof(corners_[0]) + neighbors_.capacity() * sizeof(neighbors_[0]) +
         component_.capacity() * sizeof(std::int32_t);
}

}  // namespace navbench
