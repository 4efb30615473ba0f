#include "geometry/path_quality.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "geometry/distance.hpp"

namespace navbench {

PathClearance::PathClearance(const FreeSpace& fs) {
  const Map& m = fs.map();
  for (const auto& ring : fs.obstacle_rings())
    for (std::size_t i = 0; i < ring.size(); ++i) edges_.push_back({ring[i], ring[(i + 1) % ring.size()]});
  ox_ = m.min.x;
  oy_ = m.min.y;
  nx_ = std::max(1, int(std::ceil((m.max.x - m.min.x) / cell_)));
  ny_ = std::max(1, int(std::ceil((m.max.y - m.min.y) / cell_)));
  auto range = [&](const Edge& e, int& x0, int& y0, int& x1, int& y1) {
    x0 = std::clamp(int(std::floor((std::min(e.a.x, e.b.x) - ox_) / cell_)), 0, nx_ - 1);
    x1 = std::clamp(int(std::floor((std::max(e.a.x, e.b.x) - ox_) / cell_)), 0, nx_ - 1);
    y0 = std::clamp(int(std::floor((std::min(e.a.y, e.b.y) - oy_) / cell_)), 0, ny_ - 1);
    y1 = std::clamp(int(std::floor((std::max(e.a.y, e.b.y) - oy_) / cell_)), 0, ny_ - 1);
  };
  // Counting pass, then the CSR fill: an edge is listed in every bucket its bounding box meets.
  begin_.assign(std::size_t(nx_) * std::size_t(ny_) + 1, 0);
  int x0, y0, x1, y1;
  for (const Edge& e : edges_) {
    range(e, x0, y0, x1, y1);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) ++begin_[std::size_t(y) * std::size_t(nx_) + std::size_t(x) + 1];
  }
  for (std::size_t i = 1; i < begin_.size(); ++i) begin_[i] += begin_[i - 1];
  items_.resize(begin_.back());
  std::vector<std::uint32_t> fill(begin_.begin(), begin_.end() - 1);
  for (std::uint32_t k = 0; k < edges_.size(); ++k) {
    range(edges_[k], x0, y0, x1, y1);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) items_[fill[std::size_t(y) * std::size_t(nx_) + std::size_t(x)]++] = k;
  }
}

// Reads the buckets in rings around the piece's own: every bucket of ring k lies at least
// (k - 1) cells from the piece, so the search stops once that bound reaches the best distance.
template <class Dist>
double PathClearance::nearest(double x0, double y0, double x1, double y1, double best, Dist&& dist) const {
  const int bx0 = std::clamp(int(std::floor((x0 - ox_) / cell_)), 0, nx_ - 1);
  const int bx1 = std::clamp(int(std::floor((x1 - ox_) / cell_)), 0, nx_ - 1);
  const int by0 = std::clamp(int(std::floor((y0 - oy_) / cell_)), 0, ny_ - 1);
  const int by1 = std::clamp(int(std::floor((y1 - oy_) / cell_)), 0, ny_ - 1);
  // A bucket is read only when its box is nearer to the piece's box than the best distance so far.
  auto scan = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= nx_ || y >= ny_) return;
    const double bx = ox_ + x * cell_, by = oy_ + y * cell_;
    const double dx = std::max({0.0, bx - x1, x0 - (bx + cell_)}), dy = std::max({0.0, by - y1, y0 - (by + cell_)});
    if (dx * dx + dy * dy >= best * best) return;
    const std::size_t b = std::size_t(y) * std::size_t(nx_) + std::size_t(x);
    for (std::uint32_t i = begin_[b]; i < begin_[b + 1] && best > 0; ++i) best = std::min(best, dist(edges_[items_[i]]));
  };
  for (int k = 0; best > 0 && double(k - 1) * cell_ < best; ++k) {
    const int lx = bx0 - k, hx = bx1 + k, ly = by0 - k, hy = by1 + k;
    if (k > 0 && lx + 1 <= 0 && ly + 1 <= 0 && hx - 1 >= nx_ - 1 && hy - 1 >= ny_ - 1) break;  // all read
    if (k == 0) {
      for (int y = ly; y <= hy; ++y)
        for (int x = lx; x <= hx; ++x) scan(x, y);
      continue;
    }
    for (int x = lx; x <= hx; ++x) {
      scan(x, ly);
      scan(x, hy);
    }
    for (int y = ly + 1; y < hy; ++y) {
      scan(lx, y);
      scan(hx, y);
    }
  }
  return best;
}

