// The quadtree's queries (quadtree.hpp): locating a point, attaching it, the corridor of a path, and
// the inspection the tests and reports use.
#include "representations/quadtree/quadtree.hpp"

#include "geometry/path_cost.hpp"
#include "representations/quadtree/internal.hpp"

namespace navbench {

double QuadTree::direct_cost(const Query& q) const {
  return weighted_ ? segment_cost(*weighted_, q.start, q.goal) : distance(q.start, q.goal);
}

// --- queries -------------------------------------------------------------------------------------

std::int64_t QuadTree::locate_slot(double u, double v, bool high_x, bool high_y, bool* tie_x, bool* tie_y) const {
  std::int32_t slot = root_, x = 0, y = 0, s = side_;
  while (slot >= 0) {
    s /= 2;
    const double mx = x + s, my = y + s;
    if (u == mx) *tie_x = true;
    if (v == my) *tie_y = true;
    const bool hx = u > mx || (u == mx && high_x), hy = v > my || (v == my && high_y);
    if (hx) x += s;
    if (hy) y += s;
    slot = tree_[std::size_t(slot) + (hx ? 1 : 0) + (hy ? 2 : 0)];
  }
  return slot;
}

std::optional<std::uint32_t> QuadTree::cell_at(Point p) const {
  const double u = (p.x - origin_.x) / unit_, v = (p.y - origin_.y) / unit_;
  if (!(u >= 0 && v >= 0 && u <= side_ && v <= side_)) return std::nullopt;  // also rejects NaN
  // On a line between nodes the point belongs to the closed cells on both sides: try the other
  // side (or the other quadrants at a corner) only when the first choice is not free. The order
  // of the quadrants, directions (1,1), (1,-1), (-1,-1), (-1,1), gives a pinch point to the sector
  // that owns it in FreeSpace (free_space.hpp): on grids cell (x, y), else cell (x, y - 1).
  // A tie on an axis shows up only on a descent that reaches that level, so a quadrant skipped
  // for want of a tie is tried again once a later descent has found it.
  bool tx = false, ty = false;
  constexpr bool kHighX[4] = {true, true, false, false}, kHighY[4] = {true, false, false, true};
  bool tried[4] = {};
  for (int round = 0; round < 2; ++round)
    for (int k = 0; k < 4; ++k) {
      if (tried[k] || (!kHighX[k] && !tx) || (!kHighY[k] && !ty)) continue;  // no tie: same cell
      tried[k] = true;
      const std::int64_t slot = locate_slot(u, v, kHighX[k], kHighY[k], &tx, &ty);
      if (slot <= -2) return std::uint32_t(-slot - 2);
    }
  return std::nullopt;
}

std::optional<Attachment> QuadTree::attach(Point p) const {
  const auto c = cell_at(p);
  if (!c) return std::nullopt;
  Attachment a;
  a.cell = *c;
  a.component = component(*c);
  a.links.reserve(graph_.cell_portals[*c].size());
  for (const Vertex w : graph_.cell_portals[*c])
    a.links.push_back({w, weighted_ ? segment_cost(*weighted_, p, graph_.mid[w]) : distance(p, graph_.mid[w])});
  return a;
}

// The cells along the path: the start cell, then for each consecutive pair of portals the one cell
// holding both (a pair of cells shares at most one portal, so it is unique), then the goal cell.
// Portal i is crossed from cell i-1 into cell i; a portal touched and left back into the same cell
// is not crossed and is skipped. Left/right: `left` is the end on the counter-clockwise side of the
// walking direction d, i.e. cross(d, left - right) > 0 (CGAL::left_turn in x-right, y-up axes).
std::optional<Corridor> QuadTree::corridor(const Query& q) const {
  if (q.s.cell < 0 || q.g.cell < 0) return std::nullopt;
  Corridor out;
  if (q.path.empty()) return out;
  std::uint32_t prev = std::uint32_t(q.s.cell);
  for (std::size_t i = 0; i < q.path.size(); ++i) {
    const PortalRec& p = graph_.portals[q.path[i]];
    std::uint32_t next;
    if (i + 1 < q.path.size()) {
      const PortalRec& n = graph_.portals[q.path[i + 1]];
      next = (p.a == n.a || p.a == n.b) ? p.a : p.b;
    } else {
      next = std::uint32_t(q.g.cell);
    }
    if ((prev != p.a && prev != p.b) || (next != p.a && next != p.b)) return std::nullopt;  // not a path
    if (next != prev) {
      const bool forward = prev == p.a;  // walking from the low side of the line to the high side
      const Point lo = p.vertical ? world(p.line, p.lo) : world(p.lo, p.line);
      const Point hi = p.vertical ? world(p.line, p.hi) : world(p.hi, p.line);
      // Vertical line, walking +x: +y is on the left. Horizontal line, walking +y: -x is on the left.
      const bool hi_is_left = p.vertical == forward;
      out.push_back(hi_is_left ? Portal{hi, lo} : Portal{lo, hi});
    }
    prev = next;
  }
  return out;
}

QuadTree::Box QuadTree::cell_box(std::uint32_t c) const {
  const Rect& r = cells_[c];
  return {world(r.x0, r.y0), world(r.x1, r.y1)};
}

std::vector<std::uint32_t> QuadTree::neighbours(std::uint32_t c) const {
  std::vector<std::uint32_t> out;
  for (const Vertex v : graph_.cell_portals[c]) {
    const PortalRec& p = graph_.portals[v];
    out.push_back(p.a == c ? p.b : p.a);
  }
  return out;
}

std::pair<Point, Point> QuadTree::portal_segment(Vertex v) const {
  const PortalRec& p = graph_.portals[v];
  if (p.vertical) return {world(p.line, p.lo), world(p.line, p.hi)};
  return {world(p.lo, p.line), world(p.hi, p.line)};
}

BuildStats QuadTree::stats() const {
  BuildStats s;
  s.vertices = graph_.num_live_vertices();
  s.edges = graph_.num_edges();
  std::size_t pyramid = free_.capacity();
  for (const auto& l : pyr_) pyramid += l.capacity() * sizeof(std::uint32_t);
  pyramid += upd_.owner.capacity() * sizeof(std::int32_t);
  for (const auto& l : upd_.dirty) pyramid += l.capacity() * sizeof(std::uint64_t);
  s.memory_bytes = graph_.memory_bytes() + tree_.capacity() * sizeof(std::int32_t) +
                   cells_.capacity() * sizeof(Rect) + comp_.capacity() * sizeof(std::int32_t) + labels_.memory_bytes() + pyramid;
  return s;
}


std::vector<QuadTree::Box> QuadTree::leaf_boxes() const {
  std::vector<Box> out;
  visit_leaves(kRootSlot, 0, 0, side_, Rect{0, 0, side_, side_}, [&](std::int64_t, std::int32_t v, const Rect& n) {
    if (v <= -2) out.push_back({world(n.x0, n.y0), world(n.x1, n.y1)});
  });
  return out;
}

}  // namespace navbench
