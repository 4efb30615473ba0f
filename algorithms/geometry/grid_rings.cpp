#include "geometry/grid_rings.hpp"

#include <bit>
#include <stdexcept>

namespace navbench {

double ring_area2(const std::vector<Point>& ring) {
  double a = 0;
  for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
    const Point& p = ring[i];
    const Point& q = ring[(i + 1) % n];
    a += p.x * q.y - q.x * p.y;
  }
  return a;
}

std::vector<std::vector<Point>> trace_cell_rings(int W, int H, const std::vector<std::uint8_t>& inside) {
  if (W < 0 || H < 0 || inside.size() != std::size_t(W) * std::size_t(H))
    throw std::invalid_argument("trace_cell_rings: cell array does not match the grid size");
  const std::int64_t CW = W + 1;  // corners per row
  const std::size_t ncorners = std::size_t(CW) * std::size_t(H + 1);
  // Directions: 0 = +x, 1 = +y, 2 = -x, 3 = -y; turning left (counter-clockwise) is d + 1.
  const std::int64_t step[4] = {1, CW, -1, -CW};
  auto in = [&](int x, int y) { return x >= 0 && y >= 0 && x < W && y < H && inside[std::size_t(y) * W + x] != 0; };

  // Out-going boundary edges of every corner, the set on the left of each.
  std::vector<std::uint8_t> out(ncorners, 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      if (!in(x, y)) continue;
      if (!in(x, y - 1)) out[std::size_t(y * CW + x)] |= 1;            // (x,y) -> (x+1,y)
      if (!in(x + 1, y)) out[std::size_t(y * CW + x + 1)] |= 2;        // (x+1,y) -> (x+1,y+1)
      if (!in(x, y + 1)) out[std::size_t((y + 1) * CW + x + 1)] |= 4;  // (x+1,y+1) -> (x,y+1)
      if (!in(x - 1, y)) out[std::size_t((y + 1) * CW + x)] |= 8;      // (x,y+1) -> (x,y)
    }

  std::vector<std::uint8_t> used(ncorners, 0);
  std::vector<std::int32_t> pos(ncorners, -1);  // position of a corner on the split stack
  std::vector<std::vector<Point>> rings;
  std::vector<std::int64_t> walk, stack;

  auto emit = [&](const std::int64_t* v, std::size_t n) {
    // Integer corners to points, dropping corners where the boundary goes straight on.
    std::vector<Point> ring;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t a = v[(i + n - 1) % n], b = v[i], c = v[(i + 1) % n];
      if (b - a == c - b) continue;
      ring.push_back({double(b % CW), double(b / CW)});
    }
    rings.push_back(std::move(ring));
  };

  for (std::size_t c0 = 0; c0 < ncorners; ++c0) {
    while (out[c0] & ~used[c0]) {
      int d = std::countr_zero(unsigned(out[c0] & ~used[c0]));
      std::int64_t c = std::int64_t(c0);
      walk.clear();
      while (!(used[std::size_t(c)] & (1u << d))) {
        used[std::size_t(c)] |= std::uint8_t(1u << d);
        walk.push_back(c);
        c += step[d];
        const unsigned avail = out[std::size_t(c)];
        if (std::popcount(avail) == 1) d = std::countr_zero(avail);
        else d = (d + 1) & 3;  // diagonal touch: turn left, around the cell we came along
        if (!(avail & (1u << d))) throw std::logic_error("trace_cell_rings: broken boundary");
      }
      // Split the closed walk where it comes back to a corner (only diagonal touches repeat).
      stack.clear();
      for (std::int64_t v : walk) {
        const std::int32_t k = pos[std::size_t(v)];
        if (k >= 0) {
          emit(stack.data() + k, stack.size() - std::size_t(k));
          for (std::size_t i = std::size_t(k) + 1; i < stack.size(); ++i) pos[std::size_t(stack[i])] = -1;
          stack.resize(std::size_t(k) + 1);
        } else {
          pos[std::size_t(v)] = std::int32_t(stack.size());
          stack.push_back(v);
        }
      }
      emit(stack.data(), stack.size());
      for (std::int64_t v : stack) pos[std::size_t(v)] = -1;
    }
  }
  return rings;
}

}  // namespace navbench
