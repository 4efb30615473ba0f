// navbench's example entry for the classic track (docs/outside-planners.md): a plain 8-connected
// A* with the octile heuristic and no corner cutting (SPEC §1), written against the competition's
// entry interface. It needs no preprocessing. Its path lists every cell, start and goal included.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "Entry.h"

namespace {

struct Grid {
  std::vector<bool> bits;
  int width, height;
  bool free(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height && bits[std::size_t(y) * width + x]; }
};

double octile(int dx, int dy) {
  dx = std::abs(dx);
  dy = std::abs(dy);
  return std::sqrt(2.0) * std::min(dx, dy) + std::abs(dx - dy);
}

}  // namespace

void PreprocessMap(const std::vector<bool>&, int, int, const std::string&) {}

void* PrepareForSearch(const std::vector<bool>& bits, int width, int height, const std::string&) {
  std::cout << "classic example: " << width << " x " << height << " map\n";  // goes to navbench's log
  return new Grid{bits, width, height};
}

bool GetPath(void* data, xyLoc s, xyLoc g, std::vector<xyLoc>& path) {
  const Grid& m = *static_cast<Grid*>(data);
  const int W = m.width;
  const auto id = [W](int x, int y) { return std::size_t(y) * W + x; };
  std::vector<double> dist(m.bits.size(), std::numeric_limits<double>::infinity());
  std::vector<std::int64_t> parent(m.bits.size(), -1);
  using Item = std::pair<double, std::size_t>;  // f, cell
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  dist[id(s.x, s.y)] = 0;
  open.push({octile(g.x - s.x, g.y - s.y), id(s.x, s.y)});
  const std::size_t goal = id(g.x, g.y);
  while (!open.empty()) {
    const auto [f, c] = open.top();
    open.pop();
    if (c == goal) break;
    const int x = int(c % W), y = int(c / W);
    if (f > dist[c] + octile(g.x - x, g.y - y) + 1e-9) continue;  // a stale entry
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !m.free(x + dx, y + dy)) continue;
        if (dx != 0 && dy != 0 && (!m.free(x + dx, y) || !m.free(x, y + dy))) continue;  // no corner cutting
        const std::size_t n = id(x + dx, y + dy);
        const double d = dist[c] + (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0);
        if (d < dist[n]) {
          dist[n] = d;
          parent[n] = std::int64_t(c);
          open.push({d + octile(g.x - (x + dx), g.y - (y + dy)), n});
        }
      }
  }
  if (dist[goal] == std::numeric_limits<double>::infinity()) return true;  // no path: empty
  std::vector<xyLoc> back;
  for (std::int64_t c = std::int64_t(goal); c >= 0; c = parent[std::size_t(c)])
    back.push_back({std::int16_t(c % W), std::int16_t(c / W)});
  path.insert(path.end(), back.rbegin(), back.rend());
  return true;
}

std::string GetName() { return "example-classic-astar"; }
