#include "representations/tangent/tangent.hpp"

#include <cmath>
#include <stdexcept>

namespace navbench {

TangentRepresentation::TangentRepresentation(const Map& map, double R) : R_(R) {
  if (!(R_ > kRadiusTolerance) || !std::isfinite(R_)) throw std::invalid_argument("the tangent graph needs radius > 1e-9");
  free_ = std::make_unique<FreeSpace>(map);
  rv_ = std::make_unique<RadiusValidity>(*free_);
  tangent_ = std::make_unique<TangentGraph>(*free_, *rv_, R_);
  // Every node has at most one leaving segment and one leaving arc: a directed CSR graph.
  const std::size_t n = tangent_->vertex_count();
  std::vector<std::uint32_t> begin(n + 1, 0);
  std::vector<Vertex> targets;
  std::vector<double> weights;
  for (std::size_t i = 0; i < n; ++i) {
    const auto nd = tangent_->node(std::int32_t(i));
    if (nd.seg_to >= 0) targets.push_back(Vertex(nd.seg_to)), weights.push_back(nd.seg_len);
    if (nd.arc_to >= 0 && nd.arc_to != nd.seg_to) targets.push_back(Vertex(nd.arc_to)), weights.push_back(nd.arc_len);
    begin[i + 1] = std::uint32_t(targets.size());
  }
  graph_ = CsrGraph(std::move(begin), std::move(targets), std::move(weights));
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
  return attachment(tangent_->join_start(p), free_->component(p));
}

std::optional<Attachment> TangentRepresentation::attach_goal(Point p) const {
  if (!rv_->point_clear(p, R_)) return std::nullopt;
  return attachment(tangent_->join_goal(p), free_->component(p));
}

double TangentRepresentation::direct_cost(const Query& q) const {
  const auto d = tangent_->direct_path(q.start, q.goal);
  return d ? d->length : std::numeric_limits<double>::infinity();
}

std::vector<PathItem> TangentRepresentation::disc_items(const Query& q) const {
  if (q.path.empty()) {
    auto d = tangent_->direct_path(q.start, q.goal);
    return d ? d->items : std::vector<PathItem>{};
  }
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
  const auto first = tangent_->node(std::int32_t(q.path.front()));
  for (const auto& j : tangent_->join_start(q.start))
    if (Vertex(j.node) == q.path.front()) {
      segment_to(j.t);
      arc_to(first.circle, first.p);
      break;
    }
  for (std::size_t k = 1; k < q.path.size(); ++k) {
    const auto u = tangent_->node(std::int32_t(q.path[k - 1]));
    const auto v = tangent_->node(std::int32_t(q.path[k]));
    if (u.seg_to == std::int32_t(q.path[k])) segment_to(v.p);
    else arc_to(v.circle, v.p);
  }
  const auto last = tangent_->node(std::int32_t(q.path.back()));
  for (const auto& j : tangent_->join_goal(q.goal))
    if (Vertex(j.node) == q.path.back()) {
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
  b.memory_bytes = graph_.memory_bytes() + tangent_->vertex_count() * sizeof(TangentGraph::NodeView);
  return b;
}

}  // namespace navbench
