// Exact geometric predicates on double coordinates (Shewchuk, "Adaptive Precision Floating-Point
// Arithmetic and Fast Robust Geometric Predicates", DCG 1997): a floating-point filter with his
// static error bound answers almost every call; the rare uncertain case is decided exactly with
// floating-point expansions (error-free Two-Sum / Two-Product via fma). No epsilon anywhere.
#pragma once
#include <cmath>

#include "geometry/point.hpp"

namespace navbench::exact {

// Sign (-1, 0, +1) of the exact sum of n doubles (n <= 32), each given exactly.
int sign_of_sum(const double* terms, int n);

// Exact sign of (b - a) x (c - a), computed without the rounding of the subtractions.
int orient2d_exact(Point a, Point b, Point c);

// Sign of the orientation of c relative to the directed line a->b:
// +1 when c lies to the left (counter-clockwise), -1 to the right, 0 on the line. Exact.
inline int orient2d(Point a, Point b, Point c) {
  const double detleft = (a.x - c.x) * (b.y - c.y);
  const double detright = (a.y - c.y) * (b.x - c.x);
  const double det = detleft - detright;
  // Shewchuk's ccwerrboundA = (3 + 16 eps) eps, eps = 2^-53.
  constexpr double kErrBound = 3.3306690738754716e-16;
  const double bound = kErrBound * (std::abs(detleft) + std::abs(detright));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orient2d_exact(a, b, c);
}

// Sign of the cross product (r - p) x d for a direction d whose components are -1, 0 or +1. Exact.
int cross_with_unit(Point p, Point r, int dx, int dy);

}  // namespace navbench::exact
