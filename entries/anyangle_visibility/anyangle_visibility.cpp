// navbench's example entry for the any-angle track (docs/outside-planners.md): the visibility graph
// over the map's convex corners, searched with A* and the Euclidean heuristic, written against the
// competition's entry interface. Query points are cell corners (integers), and so are the graph's
// nodes, so its line of sight is exact integer arithmetic: the segment is cut at every grid line it
// crosses, each piece must lie in a free cell (or run along a wall with a free side), it may not pass
// a pinch point, and a start or goal on a pinch point leaves or arrives through its own cell (the
// query's cell). PreprocessMap writes the corners to FILENAME.corners; PrepareForSearch reads them
// and links every visible pair.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "Entry.h"

namespace {

struct Corner {
  int x, y;
};

struct Graph {
  std::vector<bool> bits;
  int W = 0, H = 0;
  std::vector<Corner> nodes;
  std::vector<std::vector<std::pair<int, double>>> edges;

  bool free(int x, int y) const { return x >= 0 && y >= 0 && x < W && y < H && bits[std::size_t(y) * W + x]; }
  int blocked_around(int x, int y) const {
    return !free(x - 1, y - 1) + !free(x, y - 1) + !free(x - 1, y) + !free(x, y);
  }
  bool pinch(int x, int y) const {
    const bool a = free(x - 1, y - 1), b = free(x, y - 1), c = free(x - 1, y), d = free(x, y);
    return (a && d && !b && !c) || (b && c && !a && !d);
  }
  // At a pinch endpoint p, the other end q lies in p's own quadrant (the cell (x, y), else (x, y - 1)).
  bool own_side(Corner p, Corner q) const {
    if (!pinch(p.x, p.y)) return true;
    return q.x >= p.x && (free(p.x, p.y) ? q.y >= p.y : q.y <= p.y);
  }
  bool visible(Corner a, Corner b, bool ends_own) const;
};

bool Graph::visible(Corner a, Corner b, bool ends_own) const {
  const std::int64_t dx = b.x - a.x, dy = b.y - a.y;
  if (dx == 0 && dy == 0) return true;
  if (ends_own && (!own_side(a, b) || !own_side(b, a))) return false;
  const std::int64_t ax = std::abs(dx), ay = std::abs(dy);
  const std::int64_t D = dx == 0 ? ay : dy == 0 ? ax : ax * ay;  // t = n / D along the segment
  std::vector<std::int64_t> cuts;
  if (dx != 0)
    for (std::int64_t i = 0; i <= ax; ++i) cuts.push_back(i * (D / ax));
  if (dy != 0)
    for (std::int64_t j = 0; j <= ay; ++j) cuts.push_back(j * (D / ay));
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    const std::int64_t n = cuts[k];
    // An inner point of the segment on a grid corner: not a pinch point.
    if (n > 0 && n < D && (n * dx) % D == 0 && (n * dy) % D == 0 && pinch(int(a.x + n * dx / D), int(a.y + n * dy / D)))
      return false;
    if (k + 1 == cuts.size()) break;
    // The piece between two cuts: its midpoint, in units of 1 / (2D).
    const std::int64_t m = n + cuts[k + 1];
    const std::int64_t mx = 2 * D * a.x + m * dx, my = 2 * D * a.y + m * dy;
    const int cx = int(mx / (2 * D)), cy = int(my / (2 * D));
    if (dx == 0) {
      if (!free(a.x - 1, cy) && !free(a.x, cy)) return false;  // along a vertical grid line
    } else if (dy == 0) {
      if (!free(cx, a.y - 1) && !free(cx, a.y)) return false;  // along a horizontal one
    } else if (!free(cx, cy)) {
      return false;
    }
  }
  return true;
}

double dist(Corner a, Corner b) { return std::hypot(double(a.x - b.x), double(a.y - b.y)); }

}  // namespace

void PreprocessMap(const std::vector<bool>& bits, int width, int height, const std::string& filename) {
  Graph g{bits, width, height, {}, {}};
  std::ofstream out(filename + ".corners");
  for (int y = 0; y <= height; ++y)
    for (int x = 0; x <= width; ++x)
      if (g.blocked_around(x, y) == 1) out << x << ' ' << y << '\n';
}

void* PrepareForSearch(const std::vector<bool>& bits, int width, int height, const std::string& filename) {
  auto* g = new Graph{bits, width, height, {}, {}};
  std::ifstream in(filename + ".corners");
  if (!in) {  // PreprocessMap's file is gone: no search (navbench reports the reason)
    delete g;
    throw std::runtime_error("no " + filename + ".corners to read");
  }
  for (Corner c; in >> c.x >> c.y;) g->nodes.push_back(c);
  const std::size_t n = g->nodes.size();
  g->edges.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (g->visible(g->nodes[i], g->nodes[j], false)) {
        const double d = dist(g->nodes[i], g->nodes[j]);
        g->edges[i].push_back({int(j), d});
        g->edges[j].push_back({int(i), d});
      }
  std::cout << "any-angle example: " << n << " corners\n";  // goes to navbench's log
  return g;
}

bool GetPath(void* data, xyLoc s, xyLoc g, std::vector<xyLoc>& path) {
  const Graph& G = *static_cast<Graph*>(data);
  const Corner S{int(s.x), int(s.y)}, T{int(g.x), int(g.y)};
  if (G.visible(S, T, true)) {  // also s == g
    path.push_back(s);
    if (S.x != T.x || S.y != T.y) path.push_back(g);
    return true;
  }
  const int n = int(G.nodes.size()), start = n, goal = n + 1;
  std::vector<double> d(std::size_t(n) + 2, std::numeric_limits<double>::infinity());
  std::vector<int> parent(std::size_t(n) + 2, -1);
  std::vector<bool> to_goal(static_cast<std::size_t>(n), false);
  for (int i = 0; i < n; ++i) to_goal[std::size_t(i)] = G.visible(G.nodes[std::size_t(i)], T, false) && G.own_side(T, G.nodes[std::size_t(i)]);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  const auto at = [&](int v) { return v == start ? S : v == goal ? T : G.nodes[std::size_t(v)]; };
  const auto relax = [&](int u, int v, double w) {
    if (d[std::size_t(u)] + w < d[std::size_t(v)]) {
      d[std::size_t(v)] = d[std::size_t(u)] + w;
      parent[std::size_t(v)] = u;
      open.push({d[std::size_t(v)] + dist(at(v), T), v});
    }
  };
  d[std::size_t(start)] = 0;
  for (int i = 0; i < n; ++i)
    if (G.visible(S, G.nodes[std::size_t(i)], false) && G.own_side(S, G.nodes[std::size_t(i)])) relax(start, i, dist(S, G.nodes[std::size_t(i)]));
  while (!open.empty()) {
    const auto [f, u] = open.top();
    open.pop();
    if (u == goal) break;
    if (f > d[std::size_t(u)] + dist(at(u), T) + 1e-9) continue;
    if (to_goal[std::size_t(u)]) relax(u, goal, dist(at(u), T));
    for (const auto& [v, w] : G.edges[std::size_t(u)]) relax(u, v, w);
  }
  if (parent[std::size_t(goal)] < 0) return true;  // no path: empty
  std::vector<xyLoc> back;
  for (int v = goal; v >= 0; v = parent[std::size_t(v)]) back.push_back({double(at(v).x), double(at(v).y)});
  path.insert(path.end(), back.rbegin(), back.rend());
  return true;
}

std::string GetName() { return "example-anyangle-visibility"; }
