// The attach of a polygon map's query points, precomputed: per point of its lattice (the integer
// points of the map's box and the centres of its unit squares: the query points of a mesh made
// from a grid map, Polyanya's meshes among them, in both conventions) the convex corners it sees
// with the line tangent there, each list exactly what the triangular expansion gives at query
// time (seen()). A query at such a point reads its list instead of expanding the free space's
// triangulation; any other point expands as before. The polygon counterpart of the grid maps'
// per-block candidate lists (block_candidates.hpp); region-labels builds its point labels from the
// same seen() (representations/region_labels).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "geometry/free_space.hpp"

namespace navbench {

class PointLists {
 public:
  PointLists() = default;
  // The lists of every lattice point and centre of [min, max] (floored and ceiled to integers),
  // built on `threads` threads (the same lists on any number).
  PointLists(const FreeSpace& fs, Point min, Point max, int threads = 1);
  // The corners free point p sees, tangent there (the triangular expansion, FreeSpace::visible_corners,
  // or without a triangulation the exact test against every corner of p's component), ascending, into out.
  static void seen(const FreeSpace& fs, Point p, std::vector<std::uint32_t>& out);
  // The lattice's unit cells for a box.
  static std::size_t cells(Point min, Point max);

  bool empty() const { return off_.empty(); }
  // p's list when p is a lattice point or centre of the box (empty for a point that is not free).
  std::optional<std::span<const std::uint32_t>> find(Point p) const {
    const std::int64_t id = point_id(p);
    if (id < 0) return std::nullopt;
    return std::span<const std::uint32_t>(ids_.data() + off_[std::size_t(id)], off_[std::size_t(id) + 1] - off_[std::size_t(id)]);
  }
  std::size_t memory_bytes() const { return (off_.capacity() + ids_.capacity()) * 4; }

 private:
  std::int64_t point_id(Point p) const;
  double ox_ = 0, oy_ = 0;
  int W_ = 0, H_ = 0;
  std::vector<std::uint32_t> off_, ids_;  // per point id (lattice points y * (W + 1) + x, then centres): its corners
};

}  // namespace navbench
