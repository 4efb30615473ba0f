// The free space and the exact validity test of docs/maps.md.
//
// Grid maps: a walk over the cells the segment touches (the supercover walk of Amanatides & Woo,
// "A Fast Voxel Traversal Algorithm", Eurographics 1987, with every crossing decided by the exact
// orientation of the next grid corner against the segment instead of by accumulated parameters),
// plus the pinch-point rule at every corner the segment passes through.
// Polygon maps: the free space (walkable minus the union of obstacles, Boost.Geometry) as rings
// with the free side on the left, a Boost.Geometry rtree over their edges, and a local test at
// every boundary point the segment touches, with exact orientation predicates only.
#include "geometry/free_space.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <cstring>
#include <stdexcept>
#include <mutex>
#include <unordered_map>

#include <boost/geometry/index/rtree.hpp>

#include "geometry/exact.hpp"
#include "geometry/grid_rings.hpp"
#include "geometry/path_quality.hpp"
#include "geometry/polygons.hpp"
#include "geometry/visibility.hpp"

namespace navbench {

namespace bgi = boost::geometry::index;
using exact::orient2d;

namespace {

inline int sgn(double v) { return (v > 0) - (v < 0); }
inline bool is_int(double v) { return v == std::floor(v); }

// a and b doubled, as integers, when both lie on the half-integer lattice within 2^26 of the
// origin (so that products of two differences of doubled coordinates stay below 2^57); else none.
std::optional<std::array<std::int64_t, 4>> doubled(Point a, Point b) {
  constexpr double kMax = double(1 << 26);
  const double v[4] = {2 * a.x, 2 * a.y, 2 * b.x, 2 * b.y};  // exact: doubling a double
  std::array<std::int64_t, 4> out{};
  for (int i = 0; i < 4; ++i) {
    if (!(std::abs(v[i]) <= kMax) || !is_int(v[i])) return std::nullopt;  // also NaN
    out[std::size_t(i)] = std::int64_t(v[i]);
  }
  return out;
}

// A free sector at a boundary vertex P: the directions from the ray P->start counter-clockwise to
// the ray P->end (closed). `side(r)` gives the sign of (r - P) x d for the direction d tested.
struct Sector {
  Point start, end;
  std::int32_t component = -1;
};

template <class Side>
bool in_sector(Point P, const Sector& s, Side side) {
  const int turn = orient2d(P, s.start, s.end);
  const int cs = side(s.start), ce = side(s.end);
  if (turn > 0) return cs >= 0 && ce <= 0;    // convex sector
  if (turn < 0) return !(ce > 0 && cs < 0);   // reflex: not strictly inside the convex complement
  return cs >= 0;                             // half-plane
}

inline bool point_in_sector(Point P, const Sector& s, Point q) {
  return in_sector(P, s, [&](Point r) { return orient2d(P, r, q); });
}

std::uint64_t key(Point p) {
  std::uint64_t a, b;
  std::memcpy(&a, &p.x, 8);
  std::memcpy(&b, &p.y, 8);
  return a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
}
struct PointHash {
  std::size_t operator()(Point p) const { return std::size_t(key(p)); }
};

}  // namespace

struct FreeSpace::Impl {
  MapKind kind = MapKind::grid;
  PolygonMap key;   // polygon maps: the map it was built from (the shared cache's key, with key_max)
  double key_max = 0;
  std::once_flag clearance_once;
  std::unique_ptr<PathClearance> clearance;  // path_clearance(): built on first use
  std::once_flag visibility_once;
  std::unique_ptr<PolygonVisibility> visibility;  // visible_corners(): built on first use
  const PolygonVisibility* polygon_visibility(const FreeSpace& self);
  std::vector<std::vector<Point>> rings;
  // Grid maps: the rings traced on first use (obstacle_rings()): what most grid representations and
  // their updates never read (visgraph, subgoal), a tenth of a 1024 x 1024 map's free space.
  std::once_flag rings_once;
  std::vector<ConvexCorner> corners;
  std::int32_t ncomp = 0;
  bool squeeze = false;  // SPEC §11 `allow`: no grid corner counts as a pinch point

  // ---- grid maps ----
  int W = 0, H = 0, PW = 0;           // PW = W + 2: the padded row length
  std::vector<std::uint8_t> free;     // (W+2) x (H+2), border blocked
  std::vector<std::int32_t> comp;     // W x H, -1 for blocked
  bool cell_free(int x, int y) const { return free[std::size_t(y + 1) * PW + std::size_t(x + 1)] != 0; }
  // Pinch corner: exactly two diagonally opposite cells blocked.
  bool pinch(int x, int y) const {
    if (squeeze) return false;
    const bool a = cell_free(x - 1, y - 1), b = cell_free(x, y - 1), c = cell_free(x - 1, y), d = cell_free(x, y);
    return (a && d && !b && !c) || (b && c && !a && !d);
  }

