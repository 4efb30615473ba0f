// PolygonVisibility (visibility.hpp): the free space's constrained Delaunay triangulation (CGAL,
// this file only: compiled outside the core's batch) copied into flat arrays, and the triangular
// expansion over them.
#include "geometry/visibility.hpp"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "geometry/exact.hpp"
#include "geometry/free_space.hpp"

namespace navbench {

using exact::orient2d;

namespace {

// Exact predicates, double constructions: the rings' points are inserted as they are and no
// constraint crosses another (FreeSpace's rings meet only at shared vertices), so no point is made.
using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using P2 = K::Point_2;
using Vb = CGAL::Triangulation_vertex_base_with_info_2<std::uint32_t, K>;
using Fb = CGAL::Triangulation_face_base_with_info_2<std::int32_t, K, CGAL::Constrained_triangulation_face_base_2<K>>;
using Tds = CGAL::Triangulation_data_structure_2<Vb, Fb>;
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<K, Tds, CGAL::No_constraint_intersection_tag>;

inline int ccw3(int k) { return k == 2 ? 0 : k + 1; }
inline int cw3(int k) { return k == 0 ? 2 : k - 1; }

// p lies on the closed segment a-b, given that the three are collinear.
inline bool between(Point a, Point b, Point p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}
inline int sgn(double v) { return (v > 0) - (v < 0); }
// q lies on the ray from p through r (not behind p), given that the three are collinear: exact, the
// sign of a difference of doubles is exact.
inline bool ahead(Point p, Point r, Point q) { return sgn(q.x - p.x) == sgn(r.x - p.x) && sgn(q.y - p.y) == sgn(r.y - p.y); }
// q lies in the closed window from the ray p->R counter-clockwise to the ray p->L (less than 180
// degrees wide; R and L on one ray when it is a single ray).
inline bool in_window(Point p, Point R, Point L, Point q) {
  const int r = orient2d(p, R, q), l = orient2d(p, L, q);
  return r >= 0 && l <= 0 && (r != 0 || ahead(p, R, q)) && (l != 0 || ahead(p, L, q));
}

// Integral and below 2^50 in magnitude: 2P - Q is exact for two such points.
inline bool integral(Point q) {
  return q.x == std::floor(q.x) && q.y == std::floor(q.y) && std::abs(q.x) < 0x1p50 && std::abs(q.y) < 0x1p50;
}

// The intersection of the windows [R1, L1] and [R2, L2] seen from p (each under 180 degrees): a
// window again, or none. Its first ray is whichever first ray lies in the other window, its last
// likewise.
std::optional<std::pair<Point, Point>> intersect(Point p, Point R1, Point L1, Point R2, Point L2) {
  Point R, L;
  if (in_window(p, R1, L1, R2)) R = R2;
  else if (in_window(p, R2, L2, R1)) R = R1;
  else return std::nullopt;
  if (in_window(p, R1, L1, L2)) L = L2;
  else if (in_window(p, R2, L2, L1)) L = L1;
  else return std::nullopt;
  if (orient2d(p, R, L) < 0) return std::nullopt;
  return std::pair{R, L};
}

struct PointHash {
  std::size_t operator()(Point p) const {
    std::uint64_t a, b;
    std::memcpy(&a, &p.x, 8);
    std::memcpy(&b, &p.y, 8);
    return std::size_t(a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2)));
  }
};

}  // namespace

struct PolygonVisibility::Impl {
  bool usable = false;
  std::uint64_t id = 0;  // unique per triangulation made (the key of a thread's last located face)
  Cdt cdt;                                  // kept for point location
  std::vector<Point> pts;                   // the rings' distinct points, by id
  std::vector<std::int32_t> corner_at;      // id -> the convex corner there (-1: none)
  std::vector<std::uint32_t> corner_id;     // convex corner -> the id of its point
  std::vector<std::uint8_t> multi;          // id -> the point is passed by more than one ring pass
  std::vector<std::int32_t> tv, tn;         // free triangle t: vertex ids tv[3t+k], across edge k tn[3t+k] (-1: a ring edge)
  std::vector<std::uint32_t> vt_begin, vt;  // CSR: the free triangles around each point
  double bx0 = 0, by0 = 0, bcell = 1;       // buckets of a vertex each: where point location starts
  int bnx = 0, bny = 0;
  std::vector<Cdt::Vertex_handle> bucket;

