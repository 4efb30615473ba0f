// Exact clearance of a grid map.
//
// The obstacle is a union of closed unit squares (plus the map's outside). For a query point q on
// the half-integer lattice (cell centres and grid corners), the nearest point of a square is q
// clamped to it per axis, which is again a half-integer lattice point. So the distance from q to
// the obstacle equals the distance to the nearest *obstacle lattice point* (a half-integer point
// inside some blocked square or on the map's border), and a plain sampled Euclidean distance
// transform on the (2W+1) x (2H+1) half-integer lattice is exact: Felzenszwalb & Huttenlocher,
// "Distance Transforms of Sampled Functions" (Theory of Computing 8, 2012), one 1D pass per axis,
// the second one the lower envelope of parabolas. Everything is in integers (half units), with the
// envelope's breakpoints compared as exact fractions: no rounding until the final division by 4.
#include "geometry/clearance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace navbench {

namespace {

// Felzenszwalb & Huttenlocher's 1D transform, D(q) = min_p (q - p)^2 + f(p), for finite f.
// Breakpoints z are kept as fractions num/den (den > 0) so that every comparison is exact.
void fh_1d(const std::int64_t* f, std::int64_t* d, int n, std::vector<int>& v, std::vector<std::int64_t>& zn,
           std::vector<std::int64_t>& zd) {
  v.resize(std::size_t(n));
  zn.resize(std::size_t(n) + 1);
  zd.resize(std::size_t(n) + 1);
  int k = 0;  // v[0..k]: parabolas of the envelope; z[k] where parabola k starts (z[0] = -inf)
  v[0] = 0;
  for (int q = 1; q < n; ++q) {
    for (;;) {
      const int p = v[std::size_t(k)];
      // Intersection of parabolas q and p: s = ((f(q) + q^2) - (f(p) + p^2)) / (2q - 2p).
      const std::int64_t num = (f[q] + std::int64_t(q) * q) - (f[p] + std::int64_t(p) * p);
      const std::int64_t den = 2 * std::int64_t(q - p);
      // s <= z[k] (z[0] = -inf never holds): parabola p is nowhere below the envelope, drop it.
      if (k > 0 && num * zd[std::size_t(k)] <= zn[std::size_t(k)] * den) {
        --k;
        continue;
      }
      ++k;
      v[std::size_t(k)] = q;
      zn[std::size_t(k)] = num;
      zd[std::size_t(k)] = den;
      break;
    }
  }
  int j = 0;
  for (int q = 0; q < n; ++q) {
    // Advance while z[j+1] < q (z[k+1] = +inf).
    while (j < k && zn[std::size_t(j) + 1] < std::int64_t(q) * zd[std::size_t(j) + 1]) ++j;
    const std::int64_t dq = q - v[std::size_t(j)];
    d[q] = dq * dq + f[v[std::size_t(j)]];
  }
}

}  // namespace

GridClearance::GridClearance(const GridMap& g) : W_(g.width), H_(g.height) {
  if (W_ < 0 || H_ < 0 || g.cells.size() != std::size_t(W_) * std::size_t(H_))
    throw std::invalid_argument("GridClearance: grid cells do not match its size");
  // Row jumps: next_[y][x] = first blocked x' >= x in row y, or W.
  next_.assign(std::size_t(W_ + 1) * std::size_t(H_), W_);
  for (int y = 0; y < H_; ++y) {
    std::int32_t* row = &next_[std::size_t(y) * (W_ + 1)];
    for (int x = W_ - 1; x >= 0; --x) row[x] = g.passable(x, y) ? row[x + 1] : x;
  }
  sum_.assign(std::size_t(W_ + 1) * std::size_t(H_ + 1), 0);
  for (int y = 0; y < H_; ++y)
    for (int x = 0, run = 0; x < W_; ++x) {
      run += !g.passable(x, y);  // blocked cells of row y left of x + 1
      sum_[std::size_t(y + 1) * (W_ + 1) + x + 1] = sum_[std::size_t(y) * (W_ + 1) + x + 1] + run;
    }
  centre_sq_.assign(std::size_t(W_) * std::size_t(H_), 0.0);
  corner_sq_.assign(std::size_t(W_ + 1) * std::size_t(H_ + 1), 0.0);
  if (W_ == 0 || H_ == 0) return;

  // Half-integer lattice: point (u, v) is (u / 2, v / 2), 0 <= u <= 2W, 0 <= v <= 2H. It belongs to
  // the obstacle when one of the (up to four) closed cells holding it is blocked or outside.
  const int U = 2 * W_ + 1, V = 2 * H_ + 1;
  auto cell_blocked = [&](int x, int y) { return !g.passable(x, y); };  // outside counts as blocked
  auto obstacle = [&](int u, int v) {
    const int x1 = u / 2, x0 = (u % 2 == 0) ? x1 - 1 : x1;
    const int y1 = v / 2, y0 = (v % 2 == 0) ? y1 - 1 : y1;
    return cell_blocked(x0, y0) || cell_blocked(x1, y0) || cell_blocked(x0, y1) || cell_blocked(x1, y1);
  };
  // Pass 1, along columns (all columns at once, row by row): distance in half units to the nearest
  // obstacle lattice point in the same column. Rows v = 0 and v = 2H are obstacle, so it is finite.
  std::vector<std::int32_t> col(std::size_t(U) * std::size_t(V));
  for (int v = 0; v < V; ++v)
    for (int u = 0; u < U; ++u)
      col[std::size_t(v) * U + u] = obstacle(u, v) ? 0 : col[std::size_t(v - 1) * U + u] + 1;
  for (int v = V - 2; v >= 0; --v)
    for (int u = 0; u < U; ++u) {
      std::int32_t& c = col[std::size_t(v) * U + u];
      c = std::min(c, col[std::size_t(v + 1) * U + u] + 1);
    }
  // Pass 2, along rows: the lower envelope of parabolas over the squared column distances.
  std::vector<std::int64_t> f(static_cast<std::size_t>(U)), d(static_cast<std::size_t>(U)), zn, zd;
  std::vector<int> env;
  for (int v = 0; v < V; ++v) {
    for (int u = 0; u < U; ++u) {
      const std::int64_t c = col[std::size_t(v) * U + u];
      f[std::size_t(u)] = c * c;
    }
    fh_1d(f.data(), d.data(), U, env, zn, zd);
    // Odd rows hold cell centres (odd u), even rows grid corners (even u); units: (1/2)^2.
    if (v % 2 == 1) {
      const int y = v / 2;
      for (int x = 0; x < W_; ++x) centre_sq_[std::size_t(y) * W_ + x] = double(d[std::size_t(2 * x + 1)]) * 0.25;
    } else {
      const int y = v / 2;
      for (int x = 0; x <= W_; ++x) corner_sq_[std::size_t(y) * (W_ + 1) + x] = double(d[std::size_t(2 * x)]) * 0.25;
    }
  }
}