  // ---- polygon maps ----
  struct Edge {
    Point p, q, prev;  // p -> q with free on the left; prev: the vertex before p on its ring
    std::int32_t component;
    bool multi;        // p is visited by more than one ring pass: see pinch_sectors
  };
  std::vector<Edge> edges;
  using EdgeValue = std::pair<BgBox, std::uint32_t>;
  bgi::rtree<EdgeValue, bgi::rstar<16>> tree;
  struct VertexSectors {
    std::vector<Sector> sectors;
    std::size_t own = 0;
  };
  std::unordered_map<Point, VertexSectors, PointHash> multi;
  double xmax = 0;

  void build_grid(const Map& m);
  void build_polygon(const Map& m);
  bool grid_point_free(Point p) const;
  bool grid_segment_valid(Point a, Point b, bool own_a = true, bool own_b = true) const;
  bool grid_endpoint_ok(Point p, Point q) const;
  bool grid_turn_ok(Point a, Point p, Point b) const;
  std::int32_t grid_component(Point p) const;
  bool poly_point_free(Point p) const;
  bool poly_segment_valid(Point a, Point b, bool own_a = true, bool own_b = true) const;
  std::int32_t poly_component(Point p) const;
  bool poly_vertex_ok(const Edge& e, Point a, Point b, bool own_a, bool own_b) const;
  bool poly_turn_ok(Point a, Point p, Point b) const;
};

// ------------------------------------------------------------------------------------------------
// Grid maps

void FreeSpace::Impl::build_grid(const Map& m) {
  const GridMap& g = m.grid;
  W = g.width;
  H = g.height;
  PW = W + 2;
  free.assign(std::size_t(PW) * std::size_t(H + 2), 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) free[std::size_t(y + 1) * PW + std::size_t(x + 1)] = g.passable(x, y) ? 1 : 0;
  // Components: 4-connected free cells (a diagonal step between two blocked cells is a pinch), by a
  // flood fill from each unlabelled free cell in row-major order (so the labels are numbered by
  // their first cell), over padded indices (the blocked border stops it: no bounds tests, no
  // divisions), labelled in a padded array and copied out row by row.
  std::vector<std::int32_t> pcomp(free.size(), -1);
  std::vector<std::int32_t> stack;
  const int step[8] = {1, -1, PW, -PW, PW + 1, -PW + 1, PW - 1, -PW - 1};  // the last four diagonal
  const int kinds = squeeze ? 8 : 4;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const int s = (y + 1) * PW + x + 1;
      if (pcomp[std::size_t(s)] >= 0 || !free[std::size_t(s)]) continue;
      pcomp[std::size_t(s)] = ncomp;
      stack.assign(1, s);
      while (!stack.empty()) {
        const int c = stack.back();
        stack.pop_back();
        for (int k = 0; k < kinds; ++k) {
          const int n = c + step[k];
          if (!free[std::size_t(n)] || pcomp[std::size_t(n)] >= 0) continue;
          // Under `allow` also the diagonal neighbour across a pinch point (both cells beside it blocked).
          if (k >= 4) {
            const int dy = (k == 4 || k == 6) ? PW : -PW, dx = (k == 4 || k == 5) ? 1 : -1;
            if (free[std::size_t(c + dx)] || free[std::size_t(c + dy)]) continue;
          }
          pcomp[std::size_t(n)] = ncomp;
          stack.push_back(n);
        }
      }
      ++ncomp;
    }
  comp.resize(std::size_t(W) * std::size_t(H));
  for (int y = 0; y < H; ++y)
    std::copy(pcomp.begin() + std::ptrdiff_t(y + 1) * PW + 1, pcomp.begin() + std::ptrdiff_t(y + 1) * PW + 1 + W,
              comp.begin() + std::ptrdiff_t(y) * W);
  // Convex obstacle corners: exactly one of the four cells around the corner is blocked. Rows of
  // the padded grid: a = the cells above the corner's row of points (y - 1), b = below (y).
  for (int y = 1; y < H; ++y) {
    const std::uint8_t* a = free.data() + std::size_t(y) * PW;
    const std::uint8_t* b = a + PW;
    for (int x = 1; x < W; ++x) {
      const bool f[4] = {a[x] != 0, a[x + 1] != 0, b[x] != 0, b[x + 1] != 0};
      if (f[0] + f[1] + f[2] + f[3] != 3) continue;
      const int blocked = !f[0] ? 0 : !f[1] ? 1 : !f[2] ? 2 : 3;
      const int qx = (blocked & 1) ? 1 : -1, qy = (blocked & 2) ? 1 : -1;  // blocked cell's quadrant
      const Point P{double(x), double(y)};
      const Point ex{P.x + qx, P.y}, ey{P.x, P.y + qy};
      ConvexCorner c;
      c.at = P;
      // The obstacle wedge runs counter-clockwise from `before` to `after`.
      if (qx * qy > 0) c.before = ex, c.after = ey;
      else c.before = ey, c.after = ex;
      const int fx = blocked == 3 ? 0 : 3;  // any free cell around the corner
      c.component = comp[std::size_t(y - 1 + (fx >> 1)) * W + std::size_t(x - 1 + (fx & 1))];
      corners.push_back(c);
    }
  }
}

