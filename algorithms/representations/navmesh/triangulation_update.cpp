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

// The root of k in a union-find forest p (path halving).
std::uint32_t uf_find(std::vector<std::uint32_t>& p, std::uint32_t k) {
  while (p[k] != k) k = p[k] = p[p[k]];
  return k;
}

}  // namespace

// One update()'s steps and what they share: the map, the changed cells, the runs that go and come,
// the last vertex found (locates start there), the faces to mark and to write.
struct FreeSpaceTriangulation::Update {
  FreeSpaceTriangulation& tri;
  Cgal& c;
  Cdt& cdt;
  const GridMap& g;
  const std::vector<CellChange>& changed;
  const int W, H;
  const std::size_t S;  // row stride of the per-corner state
  std::uint8_t* state = nullptr;
  std::vector<Run> gone, come;
  Cdt::Vertex_handle near;  // the last vertex found or made: the next locate starts there if near
  std::vector<std::uint32_t> made;  // ids of the vertices inserted
  Recorder rec;
  std::size_t removed_vertices = 0;
  std::vector<Face_handle> seeds, stack, flipped;
  std::size_t recorded = 0;  // seeds[0, recorded): the faces CGAL recorded
  // (ids that die in this update join c.upd.free_ids only at its end: reused from the next one on)
  std::vector<std::int32_t> died, born;

  Update(FreeSpaceTriangulation& t, const GridMap& map, const std::vector<CellChange>& ch)
      : tri(t), c(*t.cgal_), cdt(c.cdt), g(map), changed(ch), W(c.W), H(c.H), S(std::size_t(W) + 1) {}

  std::uint8_t& at(int x, int y) { return state[std::size_t(y) * S + std::size_t(x)]; }
  void first_bitmap();
  void trace_runs();
  Face_handle start(double x, double y);
  Cdt::Vertex_handle vertex_at(int x, int y);
  void new_point_id(Cdt::Vertex_handle v);
  Cdt::Vertex_handle insert_point(int x, int y);
  void remove_runs();
  void insert_runs();
  void refresh_hints();
  void seed_regions();
  bool truth(Face_handle f) const { return !cdt.is_infinite(f) && grid_face_free(f, g, 0, 0, W, H); }
  void fix(Face_handle f);
  void mark_faces();
  void write_rows();
};

bool FreeSpaceTriangulation::update(const GridMap& g, const std::vector<CellChange>& changed) {
  Cgal& c = *cgal_;
  if (!c.grid || g.width != c.W || g.height != c.H) return false;
  for (const CellChange& ch : changed)
    if (ch.x < 0 || ch.y < 0 || ch.x >= c.W || ch.y >= c.H) return false;
  delta_.removed.clear();
  delta_.removed_corners.clear();
  delta_.removed_neighbors.clear();
  delta_.added.clear();
  if (changed.empty()) return true;

  Update u(*this, g, changed);
  if (c.upd.state.empty()) u.first_bitmap();
  u.trace_runs();
  u.rec.epoch = c.upd.epoch;
  c.upd.epoch += 3;
  {
    RecorderScope scope(&u.rec);
    // The map's corners stay vertices from the first update on: the convex hull stays the map's
    // rectangle, so removing vertices never lowers the dimension. (A corner that is no vertex lies
    // in blocked cells only, where no domain face sees it: the free space's triangles are unchanged.)
    if (!c.upd.corners_in)
      for (const auto& [x, y] : {std::pair{0, 0}, {c.W, 0}, {c.W, c.H}, {0, c.H}}) u.insert_point(x, y);
    c.upd.corners_in = true;
    u.remove_runs();
    u.insert_runs();
  }
  u.refresh_hints();
  u.seed_regions();
  u.mark_faces();
  u.write_rows();
  update_components();
  return true;
}

