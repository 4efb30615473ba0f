// The validity test of docs/radius.md for a disc of radius R.
//
// Grid maps: the obstacle is the union of the blocked cells (closed unit squares) and the map's
// outside. The outside is kept at bay by the piece's bounding box (every coordinate of a segment
// or arc lies between its box's sides, so its distance to the border lines is the box's). Blocked
// squares are visited row by row inside the piece's reach (the part of the piece within R of the
// row, grown by R), jumping over free cells with GridClearance::next_blocked (segments also over
// free blocks of rows, GridClearance::blocked_count), and each is measured exactly: segment to
// square (separating axes, then vertices), arc to square (its four edges).
//
// Polygon maps: the obstacle is everything outside the free space, whose boundary is FreeSpace's
// rings. A piece that starts in the free space and keeps distance > 0 from every boundary edge
// never leaves it, so its distance to the obstacle is its distance to the nearest boundary edge:
// an rtree over the edges (Boost.Geometry) gives those within the piece's box grown by R.
#include "geometry/radius_validity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/geometry/index/rtree.hpp>

#include "geometry/polygons.hpp"

namespace navbench {

namespace {
constexpr double kSlack = 1e-7;  // widens candidate boxes so that rounding never loses a square
constexpr int kBlockRows = 4;    // the segment scan walks blocks of up to this many rows row by row
}

namespace bgi = boost::geometry::index;

struct RadiusValidity::Impl {
  const FreeSpace* fs = nullptr;
  std::unique_ptr<GridClearance> grid;
  // Polygon maps: the free space's boundary edges.
  std::vector<std::pair<Point, Point>> edges;
  using EdgeValue = std::pair<BgBox, std::uint32_t>;
  bgi::rtree<EdgeValue, bgi::rstar<16>> tree;