bool FreeSpace::Impl::grid_point_free(Point p) const {
  if (!(p.x >= 0 && p.y >= 0 && p.x <= W && p.y <= H)) return false;  // also rejects NaN
  const int x1 = int(std::floor(p.x)), y1 = int(std::floor(p.y));
  const int x0 = is_int(p.x) ? x1 - 1 : x1, y0 = is_int(p.y) ? y1 - 1 : y1;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (cell_free(x, y)) return true;
  return false;
}

// A segment leaving p towards q: when p is a pinch corner, q must lie in p's own quadrant.
bool FreeSpace::Impl::grid_endpoint_ok(Point p, Point q) const {
  if (!is_int(p.x) || !is_int(p.y)) return true;
  const int x = int(p.x), y = int(p.y);
  if (!pinch(x, y)) return true;
  const int oy = cell_free(x, y) ? 1 : -1;  // own cell (x, y), else (x, y - 1); always x side +
  return q.x >= p.x && (oy > 0 ? q.y >= p.y : q.y <= p.y);
}

// An inner vertex p of a path on a pinch corner: the path arrives from a and leaves towards b through
// the same free cell (SPEC §1). Both segments are valid already, so each lies in the closed quadrant
// of one of the two free cells; a segment along an axis runs on the edge of exactly one of them.
bool FreeSpace::Impl::grid_turn_ok(Point a, Point p, Point b) const {
  if (!is_int(p.x) || !is_int(p.y)) return true;
  const int x = int(p.x), y = int(p.y);
  if (!pinch(x, y)) return true;
  const bool up = cell_free(x, y);  // the free cells are (x, y) and (x-1, y-1), else (x, y-1) and (x-1, y)
  // True for the free cell on the +x side of p.
  auto right = [&](Point q) { return q.x != p.x ? q.x > p.x : (up ? q.y > p.y : q.y < p.y); };
  return right(a) == right(b);
}

