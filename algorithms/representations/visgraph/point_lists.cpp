// The precomputed attach of a polygon map's lattice points (point_lists.hpp).
#include "representations/visgraph/point_lists.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "geometry/exact.hpp"

namespace navbench {

namespace {
// The line through corner c and `other` is tangent at c (visgraph_detail::tangent_at).
bool tangent_here(const ConvexCorner& c, Point other) {
  if (other == c.at) return true;
  return exact::orient2d(other, c.at, c.before) * exact::orient2d(other, c.at, c.after) >= 0;
}
}  // namespace

void PointLists::seen(const FreeSpace& fs, Point p, std::vector<std::uint32_t>& out) {
  const auto& c = fs.convex_corners();
  if (!fs.visible_corners(p, out)) {
    out.clear();
    const std::int32_t comp = fs.component(p);
    for (std::uint32_t j = 0; j < c.size(); ++j)
      if (c[j].component == comp && fs.segment_valid(p, c[j].at)) out.push_back(j);
  }
  out.erase(std::remove_if(out.begin(), out.end(), [&](std::uint32_t j) { return !tangent_here(c[j], p); }), out.end());
}

std::size_t PointLists::cells(Point min, Point max) {
  return std::size_t((std::ceil(max.x) - std::floor(min.x)) * (std::ceil(max.y) - std::floor(min.y)));
}

std::int64_t PointLists::point_id(Point p) const {
  p.x -= ox_, p.y -= oy_;
  if (!(p.x >= 0 && p.y >= 0 && p.x <= W_ && p.y <= H_) || off_.empty()) return -1;
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  if (p.x == fx && p.y == fy) return std::int64_t(fy) * (W_ + 1) + std::int64_t(fx);
  if (p.x - fx == 0.5 && p.y - fy == 0.5) return std::int64_t(W_ + 1) * (H_ + 1) + std::int64_t(fy) * W_ + std::int64_t(fx);
  return -1;
}

PointLists::PointLists(const FreeSpace& fs, Point min, Point max, int threads)
    : ox_(std::floor(min.x)), oy_(std::floor(min.y)), W_(int(std::ceil(max.x) - std::floor(min.x))), H_(int(std::ceil(max.y) - std::floor(min.y))) {
  const std::size_t lattice = std::size_t(W_ + 1) * std::size_t(H_ + 1), n = lattice + std::size_t(W_) * std::size_t(H_);
  // Runs of consecutive points, a run at a time per thread, appended in order.
  constexpr std::size_t kRun = 1024;
  const std::size_t runs = (n + kRun - 1) / kRun;
  std::vector<std::vector<std::uint32_t>> lists(runs), sizes(runs);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    std::vector<std::uint32_t> seen_here;
    for (std::size_t u; (u = next.fetch_add(1)) < runs;)
      for (std::size_t id = u * kRun; id < std::min(n, (u + 1) * kRun); ++id) {
        const Point p = id < lattice ? Point{ox_ + double(id % std::size_t(W_ + 1)), oy_ + double(id / std::size_t(W_ + 1))}
                                     : Point{ox_ + double((id - lattice) % std::size_t(W_)) + 0.5, oy_ + double((id - lattice) / std::size_t(W_)) + 0.5};
        seen_here.clear();
        if (fs.point_free(p)) seen(fs, p, seen_here);
        lists[u].insert(lists[u].end(), seen_here.begin(), seen_here.end());
        sizes[u].push_back(std::uint32_t(seen_here.size()));
      }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  off_.assign(n + 1, 0);
  std::size_t total = 0;
  for (const auto& l : lists) total += l.size();
  ids_.reserve(total);
  std::size_t id = 0;
  for (std::size_t u = 0; u < runs; ++u) {
    ids_.insert(ids_.end(), lists[u].begin(), lists[u].end());
    for (std::uint32_t s : sizes[u]) off_[id + 1] = off_[id] + s, ++id;
    std::vector<std::uint32_t>().swap(lists[u]);
  }
}

}  // namespace navbench
