// The agent of a query (docs/radius.md, docs/architecture.md#the-query-context-glossary): a point
// or a disc of radius R. It is what a radius is from the option (--radius, a sweep's "radii", the
// viewer's "radius") to the row's column `radius`; the space it moves in is AgentSpace
// (agent_space.hpp).
#pragma once
#include <optional>
#include <vector>

#include "geometry/clearance.hpp"

namespace navbench {

class Agent {
 public:
  // The point agent of a run without a radius: rows without the column `radius`.
  Agent() = default;
  // --radius R (R >= 0): rows with the column `radius`; R <= 1e-9 answers as the point agent does.
  static Agent with_radius(double R) {
    Agent a;
    a.radius_ = R;
    return a;
  }
  double R() const { return radius_.value_or(0.0); }
  // A disc: R > 1e-9 (kRadiusTolerance); the point agent below that.
  bool disc() const { return R() > kRadiusTolerance; }
  // The rows' and build rows' column `radius` (empty for the point agent of a run without one).
  const std::optional<double>& column() const { return radius_; }

 private:
  std::optional<double> radius_;
};

// The agents of radii given as numbers (--radius R,R, a sweep's "radii"): one disc each.
std::vector<Agent> agents_of(const std::vector<double>& radii);
// The passes of a run over its agents: each of them, or the point agent without the column
// `radius` when none was given.
std::vector<Agent> agent_passes(const std::vector<Agent>& agents);

}  // namespace navbench