double GridClearance::centre(int x, int y) const { return std::sqrt(centre_sq(x, y)); }
double GridClearance::corner(int x, int y) const { return std::sqrt(corner_sq(x, y)); }

// The stored points (cell centres and corners) nearest c: within 0.5 of any point of the cell
// (the cell splits into four triangles, centre + two corners each). Clearance is 1-Lipschitz, so
// clearance(c) lies within |c - p| of clearance(p).
double GridClearance::clearance_upper(Point c, double* lower) const {
  const int x = std::clamp(int(std::floor(c.x)), 0, W_ - 1), y = std::clamp(int(std::floor(c.y)), 0, H_ - 1);
  double best_up = std::numeric_limits<double>::infinity(), best_lo = 0;
  auto consider = [&](double px, double py, double sq) {
    const double delta = std::hypot(c.x - px, c.y - py), s = std::sqrt(sq);
    if (s + delta < best_up) best_up = s + delta, best_lo = s - delta;
  };
  consider(x + 0.5, y + 0.5, centre_sq(x, y));
  for (int dy = 0; dy <= 1; ++dy)
    for (int dx = 0; dx <= 1; ++dx) consider(x + dx, y + dy, corner_sq(x + dx, y + dy));
  *lower = best_lo;
  return best_up;
}

double GridClearance::point_clearance(Point c) const {
  if (!(c.x >= 0 && c.y >= 0 && c.x <= W_ && c.y <= H_)) return 0;  // also NaN
  if (W_ == 0 || H_ == 0) return 0;
  // The map's outside: the nearest border line.
  double best = std::min(std::min(c.x, W_ - c.x), std::min(c.y, H_ - c.y));
  double lower;
  // Only blocked squares within the upper bound can be nearer: scan that box, jumping free runs.
  const double reach = std::min(best, clearance_upper(c, &lower)) + 1e-7;
  const int y0 = std::max(0, int(std::floor(c.y - reach))), y1 = std::min(H_ - 1, int(std::floor(c.y + reach)));
  const int x0 = std::max(0, int(std::floor(c.x - reach))), x1 = std::min(W_ - 1, int(std::floor(c.x + reach)));
  for (int y = y0; y <= y1; ++y)
    for (int x = next_blocked(x0, y); x <= x1; x = next_blocked(x + 1, y))
      best = std::min(best, point_box_distance(c, x, y, x + 1, y + 1));
  return best;
}

bool GridClearance::disc_free(Point c, double R) const {
  if (!(c.x >= 0 && c.y >= 0 && c.x <= W_ && c.y <= H_)) return false;
  if (W_ == 0 || H_ == 0) return false;
  const double lim = R - kRadiusTolerance;
  if (lim <= 0) {
    // The distance test is vacuous: the point agent of docs/maps.md (c in the closed free space).
    const int x1 = int(std::floor(c.x)), y1 = int(std::floor(c.y));
    const int x0 = c.x == x1 ? x1 - 1 : x1, y0 = c.y == y1 ? y1 - 1 : y1;
    for (int y = std::max(y0, 0); y <= std::min(y1, H_ - 1); ++y)
      for (int x = std::max(x0, 0); x <= std::min(x1, W_ - 1); ++x)
        if (!blocked(x, y)) return true;
    return false;
  }
  double lower;
  const double upper = clearance_upper(c, &lower);
  // The lattice bounds settle it unless R is within rounding of them.
  if (lower >= lim + 1e-12) return true;
  if (upper < lim - 1e-12) return false;
  return point_clearance(c) >= lim;
}

}  // namespace navbench
