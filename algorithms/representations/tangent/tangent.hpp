// visgraph for a disc agent of radius R > 0 (docs/radius.md): the tangent graph (Chew 1985; Liu & Arimoto
// 1992; geometry/tangent_graph.hpp) as a representation, so that the shared A* searches it like any
// other graph. Vertices are tangent points with a wrap sense, edges bitangent segments and arcs;
// start and goal join by their tangents (TangentGraph::join_start / join_goal), and the direct link
// is the best path touching no vertex (TangentGraph::direct_path). Its paths carry arcs
// (disc_items), are optimal, and keep clearance R by construction.
//
// Speed-ups that keep it exact:
// - On grid maps a query point is tried only against the circles of the convex corners it sees
//   (the point visgraph's angular sweep, representations/visgraph/grid_fov.hpp), not against every
//   circle of its component. Why that loses nothing: let t be a tangent point on the circle of
//   corner c reached from q by a segment that keeps clearance R (so every obstacle point lies at
//   distance >= R - 1e-9 from segment q-t). c - t is perpendicular to q-t with |c - t| = R, so the
//   point x = q + l (c - q) (0 <= l <= 1) lies within l R of segment q-t, hence at distance
//   >= (1 - l) R - 1e-9 > 0 from every obstacle for l < 1 - 1e-9 / R; the rest of the segment lies
//   within ~1e-6 of c, where the only obstacle is c's own blocked cell, which a segment ending at
//   its corner from outside cannot enter. So q sees c (FreeSpace::segment_valid), and the sweep
//   reports every corner q sees (as sure or maybe). The exact tests of TangentGraph then run on
//   these circles only: the joins are the same as over every circle.
// - The corners a point sees come from a per-block list built once (block_candidates.hpp over
//   each corner's GridFov::region, visibility being symmetric): it holds every corner the point
//   sees (tests/test_tangent_graph.cpp), which is all the argument above needs, so the joins stay the same; a query then costs no sweep, only the exact
//   integer line-of-sight test (grid_los.hpp) on the entries not proven visible at build time,
//   which drops the corners the point does not see before their costlier clearance tests.
// - ALT landmarks over the tangent graph's vertices (Goldberg & Harrelson, "Computing the
//   Shortest Path: A* Search Meets Graph Theory", SODA 2005; representations/landmarks.hpp), which
//   the shared A* uses as an admissible, consistent heuristic beside the Euclidean distance. The
//   graph is directed (a vertex is a tangent point with a wrap sense); the landmark distances are
//   those of its symmetric closure, a lower bound that stays consistent (build_landmarks).
//
// Not in the registry under its own name: visgraph's entry declares it as its exact disc structure
// (make_entry<VisGraph, TangentRepresentation> in harness/registry/), built when R > 0 (the
// visibility graph is the tangent graph with R = 0).
#pragma once
#include <memory>

#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "geometry/tangent_graph.hpp"
#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/landmarks.hpp"
#include "representations/representation.hpp"
#include "representations/visgraph/block_candidates.hpp"
#include "representations/visgraph/grid_fov.hpp"
#include "representations/visgraph/grid_los.hpp"

namespace navbench {

class TangentRepresentation : public BuiltGraph<CsrGraph> {
 public:
  // The disc of radius R > 1e-9 (finite). Builds its own free space, clearance and tangent graph.
  TangentRepresentation(const Map& map, double R);

  // Landmarks per build (ALT); 0 turns them off.
  static constexpr std::size_t kLandmarks = 16;

  Point position(Vertex v) const { return tangent_->node(std::int32_t(v)).p; }
  std::optional<Attachment> attach(Point p) const { return attach_start(p); }
  std::optional<Attachment> attach_start(Point p) const;
  std::optional<Attachment> attach_goal(Point p) const;
  bool direct(const Query& q) const;
  double direct_cost(const Query& q) const;
  Polyline polyline(const Query& q) const;
  std::vector<PathItem> disc_items(const Query& q) const;
  BuildStats stats() const;
  const Landmarks* landmarks() const { return landmarks_.k() ? &landmarks_ : nullptr; }

  // The circles q may join, ascending (a superset, see above), into out; false on polygon maps
  // (then every circle of q's component is tried).
  bool candidate_circles(Point q, std::vector<std::int32_t>& out) const;

 private:
  std::optional<DiscPath> direct_path(const Query& q) const;
  std::optional<DiscPath> find_direct_path(const Query& q) const;  // direct_path without its cache
  Landmarks build_landmarks() const;
  // candidate_circles(q) through a small per-thread cache (nullptr on polygon maps).
  const std::vector<std::int32_t>* circles_seen(Point q) const;
  std::unique_ptr<FreeSpace> free_;
  std::unique_ptr<RadiusValidity> rv_;
  std::unique_ptr<TangentGraph> tangent_;
  double R_ = 0;
  bool grid_ = false;  // grid map: fov_ holds the sweep over FreeSpace::convex_corners()
  GridFov fov_;
  // Grid maps up to 2^18 cells and 4,096 convex corners (visgraph's block=2 rule): per 2 x 2 cell
  // block, every corner some point of the block may see (from each corner's region sweep), so a
  // query reads its block's list instead of sweeping (every corner it sees, as the joins need).
  BlockCandidates blocks_;
  GridLos los_;  // with blocks_: the exact line-of-sight filter on their entries
  Landmarks landmarks_;
  std::uint64_t serial_ = 0;  // this build's number (circles_seen's cache key)
};

}  // namespace navbench
