// SteinerReference::refine (geometry/steiner_reference.hpp): the graph's path relaxed by Snell's
// law, points sliding along their cell sides, and points dropped where their neighbours' segment is
// valid and no dearer.
#include <algorithm>
#include <cmath>

#include "geometry/path_cost.hpp"
#include "geometry/steiner_reference.hpp"

namespace navbench {

// What refine() reads to move one point: the piece of a cell, the unit sides through a point and
// the pieces beside them, the cost of the legs to its neighbours, and its least-cost place.
struct SteinerReference::Refiner {
  const SteinerReference& ref;
  const GridMap& g_;
  const int W;
  // A unit cell side from `from` (t = 0) to from + dir (t = 1), the pieces on either side of it.
  struct Side {
    Point from, dir;
    std::int32_t piece[2];
  };
  std::int32_t piece_at(int x, int y) const { return g_.passable(x, y) ? ref.piece_of_[std::size_t(y) * W + x] : -1; }
  // q lies in piece pi's closed rectangle (a pinch corner only in its own cell's piece).
  bool holds(std::int32_t pi, Point q) const {
    const Piece& P = ref.pieces_[std::size_t(pi)];
    if (q.x < P.x0 || q.x > P.x1 || q.y < P.y0 || q.y > P.y1) return false;
    if (q.x == std::floor(q.x) && q.y == std::floor(q.y) && pinch(g_, int(q.x), int(q.y))) {
      const int x = int(q.x), y = int(q.y);
      return piece_at(x, g_.passable(x, y) ? y : y - 1) == pi;
    }
    return true;
  }
  int sides_at(Point q, Side* out) const {
    int n = 0;
    const bool ix = q.x == std::floor(q.x), iy = q.y == std::floor(q.y);
    const int fx = int(std::floor(q.x)), fy = int(std::floor(q.y));
    const auto horizontal = [&](int x, int y) {  // (x, y) - (x + 1, y)
      if (x >= 0 && x < W) out[n++] = {{double(x), double(y)}, {1, 0}, {piece_at(x, y - 1), piece_at(x, y)}};
    };
    const auto vertical = [&](int x, int y) {  // (x, y) - (x, y + 1)
      if (y >= 0 && y < g_.height) out[n++] = {{double(x), double(y)}, {0, 1}, {piece_at(x - 1, y), piece_at(x, y)}};
    };
    if (iy) {
      horizontal(fx, fy);
      if (ix) horizontal(fx - 1, fy);
    }
    if (ix) {
      vertical(fx, fy);
      if (iy) vertical(fx, fy - 1);
    }
    return n;
  }
  // The way from a to x on side S: w |a x| through the piece of S that holds a (w > 0), along S's
  // line (w = 0), or, when no piece of S holds a, anywhere (w < 0: C by segment_cost, and the
  // segment must pass FreeSpace's test).
  double leg(const Side& S, Point a) const {
    const bool on_line = S.dir.x != 0 ? a.y == S.from.y : a.x == S.from.x;
    for (std::int32_t pi : S.piece)
      if (pi >= 0 && holds(pi, a)) return on_line ? 0.0 : ref.pieces_[std::size_t(pi)].w;
    return -1;
  }
  double leg_cost(double w, Point a, Point x) const {
    return w > 0 ? w * std::sqrt((a.x - x.x) * (a.x - x.x) + (a.y - x.y) * (a.y - x.y)) : segment_cost(g_, a, x);
  }