// The components after an update, from the rows write_rows changed (delta_: the rows that died
// or changed, R, with their corners and neighbours before, and the rows that are new or changed,
// B). A row that did not change kept its neighbours (a neighbour that died or changed rewrites the
// row), so the graph of unchanged rows lost only edges into R. An old component K keeps its
// triangles of unchanged rows connected when, for each blob of R (R's rows joined by their old
// neighbours), the unchanged triangles next to the blob are joined to one another now: a path of
// K between two of its unchanged triangles leaves and enters R's blobs only at such triangles. Walks
// from those triangles (one step each in turn, joining where they meet: union-find) check that,
// and stay near the change. Then the new components are the old ones joined through B: B's rows
// with their neighbours (unchanged triangles give their component) by union-find; each union takes
// the id of its largest old component, and a flood from B relabels the smaller ones (it stops at
// triangles holding that id). When the walks go on past a quarter of the triangles (a change that
// may cut a component in two), every component is flooded again.
void FreeSpaceTriangulation::update_components() {
  const std::size_t T = corners_.size();
  component_.resize(T, -1);
  seen_.resize(T, 0);
  walk_of_.resize(T);
  // Ids without a triangle: those of earlier updates serve the components made here; those freed
  // here only from the next update on.
  std::vector<std::int32_t> freed;
  auto grow = [&](std::int32_t c, std::int32_t d) {  // component c gains d triangles
    if (c < 0) return;
    std::uint32_t& n = component_size_[std::size_t(c)];
    if (n == 0 && d > 0) ++num_components_;
    n = std::uint32_t(std::int64_t(n) + d);
    if (n == 0 && d < 0) --num_components_, freed.push_back(c);
  };
  auto new_id = [&] {
    if (!free_ids_.empty()) {
      const std::int32_t id = free_ids_.back();
      free_ids_.pop_back();
      return id;
    }
    component_size_.push_back(0);
    return std::int32_t(component_size_.size() - 1);
  };
  struct Keep {  // hands the ids freed here to the next update
    std::vector<std::int32_t>& from;
    std::vector<std::int32_t>& to;
    ~Keep() { to.insert(to.end(), from.begin(), from.end()); }
  } keep{freed, free_ids_};
  const std::vector<std::uint32_t>& R = delta_.removed;
  for (const std::uint32_t t : R)
    if (const std::int32_t c = component_[t]; c >= 0) grow(c, -1), component_[t] = -1;
  if (stamp_ > ~std::uint32_t(0) - 2) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 0;
  const std::uint32_t in_r = ++stamp_, met = ++stamp_;
  for (const std::uint32_t t : R) seen_[t] = in_r;

  if (!blobs_stay_joined(in_r, met)) {  // two walks that do not meet, or a long way round
    freed.clear();
    flood_components();
    return;
  }
  std::vector<std::uint32_t>& pos = pos_;  // triangle -> its position in B (sized by blobs_stay_joined)
  // The new components: B's rows joined with each other and with the components of the unchanged
  // triangles next to them (union-find over B's positions and, after them, those components).
  std::vector<std::uint32_t> b;
  for (const std::uint32_t t : delta_.added)
    if (alive(t)) b.push_back(t);
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  if (b.empty()) return;
  for (std::uint32_t i = 0; i < b.size(); ++i) pos[b[i]] = i;
  if (stamp_ == ~std::uint32_t(0)) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 0;
  const std::uint32_t in_b = ++stamp_;
  for (const std::uint32_t t : b) seen_[t] = in_b;
  const std::size_t nb = b.size();
  std::vector<std::int32_t> comps;  // the components next to B
  for (const std::uint32_t t : b)
    for (const std::int32_t n : neighbors_[t])
      if (n >= 0 && seen_[std::size_t(n)] != in_b) comps.push_back(component_[std::size_t(n)]);
  std::sort(comps.begin(), comps.end());
  comps.erase(std::unique(comps.begin(), comps.end()), comps.end());
  auto comp_index = [&](std::int32_t c) {
    return std::uint32_t(nb + std::size_t(std::lower_bound(comps.begin(), comps.end(), c) - comps.begin()));
  };
  std::vector<std::uint32_t> uf(nb + comps.size());
  for (std::uint32_t k = 0; k < uf.size(); ++k) uf[k] = k;
  for (std::uint32_t i = 0; i < nb; ++i)
    for (const std::int32_t n : neighbors_[b[i]]) {
      if (n < 0) continue;
      const std::uint32_t other = seen_[std::size_t(n)] == in_b ? pos[std::size_t(n)] : comp_index(component_[std::size_t(n)]);
      uf[uf_find(uf, i)] = uf_find(uf, other);
    }
  // Per union: the largest old component in it keeps its id (else a new id).
  std::vector<std::int32_t> target(uf.size(), -1);
  for (std::uint32_t k = 0; k < comps.size(); ++k) {
    std::int32_t& t = target[uf_find(uf, std::uint32_t(nb + k))];
    if (t < 0 || component_size_[std::size_t(comps[k])] > component_size_[std::size_t(t)]) t = comps[k];
  }
  std::vector<std::uint32_t> stack;
  for (std::uint32_t i = 0; i < nb; ++i) {
    std::int32_t& t = target[uf_find(uf, i)];
    if (t < 0) t = new_id();
    component_[b[i]] = t, grow(t, 1);
    stack.push_back(b[i]);
  }
  while (!stack.empty()) {  // relabel the smaller components of each union
    const std::uint32_t u = stack.back();
    stack.pop_back();
    const std::int32_t t = component_[u];
    for (int i = 0; i < 3; ++i) {
      const std::int32_t n = neighbors_[u][i];
      if (n < 0 || component_[std::size_t(n)] == t) continue;
      grow(component_[std::size_t(n)], -1);
      component_[std::size_t(n)] = t;
      grow(t, 1);
      stack.push_back(std::uint32_t(n));
    }
  }
}

