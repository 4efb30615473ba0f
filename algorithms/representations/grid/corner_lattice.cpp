#include "representations/grid/corner_lattice.hpp"

#include "representations/grid/grid.hpp"

#include <algorithm>
#include <cmath>

namespace navbench {

namespace {
constexpr int kReverse[8] = {1, 0, 3, 2, 7, 6, 5, 4};

bool free_cell(const GridMap& m, int x, int y) { return x >= 0 && y >= 0 && x < m.width && y < m.height && m.passable(x, y); }

// The moves that stay inside one cell of corner (x, y): cell (x, y) (SE of the corner) holds E, S,
// SE; cell (x, y - 1) (NE) holds E, N, NE.
// Cell (cx, cy) is pinch corner (x, y)'s own cell (FreeSpace's rule).
bool own_cell(const GridMap& m, int x, int y, int cx, int cy) {
  return free_cell(m, x, y) ? (cx == x && cy == y) : (cx == x && cy == y - 1);
}

unsigned own_cell_moves(const GridMap& m, int x, int y) {
  return free_cell(m, x, y) ? (1u << 0 | 1u << 2 | 1u << 4) : (1u << 0 | 1u << 3 | 1u << 5);
}
}  // namespace

bool corner_is_pinch(const GridMap& m, int x, int y) {
  const bool nw = free_cell(m, x - 1, y - 1), ne = free_cell(m, x, y - 1), sw = free_cell(m, x - 1, y),
             se = free_cell(m, x, y);
  return (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
}

std::vector<std::uint8_t> corner_moves(const GridMap& m, bool diagonal, bool squeeze) {
  const int W = m.width + 1, H = m.height + 1;
  std::vector<std::uint8_t> moves(std::size_t(W) * std::size_t(H), 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const unsigned nw = free_cell(m, x - 1, y - 1), ne = free_cell(m, x, y - 1), sw = free_cell(m, x - 1, y),
                     se = free_cell(m, x, y);
      unsigned bits = (ne | se) << 0 | (nw | sw) << 1 | (sw | se) << 2 | (nw | ne) << 3;
      if (diagonal) bits |= se << 4 | ne << 5 | sw << 6 | nw << 7;
      moves[std::size_t(y) * std::size_t(W) + std::size_t(x)] = std::uint8_t(bits);
    }
  if (squeeze) return moves;
  // forbid: a pinch corner keeps its own cell's moves, and its neighbours lose the moves into it
  // from the other cell (every move is listed from both ends).
  for (int y = 1; y < H - 1; ++y)
    for (int x = 1; x < W - 1; ++x) {
      if (!corner_is_pinch(m, x, y)) continue;
      std::uint8_t& at = moves[std::size_t(y) * std::size_t(W) + std::size_t(x)];
      const unsigned keep = own_cell_moves(m, x, y);
      for (int d = 0; d < 8; ++d)
        if ((at >> d & 1u) && !(keep >> d & 1u)) {
          at = std::uint8_t(at & ~(1u << d));
          moves[std::size_t(y + kGridStepY[d]) * std::size_t(W) + std::size_t(x + kGridStepX[d])] &= std::uint8_t(~(1u << kReverse[d]));
        }
    }
  return moves;
}

std::optional<Attachment> corner_attach(const GridMap& m, bool squeeze, Point p) {
  if (!(p.x >= 0 && p.y >= 0 && p.x <= m.width && p.y <= m.height)) return std::nullopt;
  const int x1 = int(std::floor(p.x)), y1 = int(std::floor(p.y));
  const bool on_x = p.x == x1, on_y = p.y == y1;
  const int x0 = on_x ? x1 - 1 : x1, y0 = on_y ? y1 - 1 : y1;
  const std::size_t W = std::size_t(m.width) + 1;
  std::vector<std::pair<int, int>> cells;  // the free cells whose closed square holds p
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (free_cell(m, x, y)) cells.emplace_back(x, y);
  if (cells.empty()) return std::nullopt;
  Attachment a;
  if (on_x && on_y) {  // a corner: the vertex itself (its moves already follow the squeeze rule)
    a.links.push_back({Vertex(std::size_t(y1) * W + std::size_t(x1)), 0.0});
  } else {
    for (auto [cx, cy] : cells)
      for (int dy = 0; dy <= 1; ++dy)
        for (int dx = 0; dx <= 1; ++dx) {
          const Point c{double(cx + dx), double(cy + dy)};
          // forbid: a pinch corner is reached only from inside its own cell (a link from the other
          // cell followed by the corner's moves would cross the pinch point).
          if (!squeeze && corner_is_pinch(m, cx + dx, cy + dy) && !own_cell(m, cx + dx, cy + dy, cx, cy)) continue;
          const Vertex v = Vertex(std::size_t(cy + dy) * W + std::size_t(cx + dx));
          if (std::none_of(a.links.begin(), a.links.end(), [&](const Link& l) { return l.vertex == v; }))
            a.links.push_back({v, distance(p, c)});
        }
  }
  a.cell = std::int64_t(cells.front().second) * m.width + cells.front().first;
  return a;
}

}  // namespace navbench
