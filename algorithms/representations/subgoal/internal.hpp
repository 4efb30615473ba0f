// What build.cpp, query.cpp, update.cpp (changing maps) and contraction.cpp (levels >= 2)
// share: the directions and tolerance, the packed reach lists' coding, and the clearance scan
// (member templates of SubgoalGraph, so every file that calls them sees their definitions).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "representations/subgoal/subgoal.hpp"

namespace navbench::subgoal_detail {

inline constexpr int kE = 0, kW = 1, kS = 2, kN = 3;
inline constexpr double kEps = 1e-9;  // the contraction's tolerance on path lengths

// An edge of the contraction's working graph (ch=1, ch.cpp).
struct ChEdge {
  Vertex to;
  double w;
  std::uint32_t via;  // the contracted subgoal a shortcut bypasses, or ~0
};

// The per-cell reach lists, packed: a list is its count, then its ids in increasing order as
// deltas (the first from 0), each in one 16-bit unit below 2^15 or else two (high bit set in the
// first). Ids are numbered row-major, so the subgoals a cell sees, clustered around it, are mostly
// close in number: ~2 bytes an entry instead of 4. A list equal to the one of the previous cell
// written (along a row) or of the cell above is stored once: in corridors and rooms a run of cells
// sees the same subgoals. (The idea of precomputing per-cell answers is JPS+'s, Harabor & Grastien
// 2014; the delta coding is the usual one of compressed adjacency lists, e.g. Boldi & Vigna 2004.)
inline void put_unit(std::vector<std::uint16_t>& out, std::uint32_t x) {
  if (x < 0x8000) out.push_back(std::uint16_t(x));
  else out.push_back(std::uint16_t(0x8000 | (x >> 16))), out.push_back(std::uint16_t(x & 0xFFFF));
}
inline std::uint32_t get_unit(const std::uint16_t*& p) {
  std::uint32_t x = *p++;
  if (x & 0x8000) x = ((x & 0x7FFF) << 16) | *p++;
  return x;
}
// Calls f(id) for each id of the packed list starting at p.
template <class F>
inline void for_packed(const std::uint16_t* p, F&& f) {
  Vertex v = 0;
  for (std::uint32_t k = get_unit(p); k > 0; --k) f(v += Vertex(get_unit(p)));
}

}  // namespace navbench::subgoal_detail

namespace navbench {

template <class F>
void SubgoalGraph::for_reach(Cell c, F&& f) const {
  subgoal_detail::for_packed(reach_data_.data() + reach_at_[c], f);
}

// GetDirectHReachable (Uras, Koenig & Hernández 2013, Algorithm 2): the cardinal rays, then per
// diagonal direction the rays leaving each cell of the diagonal, each bounded by the previous one
// (shortened by one past a subgoal found on it) so that only cells with a shortest path avoiding
// other subgoals are scanned.
template <class F>
void SubgoalGraph::direct_h_reachable(Cell c, F&& out) const {
  scan<false>(c, out, nullptr);
}

// With Track, the scan notes per quadrant how far the cells it read reach: a cardinal ray reads
// the cells up to its clearance and one more (blocked, or the subgoal ending it); a diagonal step
// the three cells of diag_ok (read through their clearances, diag_clear); a ray from the diagonal with bound m and clearance j only whether
// j > m unless j <= m, so the cells up to min(j, m) + 1 decide it. Everything the scan's answer
// depends on (free_, vertex_, the clear_ values it reads) is then a function of those cells and
// their 8 neighbours (a cell's subgoal status reads its 3x3 block).
template <bool Track, class F>
void SubgoalGraph::scan(Cell c, F&& out, Extent* ext) const {
  const int step[4] = {1, -1, pw_, -pw_};
  for (int d = 0; d < 4; ++d)
    if (const int k = clear_[c][d]; k > 0) {
      const Cell t = Cell(std::int64_t(c) + std::int64_t(k) * step[d]);
      if (is_sg(t)) out(t);
    }
  for (int dy : {-1, 1})
    for (int dx : {-1, 1}) {
      const int ch = dx > 0 ? subgoal_detail::kE : subgoal_detail::kW, cv = dy > 0 ? subgoal_detail::kS : subgoal_detail::kN;
      // Tracked in locals (the stores through ext could alias clear_ and be redone every step).
      int fx = clear_[c][ch] + 1, fy = clear_[c][cv] + 1;  // the cardinal rays and the cell after
      auto bound = [&](int d, Cell from) {
        int k = clear_[from][d];
        if (k > 0 && is_sg(Cell(std::int64_t(from) + std::int64_t(k) * step[d]))) --k;
        return k;
      };
      int maxh = bound(ch, c), maxv = bound(cv, c);
      Cell cur = c;
      const int dstep = dx + dy * pw_;
      for (int i = 0;; ++i) {
        if constexpr (Track) fx = std::max(fx, i + 1), fy = std::max(fy, i + 1);
        if (!diag_clear(cur, dx, ch, cv)) break;
        cur = Cell(std::int64_t(cur) + dstep);
        if (is_sg(cur)) {
          out(cur);
          break;
        }
        for (int* m : {&maxh, &maxv}) {
          const bool horizontal = m == &maxh;
          int j = clear_[cur][horizontal ? ch : cv];
          if constexpr (Track) (horizontal ? fx : fy) = std::max(horizontal ? fx : fy, i + 1 + std::min(j, *m) + 1);
          if (j > *m) continue;
          if (j > 0) {
            const Cell t = Cell(std::int64_t(cur) + std::int64_t(j) * step[horizontal ? ch : cv]);
            if (is_sg(t)) out(t), --j;
          }
          *m = j;
        }
      }
      if constexpr (Track) {
        const int q = (dy > 0) * 2 + (dx > 0);
        ext->x[q] = std::uint16_t(fx), ext->y[q] = std::uint16_t(fy);
      }
    }
}

}  // namespace navbench
