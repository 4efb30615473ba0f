// Per-block candidate lists for attaching a query point on a grid map (a "per-region
// precomputed candidate list", trading build time and memory for query time). The map is cut
// into B x B cell blocks; a block's list holds every node that some free point of the block may
// see with the line tangent at the node (built from each node's tangent sweep,
// GridFov::scan_tangent's spans: a superset). A query filters its block's list by the tangency rule
// (two sign tests) and proves visibility with an exact segment test, so the attachment is
// exactly the sweep's (tests/test_visgraph.cpp). The test is skipped when visibility is proven
// at build time: an entry is marked `sure` when the whole block sees the node (the convex hull of
// the node and the block's square holds no blocked cell interior and no pinch point), and with
// B <= 4 each entry has a mask of the block's cells that see the node at every point (the node's
// sweep proves it, GridFov::Span::sure), and a mask of the cells that may see it at all.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/free_space.hpp"
#include "representations/visgraph/grid_fov.hpp"

namespace navbench {

class BlockCandidates {
 public:
  BlockCandidates() = default;
  // block: the side B of a block in cells (>= 1).
  // node_spans: per node, the spans of GridFov::scan_tangent (sure spans included).
  BlockCandidates(const GridMap& grid, const std::vector<ConvexCorner>& nodes, int block,
                  const std::vector<std::vector<GridFov::Span>>& node_spans);
  // After the map's cells changed (VisGraph::update): `old`'s lists with the nodes not swept again
  // carried over (old ids mapped by old_to_new, -1: gone), and the swept ones (`swept`, per new
  // node; their spans in node_spans) added. Equals the lists built from every node's spans when
  // every node with a changed cell within a cell of its spans is swept (block_candidates.cpp).
  // swept[i] == 2: node i was swept only in some directions (VisGraph::sweep_toward_change): its
  // entries in the blocks redo[i] (ascending) are made from its spans, its others carried over.
  BlockCandidates(const BlockCandidates& old, const GridMap& grid, const std::vector<ConvexCorner>& nodes,
                  const std::vector<std::vector<GridFov::Span>>& node_spans, const std::vector<std::int32_t>& old_to_new,
                  const std::vector<std::uint8_t>& swept, const std::vector<CellChange>& changed,
                  const std::vector<std::vector<std::uint32_t>>& redo = {});
  static constexpr std::uint32_t kSure = 0x80000000u;  // flag bit of an entry: the block sees the node

  bool empty() const { return offsets_.empty(); }
  // The candidate entries of the block holding the free point p: [first, last), each a node id,
  // with kSure set when every point of the block sees that node.
  std::pair<const std::uint32_t*, const std::uint32_t*> candidates(Point p) const;
  // The per-entry cell masks (nullptr when B > 4), parallel to the entries, and the bit of p's cell.
  const std::uint16_t* masks(Point p) const {
    return masks_.empty() ? nullptr : masks_.data() + offsets_[block_of(p)];
  }
  // The same for the cells that may see the node (the region at cell, not block, resolution):
  // a candidate whose bit is clear for p's cell is not visible from p.
  const std::uint16_t* maybe_masks(Point p) const {
    return maybe_.empty() ? nullptr : maybe_.data() + offsets_[block_of(p)];
  }
  // Calls f(id, seen) for each node of p's block whose region holds p's cell, seen = proven
  // visible from p (the block sees it, or p's cell does by its mask; cell masks are not used when
  // pinch: a pinch point has its own sector rule). The caller tests the rest exactly.
  template <class F>
  void for_each(Point p, bool pinch, F&& f) const {
    const auto [first, end] = candidates(p);
    const std::uint16_t* mask = pinch ? nullptr : masks(p);
    const std::uint16_t* maybe = maybe_masks(p);
    const std::uint16_t bit = cell_bit(p);
    for (const std::uint32_t* it = first; it != end; ++it) {
      if (maybe && !(maybe[it - first] & bit)) continue;  // p's cell is outside the node's region
      f(*it & ~kSure, (*it & kSure) || (mask && (mask[it - first] & bit)));
    }
  }
  // 0 when B > 4 (no masks then: a 16-bit mask holds the cells of a block up to 4 x 4).
  std::uint16_t cell_bit(Point p) const {
    if (B > 4) return 0;
    const int cx = std::clamp(int(std::floor(p.x)), 0, W - 1), cy = std::clamp(int(std::floor(p.y)), 0, H - 1);
    return std::uint16_t(1u << ((cy % B) * B + cx % B));
  }
  std::size_t memory_bytes() const {
    return offsets_.capacity() * 4 + ids_.capacity() * 4 + (masks_.capacity() + maybe_.capacity() + free_mask_.capacity()) * 2;
  }
  // Mean list length over blocks, and the share of entries marked sure.
  double mean_candidates() const { return nbx_ > 0 && nby_ > 0 ? double(ids_.size()) / double(nbx_ * nby_) : 0.0; }
  double sure_share() const;
  double mask_share() const;  // entries whose cell mask is not empty
  bool operator==(const BlockCandidates&) const = default;  // the same lists, flags and masks (tests)

 private:
  int W = 0, H = 0, B = 1, nbx_ = 0, nby_ = 0;
  std::vector<std::uint32_t> offsets_;  // per block, CSR into ids_
  std::vector<std::uint32_t> ids_;      // node ids, ascending within a block (| kSure)
  std::vector<std::uint16_t> masks_;    // per entry, B <= 4: cells of the block that surely see it
  std::vector<std::uint16_t> maybe_;    // per entry, B <= 4: cells of the block that may see it
  std::vector<std::uint16_t> free_mask_;  // per block, B <= 4: its free cells
  void build(const BlockCandidates* old, const GridMap& grid, const std::vector<ConvexCorner>& nodes,
             const std::vector<std::vector<GridFov::Span>>& node_spans, const std::vector<std::int32_t>& old_to_new,
             const std::vector<std::uint8_t>& swept, const std::vector<CellChange>& changed,
             const std::vector<std::vector<std::uint32_t>>& redo);
  // build()'s two ways (block_candidates.cpp): every node's entries, or the old lists after a change.
  struct Builder;
  struct ChangeRects;
  struct Entry {  // merge_changed's: a swept node's entry of a block
    std::uint32_t block, id;
    std::uint16_t mask, maybe;
  };
  void fill_all(Builder& bd);
  void swept_entries(Builder& bd, const BlockCandidates& old, const std::vector<std::int32_t>& old_to_new,
                     const std::vector<std::uint8_t>& swept, const std::vector<CellChange>& changed,
                     const std::vector<std::vector<std::uint32_t>>& redo, std::vector<std::uint32_t>& first,
                     std::vector<Entry>& by_block) const;
  bool meets_change(const ChangeRects& rects, const ConvexCorner& node, std::size_t b) const;
  void merge_changed(Builder& bd, const BlockCandidates& prev, const std::vector<std::int32_t>& old_to_new,
                     const std::vector<std::uint8_t>& swept, const std::vector<CellChange>& changed,
                     const std::vector<std::vector<std::uint32_t>>& redo);
  std::size_t block_of(Point p) const {
    const int cx = std::clamp(int(std::floor(p.x)), 0, W - 1), cy = std::clamp(int(std::floor(p.y)), 0, H - 1);
    return std::size_t(cy / B) * std::size_t(nbx_) + std::size_t(cx / B);
  }
};

}  // namespace navbench
