// Per-block candidate lists for attaching a query point on a grid map (issue 15: a "per-region
// precomputed candidate list", trading build time and memory for query time). The map is cut
// into B x B cell blocks; a block's
// list holds every node that some free point of the block may see with the line tangent at the
// node (built from each node's tangent sweep, GridFov::region_tangent: a superset). A query then
// filters its block's list by the tangency rule (two sign tests) and proves visibility with an
// exact segment test, so the attachment is exactly the sweep's (tests/test_visgraph.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "geometry/free_space.hpp"
#include "representations/visgraph/grid_fov.hpp"

namespace navbench {

class BlockCandidates {
 public:
  BlockCandidates() = default;
  // block: the side B of a block in cells (>= 1).
  BlockCandidates(const GridFov& fov, const std::vector<ConvexCorner>& nodes, int width, int height, int block);

  bool empty() const { return offsets_.empty(); }
  // The candidate nodes of the block holding the free point p: [first, last).
  std::pair<const std::uint32_t*, const std::uint32_t*> candidates(Point p) const;
  std::size_t memory_bytes() const { return offsets_.capacity() * 4 + ids_.capacity() * 4; }
  // Mean list length over blocks (for the benchmark's notes).
  double mean_candidates() const { return nbx_ * nby_ ? double(ids_.size()) / double(nbx_ * nby_) : 0.0; }

 private:
  int W = 0, H = 0, B = 1, nbx_ = 0, nby_ = 0;
  std::vector<std::uint32_t> offsets_;  // per block, CSR into ids_
  std::vector<std::uint32_t> ids_;      // node ids, ascending within a block
};

}  // namespace navbench