// own_a, own_b: the owner rule applies at that end (a path's start or goal, or a segment tested on
// its own); at an inner vertex of a path grid_turn_ok decides instead.
bool FreeSpace::Impl::grid_segment_valid(Point a, Point b, bool own_a, bool own_b) const {
  if (!grid_point_free(a) || !grid_point_free(b)) return false;
  if (a == b) return true;
  if ((own_a && !grid_endpoint_ok(a, b)) || (own_b && !grid_endpoint_ok(b, a))) return false;
  const int sx = sgn(b.x - a.x), sy = sgn(b.y - a.y);  // exact: the sign of a difference is exact
  if (sy == 0 || sx == 0) {
    // Axis-parallel: along a grid line (edges need one free side, inner corners no pinch) or
    // through one row/column of cells (each must be free).
    const bool horizontal = sy == 0;
    const double c = horizontal ? a.y : a.x;
    const double lo = horizontal ? std::min(a.x, b.x) : std::min(a.y, b.y);
    const double hi = horizontal ? std::max(a.x, b.x) : std::max(a.y, b.y);
    const int i0 = int(std::floor(lo)), i1 = int(std::ceil(hi)) - 1;
    auto cf = [&](int along, int across) { return horizontal ? cell_free(along, across) : cell_free(across, along); };
    if (is_int(c)) {
      const int k = int(c);
      for (int i = i0; i <= i1; ++i)
        if (!cf(i, k - 1) && !cf(i, k)) return false;
      for (int i = i0 + 1; i <= i1; ++i)
        if ((double(i) > lo) && (horizontal ? pinch(i, k) : pinch(k, i))) return false;
    } else {
      const int k = int(std::floor(c));
      for (int i = i0; i <= i1; ++i)
        if (!cf(i, k)) return false;
    }
    return true;
  }
  // General direction: from the cell entered right after a to the cell left right before b.
  int cx = sx > 0 ? int(std::floor(a.x)) : int(std::ceil(a.x)) - 1;
  int cy = sy > 0 ? int(std::floor(a.y)) : int(std::ceil(a.y)) - 1;
  const int ex = sx > 0 ? int(std::ceil(b.x)) - 1 : int(std::floor(b.x));
  const int ey = sy > 0 ? int(std::ceil(b.y)) - 1 : int(std::floor(b.y));
  const int kx = sx > 0 ? 1 : 0, ky = sy > 0 ? 1 : 0;
  const int sxy = sx * sy;
  if (const auto lattice = doubled(a, b)) {
    // Both ends on the half-integer lattice (cell centres and corners: the grid representations'
    // vertices and the scenarios' points): the walk below in integers. With doubled coordinates A,
    // B and corner K = 2k, orient2d(a, b, k) has the sign of o = D x (K - A), D = B - A, which
    // changes by a constant as k steps one cell (Bresenham's idea, exact: |o| < 2^57 by doubled()'s bound).
    const auto [Ax, Ay, Bx, By] = *lattice;
    const std::int64_t Dx = Bx - Ax, Dy = By - Ay;
    std::int64_t o = Dx * (2 * std::int64_t(cy + ky) - Ay) - Dy * (2 * std::int64_t(cx + kx) - Ax);
    const std::int64_t step_x = -2 * sx * Dy, step_y = 2 * sy * Dx;  // o's change as k moves by sx, sy
    for (long guard = long(std::abs(ex - cx)) + std::abs(ey - cy) + 1; guard >= 0; --guard) {
      if (!cell_free(cx, cy)) return false;
      if (cx == ex && cy == ey) return true;
      const int side = ((o > 0) - (o < 0)) * sxy;
      if (side > 0) cx += sx, o += step_x;
      else if (side < 0) cy += sy, o += step_y;
      else {
        if (pinch(cx + kx, cy + ky)) return false;  // through a pinch point
        cx += sx, cy += sy, o += step_x + step_y;
      }
    }
    throw std::logic_error("FreeSpace: grid walk overran its end cell");
  }
  for (long guard = long(std::abs(ex - cx)) + std::abs(ey - cy) + 1; guard >= 0; --guard) {
    if (!cell_free(cx, cy)) return false;
    if (cx == ex && cy == ey) return true;
    // The corner ahead decides: the line leaves through the x-side, the y-side, or the corner.
    const Point k{double(cx + kx), double(cy + ky)};
    const int o = orient2d(a, b, k) * sxy;
    if (o > 0) cx += sx;
    else if (o < 0) cy += sy;
    else {
      if (pinch(cx + kx, cy + ky)) return false;  // through a pinch point
      cx += sx;
      cy += sy;
    }
  }
  throw std::logic_error("FreeSpace: grid walk overran its end cell");
}

std::int32_t FreeSpace::Impl::grid_component(Point p) const {
  if (!grid_point_free(p)) return -1;
  const int x1 = int(std::floor(p.x)), y1 = int(std::floor(p.y));
  if (is_int(p.x) && is_int(p.y) && pinch(x1, y1)) {
    const int y = cell_free(x1, y1) ? y1 : y1 - 1;
    return comp[std::size_t(y) * W + x1];
  }
  const int x0 = is_int(p.x) ? x1 - 1 : x1, y0 = is_int(p.y) ? y1 - 1 : y1;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (cell_free(x, y)) return comp[std::size_t(y) * W + x];
  return -1;
}

// ------------------------------------------------------------------------------------------------
// Polygon maps

