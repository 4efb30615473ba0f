// The cost model of a map (docs/terrain.md, docs/architecture.md#glossary-one-name-per-idea): uniform, or weighted by
// its cells' weights. The one place that prices a path, scales the heuristic, fills the cost columns
// and says when a representation cannot answer (not_applicable) — the role of Detour's
// dtQueryFilter. A weighted map's terrain table is parsed once, where the option is read
// (MapWeights::set_terrain); the map it weighs gives this model its weights and least weight.
#pragma once
#include <optional>
#include <string>

#include "geometry/map.hpp"
#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "search/heuristic.hpp"

namespace navbench {

struct QueryInput;

class CostModel {
 public:
  // Uniform: every free point costs 1 per unit of length (rows without the terrain group's values).
  CostModel() = default;
  // The model of m: weighted when m's grid has weights. Keeps a pointer to m's grid: m must outlive it.
  explicit CostModel(const Map& m);

  bool weighted() const { return grid_ != nullptr; }
  // The weights (nullptr when uniform): the los smoother's shortcuts are no dearer than what they replace.
  const GridMap* weights() const { return grid_; }
  // Where the weights came from (the column `terrain`): a terrain table's text or a cost layer's name.
  const std::string& terrain() const { return terrain_; }
  // The least cell weight (1 when uniform).
  double least_weight() const { return least_weight_; }

  // The heuristic the search takes: a weighted map's metric heuristic scaled by the least weight,
  // still a lower bound (docs/terrain.md).
  Heuristic scale(Heuristic h) const {
    if (weighted()) h.weight *= least_weight_;
    return h;
  }
  // Why a representation cannot answer on this map (its rows are not_applicable): a weighted map
  // and a representation without the capability weights. nullopt when it can.
  std::optional<std::string> not_applicable(const Capabilities& caps, const std::string& rep_text) const;

  // The rows' columns (docs/terrain.md#columns), each a no-op when uniform: the identity ones
  // (terrain and the two reference costs), the raw path's cost, a smoothed path's cost and gap.
  void fill_identity(ResultRow& r, const QueryInput& in) const;
  void fill_raw(ResultRow& r, const Polyline& raw) const;
  void fill_path(ResultRow& r, const Polyline& path) const;
  // The build row's `terrain`, and with `reference` its params' reference_m (the Steiner-point
  // reference's density, which `optimal_cost` came from).
  void fill_build(BuildRow& b, bool reference) const;

 private:
  const GridMap* grid_ = nullptr;
  std::string terrain_;
  double least_weight_ = 1;
};

// Why a representation without the capability weights answers not_applicable on a weighted map.
std::string no_terrain_message(const std::string& rep_text);

}  // namespace navbench
