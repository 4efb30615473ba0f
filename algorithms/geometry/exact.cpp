// Exact fallbacks of the predicates in exact.hpp (Shewchuk 1997: Two-Sum, Two-Product,
// Grow-Expansion; the sign of a nonoverlapping expansion is the sign of its largest component).
#include "geometry/exact.hpp"

#include <cassert>

namespace navbench::exact {

namespace {

// a + b = s + e exactly (Knuth's Two-Sum).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bv = s - a;
  const double av = s - bv;
  e = (a - av) + (b - bv);
}

// a * b = p + e exactly (fma gives the rounding error of the product).
inline void two_product(double a, double b, double& p, double& e) {
  p = a * b;
  e = std::fma(a, b, -p);
}

}  // namespace

int sign_of_sum(const double* terms, int n) {
  assert(n <= 32);
  // Grow-Expansion: h is a nonoverlapping expansion, components in increasing magnitude.
  double h[33];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    double q = terms[i];
    if (q == 0) continue;
    int k = 0;
    for (int j = 0; j < m; ++j) {
      double s, e;
      two_sum(q, h[j], s, e);
      q = s;
      if (e != 0) h[k++] = e;  // zero elimination keeps the expansion short
    }
    h[k++] = q;
    m = k;
  }
  for (int j = m - 1; j >= 0; --j)
    if (h[j] != 0) return h[j] > 0 ? 1 : -1;
  return 0;
}

namespace {
// Coordinates that are multiples of 2^-8 below 2^16 in magnitude (grid corners, cell centres,
// quarter points): differences fit 25 bits, products 50, their difference 51, so the plain
// formula is exact. This keeps the frequent exactly-collinear grid cases off the slow path.
inline bool small_dyadic(double v) {
  const double t = v * 256.0;
  return std::abs(v) < 65536.0 && t == std::trunc(t);
}
}  // namespace

int orient2d_exact(Point a, Point b, Point c) {
  if (small_dyadic(a.x) && small_dyadic(a.y) && small_dyadic(b.x) && small_dyadic(b.y) && small_dyadic(c.x) &&
      small_dyadic(c.y)) {
    const double det = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    return (det > 0) - (det < 0);
  }
  // (b - a) x (c - a) = ax*by - ax*cy - ay*bx + ay*cx + bx*cy - by*cx, six exact products.
  double t[12];
  two_product(a.x, b.y, t[0], t[1]);
  two_product(-a.x, c.y, t[2], t[3]);
  two_product(-a.y, b.x, t[4], t[5]);
  two_product(a.y, c.x, t[6], t[7]);
  two_product(b.x, c.y, t[8], t[9]);
  two_product(-b.y, c.x, t[10], t[11]);
  return sign_of_sum(t, 12);
}

int cross_with_unit(Point p, Point r, int dx, int dy) {
  // (r - p) x d = (rx - px) * dy - (ry - py) * dx with dx, dy in {-1, 0, 1}: a sum of four doubles.
  const double t[4] = {r.x * dy, -p.x * dy, -r.y * dx, p.y * dx};
  return sign_of_sum(t, 4);
}

}  // namespace navbench::exact