  struct Item {
    std::int32_t t;  // triangle entered
    int e;           // through its edge e (opposite vertex e)
    Point R, L;      // the window: from the ray p->R counter-clockwise to the ray p->L
  };

  void build(const FreeSpace& fs);
  Cdt::Face_handle hint(Point p) const;
  // Point location from this thread's last answer when near, else from p's bucket.
  Cdt::Face_handle locate(Point p, Cdt::Locate_type& lt, int& li) const;
  // The free triangles holding p (p free); the point's id when p is a ring point (else -1).
  std::int32_t start_triangles(Point p, std::vector<std::int32_t>& out) const;
    // clip: windows (R, L) the start's windows are cut to (none: every direction).
  void expand(const FreeSpace& fs, Point p, std::int32_t self, const std::vector<std::int32_t>& start,
              const std::vector<std::pair<Point, Point>>& clip, std::vector<std::uint32_t>& out) const;
};

void PolygonVisibility::Impl::build(const FreeSpace& fs) {
  const auto& rings = fs.obstacle_rings();
  std::unordered_map<Point, std::uint32_t, PointHash> id;
  std::vector<std::uint32_t> count;
  std::vector<std::pair<std::size_t, std::size_t>> segs;
  std::unordered_set<std::uint64_t> directed;  // ring edges a -> b (free on the left), a << 32 | b
  for (const auto& ring : rings) {
    std::vector<std::uint32_t> ids;
    for (const Point& q : ring) {
      const auto [it, fresh] = id.try_emplace(q, std::uint32_t(pts.size()));
      if (fresh) pts.push_back(q), count.push_back(0);
      ++count[it->second];
      ids.push_back(it->second);
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::uint32_t a = ids[i], b = ids[(i + 1) % ids.size()];
      if (a == b) continue;
      segs.emplace_back(a, b);
      directed.insert(std::uint64_t(a) << 32 | b);
    }
  }
  multi.resize(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) multi[i] = count[i] > 1;
  corner_at.assign(pts.size(), -1);
  const auto& corners = fs.convex_corners();
  for (std::size_t j = 0; j < corners.size(); ++j) {
    const auto it = id.find(corners[j].at);
    if (it == id.end()) return;  // not a ring point: leave unusable
    corner_id.push_back(it->second);
    if (corner_at[it->second] >= 0) return;  // two corners at one point (one sector wider than 180 degrees at most)
    corner_at[it->second] = std::int32_t(j);
  }
  if (pts.size() < 3) return;

  std::vector<std::pair<P2, std::uint32_t>> with_info;
  with_info.reserve(pts.size());
  for (std::uint32_t i = 0; i < pts.size(); ++i) with_info.push_back({P2(pts[i].x, pts[i].y), i});
  cdt.insert(with_info.begin(), with_info.end());  // spatially sorted insertion
  if (cdt.number_of_vertices() != pts.size() || cdt.dimension() < 2) return;
  std::vector<Cdt::Vertex_handle> vh(pts.size());
  for (auto v : cdt.finite_vertex_handles()) vh[v->info()] = v;
  try {
    for (const auto& [a, b] : segs) cdt.insert_constraint(vh[a], vh[b]);
  } catch (const std::exception&) {
    return;  // two ring edges cross (No_constraint_intersection_tag): not a FreeSpace's rings
  }
  if (cdt.number_of_vertices() != pts.size()) return;

  // Free faces: the one left of a ring edge (free on the left), then flooded across unconstrained edges.
  for (auto f : cdt.all_face_handles()) f->info() = -1;
  std::vector<Cdt::Face_handle> stack;
  for (auto f : cdt.finite_face_handles())
    for (int i = 0; i < 3; ++i) {
      if (!f->is_constrained(i) || f->info() >= 0) continue;
      const std::uint32_t a = f->vertex(ccw3(i))->info(), b = f->vertex(cw3(i))->info();
      if (directed.count(std::uint64_t(a) << 32 | b)) f->info() = 0, stack.push_back(f);
    }
  while (!stack.empty()) {
    const auto f = stack.back();
    stack.pop_back();
    for (int i = 0; i < 3; ++i) {
      const auto g = f->neighbor(i);
      if (f->is_constrained(i) || g->info() >= 0 || cdt.is_infinite(g)) continue;
      g->info() = 0;
      stack.push_back(g);
    }
  }
  std::int32_t next = 0;
  for (auto f : cdt.finite_face_handles())
    if (f->info() >= 0) f->info() = next++;
  tv.resize(std::size_t(next) * 3);
  tn.resize(std::size_t(next) * 3);
  std::vector<std::uint32_t> deg(pts.size() + 1, 0);
  for (auto f : cdt.finite_face_handles()) {
    const std::int32_t t = f->info();
    if (t < 0) continue;
    for (int k = 0; k < 3; ++k) {
      tv[3 * std::size_t(t) + k] = std::int32_t(f->vertex(k)->info());
      const auto g = f->neighbor(k);
      tn[3 * std::size_t(t) + k] = f->is_constrained(k) || cdt.is_infinite(g) ? -1 : g->info();
      ++deg[f->vertex(k)->info() + 1];
    }
  }
  for (std::size_t i = 0; i < pts.size(); ++i) deg[i + 1] += deg[i];
  vt_begin = deg;
  vt.resize(deg.back());
  for (std::int32_t t = 0; t < next; ++t)
    for (int k = 0; k < 3; ++k) vt[deg[std::size_t(tv[3 * std::size_t(t) + k])]++] = std::uint32_t(t);

  // Location buckets: about one point each.
  double x0 = pts[0].x, x1 = x0, y0 = pts[0].y, y1 = y0;
  for (const Point& q : pts) x0 = std::min(x0, q.x), x1 = std::max(x1, q.x), y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
  bcell = std::max({(x1 - x0) / 1024, (y1 - y0) / 1024, std::sqrt((x1 - x0) * (y1 - y0) / double(pts.size())), 1e-9});
  bx0 = x0, by0 = y0;
  bnx = int((x1 - x0) / bcell) + 1, bny = int((y1 - y0) / bcell) + 1;
  bucket.assign(std::size_t(bnx) * std::size_t(bny), Cdt::Vertex_handle());
  for (std::uint32_t i = 0; i < pts.size(); ++i) {
    const std::size_t b = std::size_t(int((pts[i].y - by0) / bcell)) * std::size_t(bnx) + std::size_t(int((pts[i].x - bx0) / bcell));
    if (b < bucket.size() && bucket[b] == Cdt::Vertex_handle()) bucket[b] = vh[i];
  }
  Cdt::Vertex_handle last = vh[0];
  for (auto& b : bucket) {
    if (b == Cdt::Vertex_handle()) b = last;
    last = b;
  }
  usable = true;
}