void FreeSpace::Impl::build_polygon(const Map& m) {
  const BgMultiPolygon fs = polygon_free_space(m.polygons);
  std::vector<std::int32_t> ring_comp;
  for (std::size_t k = 0; k < fs.size(); ++k) {
    const PolygonShape s = from_bg(fs[k]);
    for (std::size_t r = 0; r < s.rings.size(); ++r) {
      std::vector<Point> ring = s.rings[r];
      if (ring.size() < 3) continue;
      // Free on the left: the outer ring counter-clockwise, holes clockwise.
      if ((ring_area2(ring) > 0) != (r == 0)) std::reverse(ring.begin(), ring.end());
      rings.push_back(std::move(ring));
      ring_comp.push_back(std::int32_t(k));
    }
  }
  ncomp = std::int32_t(fs.size());

  auto make_edges = [&] {
    edges.clear();
    std::vector<EdgeValue> values;
    for (std::size_t r = 0; r < rings.size(); ++r) {
      const auto& ring = rings[r];
      for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const Point p = ring[i], q = ring[(i + 1) % n], prev = ring[(i + n - 1) % n];
        values.push_back({BgBox(BgPoint(std::min(p.x, q.x), std::min(p.y, q.y)),
                                BgPoint(std::max(p.x, q.x), std::max(p.y, q.y))),
                          std::uint32_t(edges.size())});
        edges.push_back({p, q, prev, ring_comp[r], false});
      }
    }
    tree = decltype(tree)(values.begin(), values.end());  // packing (bulk) construction
  };
  make_edges();

  // Where a vertex of one ring touches the inside of another ring's edge, split that edge there,
  // so that rings meet only at shared vertices.
  std::vector<std::vector<Point>> splits(edges.size());
  bool any = false;
  for (const auto& ring : rings)
    for (const Point& v : ring)
      for (auto it = tree.qbegin(bgi::intersects(BgBox(BgPoint(v.x, v.y), BgPoint(v.x, v.y)))); it != tree.qend(); ++it) {
        const Edge& e = edges[it->second];
        if (v == e.p || v == e.q || orient2d(e.p, e.q, v) != 0) continue;
        splits[it->second].push_back(v);
        any = true;
      }
  if (any) {
    std::size_t e = 0;
    for (auto& ring : rings) {
      std::vector<Point> out;
      for (std::size_t i = 0; i < ring.size(); ++i, ++e) {
        out.push_back(ring[i]);
        auto& sp = splits[e];
        std::sort(sp.begin(), sp.end(), [](Point u, Point v) { return u.x < v.x || (u.x == v.x && u.y < v.y); });
        sp.erase(std::unique(sp.begin(), sp.end()), sp.end());
        const Point p = ring[i], q = ring[(i + 1) % ring.size()];
        if (q.x < p.x || (q.x == p.x && q.y < p.y)) std::reverse(sp.begin(), sp.end());
        out.insert(out.end(), sp.begin(), sp.end());
      }
      ring = std::move(out);
    }
    make_edges();
  }

  // Vertices passed by more than one ring pass: their free sectors, in angular order.
  std::unordered_map<Point, std::vector<std::uint32_t>, PointHash> visits;
  for (std::uint32_t e = 0; e < edges.size(); ++e) visits[edges[e].p].push_back(e);
  for (auto& visit : visits) {
    const Point P = visit.first;  // a copy, not a structured binding: clang 14 cannot capture those
    auto& list = visit.second;
    if (list.size() < 2) continue;
    struct Ray {
      Point at;
      bool out;
      std::uint32_t edge;
    };
    std::vector<Ray> rays;
    for (std::uint32_t e : list) {
      edges[e].multi = true;
      rays.push_back({edges[e].q, true, e});
      rays.push_back({edges[e].prev, false, e});
    }
    const Point C = P;
    auto half = [&](Point r) { return (r.y > C.y || (r.y == C.y && r.x > C.x)) ? 0 : 1; };
    std::sort(rays.begin(), rays.end(), [&](const Ray& u, const Ray& v) {
      const int hu = half(u.at), hv = half(v.at);
      if (hu != hv) return hu < hv;
      return orient2d(C, u.at, v.at) > 0;
    });
    VertexSectors vs;
    for (std::size_t i = 0; i < rays.size(); ++i) {
      if (!rays[i].out) continue;
      const Ray& nx = rays[(i + 1) % rays.size()];
      const Point end = nx.out ? edges[rays[i].edge].prev : nx.at;  // malformed input: own pass
      vs.sectors.push_back({rays[i].at, end, edges[rays[i].edge].component});
    }
    // Own sector: the reflex one if any, else the first holding a probe direction.
    vs.own = vs.sectors.size();
    for (std::size_t s = 0; s < vs.sectors.size(); ++s)
      if (orient2d(P, vs.sectors[s].start, vs.sectors[s].end) < 0) vs.own = s;
    const int probe[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
    for (int k = 0; k < 4 && vs.own == vs.sectors.size(); ++k)
      for (std::size_t s = 0; s < vs.sectors.size() && vs.own == vs.sectors.size(); ++s)
        if (in_sector(P, vs.sectors[s], [&](Point r) { return exact::cross_with_unit(P, r, probe[k][0], probe[k][1]); }))
          vs.own = s;
    if (vs.own == vs.sectors.size()) vs.own = 0;
    for (const Sector& s : vs.sectors)
      if (orient2d(P, s.start, s.end) < 0) corners.push_back({P, s.end, s.start, s.component});
    multi.emplace(P, std::move(vs));
  }
  for (const Edge& e : edges)
    if (!e.multi && orient2d(e.p, e.q, e.prev) < 0) corners.push_back({e.p, e.prev, e.q, e.component});
  std::sort(corners.begin(), corners.end(), [](const ConvexCorner& u, const ConvexCorner& v) {
    return u.at.y < v.at.y || (u.at.y == v.at.y && u.at.x < v.at.x);
  });
  xmax = m.max.x;
  for (const Edge& e : edges) xmax = std::max(xmax, std::max(e.p.x, e.q.x));
}

