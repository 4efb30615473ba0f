// The space an agent moves in (docs/radius.md, docs/architecture.md#the-query-context-glossary):
// what every representation and query of one (map, agent) shares: the free space, the agent's
// validity test, the maps shrunk by R and the segment test of its searches and smoothers. Built
// once per map and agent, immutable, read by any number of threads.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "harness/registry/registry.hpp"
#include "smoothing/smoothing.hpp"
#include "harness/run/agent.hpp"

namespace navbench {

class AgentSpace {
 public:
  // Builds the free space of m and, for a disc, the exact validity test (clearance) and the maps
  // shrunk by R. Keeps a reference to m: m must outlive this.
  // `squeeze`: the squeeze rule `allow` (SPEC §11, --pinch allow): the validity test, the segment
  // test and the exact optimum let a path pass through a pinch point (grid maps).
  AgentSpace(const Map& m, const Agent& agent, bool squeeze = false);
  ~AgentSpace();
  AgentSpace(const AgentSpace&) = delete;
  AgentSpace& operator=(const AgentSpace&) = delete;

  const Map& map() const { return free_.map(); }
  const Agent& agent() const { return agent_; }
  double R() const { return agent_.R(); }
  bool disc() const { return agent_.disc(); }
  const FreeSpace& free() const { return free_; }
  // The disc's exact validity test (docs/radius.md); nullptr for the point agent.
  const RadiusValidity* validity() const { return rv_.get(); }

  // A query point the agent may stand on: free, and for a disc clear by R - 1e-9.
  bool point_ok(Point p) const { return free_.point_free(p) && (!rv_ || rv_->point_clear(p, R())); }
  // Why a query whose start or goal fails point_ok is invalid (docs/results.md#query-status).
  std::string invalid_query_message(Point start, Point goal) const;
  // Why a query with both points valid for the agent is an error when a planner does not cover one
  // (PlanStatus::not_covered): for a disc, outside the free space the representation was built on.
  std::string not_covered_message() const {
    return disc() ? "point clear for R but outside the representation's eroded free space" : "free point not covered by the representation";
  }
  // The one segment test of the agent: docs/validity.md for a point; for a disc the swept disc
  // keeps clearance R (docs/radius.md). Theta*'s shortcuts and the los smoother use it.
  bool sees(Point a, Point b) const { return rv_ ? free_.point_free(a) && rv_->segment_clear(a, b, R()) : free_.segment_valid(a, b); }
  // The one validity test of the agent: docs/maps.md for a point, docs/radius.md for a disc.
  bool path_valid(const Polyline& p) const { return rv_ ? rv_->path_valid_radius(items_of(p), R()) : free_.path_valid(p); }
  // A path with arcs (a disc's): docs/radius.md.
  bool path_valid(const std::vector<PathItem>& items) const { return rv_->path_valid_radius(items, R()); }

  // Smoothing `mode` of a raw path for this agent (smoothing/smoothing.hpp) with its segment test and,
  // on a weighted map, its weights; for a disc the funnel gives a path with arcs (funnel_path_radius,
  // docs/radius.md), returned in `arcs` (empty when it found none), and no `path`.
  struct Smoothed {
    SmoothingStatus status = SmoothingStatus::ok;
    Polyline path;
    std::vector<PathItem> arcs;
  };
  Smoothed smooth(const std::string& mode, const Polyline& raw, const std::optional<Corridor>& corridor, const GridMap* weights) const {
    Smoothed out;
    if (disc() && mode == "funnel") {
      if (corridor) out.arcs = funnel_path_radius(raw.front(), raw.back(), *corridor, R());
      else out.status = SmoothingStatus::not_applicable;
      return out;
    }
    SmoothingResult sm = navbench::smooth(mode, raw, corridor, [this](Point a, Point b) { return sees(a, b); }, weights);
    out.status = sm.status;
    out.path = std::move(sm.path);
    return out;
  }

  // The map a representation builds on: for a disc the map shrunk by R ("centre" or "cell" on grid
  // maps, the shrunk free space on polygon maps; geometry/erosion.hpp), with erode=none or for the
  // point agent the map itself.
  const Map& build_map(Erosion erode) const;

 private:
  Agent agent_;
  FreeSpace free_;
  std::unique_ptr<RadiusValidity> rv_;             // disc only
  std::unique_ptr<Map> eroded_, eroded_cell_;      // disc only: erode=centre, erode=cell
};

}  // namespace navbench