// update_components' walks (above): R's blobs, the unchanged triangles next to each, and one
// breadth-first search from all of them until each blob's are joined.
bool FreeSpaceTriangulation::blobs_stay_joined(std::uint32_t in_r, std::uint32_t met) {
  const std::size_t T = corners_.size();
  const std::vector<std::uint32_t>& R = delta_.removed;
  // R's blobs (union-find over R's positions, by their old neighbours), and the unchanged
  // triangles next to each blob (the walks' starts).
  std::vector<std::uint32_t>& pos = pos_;  // triangle -> its position in R (where seen_ == in_r), later in B
  pos.resize(T);
  for (std::uint32_t i = 0; i < R.size(); ++i) pos[R[i]] = i;
  std::vector<std::uint32_t> blob(R.size());
  for (std::uint32_t i = 0; i < R.size(); ++i) blob[i] = i;
  for (std::uint32_t i = 0; i < R.size(); ++i)
    for (const std::int32_t n : delta_.removed_neighbors[i])
      if (n >= 0 && seen_[std::size_t(n)] == in_r) blob[uf_find(blob, i)] = uf_find(blob, pos[std::size_t(n)]);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> starts;  // (blob, triangle)
  for (std::uint32_t i = 0; i < R.size(); ++i)
    for (const std::int32_t n : delta_.removed_neighbors[i])
      if (n >= 0 && seen_[std::size_t(n)] != in_r) starts.push_back({uf_find(blob, i), std::uint32_t(n)});
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  // The walks, as one breadth-first search from every start (union-find over the starts: walk_of_
  // names the start whose walk met a triangle first), until each blob's starts are in one walk.
  const std::uint32_t W = std::uint32_t(starts.size());
  std::vector<std::uint32_t> parent(W);
  std::vector<std::uint32_t>& queue = queue_;
  queue.clear();
  for (std::uint32_t k = 0; k < W; ++k) {
    parent[k] = k;
    const std::uint32_t t = starts[k].second;
    if (seen_[t] == met) parent[k] = uf_find(parent, walk_of_[t]);  // another walk starts here: the same walk
    else seen_[t] = met, walk_of_[t] = k, queue.push_back(t);
  }
  auto satisfied = [&] {
    for (std::uint32_t k = 1; k < W; ++k)
      if (starts[k].first == starts[k - 1].first && uf_find(parent, k) != uf_find(parent, k - 1)) return false;
    return true;
  };
  bool done = satisfied();
  for (std::size_t head = 0; !done; ++head) {
    if (head == queue.size() || queue.size() > T / 4) return false;  // two walks that do not meet, or a long way round
    const std::uint32_t u = queue[head];
    const std::uint32_t r = uf_find(parent, walk_of_[u]);
    for (int i = 0; i < 3 && !done; ++i) {
      const std::int32_t n = neighbors_[u][i];
      if (n < 0) continue;
      if (seen_[std::size_t(n)] != met) {
        seen_[std::size_t(n)] = met, walk_of_[std::size_t(n)] = r, queue.push_back(std::uint32_t(n));
      } else if (const std::uint32_t q = uf_find(parent, walk_of_[std::size_t(n)]); q != r) {
        parent[q] = r;
        done = satisfied();
      }
    }
  }
  return true;
}

// The first update: the bitmap as triangulated is the new one but for the changed cells, whose
// old value the triangulation holds: the face under a cell's centre is a domain face iff the
// cell was free (no face crosses a cell's boundary; a centre lies on no grid line, so on no
// constrained edge, and on no vertex).
void FreeSpaceTriangulation::Update::first_bitmap() {
  c.upd.state.assign(S * std::size_t(H + 1), 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) c.upd.state[std::size_t(y) * S + std::size_t(x)] = g.passable(x, y) ? kFree : 0;
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
    c.upd.state[std::size_t(ch.y) * S + std::size_t(ch.x)] = was_free ? kFree : 0;
  }
}