  bool grid_segment_clear(Point a, Point b, double lim, double R) const;
  bool grid_arc_clear(const Arc& arc, double lim, double R) const;
  // Every boundary edge meeting the box grown by R keeps distance(edge) >= lim.
  template <class Dist>
  bool poly_clear(double x0, double y0, double x1, double y1, double lim, double R, Dist dist) const {
    const double g = R + kSlack;
    const BgBox box(BgPoint(x0 - g, y0 - g), BgPoint(x1 + g, y1 + g));
    for (auto it = tree.qbegin(bgi::intersects(box)); it != tree.qend(); ++it) {
      const auto& e = edges[it->second];
      if (dist(e.first, e.second) < lim) return false;
    }
    return true;
  }
};

// ------------------------------------------------------------------------------------------------
// Grid maps

bool RadiusValidity::Impl::grid_segment_clear(Point a, Point b, double lim, double R) const {
  const GridClearance& g = *grid;
  const int W = g.width(), H = g.height();
  // The map's outside: along a segment, x, W - x, y and H - y are linear, so their minimum is at an end.
  for (const Point& p : {a, b})
    if (!(std::min(std::min(p.x, W - p.x), std::min(p.y, H - p.y)) >= lim)) return false;  // also NaN
  const double reach = R + kSlack;
  const int j0 = std::max(0, int(std::floor(std::min(a.y, b.y) - reach)));
  const int j1 = std::min(H - 1, int(std::floor(std::max(a.y, b.y) + reach)));
  const double inv = a.y != b.y ? 1 / (b.y - a.y) : 0;
  // The cells [i0, i1] of a row within reach of the part of the segment in the band [y0, y1] (a row's
  // band is [j - R, j + 1 + R]): that part's x range grown by R. False: no part.
  auto cells = [&](double y0, double y1, int& i0, int& i1) {
    double xa = std::min(a.x, b.x), xb = std::max(a.x, b.x);
    if (a.y != b.y) {
      double u0 = (y0 - a.y) * inv, u1 = (y1 - a.y) * inv;
      if (u0 > u1) std::swap(u0, u1);
      u0 = std::max(u0, 0.0);
      u1 = std::min(u1, 1.0);
      if (u0 > u1) return false;
      const double x0 = a.x + u0 * (b.x - a.x), x1 = a.x + u1 * (b.x - a.x);
      xa = std::max(xa, std::min(x0, x1) - kSlack);
      xb = std::min(xb, std::max(x0, x1) + kSlack);
    }
    i0 = std::max(0, int(std::floor(xa - reach)));
    i1 = std::min(W - 1, int(std::floor(xb + reach)));
    return i0 <= i1;
  };
  // A cheap filter before the exact distance: a cell whose box lies farther than lim from the
  // segment's line (by the box centre's distance to the line less the box's half width across it,
  // with a margin far above the rounding) is farther from the segment too. The margin scales with
  // the coordinates (< W + H: both ends lie in the map), ~100x the few ulps of either distance, and
  // stays below the 1e-9 between R and lim, so the square that a tangent segment touches at exactly
  // R is filtered too (on maps up to W + H ~ 5000), not measured.
  const double len = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
  const double nx = len > 0 ? -(b.y - a.y) / len : 0, ny = len > 0 ? (b.x - a.x) / len : 0;
  const double far = len > 0 ? lim + 0.5 * (std::abs(nx) + std::abs(ny)) + 2e-13 * (W + H + 1)
                             : std::numeric_limits<double>::infinity();  // a point: no line, no filter
  // The rows [jb, je] in halves (bisection): a block's band holds its rows' bands and the x range is
  // monotone in the band (also under rounding), so its cells hold theirs; a block without a blocked
  // cell there (the summed-area count) is skipped whole, its rows would test no square. Blocks of
  // up to kBlockRows rows are walked row by row. The squares tested are those of a plain row walk.
  auto clear = [&](auto&& self, int jb, int je) -> bool {
    int i0, i1;
    if (!cells(jb - reach, je + 1 + reach, i0, i1) || g.blocked_count(i0, jb, i1, je) == 0) return true;
    if (je - jb >= kBlockRows) {
      const int jm = jb + (je - jb) / 2;
      return self(self, jb, jm) && self(self, jm + 1, je);
    }
    for (int j = jb; j <= je; ++j) {
      if (!cells(j - reach, j + 1 + reach, i0, i1)) continue;
      const double across_row = ny * (j + 0.5 - a.y) - nx * a.x;
      for (int i = g.next_blocked(i0, j); i <= i1; i = g.next_blocked(i + 1, j)) {
        if (std::abs(nx * (i + 0.5) + across_row) > far) continue;
        if (segment_box_distance(a, b, i, j, i + 1, j + 1) < lim) return false;
      }
    }
    return true;
  };
  return j0 > j1 || clear(clear, j0, j1);
}

bool RadiusValidity::Impl::grid_arc_clear(const Arc& arc, double lim, double R) const {
  const GridClearance& g = *grid;
  const int W = g.width(), H = g.height();
  double x0, y0, x1, y1;
  arc_bounds(arc, x0, y0, x1, y1);
  if (!(std::min(std::min(x0, W - x1), std::min(y0, H - y1)) >= lim)) return false;
  const double reach = R + kSlack;
  const int j0 = std::max(0, int(std::floor(y0 - reach))), j1 = std::min(H - 1, int(std::floor(y1 + reach)));
  const int i0 = std::max(0, int(std::floor(x0 - reach))), i1 = std::min(W - 1, int(std::floor(x1 + reach)));
  for (int j = j0; j <= j1; ++j)
    for (int i = g.next_blocked(i0, j); i <= i1; i = g.next_blocked(i + 1, j))
      if (arc_box_distance(arc, i, j, i + 1, j + 1) < lim) return false;
  return true;
}

// ------------------------------------------------------------------------------------------------

RadiusValidity::RadiusValidity(const FreeSpace& fs) : impl_(std::make_unique<Impl>()) {
  impl_->fs = &fs;
  if (fs.map().kind == MapKind::grid) {
    impl_->grid = std::make_unique<GridClearance>(fs.map().grid);
    return;
  }
  std::vector<Impl::EdgeValue> values;
  for (const auto& ring : fs.obstacle_rings())
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
      const Point p = ring[i], q = ring[(i + 1) % n];
      values.push_back({BgBox(BgPoint(std::min(p.x, q.x), std::min(p.y, q.y)), BgPoint(std::max(p.x, q.x), std::max(p.y, q.y))),
                        std::uint32_t(impl_->edges.size())});
      impl_->edges.push_back({p, q});
    }
  impl_->tree = decltype(impl_->tree)(values.begin(), values.end());  // packing (bulk) construction
}
RadiusValidity::~RadiusValidity() = default;
RadiusValidity::RadiusValidity(RadiusValidity&&) noexcept = default;
RadiusValidity& RadiusValidity::operator=(RadiusValidity&&) noexcept = default;

