// The roadmap after map changes (docs/changing-maps.md): the samples stay, every candidate edge whose
// segment's box touches a changed cell is tested again on the new map, and the graph and components
// are laid out anew. A sample now in a blocked cell keeps no edge (every segment from it fails).
#include <algorithm>
#include <iterator>

#include "geometry/free_space.hpp"
#include "representations/prm/internal.hpp"

namespace navbench {

bool Roadmap::update(const Map& m, const std::vector<CellChange>& changed) {
  const GridMap& was = free_->map().grid;
  if (m.kind != MapKind::grid || free_->map().kind != MapKind::grid || m.grid.width != was.width || m.grid.height != was.height)
    return false;
  if (!update_) {
    update_ = std::make_unique<UpdateState>();
    std::vector<UpdateState::Value> values;
    values.reserve(candidates_.size());
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      const Point a = pos_[candidates_[i].a], b = pos_[candidates_[i].b];
      values.push_back({RoadmapBox(RoadmapPoint(std::min(a.x, b.x), std::min(a.y, b.y)),
                                   RoadmapPoint(std::max(a.x, b.x), std::max(a.y, b.y))),
                        std::uint32_t(i)});
    }
    update_->boxes = decltype(update_->boxes)(values.begin(), values.end());
  }
  free_ = std::make_unique<FreeSpace>(m);
  price_on(m);
  std::vector<UpdateState::Value> touched;
  for (const CellChange& c : changed) {
    const RoadmapBox cell(RoadmapPoint(c.x, c.y), RoadmapPoint(c.x + 1.0, c.y + 1.0));
    update_->boxes.query(bgi::intersects(cell), std::back_inserter(touched));
  }
  for (const auto& [box, i] : touched) {
    Candidate& e = candidates_[i];
    e.valid = free_->segment_valid(pos_[e.a], pos_[e.b]);
  }
  layout();
  return true;
}

}  // namespace navbench