  double best_place(const Polyline& path, std::size_t i, Point& best) const;
};

// The least-cost place of inner point i on the sides through it, given its neighbours: the gain
// (0 when none) and the place.
double SteinerReference::Refiner::best_place(const Polyline& path, std::size_t i, Point& best) const {
  Side sides[4];
  const Point a = path[i - 1], b = path[i + 1], q = path[i];
  const int n = sides_at(q, sides);
  best = q;
  double best_gain = 0;
  for (int k = 0; k < n; ++k) {
    const Side& S = sides[k];
    const double la = leg(S, a), lb = leg(S, b);
    const auto at = [&](double t) { return Point{S.from.x + t * S.dir.x, S.from.y + t * S.dir.y}; };
    const auto f = [&](double t) {
      const Point x = at(t);
      return leg_cost(la, a, x) + leg_cost(lb, b, x);
    };
    // The legs' cost now, exactly: at an end of the side (a grid corner) a leg may run along a
    // piece's side, where it weighs the cheaper cell beside it (docs/terrain.md), not the piece's
    // weight that leg_cost gives; pricing it so made moves that looked cheaper raise C. Inside the
    // side (eps..1-eps, where the candidates lie) leg_cost is exact: a chord through one piece.
    const double now = segment_cost(g_, a, q) + segment_cost(g_, q, b);
    // Never at an end of the side (it may be a pinch corner of another piece).
    constexpr double eps = 1e-9;
    double t;
    if (la > 0 && lb > 0) {
      // Two chords: f is convex and smooth away from a and b; safeguarded Newton on f' = 0.
      const auto d1 = [&](double u, double& d2) {
        const Point x = at(u);
        const double ux = x.x - a.x, uy = x.y - a.y, vx = x.x - b.x, vy = x.y - b.y;
        const double nu = std::sqrt(ux * ux + uy * uy), nv = std::sqrt(vx * vx + vy * vy);
        const double pu = ux * S.dir.x + uy * S.dir.y, pv = vx * S.dir.x + vy * S.dir.y;
        double g = 0;
        d2 = 0;
        if (nu > 0) g += la * pu / nu, d2 += la * (nu * nu - pu * pu) / (nu * nu * nu);
        if (nv > 0) g += lb * pv / nv, d2 += lb * (nv * nv - pv * pv) / (nv * nv * nv);
        return g;
      };
      double lo = eps, hi = 1 - eps, d2;
      if (d1(lo, d2) >= 0) t = lo;
      else if (d1(hi, d2) <= 0) t = hi;
      else {
        t = std::clamp((q.x - S.from.x) * S.dir.x + (q.y - S.from.y) * S.dir.y, lo, hi);
        for (int it = 0; it < 60; ++it) {
          const double g = d1(t, d2);
          (g > 0 ? hi : lo) = t;
          double next = d2 > 0 ? t - g / d2 : -1;
          if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
          if (std::abs(next - t) < 1e-13 || hi - lo < 1e-13) break;
          t = next;
        }
      }
    } else {
      // A way along the side's line or out of the pieces: golden-section search (convex along a
      // unit side; out of the pieces a local search, its segments checked below, to 1e-6 only:
      // each step there walks the grid along the segments).
      constexpr double r = 0.6180339887498949;
      const double tol = la < 0 || lb < 0 ? 1e-6 : 1e-10;
      double lo = eps, hi = 1 - eps, m1 = hi - r * (hi - lo), m2 = lo + r * (hi - lo), f1 = f(m1), f2 = f(m2);
      while (hi - lo > tol) {
        if (f1 < f2) hi = m2, m2 = m1, f2 = f1, m1 = hi - r * (hi - lo), f1 = f(m1);
        else lo = m1, m1 = m2, f1 = f2, m2 = lo + r * (hi - lo), f2 = f(m2);
      }
      t = 0.5 * (lo + hi);
    }
    const double ft = f(t);
    if (!(now - ft > best_gain + 1e-13 * (1 + now))) continue;
    const Point x = at(t);
    if ((la < 0 && !ref.fs_->segment_valid(a, x)) || (lb < 0 && !ref.fs_->segment_valid(x, b))) continue;
    best_gain = now - ft, best = x;
  }
  return best_gain;
}

// Coordinate descent on the positions of the path's inner points along their sides.
void SteinerReference::refine(SteinerPath& p, int max_sweeps, int max_rounds) const {
  Polyline& path = p.path;
  const int W = g_.width;
  const Refiner rf{*this, g_, W};
  const auto best_place = [&](const Polyline& path, std::size_t i, Point& best) { return rf.best_place(path, i, best); };

  // Rounds: coordinate descent over a worklist (a point that moves puts its neighbours back on it),
  // then a dropping pass; the next round starts from the neighbours of the dropped points.
  std::vector<char> queued(path.size(), 1);
  std::vector<std::size_t> work;
  for (std::size_t i = 1; i + 1 < path.size(); ++i) work.push_back(i);
  const double budget = double(max_sweeps) * double(path.size());
  double visits = 0;
  for (int round = 0; round < max_rounds && path.size() >= 3; ++round) {
    for (std::size_t k = 0; k < work.size() && visits < budget; ++k) {
      const std::size_t i = work[k];
      queued[i] = 0;
      ++visits;
      Point x;
      const double gain = best_place(path, i, x);
      if (gain <= 0) continue;
      path[i] = x;
      if (gain > 1e-12 * (1 + std::abs(x.x) + std::abs(x.y)))
        for (std::size_t j : {i - 1, i + 1})
          if (j >= 1 && j + 1 < path.size() && !queued[j]) queued[j] = 1, work.push_back(j);
    }
    // Dropping pass: a point goes when its neighbours' segment is valid and no dearer (up to 1e-12
    // relative: points in a row along a side hold each other in place otherwise).
    Polyline kept{path[0]};
    std::vector<std::size_t> next;
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
      const Point a = kept.back();
      const double via = segment_cost(g_, a, path[i]) + segment_cost(g_, path[i], path[i + 1]);
      const double direct = segment_cost(g_, a, path[i + 1]);
      if (direct <= via * (1 + 1e-12) && fs_->segment_valid(a, path[i + 1])) {
        if (next.empty() || next.back() != kept.size() - 1) next.push_back(kept.size() - 1);
        continue;  // dropped: its neighbours move next round
      }
      kept.push_back(path[i]);
    }
    kept.push_back(path.back());
    const bool dropped = kept.size() < path.size();
    path = std::move(kept);
    if (!dropped || visits >= budget) break;
    work.clear();
    queued.assign(path.size(), 0);
    for (std::size_t i : next)
      for (std::size_t j : {i, i + 1})
        if (j >= 1 && j + 1 < path.size() && !queued[j]) queued[j] = 1, work.push_back(j);
  }
  const int sweeps = int(std::ceil(visits / double(std::max<std::size_t>(1, path.size()))));
  path.erase(std::unique(path.begin(), path.end()), path.end());
  p.sweeps = sweeps;
  p.cost = path_cost(g_, path);
}

}  // namespace navbench
