#include "harness/run/agent.hpp"

namespace navbench {

std::vector<Agent> agents_of(const std::vector<double>& radii) {
  std::vector<Agent> out;
  for (double R : radii) out.push_back(Agent::with_radius(R));
  return out;
}

std::vector<Agent> agent_passes(const std::vector<Agent>& agents) {
  if (agents.empty()) return {Agent{}};
  return agents;
}

}  // namespace navbench
