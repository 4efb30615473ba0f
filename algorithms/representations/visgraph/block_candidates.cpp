#include "representations/visgraph/block_candidates.hpp"

#include <algorithm>
#include <cmath>

namespace navbench {

BlockCandidates::BlockCandidates(const GridFov& fov, const std::vector<ConvexCorner>& nodes, int width, int height,
                                 int block)
    : W(width), H(height), B(std::max(block, 1)) {
  if (W <= 0 || H <= 0) return;
  nbx_ = (W + B - 1) / B;
  nby_ = (H + B - 1) / B;
  const std::size_t nblocks = std::size_t(nbx_) * std::size_t(nby_);
  // Pass 1: for each node, the blocks its tangent region touches (each once, by a stamp), counted;
  // pass 2 fills. Spans are kept per node between the passes only as block ids.
  std::vector<std::uint32_t> stamp(nblocks, 0);
  std::vector<std::uint32_t> count(nblocks + 1, 0);
  std::vector<std::vector<std::uint32_t>> touched(nodes.size());
  std::vector<GridFov::Span> spans;
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    const ConvexCorner& c = nodes[i];
    const int qx = c.before.x + c.after.x > 2 * c.at.x ? 1 : -1;
    const int qy = c.before.y + c.after.y > 2 * c.at.y ? 1 : -1;
    spans.clear();
    fov.region_tangent(c.at, qx, qy, spans);
    // Each span also covers the rows beside it: a point on the grid line where a half's sweep
    // starts lies in that half's first band but is looked up in the row on the line's other side.
    for (const GridFov::Span& s : spans)
      for (int by = std::max(s.row - 1, 0) / B; by <= std::min(s.row + 1, H - 1) / B; ++by)
        for (int bx = s.x0 / B; bx <= s.x1 / B; ++bx) {
          const std::size_t b = std::size_t(by) * std::size_t(nbx_) + std::size_t(bx);
          if (stamp[b] == i + 1) continue;
          stamp[b] = i + 1;
          touched[i].push_back(std::uint32_t(b));
          ++count[b + 1];
        }
  }
  offsets_.assign(nblocks + 1, 0);
  for (std::size_t b = 0; b < nblocks; ++b) offsets_[b + 1] = offsets_[b] + count[b + 1];
  ids_.resize(offsets_.back());
  std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (std::uint32_t i = 0; i < nodes.size(); ++i)  // ascending node ids within each block
    for (std::uint32_t b : touched[i]) ids_[fill[b]++] = i;
}

std::pair<const std::uint32_t*, const std::uint32_t*> BlockCandidates::candidates(Point p) const {
  // The cell whose closed square holds p at its low corner; the map's far border lines belong to
  // the last row / column (region_tangent covers a point on a line between rows in both rows).
  const int cx = std::clamp(int(std::floor(p.x)), 0, W - 1), cy = std::clamp(int(std::floor(p.y)), 0, H - 1);
  const std::size_t b = std::size_t(cy / B) * std::size_t(nbx_) + std::size_t(cx / B);
  return {ids_.data() + offsets_[b], ids_.data() + offsets_[b + 1]};
}

}  // namespace navbench