Cdt::Face_handle PolygonVisibility::Impl::hint(Point p) const {
  const double fx = (p.x - bx0) / bcell, fy = (p.y - by0) / bcell;
  const int x = int(std::clamp(fx, 0.0, double(bnx - 1))), y = int(std::clamp(fy, 0.0, double(bny - 1)));
  return bucket[std::size_t(y) * std::size_t(bnx) + std::size_t(x)]->face();
}

std::int32_t PolygonVisibility::Impl::start_triangles(Point p, std::vector<std::int32_t>& out) const {
  out.clear();
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return -1;
  Cdt::Locate_type lt;
  int li = 0;
  const Cdt::Face_handle f = cdt.locate(P2(p.x, p.y), lt, li, hint(p));
  if (lt == Cdt::VERTEX) {
    const std::uint32_t v = f->vertex(li)->info();
    for (std::uint32_t k = vt_begin[v]; k < vt_begin[v + 1]; ++k) out.push_back(std::int32_t(vt[k]));
    return std::int32_t(v);
  }
  if (lt == Cdt::FACE || lt == Cdt::EDGE) {
    if (!cdt.is_infinite(f) && f->info() >= 0) out.push_back(f->info());
    if (lt == Cdt::EDGE && !cdt.is_infinite(f->neighbor(li)) && f->neighbor(li)->info() >= 0)
      out.push_back(f->neighbor(li)->info());
  }
  return -1;
}