double path_items_length(const std::vector<PathItem>& items) {
  double len = 0;
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (!items[i].arc_centre) {
      len += distance(items[i - 1].p, items[i].p);
      continue;
    }
    if (i + 1 >= items.size()) break;
    const Point a = items[i - 1].p, c = items[i].p, b = items[i + 1].p;
    const double ax = a.x - c.x, ay = a.y - c.y, bx = b.x - c.x, by = b.y - c.y;
    const double r = 0.5 * (distance(a, c) + distance(b, c));
    len += r * std::atan2(std::abs(ax * by - ay * bx), ax * bx + ay * by);
    ++i;
  }
  return len;
}

std::vector<PathItem> items_of(const Polyline& p) {
  std::vector<PathItem> out;
  out.reserve(p.size());
  for (const Point& q : p) out.push_back({q, false});
  return out;
}

const GridClearance* RadiusValidity::clearance() const { return impl_->grid.get(); }

bool RadiusValidity::point_clear(Point p, double R) const {
  if (impl_->grid) return impl_->grid->disc_free(p, R);
  if (!impl_->fs->point_free(p)) return false;
  return impl_->poly_clear(p.x, p.y, p.x, p.y, R - kRadiusTolerance, R,
                           [&](Point s, Point t) { return point_segment_distance(p, s, t); });
}

bool RadiusValidity::segment_clear(Point a, Point b, double R) const {
  const double lim = R - kRadiusTolerance;
  if (impl_->grid) return impl_->grid_segment_clear(a, b, lim, R);
  if (!impl_->fs->point_free(a)) return false;
  return impl_->poly_clear(std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y), lim, R,
                           [&](Point s, Point t) { return segment_segment_distance(a, b, s, t); });
}

bool RadiusValidity::arc_clear(const Arc& arc, double R) const {
  const double lim = R - kRadiusTolerance;
  if (impl_->grid) return impl_->grid_arc_clear(arc, lim, R);
  if (!impl_->fs->point_free(arc.a)) return false;
  double x0, y0, x1, y1;
  arc_bounds(arc, x0, y0, x1, y1);
  return impl_->poly_clear(x0, y0, x1, y1, lim, R, [&](Point s, Point t) { return arc_segment_distance(arc, s, t); });
}

bool RadiusValidity::path_valid_radius(const std::vector<PathItem>& path, double R) const {
  if (!(R >= 0)) throw std::invalid_argument("path_valid_radius: the radius must be >= 0");
  const std::size_t n = path.size();
  if (n == 0 || path.front().arc_centre || path.back().arc_centre) return false;
  const bool point_agent = R <= kRadiusTolerance;  // docs/maps.md: the distance test would be vacuous
  if (n == 1) return point_agent ? impl_->fs->point_free(path[0].p) : point_clear(path[0].p, R);
  for (std::size_t i = 1; i < n; ++i) {
    if (!path[i].arc_centre) {
      const Point a = path[i - 1].p, b = path[i].p;
      if (!(point_agent ? impl_->fs->segment_valid(a, b) : segment_clear(a, b, R))) return false;
      continue;
    }
    if (path[i + 1].arc_centre) return false;  // two centres in a row (i + 1 < n: the last is a point)
    Arc arc;
    if (!make_arc(path[i - 1].p, path[i].p, path[i + 1].p, arc)) return false;
    if (point_agent) {
      if (arc.r > kRadiusTolerance)
        throw std::invalid_argument("path_valid_radius: an arc of radius > 1e-9 with R <= 1e-9");
      if (!impl_->fs->segment_valid(arc.a, arc.b)) return false;
    } else if (!arc_clear(arc, R)) {
      return false;
    }
    ++i;  // the arc's end point is done
  }
  return true;
}

}  // namespace navbench
