// An exact line-of-sight test from a query point to a graph node on a grid map, in integer
// arithmetic: FreeSpace::segment_valid's rules (geometry/free_space.cpp) for the case visgraph
// attaches, a free point p whose coordinates are multiples of 1/2 (cell corners and cell centres,
// the two conventions of docs/results.md#query-status) to a convex corner (never a pinch point). The cell walk is the
// same (Amanatides & Woo, "A fast voxel traversal algorithm", Eurographics 1987), its corner test
// an int64 cross product on doubled coordinates instead of a filtered floating predicate.
// Any other case (p at a pinch point or off the half-grid) returns `unknown`, and the caller asks
// FreeSpace.
//
// Long segments over open ground (visgraph's weighted build tests every pair of vertices, most of
// them hundreds of cells apart): built with `clearance`, each cell also holds, per direction of
// travel, the side k of the largest square of free cells that has it as its corner and extends
// that way (corner_squares below), and the walk crosses such a square in one step. No blocked
// cell and no pinch point lies inside it, nor on its side where the segment leaves it (a pinch
// point needs two blocked cells at one grid point, and the side puts two free cells there; at the
// square's far corner the pinch test is made as by the cell walk), and the cell where the segment
// leaves it is found in exact integer arithmetic: the result is the cell walk's, in steps that
// grow with the free space around the segment instead of its length in cells.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"

namespace navbench {

// Squares of one label ahead of a walk: for a padded table of labels (pw x ph) and each of the
// four directions (sx, sy) = (+-1, +-1), per cell the side k of the largest square of k x k cells
// of the cell's label that has the cell as its corner and extends towards +sx and +sy (cells
// x .. x + sx (k - 1), y .. y + sy (k - 1)), saturated at 65535; index [(sx > 0) + 2 (sy > 0)].
// The dynamic programme of the largest square: k = 1 + the least k of the three cells ahead when
// all three hold the label, else 1 (the three squares of k - 1 and the cell cover the square).
// A walk along a segment heading into that quadrant stays in the square from its corner cell
// until it crosses the square's far side x or y, and may cross it in one step.
template <class Label>
std::array<std::vector<std::uint16_t>, 4> corner_squares(const std::vector<Label>& lab, int pw, int ph) {
  std::array<std::vector<std::uint16_t>, 4> out;
  auto at = [pw](int x, int y) { return std::size_t(y) * std::size_t(pw) + std::size_t(x); };
  for (int q = 0; q < 4; ++q) {
    const int sx = q & 1 ? 1 : -1, sy = q & 2 ? 1 : -1;
    std::vector<std::uint16_t>& k = out[std::size_t(q)];
    k.assign(lab.size(), 1);
    for (int i = 1; i < ph; ++i) {  // from the far row and column inwards (those stay 1)
      const int y = sy > 0 ? ph - 1 - i : i, y2 = y + sy;
      for (int j = 1; j < pw; ++j) {
        const int x = sx > 0 ? pw - 1 - j : j, x2 = x + sx;
        const Label& l = lab[at(x, y)];
        if (lab[at(x2, y)] == l && lab[at(x, y2)] == l && lab[at(x2, y2)] == l)
          k[at(x, y)] = std::uint16_t(std::min(65535, 1 + int(std::min({k[at(x2, y)], k[at(x, y2)], k[at(x2, y2)]}))));
      }
    }
  }
  return out;
}

class GridLos {
 public:
  enum Result { blocked = 0, visible = 1, unknown = 2 };
  GridLos() = default;
  explicit GridLos(const GridMap& g, bool clearance = false) : W(g.width), H(g.height), PW(g.width + 2) {
    free_.assign(std::size_t(PW) * std::size_t(H + 2), 0);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) free_[std::size_t(y + 1) * PW + std::size_t(x + 1)] = g.passable(x, y) ? 1 : 0;
    if (clearance) clear_ = corner_squares(free_, PW, H + 2);
  }
  std::size_t memory_bytes() const {
    std::size_t b = free_.capacity();
    for (const auto& k : clear_) b += k.capacity() * sizeof(std::uint16_t);
    return b;
  }

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