// Every ring point seen from p through the start triangles, its corner appended to out (stamped so
// that each comes once). A corner is taken as the expansion finds it, except where a point is
// passed by several ring passes (its free sectors decide, by the owner rule at an end) or p is such
// a point: there the exact segment test has the last word.
void PolygonVisibility::Impl::expand(const FreeSpace& fs, Point p, std::int32_t self, const std::vector<std::int32_t>& start,
                                     const std::vector<std::pair<Point, Point>>& clip, std::vector<std::uint32_t>& out) const {
  struct Scratch {
    std::vector<std::uint32_t> stamp;
    std::uint32_t gen = 0;
    std::vector<Item> stack;
  };
  thread_local Scratch s;
  if (s.stamp.size() < pts.size()) s.stamp.assign(pts.size(), 0), s.gen = 0;
  if (++s.gen == 0) std::fill(s.stamp.begin(), s.stamp.end(), 0), s.gen = 1;
  const std::uint32_t gen = s.gen;
  const bool check_all = self >= 0 && multi[std::size_t(self)];
  const auto& corners = fs.convex_corners();
  auto report = [&](std::int32_t v) {
    if (s.stamp[std::size_t(v)] == gen) return;
    s.stamp[std::size_t(v)] = gen;
    const std::int32_t c = corner_at[std::size_t(v)];
    if (!multi[std::size_t(v)] && !check_all) {
      if (c >= 0) out.push_back(std::uint32_t(c));
      return;
    }
    // Where sectors meet: every corner at that point, each by the exact test.
    if (c >= 0 && fs.segment_valid(p, corners[std::size_t(c)].at)) out.push_back(std::uint32_t(c));
  };
  s.stack.clear();
  for (const std::int32_t t : start) {
    for (int k = 0; k < 3; ++k) {
      const std::int32_t v = tv[3 * std::size_t(t) + k];
      report(v);
      const std::int32_t n = tn[3 * std::size_t(t) + k];
      if (n < 0) continue;
      const Point a = pts[std::size_t(tv[3 * std::size_t(t) + ccw3(k)])], b = pts[std::size_t(tv[3 * std::size_t(t) + cw3(k)])];
      if (orient2d(a, b, p) <= 0) continue;  // p on that edge's line: nothing beyond it is seen through it
      const std::int32_t* nv = &tn[3 * std::size_t(n)];
      const int e = nv[0] == t ? 0 : nv[1] == t ? 1 : 2;
      if (clip.empty()) {
        s.stack.push_back({n, e, a, b});
        continue;
      }
      for (const auto& [R, L] : clip)  // only the directions asked for
        if (const auto w = intersect(p, a, b, R, L)) s.stack.push_back({n, e, w->first, w->second});
    }
  }
  while (!s.stack.empty()) {
    const Item it = s.stack.back();
    s.stack.pop_back();
    const std::size_t base = 3 * std::size_t(it.t);
    const std::int32_t v = tv[base + std::size_t(it.e)];
    const Point V = pts[std::size_t(v)];
    if (in_window(p, it.R, it.L, V)) report(v);
    for (const int k : {ccw3(it.e), cw3(it.e)}) {
      const std::int32_t n = tn[base + std::size_t(k)];
      if (n < 0) continue;
      const Point a = pts[std::size_t(tv[base + std::size_t(ccw3(k))])], b = pts[std::size_t(tv[base + std::size_t(cw3(k))])];
      const int side = orient2d(a, b, p);
      if (side < 0) continue;  // crossing must move away from p
      if (side == 0) {
        // The edge lies on a ray from p: a ray of the window running along it may go on from its far
        // end on the other side (between two obstacles it touches on opposite sides), so the face
        // across is entered with that ray alone.
        if (between(a, b, p) || !in_window(p, it.R, it.L, a)) continue;
        const std::int32_t* nv = &tn[3 * std::size_t(n)];
        s.stack.push_back({n, nv[0] == it.t ? 0 : nv[1] == it.t ? 1 : 2, a, a});
        continue;
      }
      const Point R = orient2d(p, it.R, a) > 0 ? a : it.R;
      const Point L = orient2d(p, it.L, b) < 0 ? b : it.L;
      if (orient2d(p, R, L) < 0) continue;  // the window misses the edge
      const std::int32_t* nv = &tn[3 * std::size_t(n)];
      s.stack.push_back({n, nv[0] == it.t ? 0 : nv[1] == it.t ? 1 : 2, R, L});
    }
  }
}

