// An exact line-of-sight test from a query point to a graph node on a grid map, in integer
// arithmetic: FreeSpace::segment_valid's rules (geometry/free_space.cpp) for the case visgraph
// attaches, a free point p whose coordinates are multiples of 1/2 (cell corners and cell centres,
// the two conventions of docs/results.md#query-status) to a convex corner (never a pinch point). The cell walk is the
// same (Amanatides & Woo, "A fast voxel traversal algorithm", Eurographics 1987), its corner test
// an int64 cross product on doubled coordinates instead of a filtered floating predicate.
// Any other case (p at a pinch point or off the half-grid) returns `unknown`, and the caller asks
// FreeSpace.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

class GridLos {
 public:
  enum Result { blocked = 0, visible = 1, unknown = 2 };
  GridLos() = default;
  explicit GridLos(const GridMap& g) : W(g.width), H(g.height), PW(g.width + 2) {
    free_.assign(std::size_t(PW) * std::size_t(H + 2), 0);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) free_[std::size_t(y + 1) * PW + std::size_t(x + 1)] = g.passable(x, y) ? 1 : 0;
  }
  std::size_t memory_bytes() const { return free_.capacity(); }
  // p is a grid corner where two diagonally opposite cells are blocked.
  bool is_pinch(Point p) const {
    return p.x == std::floor(p.x) && p.y == std::floor(p.y) && p.x >= 0 && p.y >= 0 && p.x <= W && p.y <= H &&
           pinch(int(p.x), int(p.y));
  }

  // test() towards any grid corner v inside the map (integer coordinates) that is no pinch point:
  // the walk's end needs only that (the cell left right before v decides), so the same walk
  // judges the segment between a query's start and its goal in the corner convention
  // (VisGraph::segment_clear); unknown otherwise.
  Result test_to_corner(Point p, Point v) const {
    if (v.x != std::floor(v.x) || v.y != std::floor(v.y) || v.x < 0 || v.y < 0 || v.x > W || v.y > H ||
        pinch(int(v.x), int(v.y)))
      return unknown;
    return test(p, v);
  }

  // p: a free point; v: a convex corner of the grid (a node).
  Result test(Point p, Point v) const {
    const double px2 = 2 * p.x, py2 = 2 * p.y;
    if (px2 != std::floor(px2) || py2 != std::floor(py2)) return unknown;
    const std::int64_t ax = std::int64_t(px2), ay = std::int64_t(py2);
    const std::int64_t bx = 2 * std::int64_t(v.x), by = 2 * std::int64_t(v.y);
    if (ax == bx && ay == by) return visible;
    if ((ax & 1) == 0 && (ay & 1) == 0 && pinch(int(ax / 2), int(ay / 2))) return unknown;
    if (ax == bx || ay == by) return axis_parallel(p, v, ay == by);
    const int sx = bx > ax ? 1 : -1, sy = by > ay ? 1 : -1;
    // From the cell entered right after p to the cell left right before v (free_space.cpp).
    int cx = sx > 0 ? int(std::floor(p.x)) : int(std::ceil(p.x)) - 1;
    int cy = sy > 0 ? int(std::floor(p.y)) : int(std::ceil(p.y)) - 1;
    const int ex = sx > 0 ? int(v.x) - 1 : int(v.x), ey = sy > 0 ? int(v.y) - 1 : int(v.y);
    const int kx = sx > 0 ? 1 : 0, ky = sy > 0 ? 1 : 0;
    const std::int64_t dx = bx - ax, dy = by - ay;
    const int sxy = sx * sy;
    // cr = orient2d(p, v, corner ahead) * 4, the sign of (v - p) x (corner - p), kept up to date by
    // additions as the walk steps (+-x moves the corner by 2 sx: cr -= 2 sx dy; +-y: cr += 2 sy dx).
    std::int64_t cr = dx * (2 * std::int64_t(cy + ky) - ay) - dy * (2 * std::int64_t(cx + kx) - ax);
    const std::int64_t step_x = -2 * sx * dy, step_y = 2 * sy * dx;
    const std::uint8_t* f = free_.data();
    std::ptrdiff_t at = std::ptrdiff_t(cy + 1) * PW + (cx + 1);
    const std::ptrdiff_t end = std::ptrdiff_t(ey + 1) * PW + (ex + 1), move_y = std::ptrdiff_t(sy) * PW;
    for (long guard = long(std::abs(ex - cx)) + std::abs(ey - cy) + 1; guard >= 0; --guard) {
      if (!f[at]) return blocked;
      if (at == end) return visible;
      const int o = ((cr > 0) - (cr < 0)) * sxy;
      if (o > 0) {
        at += sx, cx += sx, cr += step_x;
      } else if (o < 0) {
        at += move_y, cy += sy, cr += step_y;
      } else {
        if (pinch(cx + kx, cy + ky)) return blocked;  // through a pinch point
        at += sx + move_y, cx += sx, cy += sy, cr += step_x + step_y;
      }
    }
    return unknown;  // never reached: the walk ends at v's cell
  }

 private:
  // Along a grid line (each unit edge needs a free side, no pinch point inside) or through one
  // row / column of cells (each free): free_space.cpp's rule for axis-parallel segments.
  Result axis_parallel(Point a, Point b, bool horizontal) const {
    const double c = horizontal ? a.y : a.x;
    const double lo = horizontal ? std::min(a.x, b.x) : std::min(a.y, b.y);
    const double hi = horizontal ? std::max(a.x, b.x) : std::max(a.y, b.y);
    const int i0 = int(std::floor(lo)), i1 = int(std::ceil(hi)) - 1;
    auto cf = [&](int along, int across) { return horizontal ? cell_free(along, across) : cell_free(across, along); };
    if (c == std::floor(c)) {
      const int k = int(c);
      for (int i = i0; i <= i1; ++i)
        if (!cf(i, k - 1) && !cf(i, k)) return blocked;
      for (int i = i0 + 1; i <= i1; ++i)
        if (double(i) > lo && (horizontal ? pinch(i, k) : pinch(k, i))) return blocked;
    } else {
      const int k = int(std::floor(c));
      for (int i = i0; i <= i1; ++i)
        if (!cf(i, k)) return blocked;
    }
    return visible;
  }
  bool cell_free(int x, int y) const { return free_[std::size_t(y + 1) * PW + std::size_t(x + 1)] != 0; }
  bool pinch(int x, int y) const {
    const bool a = cell_free(x - 1, y - 1), b = cell_free(x, y - 1), c = cell_free(x - 1, y), d = cell_free(x, y);
    return (a && d && !b && !c) || (b && c && !a && !d);
  }
  int W = 0, H = 0, PW = 0;
  std::vector<std::uint8_t> free_;  // padded (W + 2) x (H + 2), the padding blocked
};

}  // namespace navbench
