// What build.cpp, query.cpp and update.cpp of the quadtree share: the linear-time sort of packed
// keys, the merge of touching rectangles (the build's merge, and the update's on its new leaves),
// and the walk over the tree's leaves meeting a rectangle (a member template, so every file that
// calls it sees its definition).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "representations/quadtree/quadtree.hpp"

namespace navbench::quadtree_detail {

// An item to sort: a packed key and the cell it came from (plus the far end of an edge).
struct Keyed {
  std::uint64_t key;
  std::uint32_t cell;
  std::int32_t hi;
};

// LSD radix sort on the low `bits` bits of the key, 11 bits a pass: linear time, which keeps the
// merge and neighbour sweeps near-linear in the number of cells (no comparison sort).
inline void radix_sort(std::vector<Keyed>& v, std::vector<Keyed>& tmp, int bits) {
  constexpr int kDigit = 11;
  constexpr std::uint64_t kMask = (1u << kDigit) - 1;
  tmp.resize(v.size());
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::array<std::uint32_t, (1u << kDigit) + 1> count{};
    for (const Keyed& e : v) ++count[((e.key >> shift) & kMask) + 1];
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    for (const Keyed& e : v) tmp[count[(e.key >> shift) & kMask]++] = e;
    v.swap(tmp);
  }
}

// One merge (see merge_cells) of `cells`; leaf_cell maps each input index to its merged cell.
// same(a, b): rectangles a and b may become one cell (weighted maps: they weigh the same).
template <class Rect, class Same>
void merge_rects(std::vector<Rect>& cells, std::vector<std::uint32_t>& leaf_cell, double aspect, int b, Same&& same) {
  leaf_cell.resize(cells.size());
  std::iota(leaf_cell.begin(), leaf_cell.end(), 0u);
  std::vector<Keyed> items, tmp;
  std::vector<std::uint32_t> remap;
  std::vector<Rect> merged;
  auto ok = [aspect](std::int64_t w, std::int64_t h) {
    return double(std::max(w, h)) <= aspect * double(std::min(w, h));
  };
  for (int idle = 0, pass = 0; idle < 2; ++pass) {
    const bool horizontal = pass % 2 == 0;
    items.resize(cells.size());
    for (std::uint32_t c = 0; c < cells.size(); ++c) {
      const Rect& r = cells[c];
      const std::uint64_t lo = horizontal ? r.y0 : r.x0, hi = horizontal ? r.y1 : r.x1;
      const std::uint64_t at = horizontal ? r.x0 : r.y0;
      items[c] = {(lo << (2 * b)) | (hi << b) | at, c, 0};
    }
    // keys are distinct (cells are disjoint): any sort gives the order of the build
    if (items.size() < 2048) std::sort(items.begin(), items.end(), [](const Keyed& p, const Keyed& q) { return p.key < q.key; });
    else radix_sort(items, tmp, 3 * b);
    remap.assign(cells.size(), 0);
    merged.clear();
    bool changed = false;
    for (std::size_t i = 0; i < items.size();) {
      Rect cur = cells[items[i].cell];
      remap[items[i].cell] = std::uint32_t(merged.size());
      std::size_t j = i + 1;
      for (; j < items.size(); ++j) {
        const Rect& n = cells[items[j].cell];
        if (horizontal) {
          if (n.y0 != cur.y0 || n.y1 != cur.y1 || n.x0 != cur.x1 || !ok(n.x1 - cur.x0, cur.y1 - cur.y0) || !same(cur, n)) break;
          cur.x1 = n.x1;
        } else {
          if (n.x0 != cur.x0 || n.x1 != cur.x1 || n.y0 != cur.y1 || !ok(cur.x1 - cur.x0, n.y1 - cur.y0) || !same(cur, n)) break;
          cur.y1 = n.y1;
        }
        remap[items[j].cell] = std::uint32_t(merged.size());
        changed = true;
      }
      merged.push_back(cur);
      i = j;
    }
    cells.swap(merged);
    for (auto& c : leaf_cell) c = remap[c];
    idle = changed ? 0 : idle + 1;
  }
}

}  // namespace navbench::quadtree_detail

namespace navbench {

template <class F>
void QuadTree::visit_leaves(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s, const Rect& r, F&& f) const {
  // Down to the smallest node holding all of r first, then every leaf below it meeting r.
  for (std::int32_t v = slot(i); v >= 0; v = slot(i)) {
    const std::int32_t h = s / 2;
    const int qx = r.x0 >= x + h ? 1 : r.x1 <= x + h ? 0 : -1, qy = r.y0 >= y + h ? 1 : r.y1 <= y + h ? 0 : -1;
    if (qx < 0 || qy < 0) break;
    i = v + qx + 2 * qy, x += qx * h, y += qy * h, s = h;
  }
  struct Item {
    std::int64_t i;
    std::int32_t x, y, s;
  };
  Item stack[4 * 32];
  int top = 0;
  stack[top++] = {i, x, y, s};
  while (top > 0) {
    const Item n = stack[--top];
    const std::int32_t v = slot(n.i);
    if (v < 0) {
      f(n.i, v, Rect{n.x, n.y, n.x + n.s, n.y + n.s});
      continue;
    }
    const std::int32_t h = n.s / 2;
    for (int q = 3; q >= 0; --q) {  // pushed in reverse: children visited in order 0..3
      const std::int32_t cx = n.x + (q & 1 ? h : 0), cy = n.y + (q & 2 ? h : 0);
      if (cx < r.x1 && cx + h > r.x0 && cy < r.y1 && cy + h > r.y0) stack[top++] = {v + q, cx, cy, h};
    }
  }
}

}  // namespace navbench