PolygonVisibility::PolygonVisibility(const FreeSpace& fs) : impl_(std::make_unique<Impl>()) {
  static std::atomic<std::uint64_t> made{0};
  impl_->id = ++made;
  impl_->build(fs);
}
PolygonVisibility::~PolygonVisibility() = default;

bool PolygonVisibility::usable() const { return impl_->usable; }

void PolygonVisibility::visible_corners(const FreeSpace& fs, Point p, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (!impl_->usable || !fs.point_free(p)) return;
  thread_local std::vector<std::int32_t> start;
  const std::int32_t self = impl_->start_triangles(p, start);
  impl_->expand(fs, p, self, start, {}, out);
  std::sort(out.begin(), out.end());
}

void PolygonVisibility::visible_from_corner(const FreeSpace& fs, std::uint32_t i, std::vector<std::uint32_t>& out,
                                            bool tangent_wedges) const {
  out.clear();
  if (!impl_->usable) return;
  const Impl& m = *impl_;
  const Point p = fs.convex_corners()[i].at;
  const std::uint32_t v = m.corner_id[i];
  thread_local std::vector<std::int32_t> start;
  start.clear();
  for (std::uint32_t k = m.vt_begin[v]; k < m.vt_begin[v + 1]; ++k) start.push_back(std::int32_t(m.vt[k]));
  // Only the directions tangent at the corner can matter to a caller that keeps tangent pairs, but
  // every corner seen is reported; the start is cut to the two tangent wedges (from `after` to the
  // ray away from `before`, and from the ray away from `after` to `before`) where those rays' points
  // 2P - before and 2P - after are exact (integral coordinates), which skips the wedge opposite the
  // obstacle: what lies only there is not tangent at P.
  const ConvexCorner& k = fs.convex_corners()[i];
  thread_local std::vector<std::pair<Point, Point>> clip;
  clip.clear();
  if (tangent_wedges && integral(k.at) && integral(k.before) && integral(k.after)) {
    const Point away_before{2 * p.x - k.before.x, 2 * p.y - k.before.y}, away_after{2 * p.x - k.after.x, 2 * p.y - k.after.y};
    clip.push_back({k.after, away_before});
    clip.push_back({away_after, k.before});
  }
  m.expand(fs, p, std::int32_t(v), start, clip, out);
  out.erase(std::remove(out.begin(), out.end(), i), out.end());
  std::sort(out.begin(), out.end());
}

Cdt::Face_handle PolygonVisibility::Impl::locate(Point p, Cdt::Locate_type& lt, int& li) const {
  // Callers ask in runs of nearby points (Recast's voxels row by row, a path's vertices): the walk
  // starts at this thread's last answer on the same triangulation when the last point lies within
  // a bucket's side, else at p's bucket's vertex (a roadmap's samples and their pairs jump across
  // the map: from the last answer the walk crossed ~sqrt(triangles) faces, 2,000 instructions a
  // point on aurora.mesh, callgrind; record 18 (j)).
  struct Last {
    std::uint64_t id = 0;
    Cdt::Face_handle f;
    Point p;
  };
  thread_local Last last;
  const bool near = last.id == id && std::abs(p.x - last.p.x) <= bcell && std::abs(p.y - last.p.y) <= bcell;
  const Cdt::Face_handle f = cdt.locate(P2(p.x, p.y), lt, li, near ? last.f : hint(p));
  last = {id, f, p};
  return f;
}

