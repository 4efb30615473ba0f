// What build.cpp, query.cpp and update.cpp of the visibility graph share.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "geometry/exact.hpp"
#include "representations/visgraph/visgraph.hpp"

namespace navbench {

namespace visgraph_detail {

// The line through corner c and the point `other` is tangent at c: c's two neighbouring boundary
// points lie on one side of it, or on it.
inline bool tangent_at(const ConvexCorner& c, Point other) {
  if (other == c.at) return true;
  return exact::orient2d(other, c.at, c.before) * exact::orient2d(other, c.at, c.after) >= 0;
}

}  // namespace visgraph_detail

// The build's settings of the all-pairs table and of the block lists (build.cpp); an update
// keeps the graph only while they stay as built.
bool table_setting(Params& params, std::size_t corners);
int block_setting(Params& params, const Map& map, std::size_t corners);

template <class Take>
void VisGraph::scan_node(std::uint32_t i, ScanScratch& t, bool with_sure, Take take,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined, const GridFov::Directions* within) const {
  const auto& c = corners();
  t.sure.clear();
  t.maybe.clear();
  t.spans.clear();
  // Only the directions tangent at c[i]: the quadrants beside its blocked cell.
  const int qx = c[i].before.x + c[i].after.x > 2 * c[i].at.x ? 1 : -1;
  const int qy = c[i].before.y + c[i].after.y > 2 * c[i].at.y ? 1 : -1;
  fov_.scan_tangent(c[i].at, qx, qy, t.sure, t.maybe, t.want_spans ? &t.spans : nullptr, with_sure, within);
  std::sort(t.sure.begin(), t.sure.end());
  t.sure.erase(std::unique(t.sure.begin(), t.sure.end()), t.sure.end());
  std::sort(t.maybe.begin(), t.maybe.end());
  t.maybe.erase(std::unique(t.maybe.begin(), t.maybe.end()), t.maybe.end());
  for (std::uint32_t j : t.sure)
    if (take(j) && visgraph_detail::tangent_at(c[i], c[j].at) && visgraph_detail::tangent_at(c[j], c[i].at)) joined.push_back({i, j});
  for (std::uint32_t j : t.maybe)
    if (take(j) && !std::binary_search(t.sure.begin(), t.sure.end(), j) && visgraph_detail::tangent_at(c[i], c[j].at) &&
        visgraph_detail::tangent_at(c[j], c[i].at) && fs_.segment_valid(c[i].at, c[j].at))
      joined.push_back({i, j});
}

}  // namespace navbench