// 1. The runs through a corner of a changed cell, before and after; only the differing ones change.
void FreeSpaceTriangulation::Update::trace_runs() {
  state = c.upd.state.data();
  std::vector<Run> before, after;
  for (const CellChange& ch : changed) at(ch.x, ch.y) |= kChanged;
  runs_through(changed, W, H, [&](int x, int y) {
    return x >= 0 && y >= 0 && x < W && y < H && (state[std::size_t(y) * S + std::size_t(x)] & kFree);
  }, state, 16, 32, before);
  runs_through(changed, W, H, [&](int x, int y) { return x >= 0 && y >= 0 && x < W && y < H && g.passable(x, y); }, state, 16,
               32, after);
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(gone));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(come));
  for (const CellChange& ch : changed) {
    std::uint8_t& st = at(ch.x, ch.y);
    st = std::uint8_t((st & ~kFree) | (g.passable(ch.x, ch.y) ? kFree : 0));  // the map's value: a cell may be listed twice
  }
  // Spatially near runs one after another: each locate starts at the previous vertex.
  auto spatial = [](const Run& a, const Run& b) {
    return std::tuple(a.y0 >> 5, a.x0 >> 5, a.y0, a.x0) < std::tuple(b.y0 >> 5, b.x0 >> 5, b.y0, b.x0);
  };
  std::sort(gone.begin(), gone.end(), spatial);
  std::sort(come.begin(), come.end(), spatial);
}

Face_handle FreeSpaceTriangulation::Update::start(double x, double y) {
  if (near != Cdt::Vertex_handle() && std::abs(near->point().x() - x) + std::abs(near->point().y() - y) < 16) return near->face();
  return c.hint_for(x, y);
}

Cdt::Vertex_handle FreeSpaceTriangulation::Update::vertex_at(int x, int y) {
  Cdt::Locate_type lt;
  int li = 0;
  const Face_handle f = cdt.locate(P2(x, y), lt, li, start(x, y));
  if (lt != Cdt::VERTEX) throw std::logic_error("navmesh update: a constraint end is not a vertex");
  return near = f->vertex(li);
}

void FreeSpaceTriangulation::Update::new_point_id(Cdt::Vertex_handle v) {
  std::uint32_t id;
  if (!c.upd.free_points.empty()) {
    id = c.upd.free_points.back();
    c.upd.free_points.pop_back();
  } else {
    id = std::uint32_t(tri.points_.size());
    tri.points_.emplace_back();
    c.vh.emplace_back();
  }
  v->info() = id;
  c.vh[id] = v;
  tri.points_[id] = {v->point().x(), v->point().y()};
}

Cdt::Vertex_handle FreeSpaceTriangulation::Update::insert_point(int x, int y) {
  const std::size_t n = cdt.number_of_vertices();
  near = cdt.insert(P2(x, y), start(x, y));
  if (cdt.number_of_vertices() != n) new_point_id(near), made.push_back(near->info());
  return near;
}

// 2. Remove the old constraints, then the vertices no constraint needs any more.
void FreeSpaceTriangulation::Update::remove_runs() {
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
  // By position, not by handle: a handle is an address, and the order of the removals (with it the
  // triangles left where points are cocircular) would follow the allocator's state.
  std::sort(ends.begin(), ends.end(), [](Cdt::Vertex_handle a, Cdt::Vertex_handle b) {
    return std::pair(a->point().y(), a->point().x()) < std::pair(b->point().y(), b->point().x());
  });
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
    c.upd.free_points.push_back(id);
    ++removed_vertices;
  }
}

// 3. Insert the new constraints.
void FreeSpaceTriangulation::Update::insert_runs() {
  for (const Run& r : come) {
    const auto a = insert_point(r.x0, r.y0), b = insert_point(r.x1, r.y1);
    const std::size_t n = cdt.number_of_vertices();
    cdt.insert_constraint(a, b);
    if (cdt.number_of_vertices() != n) throw std::logic_error("navmesh update: a new constraint crosses another");
  }
}

// Hints: new vertices take their buckets; buckets whose vertex went take the previous bucket's.
void FreeSpaceTriangulation::Update::refresh_hints() {
  if (!c.hint.empty())
    for (const std::uint32_t id : made)
      if (c.vh[id] != Cdt::Vertex_handle()) c.hint[c.bucket(tri.points_[id].x, tri.points_[id].y)] = id;
  if (removed_vertices > 0) {
    std::uint32_t last = near != Cdt::Vertex_handle() ? near->info() : cdt.finite_vertices_begin()->info();
    for (auto& h : c.hint) {
      if (c.vh[h] == Cdt::Vertex_handle()) h = last;
      else last = h;
    }
  }
  if (cdt.dimension() == 2 && cdt.number_of_faces() > 8 * std::max<std::size_t>(c.hint.size(), 1)) c.make_hints();
}