bool FreeSpace::Impl::poly_point_free(Point p) const {
  // By point location in the triangulation where it is built (visibility.hpp; its walk starts at
  // a ring point near p: a step or two instead of every edge the ray crosses).
  if (visibility && visibility->usable()) return visibility->point_free(p);
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  // Ray casting to the right with the half-open rule; a point on an edge is free (closed set).
  bool inside = false;
  const BgBox ray(BgPoint(p.x, p.y), BgPoint(xmax + 1, p.y));
  for (auto it = tree.qbegin(bgi::intersects(ray)); it != tree.qend(); ++it) {
    const Edge& e = edges[it->second];
    if (p == e.p || p == e.q) return true;
    if (e.p.y == p.y && e.q.y == p.y) {
      if (std::min(e.p.x, e.q.x) <= p.x && p.x <= std::max(e.p.x, e.q.x)) return true;
      continue;
    }
    if ((e.p.y > p.y) == (e.q.y > p.y)) continue;
    const int o = orient2d(e.p, e.q, p);
    if (o == 0) return true;
    if ((e.q.y > e.p.y) == (o > 0)) inside = !inside;
  }
  return inside;
}

// The segment a-b passes the ring vertex e.p (which lies on it): its directions there must stay in
// one closed free sector; at an end, the other end must lie in the own sector (own_a, own_b: a
// path's start or goal, or a segment on its own) or in any sector (an inner vertex of a path, where
// poly_turn_ok decides).
bool FreeSpace::Impl::poly_vertex_ok(const Edge& e, Point a, Point b, bool own_a, bool own_b) const {
  const Point P = e.p;
  if (!e.multi) {
    const Sector s{e.q, e.prev, e.component};
    return (P == a || point_in_sector(P, s, a)) && (P == b || point_in_sector(P, s, b));
  }
  const VertexSectors& vs = multi.at(P);
  auto in_any = [&](Point q) {
    for (const Sector& s : vs.sectors)
      if (point_in_sector(P, s, q)) return true;
    return false;
  };
  if (P == a) return own_a ? point_in_sector(P, vs.sectors[vs.own], b) : in_any(b);
  if (P == b) return own_b ? point_in_sector(P, vs.sectors[vs.own], a) : in_any(a);
  for (const Sector& s : vs.sectors)
    if (point_in_sector(P, s, a) && point_in_sector(P, s, b)) return true;
  return false;
}

// An inner vertex p of a path where free sectors meet: arriving from a and leaving towards b stay
// in one sector (the polygon map's form of grid_turn_ok).
bool FreeSpace::Impl::poly_turn_ok(Point a, Point p, Point b) const {
  const auto it = multi.find(p);
  if (it == multi.end()) return true;
  for (const Sector& s : it->second.sectors)
    if (point_in_sector(p, s, a) && point_in_sector(p, s, b)) return true;
  return false;
}

bool FreeSpace::Impl::poly_segment_valid(Point a, Point b, bool own_a, bool own_b) const {
  // Where the triangulation is built: a segment that walks through free triangles only, across
  // edges that are no ring's, is in the free space, and one that crosses a ring edge inside it is
  // not (PolygonVisibility::segment_inside); the test below decides the rest (a roadmap's pairs:
  // 2.5x the grid's segment tests on Aurora's WKT without the walk, record 18 (j)).
  if (visibility && visibility->usable())
    if (const int w = visibility->segment_inside(a, b); w != 0) return w > 0;
  if (!poly_point_free(a) || !poly_point_free(b)) return false;
  if (a == b) return true;
  const double x0 = std::min(a.x, b.x), x1 = std::max(a.x, b.x), y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
  const BgBox box(BgPoint(x0, y0), BgPoint(x1, y1));
  Point done[8];
  int ndone = 0;
  for (auto it = tree.qbegin(bgi::intersects(box)); it != tree.qend(); ++it) {
    const Edge& e = edges[it->second];
    const int op = orient2d(a, b, e.p), oq = orient2d(a, b, e.q);
    if (op == 0 && e.p.x >= x0 && e.p.x <= x1 && e.p.y >= y0 && e.p.y <= y1) {
      // The vertex e.p lies on the segment.
      if (e.multi) {
        bool seen = false;
        for (int i = 0; i < ndone; ++i) seen = seen || done[i] == e.p;
        if (seen) continue;
        if (ndone < 8) done[ndone++] = e.p;
      }
      if (!poly_vertex_ok(e, a, b, own_a, own_b)) return false;
      continue;
    }
    if (op * oq < 0) {
      // The lines cross inside the edge: a proper crossing is fatal; an end on the edge must look
      // into the free side.
      const int oa = orient2d(e.p, e.q, a), ob = orient2d(e.p, e.q, b);
      if (oa * ob < 0) return false;
      if (oa == 0 && ob < 0) return false;
      if (ob == 0 && oa < 0) return false;
    }
  }
  return true;
}

