// The funnel algorithm for a disc of radius R (docs/radius.md): the corridor's portal ends become circles
// of radius R, passed on the portal's own side, and the funnel's edges become tangents between
// circles; the path is the chain of tangent segments joined by arcs around the apex circles. The
// "simple stupid funnel" (M. Mononen, Recast/Detour's dtFindStraightPath) with the radius treatment
// of Demyen & Buro's TRA* ("Efficient triangulation-based pathfinding", AAAI 2006): each corner is
// a circle the path wraps in a fixed sense, left corners counter-clockwise, right ones clockwise.
//
// An approximation by design: it knows only the corridor's portal ends, not the walls between them
// nor whether a corner's circle reaches another obstacle, and a portal narrower than 2R still lets
// the funnel through (through its middle). The exact validity test then shows what that costs.
#include <algorithm>
#include <cmath>

#include "smoothing/smoothing.hpp"
#include "smoothing/portal.hpp"

namespace navbench {

using smoothing_detail::side_of;

namespace {

struct Disc {
  Point c;
  int sigma = 0;  // +1: the centre lies left of the travel direction (wrapped counter-clockwise), -1 right, 0 a point
  double r = 0;
};

// Direction of the common tangent leaving a and arriving at b with each centre on its side:
// d = cos(phi) u + sin(phi) L(u), sin(phi) = -(sigma_b r_b - sigma_a r_a) / |b - a| (L: +90 degrees).
Point tangent_dir(const Disc& a, const Disc& b) {
  const double dx = b.c.x - a.c.x, dy = b.c.y - a.c.y, d = std::hypot(dx, dy);
  if (d == 0) return {0, 0};
  const Point u{dx / d, dy / d}, l{-u.y, u.x};
  const double k = b.sigma * b.r - a.sigma * a.r;
  const double sn = std::clamp(-k / d, -1.0, 1.0), cs = std::sqrt(std::max(0.0, 1 - sn * sn));
  return {cs * u.x + sn * l.x, cs * u.y + sn * l.y};
}

// The tangent point on disc a for travel direction d: c - sigma r L(d).
Point touch(const Disc& a, Point d) { return {a.c.x + a.sigma * a.r * d.y, a.c.y - a.sigma * a.r * d.x}; }

bool same(const Disc& a, const Disc& b) { return a.c == b.c && a.sigma == b.sigma; }

}  // namespace

std::vector<PathItem> funnel_path_radius(Point start, Point goal, const Corridor& corridor, double R) {
  // Portals with left/right from geometry (as funnel_path: the previous portal lies behind).
  std::vector<std::pair<Disc, Disc>> portals;
  portals.push_back({{start, 0, 0}, {start, 0, 0}});
  Point b0 = start, b1 = start;
  for (std::size_t k = 0; k < corridor.size(); ++k) {
    const Portal& c = corridor[k];
    int s = -side_of(c.left, c.right, b0, b1);
    if (s == 0) {
      const Portal after = k + 1 == corridor.size() ? Portal{goal, goal} : corridor[k + 1];
      s = side_of(c.left, c.right, after.left, after.right);
    }
    b0 = c.left;
    b1 = c.right;
    const Point L = s < 0 ? c.right : c.left, Rt = s < 0 ? c.left : c.right;
    // A portal narrower than 2R is passed through its middle: its ends' circles shrink to half its
    // width, so the funnel stays well defined (the disc does not fit there; the test will say so).
    const double r = std::min(R, 0.5 * distance(L, Rt));
    portals.push_back({{L, +1, r}, {Rt, -1, r}});
  }
  portals.push_back({{goal, 0, 0}, {goal, 0, 0}});

  // The apex chain: start, the corner circles the path wraps, goal.
  std::vector<Disc> chain{portals[0].first};
  Disc apex = portals[0].first, left = apex, right = apex;
  std::size_t left_i = 0, right_i = 0;
  // One side of the funnel at portal i: `side` its edge, `next` that side's new end, `other` the
  // opposite edge; `sense` is +1 for the right side and -1 for the left (the tests mirrored). The
  // side tightens when the new tangent does not widen the funnel; false when the apex moved.
  auto tighten = [&](Disc& side, std::size_t& side_i, const Disc& other, std::size_t other_i, const Disc& next,
                     double sense, std::size_t& i) {
    if (!same(next, side) || side_i == 0) {
      const Point dn = tangent_dir(apex, next);
      const Point ds = same(side, apex) ? Point{0, 0} : tangent_dir(apex, side);
      if (same(side, apex) || sense * cross(ds, dn) >= 0) {
        const Point dother = same(other, apex) ? Point{0, 0} : tangent_dir(apex, other);
        if (same(other, apex) || same(side, apex) || sense * cross(dother, dn) < 0 || same(next, other)) {
          side = next;
          side_i = i;
        } else {  // crosses the other edge: the other corner becomes the apex, the scan goes on from it
          apex = other;
          chain.push_back(apex);
          side = apex;
          side_i = other_i;
          i = other_i;
          return false;
        }
      }
    }
    return true;
  };
  for (std::size_t i = 1; i < portals.size(); ++i) {
    if (!tighten(right, right_i, left, left_i, portals[i].second, +1.0, i)) continue;
    tighten(left, left_i, right, right_i, portals[i].first, -1.0, i);
  }
  chain.push_back(portals.back().first);

  // Items: the tangent segments between consecutive discs, arcs around each corner disc (split in
  // two where the turn reaches 180 degrees: docs/radius.md arcs go the shorter way).
  std::vector<PathItem> out{{start, false}};
  for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
    const Disc &a = chain[k], &b = chain[k + 1];
    const Point d = tangent_dir(a, b);
    const Point pa = touch(a, d), pb = touch(b, d);
    if (k > 0 && a.r > 0 && !(pa == out.back().p)) {
      const Point from = out.back().p;
      const Point va{from.x - a.c.x, from.y - a.c.y}, vb{pa.x - a.c.x, pa.y - a.c.y};
      double turn = std::atan2(cross(va, vb), va.x * vb.x + va.y * vb.y);  // in (-pi, pi]
      if (a.sigma > 0 && turn < 0) turn += 2 * M_PI;  // counter-clockwise wrap
      if (a.sigma < 0 && turn > 0) turn -= 2 * M_PI;  // clockwise wrap
      if (std::abs(turn) >= M_PI - 1e-6) {
        const double h = std::atan2(va.y, va.x) + turn / 2;
        out.push_back({a.c, true});
        out.push_back({{a.c.x + a.r * std::cos(h), a.c.y + a.r * std::sin(h)}, false});
      }
      out.push_back({a.c, true});
      out.push_back({pa, false});
    } else if (k > 0 && !(pa == out.back().p)) {
      out.push_back({pa, false});
    }
    if (!(pb == out.back().p)) out.push_back({pb, false});
  }
  if (!(out.back().p == goal)) out.push_back({goal, false});
  return out;
}

}  // namespace navbench
