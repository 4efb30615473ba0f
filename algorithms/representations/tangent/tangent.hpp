// visgraph for a disc agent of radius R > 0 (docs/radius.md): the tangent graph (Chew 1985; Liu & Arimoto
// 1992; geometry/tangent_graph.hpp) as a representation, so that the shared A* searches it like any
// other graph. Vertices are tangent points with a wrap sense, edges bitangent segments and arcs;
// start and goal join by their tangents (TangentGraph::join_start / join_goal), and the direct link
// is the best path touching no vertex (TangentGraph::direct_path). Its paths carry arcs
// (disc_items), are optimal, and keep clearance R by construction.
//
// Not in the registry under its own name: visgraph's entry declares it as its exact disc structure
// (with_disc in harness/registry/), built when R > 0 (the visibility graph is the tangent graph with R = 0).
#pragma once
#include <memory>

#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "geometry/tangent_graph.hpp"
#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/representation.hpp"

namespace navbench {

class TangentRepresentation : public BuiltGraph<CsrGraph> {
 public:
  // The disc of radius R > 1e-9 (finite). Builds its own free space, clearance and tangent graph.
  TangentRepresentation(const Map& map, double R);

  Point position(Vertex v) const { return tangent_->node(std::int32_t(v)).p; }
  std::optional<Attachment> attach(Point p) const { return attach_start(p); }
  std::optional<Attachment> attach_start(Point p) const;
  std::optional<Attachment> attach_goal(Point p) const;
  bool direct(const Query& q) const { return tangent_->direct_path(q.start, q.goal).has_value(); }
  double direct_cost(const Query& q) const;
  Polyline polyline(const Query& q) const;
  std::vector<PathItem> disc_items(const Query& q) const;
  BuildStats stats() const;

 private:
  std::unique_ptr<FreeSpace> free_;
  std::unique_ptr<RadiusValidity> rv_;
  std::unique_ptr<TangentGraph> tangent_;
  double R_ = 0;
};

}  // namespace navbench
