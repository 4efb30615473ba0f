// The roadmap after map changes (docs/changing-maps.md): the samples stay, every candidate edge whose
// segment's box meets a changed cell's tile box is tested again on the new map, and the graph and
// components are laid out anew. A sample now in a blocked cell keeps no edge (every segment from it
// fails). When half the map's cells changed, or testing again would cost more than half a build's
// tests, the roadmap is built again instead (the rules below).
#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

#include "geometry/free_space.hpp"
#include "representations/prm/internal.hpp"

namespace navbench {

namespace {
// The exact segment test walks the cells a segment crosses: its work, |dx| + |dy| + 1.
double test_work(Point a, Point b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y) + 1; }
}  // namespace

bool Roadmap::update(const Map& m, const std::vector<CellChange>& changed) {
  const GridMap& was = free_->map().grid;
  if (m.kind != MapKind::grid || free_->map().kind != MapKind::grid || m.grid.width != was.width || m.grid.height != was.height)
    return false;
  // Built again in place, on the free space just made: the same samples and edges as a fresh build
  // (the same seed).
  auto rebuild = [&] {
    pos_.clear();
    candidates_.clear();
    radius_ = 0;
    draw(m);
    connect();
    layout();
    update_.reset();  // the next update makes the boxes of the new candidates
    rebuilt_ = true;
    return true;
  };
  // The rules (docs/changing-maps.md): half the map's cells changed, or the candidates to test
  // again, by the cells their segments cross, above half of what a build tests (every candidate):
  // build again.
  if (2 * changed.size() > m.grid.cells.size()) {
    free_ = std::make_unique<FreeSpace>(m);
    price_on(m);
    return rebuild();
  }
  if (!update_) {
    update_ = std::make_unique<UpdateState>();
    std::vector<UpdateState::Value> values;
    values.reserve(candidates_.size());
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      const Point a = pos_[candidates_[i].a], b = pos_[candidates_[i].b];
      values.push_back({RoadmapBox(RoadmapPoint(std::min(a.x, b.x), std::min(a.y, b.y)),
                                   RoadmapPoint(std::max(a.x, b.x), std::max(a.y, b.y))),
                        std::uint32_t(i)});
      update_->total_work += test_work(a, b);
    }
    update_->boxes = decltype(update_->boxes)(values.begin(), values.end());
    update_->seen.assign(candidates_.size(), 0);
  }
  free_ = std::make_unique<FreeSpace>(m);
  price_on(m);
  // The changed cells by tiles of kTile x kTile cells, each tile's changed cells as one box: one
  // rtree query per tile, not per cell (a candidate whose box meets a tile's box but no changed
  // cell is tested again for nothing, and its answer stays right).
  constexpr int kTile = 16;
  const int tiles_x = (m.grid.width + kTile - 1) / kTile;
  std::vector<std::pair<std::uint32_t, std::array<int, 4>>> tiles;  // tile index, x0 y0 x1 y1 (cells)
  tiles.reserve(changed.size());
  for (const CellChange& c : changed)
    tiles.push_back({std::uint32_t((c.y / kTile) * tiles_x + c.x / kTile), {c.x, c.y, c.x, c.y}});
  std::sort(tiles.begin(), tiles.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t w = 0;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    if (w > 0 && tiles[w - 1].first == tiles[i].first) {
      auto& b = tiles[w - 1].second;
      const auto& c = tiles[i].second;
      b = {std::min(b[0], c[0]), std::min(b[1], c[1]), std::max(b[2], c[2]), std::max(b[3], c[3])};
    } else {
      tiles[w++] = tiles[i];
    }
  }
  tiles.resize(w);
  // The candidates to test again, each once, and the work of their tests.
  std::vector<UpdateState::Value> found;
  std::vector<std::uint32_t> touched;
  const std::uint32_t stamp = ++update_->stamp;
  double work = 0;
  for (const auto& [t, b] : tiles) {
    found.clear();
    const RoadmapBox box(RoadmapPoint(b[0], b[1]), RoadmapPoint(b[2] + 1.0, b[3] + 1.0));
    update_->boxes.query(bgi::intersects(box), std::back_inserter(found));
    for (const auto& [bx, i] : found)
      if (update_->seen[i] != stamp) {
        update_->seen[i] = stamp;
        touched.push_back(i);
        work += test_work(pos_[candidates_[i].a], pos_[candidates_[i].b]);
      }
  }
  if (2 * work > update_->total_work) return rebuild();
  rebuilt_ = false;
  for (const std::uint32_t i : touched) {
    Candidate& e = candidates_[i];
    e.valid = free_->segment_valid(pos_[e.a], pos_[e.b]);
  }
  layout();
  return true;
}

}  // namespace navbench
