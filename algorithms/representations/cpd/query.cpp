// cpd's queries (cpd.hpp): paths walked by first moves, the best over the links' cells.
#include "representations/cpd/cpd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace navbench {

std::uint64_t CompressedPathDatabase::walk(Vertex from, Vertex to, std::vector<Vertex>& path) const {
  path.clear();
  path.push_back(from);
  const std::uint32_t target = order_.rank_of[to];
  const GridGraph& g = graph();
  std::uint64_t key = 0;
  for (Vertex v = from; v != to;) {
    const unsigned d = table_.first_move(order_.rank_of[v], target);
    // A simple path has fewer moves than there are free cells; a move must be one of the grid's.
    if (!(g.moves(v) >> d & 1u) || path.size() > order_.size())
      throw std::runtime_error("cpd: the table's moves from cell " + std::to_string(from) + " do not reach cell " +
                               std::to_string(to));
    key += d < 4 ? cpd::kStraight : cpd::kDiagonal;
    v = Vertex(std::int64_t(v) + g.offset(d));
    path.push_back(v);
  }
  return key;
}

std::optional<double> CompressedPathDatabase::table_search(Query& q, std::size_t& steps) const {
  q.path.clear();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // A segment inside one cell (grid8's direct link) is never longer than a path through the cell's centre.
  double best = q.direct ? distance(q.start, q.goal) : kInf;
  // Each (start link, goal link) pair with its lower bound: the links and the octile distance
  // between their cells' centres. Up to 4 links a side (a point at a cell corner).
  struct Pair {
    double bound;
    std::size_t s, g;
  };
  thread_local std::vector<Pair> pairs;
  thread_local std::vector<Vertex> path;
  pairs.clear();
  for (std::size_t i = 0; i < q.s.links.size(); ++i)
    for (std::size_t j = 0; j < q.g.links.size(); ++j) {
      const Point a = position(q.s.links[i].vertex), b = position(q.g.links[j].vertex);
      const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
      const double octile = std::max(dx, dy) + (M_SQRT2 - 1) * std::min(dx, dy);
      pairs.push_back({q.s.links[i].cost + octile + q.g.links[j].cost, i, j});
    }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.bound < b.bound; });
  for (const Pair& p : pairs) {
    // The bound is below the pair's cost by a rounding at most: a pair whose bound is not below the
    // best by more than that cannot beat it.
    if (p.bound >= best - 1e-9) break;
    const Vertex s = q.s.links[p.s].vertex, t = q.g.links[p.g].vertex;
    if (!reachable(s, t)) continue;
    const std::uint64_t key = walk(s, t, path);
    steps += path.size();
    const double cost = q.s.links[p.s].cost + cpd::octile_cost(key) + q.g.links[p.g].cost;
    if (cost < best) {
      best = cost;
      q.path = path;
    }
  }
  return best;
}

std::optional<bool> CompressedPathDatabase::route(Query& q) const {
  if (piece_ == 0 || q.direct || q.s.links.size() != 1 || q.g.links.size() != 1) return std::nullopt;
  const Vertex s = q.s.links.front().vertex, t = q.g.links.front().vertex;
  if (!reachable(s, t)) return false;
  q.path.clear();
  q.walk.at = s;
  q.walk.to = t;
  q.walk.key = 0;
  q.walk.steps = 1;
  q.walk.cost = q.s.links.front().cost + q.g.links.front().cost;
  return true;
}

bool CompressedPathDatabase::first_piece(Query& q, Polyline& out) const {
  if (q.walk.to < 0) {  // answered whole (table_search or the A*)
    out = polyline(q);
    return false;
  }
  out.push_back(q.start);
  out.push_back(position(Vertex(q.walk.at)));
  return next_piece(q, out);
}

bool CompressedPathDatabase::next_piece(Query& q, Polyline& out) const {
  const Vertex to = Vertex(q.walk.to);
  const std::uint32_t target = order_.rank_of[to];
  const GridGraph& g = graph();
  Vertex v = Vertex(q.walk.at);
  for (std::size_t k = 0; k < piece_ && v != to; ++k) {
    const unsigned d = table_.first_move(order_.rank_of[v], target);
    // As walk(): a simple path has fewer moves than there are free cells; a move must be one of the grid's.
    if (!(g.moves(v) >> d & 1u) || q.walk.steps > order_.size())
      throw std::runtime_error("cpd: the table's moves from cell " + std::to_string(q.walk.at) + " do not reach cell " +
                               std::to_string(to));
    q.walk.key += d < 4 ? cpd::kStraight : cpd::kDiagonal;
    v = Vertex(std::int64_t(v) + g.offset(d));
    ++q.walk.steps;
    out.push_back(position(v));
  }
  q.walk.at = v;
  if (v != to) return true;
  out.push_back(q.goal);
  q.walk.cost += cpd::octile_cost(q.walk.key);
  return false;
}

}  // namespace navbench
