// What the CGAL translation units of the navmesh share (triangulation.cpp: the build;
// triangulation_query.cpp: point location; triangulation_update.cpp: changing maps): the kernel and
// triangulation types, the recording faces of an update, the grid boundary rules, the domain marks,
// and the CGAL state behind FreeSpaceTriangulation. Included by those three files only: navmesh.hpp
// stays CGAL-free.
#pragma once
#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "representations/navmesh/navmesh.hpp"

namespace navbench::navmesh_detail {


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
inline thread_local Recorder* g_recorder = nullptr;

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

inline void grid_constraints(const GridMap& g, std::vector<P2>& pts, Segments& segs, int x0, int y0, int x1, int y1) {
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

}  // namespace navbench::navmesh_detail

namespace navbench {

struct FreeSpaceTriangulation::Cgal {
  using Cdt = navmesh_detail::Cdt;
  using Face_handle = navmesh_detail::Face_handle;
  using P2 = navmesh_detail::P2;
  Cdt cdt;
  std::vector<Cdt::Vertex_handle> vh;  // point id -> vertex (null: removed by an update)
  // Point-location hints: the point id of a vertex near the centre of each bucket of a coarse grid
  // over the map, so a locate walks a few triangles instead of crossing the map. (Vertices, not
  // faces: an update deletes faces in places it cannot list cheaply, but removes vertices itself.)
  std::vector<std::uint32_t> hint;
  double x0 = 0, y0 = 0, inv = 1;
  int bw = 0, bh = 0;
  // Grid maps, for update(): the map's size.
  bool grid = false;
  int W = 0, H = 0;
  // What only update() keeps (triangulation_update.cpp): the bitmap the triangulation was made
  // from, the free ids.
  struct UpdateState {
    // Per grid corner (x, y): bit 0 cell (x, y) is free (as triangulated); the others are update()
    // scratch, zero between updates (see FreeSpaceTriangulation::update). Made by the first update:
    // a map that never changes keeps none.
    std::vector<std::uint8_t> state;
    std::vector<std::uint32_t> free_points;
    std::vector<std::int32_t> free_ids;
    std::uint32_t epoch = 1;  // face stamps of an update: epoch (recorded), +1 (checked), +2 (written)
    bool corners_in = false;  // the map's corners are vertices
  };
  UpdateState upd;

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
      const P2 m = navmesh_detail::centroid(f);
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

}  // namespace navbench
