#include "geometry/path_cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace navbench {
namespace {

// The weight of a passable cell, +inf for a blocked or outside one.
double cell_weight(const GridMap& g, int x, int y) {
  if (!g.passable(x, y)) return kInf;
  return g.weights.empty() ? 1.0 : g.weights[std::size_t(y) * g.width + x];
}

// The parameters t in (0, 1) where a + t (b - a) crosses the lines x = k (k integer), in order.
struct Crossings {
  double a, d;  // coordinate at t = 0 and its change over the segment
  long k, last;  // next line and the last one crossed
  int step;
  Crossings(double a0, double b0) : a(a0), d(b0 - a0) {
    if (d > 0) {
      k = long(std::floor(a0)) + 1, last = long(std::ceil(b0)) - 1, step = 1;
    } else if (d < 0) {
      k = long(std::ceil(a0)) - 1, last = long(std::floor(b0)) + 1, step = -1;
    } else {
      k = 0, last = -1, step = 1;  // none
    }
  }
  bool done() const { return d == 0 || (step > 0 ? k > last : k < last); }
  double t() const { return done() ? kInf : (double(k) - a) / d; }
  void next() { k += step; }
};

}  // namespace

double segment_cost(const GridMap& g, Point a, Point b) {
  const double len = distance(a, b);
  if (len == 0) return 0;
  const double dx = b.x - a.x, dy = b.y - a.y;
  // Along a grid line: each unit piece weighs the cheaper of the two cells beside it.
  const bool on_row = dy == 0 && a.y == std::floor(a.y), on_column = dx == 0 && a.x == std::floor(a.x);
  Crossings cx(a.x, b.x), cy(a.y, b.y);
  double c = 0, t0 = 0;
  while (true) {
    const double tx = cx.t(), ty = cy.t();
    const double t1 = std::min({tx, ty, 1.0});
    if (t1 > t0) {
      const double tm = 0.5 * (t0 + t1);
      const double mx = a.x + tm * dx, my = a.y + tm * dy;
      const int x = int(std::floor(mx)), y = int(std::floor(my));
      double w;
      if (on_row) w = std::min(cell_weight(g, x, int(a.y) - 1), cell_weight(g, x, int(a.y)));
      else if (on_column) w = std::min(cell_weight(g, int(a.x) - 1, y), cell_weight(g, int(a.x), y));
      else w = cell_weight(g, x, y);
      const double piece = (t1 - t0) * len;
      // A sliver where two crossings nearly coincide (a segment through a cell corner) is rounding:
      // its midpoint may fall in a neighbouring cell. It weighs nothing rather than +inf.
      if (w == kInf && piece < 1e-9) w = 0;
      c += piece * w;
    }
    if (t1 >= 1.0) break;
    if (tx == t1) cx.next();
    if (ty == t1) cy.next();
    t0 = t1;
  }
  return c;
}

double path_cost(const GridMap& g, const Polyline& p) {
  double c = 0;
  for (std::size_t i = 1; i < p.size(); ++i) c += segment_cost(g, p[i - 1], p[i]);
  return c;
}

double least_weight(const GridMap& g) {
  if (g.weights.empty()) return 1.0;
  double w = kInf;
  for (std::size_t i = 0; i < g.weights.size(); ++i)
    if (g.cells[i]) w = std::min(w, g.weights[i]);
  return std::isfinite(w) ? w : 1.0;
}

}  // namespace navbench
