#include "geometry/squeeze_optimum.hpp"

#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>

#include "geometry/exact.hpp"

namespace navbench {

namespace {
constexpr std::size_t kPinch = std::numeric_limits<std::size_t>::max();
}

SqueezeOptimum::SqueezeOptimum(const FreeSpace& fs) : fs_(&fs) {
  const Map& m = fs.map();
  if (m.kind != MapKind::grid || !fs.squeeze()) throw std::invalid_argument("SqueezeOptimum needs a grid map's free space with squeezing");
  const auto& corners = fs.convex_corners();
  for (std::size_t i = 0; i < corners.size(); ++i) at_.push_back(corners[i].at), corner_.push_back(i);
  const GridMap& g = m.grid;
  for (int y = 1; y < g.height; ++y)
    for (int x = 1; x < g.width; ++x) {
      const bool nw = g.passable(x - 1, y - 1), ne = g.passable(x, y - 1), sw = g.passable(x - 1, y), se = g.passable(x, y);
      if ((nw && se && !ne && !sw) || (ne && sw && !nw && !se)) at_.push_back({double(x), double(y)}), corner_.push_back(kPinch);
    }
  adj_.resize(at_.size());
  for (std::size_t i = 0; i < at_.size(); ++i)
    for (std::size_t j = i + 1; j < at_.size(); ++j)
      if (taut(i, at_[j]) && taut(j, at_[i]) && fs.segment_valid(at_[i], at_[j])) {
        const double d = distance(at_[i], at_[j]);
        adj_[i].push_back({j, d});
        adj_[j].push_back({i, d});
      }
}

bool SqueezeOptimum::taut(std::size_t node, Point other) const {
  if (corner_[node] == kPinch || other == at_[node]) return true;
  const ConvexCorner& c = fs_->convex_corners()[corner_[node]];
  return exact::orient2d(other, c.at, c.before) * exact::orient2d(other, c.at, c.after) >= 0;
}

std::size_t SqueezeOptimum::memory_bytes() const {
  std::size_t b = at_.capacity() * sizeof(Point) + corner_.capacity() * sizeof(std::size_t) + adj_.capacity() * sizeof(adj_[0]);
  for (const auto& a : adj_) b += a.capacity() * sizeof(a[0]);
  return b;
}

std::optional<double> SqueezeOptimum::length(Point s, Point g) const {
  const std::int32_t cs = fs_->component(s), cg = fs_->component(g);
  if (cs < 0 || cs != cg) return std::nullopt;
  if (fs_->segment_valid(s, g)) return distance(s, g);
  // Dijkstra from s over the nodes; the goal's links are the nodes that see it (tangent there).
  const std::size_t n = at_.size();
  std::vector<double> dist(n, std::numeric_limits<double>::infinity()), to_goal(n, -1);
  for (std::size_t i = 0; i < n; ++i)
    if (taut(i, g) && fs_->segment_valid(at_[i], g)) to_goal[i] = distance(at_[i], g);
  using Item = std::pair<double, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  for (std::size_t i = 0; i < n; ++i)
    if (taut(i, s) && fs_->segment_valid(s, at_[i])) open.push({dist[i] = distance(s, at_[i]), i});
  double best = std::numeric_limits<double>::infinity();
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;
    if (d >= best) break;
    if (to_goal[u] >= 0) best = std::min(best, d + to_goal[u]);
    for (const auto& [v, w] : adj_[u])
      if (d + w < dist[v]) open.push({dist[v] = d + w, v});
  }
  if (std::isinf(best)) return std::nullopt;
  return best;
}

}  // namespace navbench