double PathClearance::clearance(const std::vector<PathItem>& items) const {
  double best = kInf;
  if (items.empty()) return best;
  // Runs of collinear segments (a grid path's straight stretches) as one segment: the same points.
  std::vector<PathItem> path;
  path.reserve(items.size());
  for (const PathItem& it : items) {
    const std::size_t n = path.size();
    if (!it.arc_centre && n >= 2 && !path[n - 1].arc_centre && !path[n - 2].arc_centre) {
      const Point a = path[n - 2].p, b = path[n - 1].p, c = it.p;
      const double cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
      const double dot = (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y);
      if (cross == 0 && dot > 0) {
        path[n - 1] = it;
        continue;
      }
    }
    path.push_back(it);
  }
  auto segment = [&](Point a, Point b) {
    // Pieces of at most one bucket's length choose the buckets read (those near the piece); the
    // distance is always the whole segment's, so the result is the all-edges minimum exactly.
    const int pieces = std::max(1, int(std::ceil(distance(a, b) / cell_)));
    for (int i = 0; i < pieces && best > 0; ++i) {
      const Point p{a.x + (b.x - a.x) * i / pieces, a.y + (b.y - a.y) * i / pieces};
      const Point q = i + 1 == pieces ? b : Point{a.x + (b.x - a.x) * (i + 1) / pieces, a.y + (b.y - a.y) * (i + 1) / pieces};
      best = nearest(std::min(p.x, q.x), std::min(p.y, q.y), std::max(p.x, q.x), std::max(p.y, q.y), best,
                     [&](const Edge& e) { return segment_segment_distance(a, b, e.a, e.b); });
    }
  };
  if (path.size() == 1) {
    const Point p = path[0].p;
    return nearest(p.x, p.y, p.x, p.y, best, [&](const Edge& e) { return point_segment_distance(p, e.a, e.b); });
  }
  for (std::size_t i = 1; i < path.size() && best > 0; ++i) {
    if (!path[i].arc_centre) {
      segment(path[i - 1].p, path[i].p);
      continue;
    }
    if (i + 1 >= path.size()) break;
    Arc arc;
    if (make_arc(path[i - 1].p, path[i].p, path[i + 1].p, arc)) {
      double x0, y0, x1, y1;
      arc_bounds(arc, x0, y0, x1, y1);
      best = nearest(x0, y0, x1, y1, best, [&](const Edge& e) { return arc_segment_distance(arc, e.a, e.b); });
    } else {  // not an arc docs/radius.md allows: its chord
      segment(path[i - 1].p, path[i + 1].p);
    }
    ++i;
  }
  return best;
}

double PathClearance::clearance(const Polyline& path) const { return clearance(items_of(path)); }

double path_turn(const std::vector<PathItem>& path) {
  constexpr double kDeg = 180.0 / M_PI;
  // The headings along the path: each segment's direction; an arc contributes its entry and exit
  // tangents and the angle it sweeps.
  double total = 0;
  bool have = false;
  double last = 0;  // the heading, radians
  auto turn_to = [&](double h) {
    if (have) total += std::abs(std::remainder(h - last, 2 * M_PI));
    last = h;
    have = true;
  };
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!path[i].arc_centre) {
      const Point a = path[i - 1].p, b = path[i].p;
      if (a.x != b.x || a.y != b.y) turn_to(std::atan2(b.y - a.y, b.x - a.x));
      continue;
    }
    if (i + 1 >= path.size()) break;
    const Point a = path[i - 1].p, c = path[i].p, b = path[i + 1].p;
    const double ax = a.x - c.x, ay = a.y - c.y, bx = b.x - c.x, by = b.y - c.y;
    const double cross = ax * by - ay * bx;
    const double sweep = std::atan2(std::abs(cross), ax * bx + ay * by);  // the shorter way
    if (sweep > 0) {
      const double side = cross >= 0 ? 1.0 : -1.0;  // +1 counter-clockwise
      turn_to(std::atan2(ay, ax) + side * M_PI / 2);  // the tangent at a
      total += sweep;
      last = std::atan2(by, bx) + side * M_PI / 2;    // the tangent at b
    }
    ++i;
  }
  return total * kDeg;
}

double path_turn(const Polyline& path) { return path_turn(items_of(path)); }

}  // namespace navbench
