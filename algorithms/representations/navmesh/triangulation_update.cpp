// FreeSpaceTriangulation::update (docs/changing-maps.md): the triangulation edited in place where
// grid cells changed (CGAL, types in cgal.hpp).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <tuple>

#include "representations/navmesh/cgal.hpp"
#include "representations/navmesh/navmesh.hpp"

namespace navbench {

using namespace navmesh_detail;

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

}  // namespace navbench
