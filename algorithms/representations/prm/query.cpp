// The roadmap's queries: the neighbours of a point from the rtree, a query point's links, and why a
// query found no path.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <set>

#include "geometry/free_space.hpp"
#include "representations/prm/internal.hpp"

namespace navbench {

// prm: the k nearest samples (k + 1 asked of a sample, itself dropped); prm-star: every sample
// within the radius (with at most one sample, no radius: that sample). Sorted by distance, then by id, so ties fall the same way every time.
std::vector<Vertex> Roadmap::neighbours(Point p, std::int64_t self) const {
  const RoadmapPoint q(p.x, p.y);
  std::vector<Index::Value> found;
  if (settings_.gamma_scale > 0 && radius_ == 0) {  // prm-star on at most one sample: no radius, that sample
    index_->tree.query(bgi::satisfies([](const Index::Value&) { return true; }), std::back_inserter(found));
  } else if (radius_ > 0) {
    const RoadmapBox box(RoadmapPoint(p.x - radius_, p.y - radius_), RoadmapPoint(p.x + radius_, p.y + radius_));
    const double r2 = radius_ * radius_;
    index_->tree.query(bgi::intersects(box) && bgi::satisfies([&](const Index::Value& v) {
                         const double dx = v.first.get<0>() - p.x, dy = v.first.get<1>() - p.y;
                         return dx * dx + dy * dy <= r2;
                       }),
                       std::back_inserter(found));
  } else {
    index_->tree.query(bgi::nearest(q, unsigned(settings_.k + (self >= 0))), std::back_inserter(found));
  }
  std::vector<std::pair<double, Vertex>> by_distance;
  for (const Index::Value& v : found)
    if (std::int64_t(v.second) != self) by_distance.emplace_back(distance(p, pos_[v.second]), v.second);
  std::sort(by_distance.begin(), by_distance.end());
  if (settings_.gamma_scale == 0 && by_distance.size() > settings_.k) by_distance.resize(settings_.k);
  std::vector<Vertex> out;
  out.reserve(by_distance.size());
  for (const auto& [d, v] : by_distance) out.push_back(v);
  return out;
}

std::optional<Attachment> Roadmap::attach(Point p) const {
  Attachment a;
  for (Vertex v : neighbours(p, -1))
    if (free_->segment_valid(p, pos_[v])) a.links.push_back({v, segment_cost(p, pos_[v])});
  return a;
}

bool Roadmap::direct(const Query& q) const { return free_->segment_valid(q.start, q.goal); }

std::string Roadmap::miss_reason(const Query& q) const {
  char how[96];
  if (settings_.gamma_scale > 0) std::snprintf(how, sizeof how, "no sample within the radius %.3g sees it", radius_);
  else std::snprintf(how, sizeof how, "none of its %zu nearest samples sees it", settings_.k);
  const std::string of = " (" + std::string(how) + "; " + std::to_string(pos_.size()) + " samples)";
  if (q.s.links.empty()) return "no sample connects the start" + of;
  if (q.g.links.empty()) return "no sample connects the goal" + of;
  std::set<std::int32_t> from;
  for (const Link& l : q.s.links) from.insert(component_[l.vertex]);
  for (const Link& l : q.g.links)
    if (from.count(component_[l.vertex])) return "the roadmap joins start and goal, yet no path was found";
  std::set<std::int32_t> all(component_.begin(), component_.end());
  return "start and goal join different roadmap components (" + std::to_string(all.size()) + " components of " +
         std::to_string(pos_.size()) + " samples)";
}

}  // namespace navbench