  // p: a free point; v: a convex corner of the grid (a node). steps: when given, the walk's steps
  // are added to it (the caller's counter: the tests run on many threads at once).
  Result test(Point p, Point v, std::uint64_t* steps = nullptr) const {
    const double px2 = 2 * p.x, py2 = 2 * p.y;
    if (px2 != std::floor(px2) || py2 != std::floor(py2)) return unknown;
    const std::int64_t ax = std::int64_t(px2), ay = std::int64_t(py2);
    const std::int64_t bx = 2 * std::int64_t(v.x), by = 2 * std::int64_t(v.y);
    if (ax == bx && ay == by) return visible;
    if ((ax & 1) == 0 && (ay & 1) == 0 && pinch(int(ax / 2), int(ay / 2))) return unknown;
    if (ax == bx || ay == by) {
      if (steps) *steps += std::uint64_t(std::abs(ax - bx) + std::abs(ay - by)) / 2 + 1;  // the cells it reads
      return axis_parallel(p, v, ay == by);
    }
    return clear_[0].empty() ? walk<false>(p, v, ax, ay, bx, by, steps) : walk<true>(p, v, ax, ay, bx, by, steps);
  }

 private:
  // The cell walk of test() (doubled coordinates a of p, b of v; neither axis-parallel); kJump:
  // across the squares of clear_ (see above).
  template <bool kJump>
  Result walk(Point p, Point v, std::int64_t ax, std::int64_t ay, std::int64_t bx, std::int64_t by, std::uint64_t* steps) const {
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
    [[maybe_unused]] const std::uint16_t* ahead = kJump ? clear_[std::size_t((sx > 0) + 2 * (sy > 0))].data() : nullptr;
    Result result = unknown;  // never left so: the walk ends at v's cell (each step nears it)
    const long guard0 = long(std::abs(ex - cx)) + std::abs(ey - cy) + 1;
    long guard = guard0;
    for (; guard >= 0; --guard) {
      if (!f[at]) {
        result = blocked;
        break;
      }
      if (at == end) {
        result = visible;
        break;
      }
      if constexpr (kJump) {
        if (const int k = ahead[at]; k > 1) {
          // The free square of k x k cells from this one towards (sx, sy) holds the segment from
          // here on while it is inside: v's cell in it, the rest is clear (a segment heading into
          // the square's quadrant meets its far boundary only once).
          if ((ex - cx) * sx < k && (ey - cy) * sy < k) {
            result = visible;
            break;
          }
          // Else it leaves across the far side x = X (at t = nx / |dx|) or y = Y (ny / |dy|).
          const std::int64_t X = sx > 0 ? cx + k : cx - k + 1, Y = sy > 0 ? cy + k : cy - k + 1;
          const std::int64_t adx = dx * sx, ady = dy * sy, nx = (2 * X - ax) * sx, ny = (2 * Y - ay) * sy;
          const std::int64_t lx = nx * ady, ly = ny * adx;
          if (lx == ly) {  // through the square's corner: the cell walk's diagonal step there
            if (pinch(int(X), int(Y))) {
              result = blocked;
              break;
            }
            cx = sx > 0 ? int(X) : int(X) - 1;
            cy = sy > 0 ? int(Y) : int(Y) - 1;
          } else if (lx < ly) {  // across x = X at y = (ay + dy nx / |dx|) / 2: the row entered there
            cx = sx > 0 ? int(X) : int(X) - 1;
            const std::int64_t num = ay * adx + dy * nx, den = 2 * adx;
            cy = sy > 0 ? int(floor_div(num, den)) : int(-floor_div(-num, den)) - 1;
          } else {
            cy = sy > 0 ? int(Y) : int(Y) - 1;
            const std::int64_t num = ax * ady + dx * ny, den = 2 * ady;
            cx = sx > 0 ? int(floor_div(num, den)) : int(-floor_div(-num, den)) - 1;
          }
          at = std::ptrdiff_t(cy + 1) * PW + (cx + 1);
          cr = dx * (2 * std::int64_t(cy + ky) - ay) - dy * (2 * std::int64_t(cx + kx) - ax);
          continue;
        }
      }
      const int o = ((cr > 0) - (cr < 0)) * sxy;
      if (o > 0) {
        at += sx, cx += sx, cr += step_x;
      } else if (o < 0) {
        at += move_y, cy += sy, cr += step_y;
      } else {
        if (pinch(cx + kx, cy + ky)) {  // through a pinch point
          result = blocked;
          break;
        }
        at += sx + move_y, cx += sx, cy += sy, cr += step_x + step_y;
      }
    }
    if (steps) *steps += std::uint64_t(guard0 - guard + 1);  // the cells and squares visited
    return result;
  }
  static std::int64_t floor_div(std::int64_t a, std::int64_t b) {  // b > 0
    return a >= 0 ? a / b : -((-a + b - 1) / b);
  }
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
  std::vector<std::uint8_t> free_;    // padded (W + 2) x (H + 2), the padding blocked
  std::array<std::vector<std::uint16_t>, 4> clear_;  // with clearance: the free squares ahead (above)
};

}  // namespace navbench
