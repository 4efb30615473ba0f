#include "harness/run/cost_model.hpp"

#include "geometry/path_cost.hpp"
#include "geometry/steiner_reference.hpp"
#include "harness/run/pipeline.hpp"

namespace navbench {

CostModel::CostModel(const Map& m) {
  if (!m.weighted()) return;
  grid_ = &m.grid;
  terrain_ = m.terrain;
  least_weight_ = navbench::least_weight(m.grid);
}

std::optional<std::string> CostModel::not_applicable(const Capabilities& caps, const std::string& rep_text) const {
  if (weighted() && !caps.weights) return no_terrain_message(rep_text);
  return std::nullopt;
}

void CostModel::fill_identity(ResultRow& r, const QueryInput& in) const {
  if (!weighted()) return;
  r.terrain = terrain_;
  r.octile_optimal_cost = in.octile_optimal_cost;
  r.optimal_cost = in.optimal_cost;
}

void CostModel::fill_raw(ResultRow& r, const Polyline& raw) const {
  if (weighted()) r.raw_cost = path_cost(*grid_, raw);
}

void CostModel::fill_path(ResultRow& r, const Polyline& path) const {
  if (!weighted()) return;
  r.cost = path_cost(*grid_, path);
  if (r.optimal_cost && *r.optimal_cost > 0) r.cost_gap = *r.cost / *r.optimal_cost - 1.0;
}

void CostModel::fill_build(BuildRow& b, bool reference) const {
  if (!weighted()) return;
  b.terrain = terrain_;
  // docs/terrain.md: the rows' optimal_cost comes from the Steiner-point reference of density m
  // (not a parameter of the representation: it comes last, after the sorted ones).
  if (reference) b.params += (b.params.empty() ? "" : ",") + std::string("reference_m=") + std::to_string(kDefaultSteinerM);
}

std::string no_terrain_message(const std::string& rep_text) {
  return rep_text + " does not take terrain costs (it assumes one cost everywhere)";
}

}  // namespace navbench