std::int32_t FreeSpace::Impl::poly_component(Point p) const {
  if (!poly_point_free(p)) return -1;
  for (auto it = tree.qbegin(bgi::intersects(BgBox(BgPoint(p.x, p.y), BgPoint(p.x, p.y)))); it != tree.qend(); ++it) {
    const Edge& e = edges[it->second];
    if (p == e.q) continue;  // met again as the start of the next edge
    if (p == e.p && e.multi) {
      const VertexSectors& vs = multi.at(p);
      return vs.sectors[vs.own].component;
    }
    if (p == e.p || orient2d(e.p, e.q, p) == 0) return e.component;
  }
  // Interior point: the ring crossings to the right, counted per component (polygon).
  std::vector<std::pair<std::int32_t, int>> parity;
  const BgBox ray(BgPoint(p.x, p.y), BgPoint(xmax + 1, p.y));
  for (auto it = tree.qbegin(bgi::intersects(ray)); it != tree.qend(); ++it) {
    const Edge& e = edges[it->second];
    if ((e.p.y > p.y) == (e.q.y > p.y)) continue;
    const int o = orient2d(e.p, e.q, p);
    if ((e.q.y > e.p.y) != (o > 0)) continue;
    auto f = std::find_if(parity.begin(), parity.end(), [&](auto& x) { return x.first == e.component; });
    if (f == parity.end()) parity.push_back({e.component, 1});
    else f->second ^= 1;
  }
  for (auto& [c, odd] : parity)
    if (odd) return c;
  return -1;
}

// ------------------------------------------------------------------------------------------------

namespace {

bool same_shape(const PolygonShape& a, const PolygonShape& b) { return a.rings == b.rings; }
bool same_polygons(const PolygonMap& a, const PolygonMap& b) {
  if (!same_shape(a.walkable, b.walkable) || a.obstacles.size() != b.obstacles.size()) return false;
  for (std::size_t i = 0; i < a.obstacles.size(); ++i)
    if (!same_shape(a.obstacles[i], b.obstacles[i])) return false;
  return true;
}
std::uint64_t polygons_hash(const PolygonMap& pm, double max_x) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the coordinates' bits and the ring sizes
  auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  auto shape = [&](const PolygonShape& s) {
    mix(s.rings.size());
    for (const auto& r : s.rings) {
      mix(r.size());
      for (const Point& q : r) mix(key(q));
    }
  };
  shape(pm.walkable);
  for (const auto& o : pm.obstacles) shape(o);
  std::uint64_t mx;
  std::memcpy(&mx, &max_x, 8);
  mix(mx);
  return h;
}

}  // namespace

// Polygon maps: the free space of equal polygons is built once and shared (the map's walkable area
// and obstacles, and its box, decide it all), so the run's validity test, each representation that
// keeps a FreeSpace and the oracles' exact graph read one structure: its overlay, ring index and
// triangulation are made once per map (docs/maps.md). Held weakly: it lives while a FreeSpace uses it.
std::shared_ptr<FreeSpace::Impl> FreeSpace::shared_polygon_impl(const Map& m) {
  static std::mutex lock;
  static std::unordered_multimap<std::uint64_t, std::weak_ptr<Impl>> cache;
  const std::uint64_t h = polygons_hash(m.polygons, m.max.x);
  auto find = [&]() -> std::shared_ptr<Impl> {
    for (auto [it, end] = cache.equal_range(h); it != end; ++it)
      if (auto impl = it->second.lock(); impl && impl->key_max == m.max.x && same_polygons(impl->key, m.polygons)) return impl;
    return nullptr;
  };
  {
    const std::lock_guard<std::mutex> g(lock);
    if (auto impl = find()) return impl;
  }
  auto impl = std::make_shared<Impl>();  // built outside the lock: other maps' free spaces go on meanwhile
  impl->kind = MapKind::polygon;
  impl->build_polygon(m);
  impl->key = m.polygons;
  impl->key_max = m.max.x;
  const std::lock_guard<std::mutex> g(lock);
  if (auto first = find()) return first;  // another thread built the same meanwhile
  for (auto it = cache.begin(); it != cache.end();) it = it->second.expired() ? cache.erase(it) : std::next(it);
  cache.emplace(h, impl);
  return impl;
}