// 4a. The faces whose domain marks may be wrong. A face is free iff the cell under its centroid is
// (as mark_grid_faces). The faces to check: those CGAL recorded, and the face at the centre of
// every changed cell; from each whose mark was wrong, the flood over unconstrained edges goes on
// while marks are wrong (mark_faces). Why that is all: an unrecorded face kept its vertices,
// neighbours and constraint marks; if its mark is wrong, so is every face it reaches over an
// unconstrained edge, up to a recorded face (then found from there) or all round a region bounded
// by unchanged constraints, which is then a union of flipped cells (found from a changed cell's
// centre).
void FreeSpaceTriangulation::Update::seed_regions() {
  auto& faces = cdt.tds().faces();
  for (void* p : rec.touched) {
    const auto it = faces.iterator_to(*static_cast<Tds::Face*>(p));
    if (faces.is_used(it)) seeds.push_back(it);
  }
  recorded = seeds.size();
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
    if ((at(ch.x, ch.y) & kSeen) || !interior(ch.x, ch.y)) continue;
    const double x = ch.x + 0.5, y = ch.y + 0.5;
    Cdt::Locate_type lt;
    int li = 0;
    seeds.push_back(cdt.locate(P2(x, y), lt, li, start(x, y)));
    near = seeds.back()->vertex(0);
    const bool v = g.passable(ch.x, ch.y);
    at(ch.x, ch.y) |= kSeen;
    group.assign(1, {ch.x, ch.y});
    while (!group.empty()) {
      const auto [gx, gy] = group.back();
      group.pop_back();
      for (const auto& [nx, ny] : {std::pair{gx - 1, gy}, {gx + 1, gy}, {gx, gy - 1}, {gx, gy + 1}}) {
        std::uint8_t& st = at(nx, ny);
        if ((st & kSeen) || !(st & kChanged) || g.passable(nx, ny) != v || !interior(nx, ny)) continue;
        st |= kSeen;
        group.push_back({nx, ny});
      }
    }
  }
  for (const CellChange& ch : changed) at(ch.x, ch.y) &= kFree;
}

// A face whose mark was wrong: a domain face leaves the domain (its id dies), another joins it
// (a free id, or a new one).
void FreeSpaceTriangulation::Update::fix(Face_handle f) {
  if (f->info().id >= 0) {
    died.push_back(f->info().id);
    f->info().id = -1;
  } else if (!c.upd.free_ids.empty()) {
    f->info().id = c.upd.free_ids.back();
    c.upd.free_ids.pop_back();
    born.push_back(f->info().id);
  } else {
    f->info().id = std::int32_t(tri.corners_.size());
    tri.corners_.push_back({kDead, kDead, kDead});
    tri.neighbors_.push_back({-1, -1, -1});
    born.push_back(f->info().id);
  }
  flipped.push_back(f);
}

// 4b. From each seed whose mark is wrong, the flood over unconstrained edges while marks are wrong.
void FreeSpaceTriangulation::Update::mark_faces() {
  const std::uint32_t checked = rec.epoch + 1;
  died = std::move(rec.freed);
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
}

// 5. The rows to write: recorded and flipped faces, and the neighbours of flipped ones.
void FreeSpaceTriangulation::Update::write_rows() {
  auto& corners_ = tri.corners_;
  auto& neighbors_ = tri.neighbors_;
  Delta& delta_ = tri.delta_;
  std::vector<Face_handle> rows(seeds.begin(), seeds.begin() + std::ptrdiff_t(recorded));
  for (const Face_handle f : flipped) {
    rows.push_back(f);
    for (int i = 0; i < 3; ++i) rows.push_back(f->neighbor(i));
  }
  std::sort(born.begin(), born.end());
  for (const std::int32_t t : died) {
    delta_.removed.push_back(std::uint32_t(t));
    delta_.removed_corners.push_back(corners_[std::size_t(t)]);
    delta_.removed_neighbors.push_back(neighbors_[std::size_t(t)]);
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
      delta_.removed_neighbors.push_back(neighbors_[std::size_t(t)]);
    }
    delta_.added.push_back(std::uint32_t(t));
    corners_[std::size_t(t)] = cs;
    neighbors_[std::size_t(t)] = ns;
  }
  c.upd.free_ids.insert(c.upd.free_ids.end(), died.begin(), died.end());
}

}  // namespace navbench
