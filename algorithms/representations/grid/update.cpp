// grid4 and grid8 on a changing map (docs/changing-maps.md): GridRepresentation::update.
#include "representations/grid/grid.hpp"

#include <algorithm>
#include <stdexcept>

namespace navbench {

template <bool D>
bool GridRepresentation<D>::update(const Map& map, const std::vector<CellChange>& changed) {
  if (corner_ || map.kind != MapKind::grid || map.grid.width != graph_.width() || map.grid.height != graph_.height())
    return false;
  map_ = &map.grid;
  graph_.set_weights(map.grid);
  const int W = graph_.width(), H = graph_.height();
  // Runs of changed cells along a row with one new value (patches change cells row by row).
  runs_.clear();
  const std::uint8_t* cells = map.grid.cells.data();
  for (std::size_t i = 0; i < changed.size();) {
    const int y = changed[i].y, x0 = changed[i].x;
    const std::uint8_t v = cells[std::size_t(y) * std::size_t(W) + std::size_t(x0)] != 0;  // a cell may be listed twice: the map's value
    int x1 = x0 + 1;
    for (++i; i < changed.size() && changed[i].y == y && changed[i].x == x1 &&
              (cells[std::size_t(y) * std::size_t(W) + std::size_t(x1)] != 0) == v;
         ++i)
      ++x1;
    runs_.push_back({y, x0, x1, v});
  }
  // The moves of the changed cells' 3x3 neighbourhoods, each cell once: a run stales rows y-1..y+1
  // over the run widened by one; the spans are bucketed by row (counting sort), sorted within a
  // row and merged, so overlapping neighbourhoods are not recomputed.
  row_start_.assign(std::size_t(H) + 1, 0);
  for (const Run& r : runs_)
    for (int y = std::max(0, r.y - 1); y <= std::min(H - 1, r.y + 1); ++y) ++row_start_[std::size_t(y) + 1];
  for (int y = 0; y < H; ++y) row_start_[std::size_t(y) + 1] += row_start_[std::size_t(y)];
  spans_.resize(row_start_[std::size_t(H)]);
  for (const Run& r : runs_)
    for (int y = std::max(0, r.y - 1); y <= std::min(H - 1, r.y + 1); ++y)
      spans_[row_start_[std::size_t(y)]++] = {y, std::max(0, r.x0 - 1), std::min(W, r.x1 + 1), 0};
  for (std::size_t i = 0; i < spans_.size();) {  // row_start_[y] is now row y's end
    const auto end = spans_.begin() + std::ptrdiff_t(row_start_[std::size_t(spans_[i].y)]);
    std::sort(spans_.begin() + std::ptrdiff_t(i), end, [](const Run& a, const Run& b) { return a.x0 < b.x0; });
    while (spans_.begin() + std::ptrdiff_t(i) != end) {
      Run s = spans_[i];
      for (++i; spans_.begin() + std::ptrdiff_t(i) != end && spans_[i].x0 <= s.x1; ++i) s.x1 = std::max(s.x1, spans_[i].x1);
      graph_.refresh(map.grid, s.y, s.x0, s.x1);
    }
  }
  // Component labels (representations/union_find.hpp): a new blocked cell has none (all of them
  // first, so no run below reads a label of a cell blocked now); a run of new free cells takes its
  // neighbours' labels, united.
  std::int32_t* comp = component_.data();
  for (const Run& r : runs_)
    if (!r.free) std::fill_n(comp + std::size_t(r.y) * std::size_t(W) + std::size_t(r.x0), r.x1 - r.x0, -1);
  for (const Run& r : runs_) {
    if (!r.free) continue;
    std::int32_t* at = comp + std::size_t(r.y) * std::size_t(W);
    std::int32_t root = -1, last = -1;
    auto join = [&](std::int32_t l) {  // l < 0: blocked, or freed in this update and not labelled yet
      if (l < 0 || l == last) return;
      last = l;
      root = root < 0 ? labels_.find(l) : labels_.unite(l, root);
    };
    if (r.x0 > 0) join(at[r.x0 - 1]);
    if (r.x1 < W) join(at[r.x1]);
    if (r.y > 0)
      for (int x = r.x0; x < r.x1; ++x) join(at[x - W]);
    if (r.y + 1 < H)
      for (int x = r.x0; x < r.x1; ++x) join(at[x + W]);
    if (root < 0) root = labels_.add();  // isolated (so far): a new label
    std::fill(at + r.x0, at + r.x1, root);
  }
  labels_.flatten();
  return true;
}

template bool GridRepresentation<false>::update(const Map&, const std::vector<CellChange>&);
template bool GridRepresentation<true>::update(const Map&, const std::vector<CellChange>&);

}  // namespace navbench