FreeSpace::FreeSpace(const Map& m, bool squeeze) : map_(&m) {
  if (m.kind == MapKind::grid) {
    if (m.grid.width < 0 || m.grid.height < 0 ||
        m.grid.cells.size() != std::size_t(m.grid.width) * std::size_t(m.grid.height))
      throw std::invalid_argument("FreeSpace: grid cells do not match its size");
    impl_ = std::make_shared<Impl>();
    impl_->kind = MapKind::grid;
    impl_->squeeze = squeeze;
    impl_->build_grid(m);
  } else {
    impl_ = shared_polygon_impl(m);
    impl_->polygon_visibility(*this);  // the triangulation is part of the free space: built with it, once
  }
}
FreeSpace::~FreeSpace() = default;
FreeSpace::FreeSpace(FreeSpace&&) noexcept = default;
FreeSpace& FreeSpace::operator=(FreeSpace&&) noexcept = default;

const Map& FreeSpace::map() const { return *map_; }
bool FreeSpace::squeeze() const { return impl_->squeeze; }

const PathClearance& FreeSpace::path_clearance() const {
  std::call_once(impl_->clearance_once, [this] { impl_->clearance = std::make_unique<PathClearance>(*this); });
  return *impl_->clearance;
}

const PolygonVisibility* FreeSpace::Impl::polygon_visibility(const FreeSpace& self) {
  if (kind != MapKind::polygon) return nullptr;
  std::call_once(visibility_once, [&] { visibility = std::make_unique<PolygonVisibility>(self); });
  return visibility->usable() ? visibility.get() : nullptr;
}

bool FreeSpace::visible_corners(Point p, std::vector<std::uint32_t>& out) const {
  const PolygonVisibility* v = impl_->polygon_visibility(*this);
  if (v) v->visible_corners(*this, p, out);
  return v != nullptr;
}

bool FreeSpace::visible_from_corner(std::uint32_t i, std::vector<std::uint32_t>& out, bool tangent_wedges) const {
  const PolygonVisibility* v = impl_->polygon_visibility(*this);
  if (v) v->visible_from_corner(*this, i, out, tangent_wedges);
  return v != nullptr;
}

bool FreeSpace::point_free(Point p) const {
  return impl_->kind == MapKind::grid ? impl_->grid_point_free(p) : impl_->poly_point_free(p);
}

bool FreeSpace::segment_valid(Point a, Point b) const {
  return impl_->kind == MapKind::grid ? impl_->grid_segment_valid(a, b) : impl_->poly_segment_valid(a, b);
}

// The owner rule of a pinch point holds at the path's start and goal; an inner vertex on one only
// keeps the path in one free cell (SPEC §1, docs/validity.md). A repeated point is no vertex of
// its own: the turn is judged between the distinct points before and after it.
bool FreeSpace::path_valid(const Polyline& input) const {
  if (input.empty()) return false;
  Polyline merged;
  const bool repeats = std::adjacent_find(input.begin(), input.end()) != input.end();
  if (repeats) {
    merged = input;
    merge_repeated_points(merged);
  }
  const Polyline& path = repeats ? merged : input;
  if (path.size() == 1) return point_free(path[0]);
  const bool grid = impl_->kind == MapKind::grid;
  const std::size_t last = path.size() - 1;
  for (std::size_t i = 1; i <= last; ++i) {
    const Point a = path[i - 1], b = path[i];
    const bool ok = grid ? impl_->grid_segment_valid(a, b, i == 1, i == last)
                         : impl_->poly_segment_valid(a, b, i == 1, i == last);
    if (!ok) return false;
    if (i < last && !(grid ? impl_->grid_turn_ok(a, b, path[i + 1]) : impl_->poly_turn_ok(a, b, path[i + 1])))
      return false;
  }
  return true;
}

std::int32_t FreeSpace::component(Point p) const {
  return impl_->kind == MapKind::grid ? impl_->grid_component(p) : impl_->poly_component(p);
}

const std::vector<std::vector<Point>>& FreeSpace::obstacle_rings() const {
  if (impl_->kind == MapKind::grid)
    std::call_once(impl_->rings_once, [&] {
      Impl& g = *impl_;
      std::vector<std::uint8_t> inside(std::size_t(g.W) * std::size_t(g.H));
      for (int y = 0; y < g.H; ++y)
        for (int x = 0; x < g.W; ++x) inside[std::size_t(y) * g.W + x] = g.cell_free(x, y);
      g.rings = trace_cell_rings(g.W, g.H, inside);
    });
  return impl_->rings;
}
const std::vector<ConvexCorner>& FreeSpace::convex_corners() const { return impl_->corners; }
std::int32_t FreeSpace::component_count() const { return impl_->ncomp; }

}  // namespace navbench
