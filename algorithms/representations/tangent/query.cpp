// The tangent graph representation's queries (tangent.hpp): attaching start and goal, the direct path,
// the polyline of a path, statistics.
#include "representations/tangent/tangent.hpp"


#include <algorithm>
#include <atomic>
#include <iterator>
#include <cmath>
#include <stdexcept>

namespace navbench {

bool TangentRepresentation::candidate_circles(Point q, std::vector<std::int32_t>& out) const {
  out.clear();
  if (!grid_) return false;
  if (!blocks_.empty()) {
    // The block's entries (corner ids ascending, so their circle ids too), less those whose
    // region misses q's cell and those q surely does not see (as visgraph's attach: proven
    // entries need no test; the test's `unknown` keeps the entry).
    const auto& corners = free_->convex_corners();
    blocks_.for_each(q, los_.is_pinch(q), [&](std::uint32_t k, bool seen) {
      const std::int32_t ci = tangent_->circle_of_corner(k);
      if (ci >= 0 && (seen || los_.test_to_corner(q, corners[k].at) != GridLos::blocked)) out.push_back(ci);
    });
    return true;
  }
  thread_local std::vector<std::uint32_t> sure, maybe;
  sure.clear();
  maybe.clear();
  fov_.scan(q, sure, maybe);
  for (const auto* list : {&sure, &maybe})
    for (std::uint32_t k : *list)
      if (const std::int32_t ci = tangent_->circle_of_corner(k); ci >= 0) out.push_back(ci);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return true;
}

const std::vector<std::int32_t>* TangentRepresentation::circles_seen(Point q) const {
  if (!grid_) return nullptr;
  // One query asks for the same point's circles several times (attach_start, attach_goal, then
  // direct and direct_cost for both ends): the last two points' lists are kept per thread, keyed
  // by this build's serial number (an address may be reused by a later build) and the point.
  struct Slot {
    std::uint64_t build = 0;
    Point p;
    std::vector<std::int32_t> circles;
  };
  thread_local Slot slots[2];
  thread_local int next = 0;
  for (Slot& sl : slots)
    if (sl.build == serial_ && sl.p == q) return &sl.circles;
  Slot& sl = slots[next];
  next ^= 1;
  sl.build = serial_;
  sl.p = q;
  candidate_circles(q, sl.circles);
  return &sl.circles;
}

namespace {
std::optional<Attachment> attachment(const std::vector<TangentGraph::Join>& joins, std::int32_t component) {
  Attachment a;
  a.component = component;
  for (const auto& j : joins) a.links.push_back({Vertex(j.node), j.cost});
  return a;
}
}  // namespace

std::optional<Attachment> TangentRepresentation::attach_start(Point p) const {
  if (!rv_->point_clear(p, R_)) return std::nullopt;
  return attachment(tangent_->join_start(p, circles_seen(p)), free_->component(p));
}

std::optional<Attachment> TangentRepresentation::attach_goal(Point p) const {
  if (!rv_->point_clear(p, R_)) return std::nullopt;
  return attachment(tangent_->join_goal(p, circles_seen(p), true), free_->component(p));
}

std::optional<DiscPath> TangentRepresentation::direct_path(const Query& q) const {
  // Asked for up to three times per query (direct, direct_cost, disc_items): the last answer is
  // kept per thread, keyed like circles_seen's lists.
  struct Last {
    std::uint64_t build = 0;
    Point s, g;
    std::optional<DiscPath> path;
  };
  thread_local Last last;
  if (last.build == serial_ && last.s == q.start && last.g == q.goal) return last.path;
  last.build = 0;
  last.path = find_direct_path(q);
  last.build = serial_;
  last.s = q.start;
  last.g = q.goal;
  return last.path;
}

std::optional<DiscPath> TangentRepresentation::find_direct_path(const Query& q) const {
  // A one-arc path leaves s and reaches g by clear tangents of one circle: the circle of a corner
  // both ends see (see tangent.hpp).
  const std::vector<std::int32_t>* cs = circles_seen(q.start);
  if (!cs) return tangent_->direct_path(q.start, q.goal);
  const std::vector<std::int32_t> from_start = *cs;  // copied: the goal's look-up may evict it
  const std::vector<std::int32_t>* cg = circles_seen(q.goal);
  thread_local std::vector<std::int32_t> both;
  both.clear();
  std::set_intersection(from_start.begin(), from_start.end(), cg->begin(), cg->end(), std::back_inserter(both));
  return tangent_->direct_path(q.start, q.goal, &both);
}

bool TangentRepresentation::direct(const Query& q) const { return direct_path(q).has_value(); }

double TangentRepresentation::direct_cost(const Query& q) const {
  const auto d = direct_path(q);
  return d ? d->length : std::numeric_limits<double>::infinity();
}

std::vector<PathItem> TangentRepresentation::disc_items(const Query& q) const {
  if (q.path.empty()) {
    auto d = direct_path(q);
    return d ? d->items : std::vector<PathItem>{};
  }
  // The joins of the path's end vertices are those of their circles (one per circle and sense).
  const std::vector<std::int32_t> cs{tangent_->node(std::int32_t(q.path.front())).circle},
      cg{tangent_->node(std::int32_t(q.path.back())).circle};
  std::vector<PathItem> out{{q.start, false}};
  std::int32_t arc_circle = -1;  // circle of the arc that ends `out` (consecutive arcs merge)
  auto segment_to = [&](Point p) {
    arc_circle = -1;
    if (p != out.back().p) out.push_back({p, false});
  };
  auto arc_to = [&](std::int32_t circle, Point p) {
    if (p == out.back().p) return;
    if (arc_circle == circle) {
      out.back().p = p;
      return;
    }
    out.push_back({tangent_->circle_centre(circle), true});
    out.push_back({p, false});
    arc_circle = circle;
  };
  // The start's join to the first vertex (one per vertex: a vertex lies on one circle, one sense).
  const auto node_at = [&](std::size_t k) { return std::int32_t(q.path[k]); };
  const auto first = tangent_->node(node_at(0));
  for (const auto& j : tangent_->join_start(q.start, &cs))
    if (j.node == node_at(0)) {
      segment_to(j.t);
      arc_to(first.circle, first.p);
      break;
    }
  for (std::size_t k = 1; k < q.path.size(); ++k) {
    const auto u = tangent_->node(node_at(k - 1));
    const auto v = tangent_->node(node_at(k));
    if (u.seg_to == node_at(k)) segment_to(v.p);
    else arc_to(v.circle, v.p);
  }
  const auto last = tangent_->node(node_at(q.path.size() - 1));
  for (const auto& j : tangent_->join_goal(q.goal, &cg, true))
    if (j.node == node_at(q.path.size() - 1)) {
      arc_to(last.circle, j.t);
      segment_to(q.goal);
      break;
    }
  return out;
}

Polyline TangentRepresentation::polyline(const Query& q) const {
  Polyline out;
  for (const PathItem& it : disc_items(q))
    if (!it.arc_centre) out.push_back(it.p);
  return out;
}

BuildStats TangentRepresentation::stats() const {
  BuildStats b;
  b.vertices = num_vertices(graph_);
  b.edges = graph_.num_edges();
  b.memory_bytes = graph_.memory_bytes() + tangent_->vertex_count() * sizeof(TangentGraph::NodeView) +
                   fov_.memory_bytes() + blocks_.memory_bytes() + los_.memory_bytes() + landmarks_.memory_bytes();
  return b;
}

}  // namespace navbench