int PolygonVisibility::segment_inside(Point a, Point b) const {
  const Impl& m = *impl_;
  if (!m.usable || !std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(b.x) || !std::isfinite(b.y)) return 0;
  Cdt::Locate_type lt;
  int li = 0;
  const Cdt::Face_handle f = m.locate(a, lt, li);
  if (lt != Cdt::FACE || m.cdt.is_infinite(f) || f->info() < 0) return 0;
  std::int32_t t = f->info(), from = -1;  // the free triangle the walk is in; the edge it came in by
  for (std::size_t step = 0; step < m.tv.size(); ++step) {
    const Point v[3] = {m.pts[std::size_t(m.tv[3 * std::size_t(t)])], m.pts[std::size_t(m.tv[3 * std::size_t(t) + 1])],
                        m.pts[std::size_t(m.tv[3 * std::size_t(t) + 2])]};
    const int s = orient2d(v[0], v[1], v[2]);  // the triangle's own turn: its inside is on that side of each edge
    int ob[3], exit = -1;
    for (int k = 0; k < 3; ++k) ob[k] = orient2d(v[(k + 1) % 3], v[(k + 2) % 3], b) * s;  // b against edge k (opposite v[k])
    if (ob[0] > 0 && ob[1] > 0 && ob[2] > 0) return 1;  // b inside this triangle
    for (int k = 0; k < 3 && exit < 0; ++k)
      if (k != from && ob[k] < 0 && orient2d(a, b, v[(k + 1) % 3]) * orient2d(a, b, v[(k + 2) % 3]) < 0) exit = k;
    if (exit < 0) return 0;  // b on an edge, or the segment through a vertex
    const std::int32_t n = m.tn[3 * std::size_t(t) + std::size_t(exit)];
    // A ring edge (a free triangle's edge with no free triangle across is one), crossed inside it
    // with a and b strictly on either side of its line: a proper crossing, which the definition
    // refuses (FreeSpace::Impl::poly_segment_valid).
    if (n < 0) return -1;
    from = -1;
    for (int k = 0; k < 3; ++k)
      if (m.tn[3 * std::size_t(n) + std::size_t(k)] == t) from = k;
    t = n;
  }
  return 0;
}

bool PolygonVisibility::point_free(Point p) const {
  const Impl& m = *impl_;
  if (!m.usable || !std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  Cdt::Locate_type lt;
  int li = 0;
  const Cdt::Face_handle f = m.locate(p, lt, li);
  auto free = [&](Cdt::Face_handle g) { return !m.cdt.is_infinite(g) && g->info() >= 0; };
  switch (lt) {
    case Cdt::VERTEX: return true;  // a ring point: on the boundary
    case Cdt::EDGE: return free(f) || free(f->neighbor(li));
    case Cdt::FACE: return free(f);
    default: return false;  // outside the rings' convex hull
  }
}

std::size_t PolygonVisibility::triangles() const { return impl_->tv.size() / 3; }

std::size_t PolygonVisibility::memory_bytes() const {
  const Impl& m = *impl_;
  const auto& tds = m.cdt.tds();
  return tds.faces().capacity() * sizeof(Tds::Face) + tds.vertices().capacity() * sizeof(Tds::Vertex) +
         m.pts.capacity() * sizeof(Point) + (m.corner_at.capacity() + m.tv.capacity() + m.tn.capacity()) * 4 +
         m.multi.capacity() + (m.vt_begin.capacity() + m.vt.capacity()) * 4 + m.bucket.capacity() * sizeof(Cdt::Vertex_handle);
}

}  // namespace navbench
