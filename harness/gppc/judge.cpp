#include "harness/gppc/judge.hpp"

#include <cmath>
#include <sstream>

namespace navbench::gppc {

namespace {

std::string at(Point p) {
  std::ostringstream o;
  o.precision(17);
  o << "(" << p.x << "," << p.y << ")";
  return o.str();
}

bool integral(Point p) { return p.x == std::floor(p.x) && p.y == std::floor(p.y); }

}  // namespace

std::string classic_rule(const GridMap& m, const std::vector<Point>& cells) {
  for (const Point& c : cells) {
    if (!integral(c)) return "cell " + at(c) + " is not a whole cell";
    // (before any cell becomes an int: a coordinate such as 1e300 has no int)
    if (!(c.x >= 0 && c.y >= 0 && c.x < m.width && c.y < m.height)) return "cell " + at(c) + " is outside the map";
  }
  if (!m.passable(int(cells.front().x), int(cells.front().y))) return "cell " + at(cells.front()) + " is blocked or outside the map";
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const int x0 = int(cells[i - 1].x), y0 = int(cells[i - 1].y), dx = int(cells[i].x) - x0, dy = int(cells[i].y) - y0;
    if (dx != 0 && dy != 0 && std::abs(dx) != std::abs(dy))
      return "segment " + at(cells[i - 1]) + "-" + at(cells[i]) + " is neither cardinal nor diagonal";
    const int n = std::max(std::abs(dx), std::abs(dy)), sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    for (int k = 0; k < n; ++k) {  // every unit step of the run
      const int x = x0 + k * sx, y = y0 + k * sy;
      if (!m.passable(x + sx, y + sy)) return "cell " + at({double(x + sx), double(y + sy)}) + " is blocked or outside the map";
      if (sx != 0 && sy != 0 && (!m.passable(x + sx, y) || !m.passable(x, y + sy)))
        return "the step " + at({double(x), double(y)}) + "-" + at({double(x + sx), double(y + sy)}) + " cuts a corner";
    }
  }
  return "";
}

Verdict judge(const EntryAnswer& a, Track track, const FreeSpace& fs, Point s, Point g) {
  Verdict v;
  if (!a.ok) {
    v.reason = a.error;
    return v;
  }
  for (const Point& p : a.points)
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
      v.reason = "the path holds a coordinate that is not a finite number";
      return v;
    }
  std::vector<Point> pts = a.points;
  merge_repeated_points(pts);  // SPEC §10: navbench merges repeated points (lengths unchanged)
  if (pts.empty()) {
    // SPEC §10: an empty path means no path, except from a point to itself.
    if (!(s == g)) {
      v.kind = Verdict::Kind::no_path;
      return v;
    }
    pts = {s};
  }
  v.kind = Verdict::Kind::ok;
  const Point half = track == Track::classic ? Point{0.5, 0.5} : Point{0, 0};
  for (const Point& p : pts) v.path.push_back({p.x + half.x, p.y + half.y});
  v.length = polyline_length(v.path);
  if (!std::isfinite(v.length)) {  // finite points far apart (1e308, -1e308): +inf would read as "no path"
    v.kind = Verdict::Kind::error;
    v.reason = "the path's length is not a finite number (its points lie too far apart)";
    v.path.clear();
    return v;
  }
  if (!(pts.front() == s)) {
    v.reason = "the path starts at " + at(pts.front()) + ", not at the start " + at(s);
  } else if (!(pts.back() == g)) {
    v.reason = "the path ends at " + at(pts.back()) + ", not at the goal " + at(g);
  } else if (track == Track::classic) {
    v.reason = classic_rule(fs.map().grid, pts);
  } else {
    for (const Point& p : v.path)
      if (!fs.point_free(p)) {
        const GridMap& m = fs.map().grid;
        const bool inside = p.x >= 0 && p.y >= 0 && p.x <= m.width && p.y <= m.height;
        v.reason = "the point " + at(p) + (inside ? " is inside an obstacle" : " is outside the map");
        break;
      }
    if (v.reason.empty() && !fs.path_valid(v.path)) v.reason = "the path enters an obstacle or crosses a pinch point";
  }
  v.valid = v.reason.empty();
  return v;
}

}  // namespace navbench::gppc
