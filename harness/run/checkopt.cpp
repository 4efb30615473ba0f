#include "harness/run/checkopt.hpp"

#include <algorithm>
#include <iostream>

namespace navbench {

OptimalityCheck::OptimalityCheck(bool on, const std::vector<Heuristic>& heuristics, const std::string& first_smoothing)
    : on_(on), first_smoothing_(first_smoothing) {
  for (const auto& h : heuristics)
    if (h.weight <= 1.0 && h.metric != Metric::manhattan) admissible_.push_back(h.text);
}

bool OptimalityCheck::applies(const RepresentationSpec& spec, const ResultRow& r) const {
  // A weighted map's grid8 finds the cheapest path, not the scenario's shortest (docs/terrain.md);
  // the corner lattice's moves may pass beside a blocked cell, which the scenario's forbid (docs/maps.md).
  return on_ && spec.caps().grid8_optimal && spec.params.find("lattice=corner") == std::string::npos && r.smoothing == first_smoothing_ && r.search == "astar" && r.terrain.empty() &&
         std::find(admissible_.begin(), admissible_.end(), r.heuristic) != admissible_.end();
}

void OptimalityCheck::record(bool match, const std::string& where, const std::string& got, const std::string& want) {
  ++checked_;
  if (match) return;
  ++mismatches_;
  std::cerr << "navbench: checkopt: " << where << ": " << got << " != scenario " << want << '\n';
}

int OptimalityCheck::finish() const {
  if (!on_) return 0;
  std::cerr << "navbench: checkopt: " << checked_ << " queries checked (grid8-optimal representations), " << mismatches_
            << " mismatches\n";
  return mismatches_ > 0 ? 3 : 0;
}

BuildRow make_build_row(const std::string& map, const RepresentationSpec& spec, const std::string& params,
                        const Planner& rep, double ms) {
  BuildRow b;
  b.build_ms = ms;
  b.map = map;
  b.representation = spec.text;
  b.params = params;
  const BuildStats st = rep.figures().stats;
  b.vertices = st.vertices;
  b.edges = st.edges;
  b.memory_bytes = st.memory_bytes;
  return b;
}

}  // namespace navbench
