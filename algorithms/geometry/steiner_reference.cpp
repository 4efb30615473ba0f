#include "geometry/steiner_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <boost/graph/detail/d_ary_heap.hpp>

#include "geometry/path_cost.hpp"

namespace navbench {
namespace {

enum : std::uint8_t { kTop = 1, kRight = 2, kBottom = 4, kLeft = 8 };

bool same_weight(const GridMap& g, int ax, int ay, int bx, int by) { return g.weight(ax, ay) == g.weight(bx, by); }


}  // namespace

bool SteinerReference::pinch(const GridMap& g, int x, int y) {
  const bool a = g.passable(x - 1, y - 1), b = g.passable(x, y - 1), c = g.passable(x - 1, y), d = g.passable(x, y);
  return (a && d && !b && !c) || (b && c && !a && !d);
}

// ---------------------------------------------------------------------------------------------
// Workspace: per point its g, parent and a stamp (2 gen: reached this query, 2 gen + 1: settled).

struct SteinerReference::Workspace::Impl {
  struct Node {
    double g;
    std::int32_t parent;
    std::uint32_t stamp;
  };
  std::vector<Node> nodes;
  std::uint32_t gen = 0;
  std::vector<std::pair<double, std::int32_t>> heap;  // (f, node), a min-heap with stale items
  std::vector<double> goal_link;                       // per entry of the goal's piece
};

SteinerReference::Workspace::Workspace() : impl_(std::make_unique<Impl>()) {}
SteinerReference::Workspace::~Workspace() = default;
SteinerReference::Workspace::Workspace(Workspace&&) noexcept = default;
SteinerReference::Workspace& SteinerReference::Workspace::operator=(Workspace&&) noexcept = default;
std::size_t SteinerReference::Workspace::memory_bytes() const {
  return impl_->nodes.capacity() * sizeof(Impl::Node) + impl_->heap.capacity() * sizeof(impl_->heap[0]) +
         impl_->goal_link.capacity() * sizeof(double);
}

// ---------------------------------------------------------------------------------------------
// Edges: from point p, every other entry of each piece it lies on (a chord through the piece), but
// along a side only to its neighbours.

template <class F>
void SteinerReference::for_each_edge(std::int32_t p, F&& f) const {
  for (std::uint32_t mi = member_begin_[std::size_t(p)]; mi < member_begin_[std::size_t(p) + 1]; ++mi) {
    const auto [pi, i] = members_[mi];
    const Piece& P = pieces_[std::size_t(pi)];
    const Entry* E = entries_.data() + P.begin;
    const std::uint32_t L = P.end - P.begin;
    const Entry& a = E[i];
    const std::uint32_t next = i + 1 == L ? 0 : i + 1, prev = i == 0 ? L - 1 : i - 1;
    for (std::uint32_t j = 0; j < L; ++j) {
      if (j == i) continue;
      const Entry& b = E[j];
      double c;
      if (a.side & b.side) {  // one side: only its neighbours, along it
        if (j == next) c = a.next_cost;
        else if (j == prev) c = b.next_cost;
        else continue;
      } else {  // a chord through the piece
        c = P.w * std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
      }
      f(b.point, c, b);
    }
  }
}

// Dijkstra over every point (the landmarks' tables: most of a weighted map's reference build). The
// open points sit in Boost.Graph's indexed 4-ary heap, each once, lowered in place when its distance
// drops, so the heap holds no stale copies; a settled point's edges are not priced again. The
// distances are those of any Dijkstra over these edge costs (each the least of its settled
// neighbours' d + c, computed alike), so the tables do not depend on the queue.
std::vector<double> SteinerReference::distances_from(std::int32_t source) const {
  constexpr std::size_t kOut = std::size_t(-1), kSettled = std::size_t(-2);
  std::vector<double> d(px_.size(), kInf);
  std::vector<std::size_t> place(px_.size(), kOut);  // index in the heap; kOut never queued, kSettled done
  using Heap = boost::d_ary_heap_indirect<std::int32_t, 4, std::size_t*, double*, std::less<double>>;
  Heap heap(d.data(), place.data());
  d[std::size_t(source)] = 0;
  heap.push(source);
  while (!heap.empty()) {
    const std::int32_t p = heap.top();
    heap.pop();
    place[std::size_t(p)] = kSettled;
    const double dp = d[std::size_t(p)];
    for_each_edge(p, [&](std::int32_t q, double c, const Entry&) {
      std::size_t& at = place[std::size_t(q)];
      if (at == kSettled || !(dp + c < d[std::size_t(q)])) return;
      d[std::size_t(q)] = dp + c;
      if (at == kOut) heap.push(q);
      else heap.update(q);
    });
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// Build.

SteinerReference::SteinerReference(const GridMap& g, const SteinerOptions& o)
    : g_(g), o_(o), wmin_(least_weight(g)) {
  if (o.m < 1 || o.max_side < 1 || o.uniform_steps < 2 || o.uniform_steps % 2 || o.landmarks < 0 ||
      o.landmarks > kMaxLandmarks)
    throw std::invalid_argument("SteinerReference: m and max_side must be >= 1, uniform_steps even and >= 2, landmarks 0..16");

  make_pieces();
  label_components();
  make_boundaries();
  index_members();
  if (o.landmarks > 0 && !px_.empty()) make_landmarks();

  if (o.refine) {
    map_ = std::make_unique<Map>(make_grid_map(g));
    fs_ = std::make_unique<FreeSpace>(*map_);
  }
}

void SteinerReference::make_pieces() {
  const GridMap& g = g_;
  const int W = g.width, H = g.height;
  const auto cell = [W](int x, int y) { return std::size_t(y) * std::size_t(W) + std::size_t(x); };
  const int max_side = o_.max_side;
  // Pieces: greedy maximal rectangles of one weight, a row run grown downward, sides <= max_side.
  piece_of_.assign(std::size_t(W) * H, -1);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      if (!g.passable(x, y) || piece_of_[cell(x, y)] >= 0) continue;
      const double w = g.weight(x, y);
      int x1 = x + 1;
      while (x1 < W && x1 - x < max_side && g.passable(x1, y) && piece_of_[cell(x1, y)] < 0 && g.weight(x1, y) == w) ++x1;
      int y1 = y + 1;
      for (; y1 < H && y1 - y < max_side; ++y1) {
        bool ok = true;
        for (int cx = x; cx < x1 && ok; ++cx)
          ok = g.passable(cx, y1) && piece_of_[cell(cx, y1)] < 0 && g.weight(cx, y1) == w;
        if (!ok) break;
      }
      const auto id = std::int32_t(pieces_.size());
      pieces_.push_back({x, y, x1, y1, w, 0, 0});
      for (int cy = y; cy < y1; ++cy)
        for (int cx = x; cx < x1; ++cx) piece_of_[cell(cx, cy)] = id;
    }
}

void SteinerReference::label_components() {
  const GridMap& g = g_;
  const int W = g.width, H = g.height;
  const auto cell = [W](int x, int y) { return std::size_t(y) * std::size_t(W) + std::size_t(x); };
  // Components: 4-connected free cells, as FreeSpace counts them (a pinch does not connect).
  component_.assign(std::size_t(W) * H, -1);
  std::int32_t next = 0;
  std::vector<std::pair<int, int>> stack;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      if (!g.passable(x, y) || component_[cell(x, y)] >= 0) continue;
      component_[cell(x, y)] = next;
      stack.push_back({x, y});
      while (!stack.empty()) {
        auto [cx, cy] = stack.back();
        stack.pop_back();
        const int nx[4] = {cx + 1, cx - 1, cx, cx}, ny[4] = {cy, cy, cy + 1, cy - 1};
        for (int k = 0; k < 4; ++k)
          if (g.passable(nx[k], ny[k]) && component_[cell(nx[k], ny[k])] < 0) {
            component_[cell(nx[k], ny[k])] = next;
            stack.push_back({nx[k], ny[k]});
          }
      }
      ++next;
    }
}

void SteinerReference::make_boundaries() {
  const GridMap& g = g_;
  const int W = g.width, H = g.height;
  const auto cell = [W](int x, int y) { return std::size_t(y) * std::size_t(W) + std::size_t(x); };
  const SteinerOptions& o = o_;
  const int m = o.m;
  // Steps per unit side: 0 between two blocked cells, uniform_steps (2: ends and midpoint) between
  // free cells of one weight, else an even n >= m (points at most 1/m apart, the midpoint among them).
  const int dense = m % 2 == 0 ? m : m + 1;
  const auto steps = [&](int ax, int ay, int bx, int by) {
    const bool a = g.passable(ax, ay), b = g.passable(bx, by);
    if (!a && !b) return 0;
    if (a && b && same_weight(g, ax, ay, bx, by)) return o.uniform_steps;
    return std::max(dense, 2);
  };
  const auto hsteps = [&](int x, int y) { return steps(x, y - 1, x, y); };  // side (x,y)-(x+1,y)
  const auto vsteps = [&](int x, int y) { return steps(x - 1, y, x, y); };  // side (x,y)-(x,y+1)

  // Point ids: grid corners touching a free cell, then the inner points of every side.
  const std::size_t CW = std::size_t(W) + 1;
  std::vector<std::int32_t> corner((std::size_t(H) + 1) * CW, -1), hfirst((std::size_t(H) + 1) * W, -1),
      vfirst(std::size_t(H) * CW, -1);
  const auto add_point = [&](double x, double y) {
    px_.push_back(x);
    py_.push_back(y);
    return std::int32_t(px_.size() - 1);
  };
  for (int y = 0; y <= H; ++y)
    for (int x = 0; x <= W; ++x)
      if (g.passable(x - 1, y - 1) || g.passable(x, y - 1) || g.passable(x - 1, y) || g.passable(x, y))
        corner[std::size_t(y) * CW + x] = add_point(x, y);
  for (int y = 0; y <= H; ++y)
    for (int x = 0; x < W; ++x)
      if (const int n = hsteps(x, y); n > 0) {
        hfirst[std::size_t(y) * W + x] = std::int32_t(px_.size());
        for (int k = 1; k < n; ++k) add_point(x + double(k) / n, y);
      }
  for (int y = 0; y < H; ++y)
    for (int x = 0; x <= W; ++x)
      if (const int n = vsteps(x, y); n > 0) {
        vfirst[std::size_t(y) * CW + x] = std::int32_t(px_.size());
        for (int k = 1; k < n; ++k) add_point(x, y + double(k) / n);
      }

  // Each piece's boundary, clockwise on screen from its top-left corner. A pinch corner belongs to
  // the piece of its own cell only (FreeSpace: cell (x, y) when free, else (x, y - 1)).
  for (std::size_t pi = 0; pi < pieces_.size(); ++pi) {
    Piece& P = pieces_[pi];
    P.begin = std::uint32_t(entries_.size());
    const auto put_corner = [&](int x, int y, std::uint8_t side) {
      if (pinch(g, x, y)) {
        const int oy = g.passable(x, y) ? y : y - 1;
        if (piece_of_[cell(x, oy)] != std::int32_t(pi)) return;
      }
      const std::int32_t id = corner[std::size_t(y) * CW + x];
      entries_.push_back({double(x), double(y), kInf, id, side});
    };
    const auto put_inner = [&](std::int32_t first, int n, bool reverse, std::uint8_t side) {
      for (int k = 1; k < n; ++k) {
        const std::int32_t id = first + (reverse ? n - 1 - k : k - 1);
        entries_.push_back({px_[std::size_t(id)], py_[std::size_t(id)], kInf, id, side});
      }
    };
    for (int x = P.x0; x < P.x1; ++x) {
      put_corner(x, P.y0, std::uint8_t(kTop | (x == P.x0 ? kLeft : 0)));
      put_inner(hfirst[std::size_t(P.y0) * W + x], hsteps(x, P.y0), false, kTop);
    }
    for (int y = P.y0; y < P.y1; ++y) {
      put_corner(P.x1, y, std::uint8_t(kRight | (y == P.y0 ? kTop : 0)));
      put_inner(vfirst[std::size_t(y) * CW + P.x1], vsteps(P.x1, y), false, kRight);
    }
    for (int x = P.x1; x > P.x0; --x) {
      put_corner(x, P.y1, std::uint8_t(kBottom | (x == P.x1 ? kRight : 0)));
      put_inner(hfirst[std::size_t(P.y1) * W + x - 1], hsteps(x - 1, P.y1), true, kBottom);
    }
    for (int y = P.y1; y > P.y0; --y) {
      put_corner(P.x0, y, std::uint8_t(kLeft | (y == P.y1 ? kBottom : 0)));
      put_inner(vfirst[std::size_t(y - 1) * CW + P.x0], vsteps(P.x0, y - 1), true, kLeft);
    }
    P.end = std::uint32_t(entries_.size());
    // The way along a side to the next entry: its exact C (the cheaper cell beside the side).
    const std::uint32_t L = P.end - P.begin;
    for (std::uint32_t i = 0; i < L; ++i) {
      Entry& a = entries_[P.begin + i];
      const Entry& b = entries_[P.begin + (i + 1) % L];
      if (a.side & b.side) a.next_cost = segment_cost(g, {a.x, a.y}, {b.x, b.y});
    }
  }
}

void SteinerReference::index_members() {
  // Point -> (piece, index in its boundary), grouped by point.
  member_begin_.assign(px_.size() + 1, 0);
  for (const Entry& e : entries_) ++member_begin_[std::size_t(e.point) + 1];
  for (std::size_t i = 1; i < member_begin_.size(); ++i) member_begin_[i] += member_begin_[i - 1];
  members_.resize(entries_.size());
  std::vector<std::uint32_t> fill(member_begin_.begin(), member_begin_.end() - 1);
  for (std::size_t pi = 0; pi < pieces_.size(); ++pi)
    for (std::uint32_t k = pieces_[pi].begin; k < pieces_[pi].end; ++k)
      members_[fill[std::size_t(entries_[k].point)]++] = {std::int32_t(pi), k - pieces_[pi].begin};
}

// Landmarks, farthest first in the largest component: the first is a point of its first cell
// (row-major), each next the point whose least distance to those chosen is largest.
void SteinerReference::make_landmarks() {
  const SteinerOptions& o = o_;
  const std::size_t N = px_.size(), L = std::size_t(o.landmarks);
  landmarks_ = L;
  land_.assign(N * L, std::numeric_limits<float>::infinity());
  std::vector<double> nearest(N, kInf);
  std::vector<std::size_t> size;
  for (std::int32_t c : component_)
    if (c >= 0) size.resize(std::max(size.size(), std::size_t(c) + 1)), ++size[std::size_t(c)];
  const auto largest_component = std::int32_t(std::max_element(size.begin(), size.end()) - size.begin());
  const auto first_cell = std::size_t(std::find(component_.begin(), component_.end(), largest_component) - component_.begin());
  std::int32_t source = entries_[pieces_[std::size_t(piece_of_[first_cell])].begin].point;
  double largest = 0;
  for (std::size_t l = 0; l < L; ++l) {
    const std::vector<double> d = distances_from(source);
    for (std::size_t q = 0; q < N; ++q) {
      land_[q * L + l] = float(d[q]);
      if (std::isfinite(d[q])) largest = std::max(largest, d[q]);
      nearest[q] = std::min(nearest[q], d[q]);
    }
    double far = -1;
    for (std::size_t q = 0; q < N; ++q)
      if (std::isfinite(nearest[q]) && nearest[q] > far) far = nearest[q], source = std::int32_t(q);
  }
  // float keeps 24 bits: each stored distance is within 2^-24 of it relative.
  land_margin_ = 2 * largest * std::ldexp(1.0, -23);
}

std::size_t SteinerReference::memory_bytes() const {
  return sizeof(*this) + piece_of_.capacity() * sizeof(std::int32_t) + component_.capacity() * sizeof(std::int32_t) +
         pieces_.capacity() * sizeof(Piece) + entries_.capacity() * sizeof(Entry) +
         (px_.capacity() + py_.capacity()) * sizeof(double) + member_begin_.capacity() * sizeof(std::uint32_t) +
         members_.capacity() * sizeof(members_[0]) +
         land_.capacity() * sizeof(float) + (map_ ? map_->grid.cells.capacity() + map_->grid.weights.capacity() * sizeof(double) : 0);
}

std::int64_t SteinerReference::locate(Point p) const {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < 0 || p.y < 0 || p.x > g_.width || p.y > g_.height) return -1;
  const int fx = int(std::floor(p.x)), fy = int(std::floor(p.y));
  const bool ix = p.x == fx, iy = p.y == fy;
  // The cell holding p; on a side or corner the first free cell around it, own cell first at a pinch.
  const int cand[4][2] = {{fx, fy}, {fx, fy - 1}, {fx - 1, fy}, {fx - 1, fy - 1}};
  const bool allowed[4] = {true, iy, ix, ix && iy};
  for (int k = 0; k < 4; ++k)
    if (allowed[k] && g_.passable(cand[k][0], cand[k][1]))
      return std::int64_t(cand[k][1]) * g_.width + cand[k][0];
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Search: A* over the points, start and goal as two extra nodes.

std::optional<SteinerPath> SteinerReference::shortest(Point s, Point t, double upper_bound) const {
  thread_local Workspace ws;
  return shortest(s, t, ws, upper_bound);
}

std::optional<SteinerPath> SteinerReference::shortest(Point s, Point t, Workspace& workspace, double upper_bound) const {
  const std::int64_t cs = locate(s), ct = locate(t);
  if (cs < 0 || ct < 0 || component_[std::size_t(cs)] != component_[std::size_t(ct)]) return std::nullopt;
  const std::int32_t ps = piece_of_[std::size_t(cs)], pt = piece_of_[std::size_t(ct)];
  const auto N = std::int32_t(px_.size()), kStart = N, kGoal = N + 1;

  Workspace::Impl& ws = *workspace.impl_;
  using Node = Workspace::Impl::Node;
  if (ws.nodes.size() < std::size_t(N) + 2) {
    ws.nodes.assign(std::size_t(N) + 2, Node{kInf, -1, 0});
    ws.gen = 0;
  }
  if (++ws.gen >= (1u << 31)) {  // stamps would wrap: start over
    for (Node& n : ws.nodes) n.stamp = 0;
    ws.gen = 1;
  }
  const std::uint32_t open = 2 * ws.gen, closed = 2 * ws.gen + 1;
  ws.heap.clear();
  const double bound = upper_bound * (1 + 1e-9);  // rounding: an optimum equal to the bound is kept
  const Piece& G = pieces_[std::size_t(pt)];
  ws.goal_link.resize(G.end - G.begin);
  for (std::uint32_t k = G.begin; k < G.end; ++k)
    ws.goal_link[k - G.begin] = segment_cost(g_, {entries_[k].x, entries_[k].y}, t);
  // Landmark distances of the goal: it joins only the points of its piece, so its graph distance
  // from a landmark is the least over them (ALT, Goldberg & Harrelson, SODA 2005).
  const std::size_t L = landmarks_;
  double goal_land[kMaxLandmarks];
  for (std::size_t l = 0; l < L; ++l) {
    goal_land[l] = kInf;
    for (std::uint32_t k = G.begin; k < G.end; ++k)
      goal_land[l] = std::min(goal_land[l], double(land_[std::size_t(entries_[k].point) * L + l]) + ws.goal_link[k - G.begin]);
  }
  const double hw = wmin_;
  const auto h = [&](std::int32_t q, double x, double y) {
    double v = hw * std::sqrt((x - t.x) * (x - t.x) + (y - t.y) * (y - t.y));
    if (q < N)
      for (std::size_t l = 0; l < L; ++l) {
        const double dq = land_[std::size_t(q) * L + l];
        if (std::isfinite(dq) && std::isfinite(goal_land[l])) v = std::max(v, std::abs(dq - goal_land[l]) - land_margin_);
      }
    return v;
  };
  const auto cmp = [](const std::pair<double, std::int32_t>& a, const std::pair<double, std::int32_t>& b) { return a.first > b.first; };
  const auto relax = [&](std::int32_t q, double ng, std::int32_t parent, double x, double y) {
    Node& n = ws.nodes[std::size_t(q)];
    if (n.stamp == closed) return;
    if (n.stamp != open) n.stamp = open, n.g = kInf;
    if (ng >= n.g) return;
    const double f = ng + (q == kGoal ? 0.0 : h(q, x, y));
    if (f > bound) return;
    n.g = ng;
    n.parent = parent;
    ws.heap.push_back({f, q});
    std::push_heap(ws.heap.begin(), ws.heap.end(), cmp);
  };

  ws.nodes[std::size_t(kStart)] = Node{0, -1, closed};
  if (ps == pt) relax(kGoal, segment_cost(g_, s, t), kStart, t.x, t.y);
  const Piece& S = pieces_[std::size_t(ps)];
  for (std::uint32_t k = S.begin; k < S.end; ++k) {
    const Entry& e = entries_[k];
    relax(e.point, segment_cost(g_, s, {e.x, e.y}), kStart, e.x, e.y);
  }

  long expansions = 0;
  while (!ws.heap.empty()) {
    std::pop_heap(ws.heap.begin(), ws.heap.end(), cmp);
    const std::int32_t p = ws.heap.back().second;
    ws.heap.pop_back();
    Node& np = ws.nodes[std::size_t(p)];
    if (np.stamp == closed) continue;
    np.stamp = closed;
    if (p == kGoal) break;
    ++expansions;
    const double gp = np.g;
    for_each_edge(p, [&](std::int32_t q, double c, const Entry& b) { relax(q, gp + c, p, b.x, b.y); });
    for (std::uint32_t mi = member_begin_[std::size_t(p)]; mi < member_begin_[std::size_t(p) + 1]; ++mi)
      if (members_[mi].first == pt) relax(kGoal, gp + ws.goal_link[members_[mi].second], p, t.x, t.y);
  }
  const Node& ng = ws.nodes[std::size_t(kGoal)];
  if (ng.stamp != closed) return std::nullopt;

  SteinerPath out;
  out.cost = out.graph_cost = ng.g;
  out.expansions = expansions;
  out.path.push_back(t);
  for (std::int32_t q = ng.parent; q != kStart; q = ws.nodes[std::size_t(q)].parent) {
    const Point p{px_[std::size_t(q)], py_[std::size_t(q)]};
    if (!(p == out.path.back())) out.path.push_back(p);
  }
  if (!(s == out.path.back())) out.path.push_back(s);
  std::reverse(out.path.begin(), out.path.end());
  if (o_.refine) refine(out);
  return out;
}

}  // namespace navbench
