// A map read and checked (PreparedMap), and the map as one agent runs on it (AgentMap): the agent's
// space, the cost model, the selected queries with the oracles' answers, shared by every
// representation of that (map, agent) and read-only once made.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datasets/movingai.hpp"
#include "harness/run/agent_space.hpp"
#include "harness/run/cost_model.hpp"
#include "harness/run/description.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"

namespace navbench {

// A map read and checked, with its scenario (if any) and which of its queries run; nothing heavy yet.
struct PreparedMap {
  Map map;
  Scenario scen;
  bool has_scen = false;
  QuerySelection selection;
  bool same_free_cells = true;  // a weighted map's free cells are the plain map's (docs/terrain.md)
};

// Reads and checks a map and its scenario (InputError on bad files).
PreparedMap prepare_map(const std::string& path, const QuerySelection& sel);

// How an AgentMap fills its queries' oracle columns (harness/run/oracles.hpp).
struct OracleOptions {
  bool optimum = true;  // `optimal` (and on weighted maps optimal_cost); octile costs always
  int threads = 1;      // --threads: the reference optimal_cost's queries in parallel too
  // A previous run's saved optimum (the sweep's resume): fills the queries and returns true, or
  // returns false and the oracles compute it.
  std::function<bool(std::vector<QueryInput>&)> saved;
};

// The map as one agent runs on it. pm must outlive it; immutable once made (threads share it).
class AgentMap {
 public:
  // Builds the agent's space, draws (maps without a scenario) and selects the queries and fills
  // their oracle columns.
  AgentMap(const PreparedMap& pm, const Agent& agent, const OracleOptions& o);

  const PreparedMap& prepared() const { return pm_; }
  const Map& map() const { return pm_.map; }
  const Agent& agent() const { return space_.agent(); }
  const AgentSpace& space() const { return space_; }
  const CostModel& cost() const { return cost_; }
  const std::vector<QueryInput>& queries() const { return queries_; }
  // The scenario the queries' indices refer to (the drawn one for a map without a scenario file).
  const Scenario& scenario() const { return has_drawn_ ? drawn_ : pm_.scen; }
  // `optimal` was filled (computed or read back): the build rows name the reference (reference_m).
  bool has_optimum() const { return has_optimum_; }
  // A disc's tangent graph (its size and build time for the run's note); nullptr otherwise.
  const TangentGraph* tangent() const { return oracles_.tangent(); }
  double tangent_build_ms() const { return oracles_.tangent_build_ms(); }

 private:
  const PreparedMap& pm_;
  AgentSpace space_;
  CostModel cost_;
  Scenario drawn_;
  bool has_drawn_ = false;
  std::vector<QueryInput> queries_;
  Oracles oracles_;
  bool has_optimum_ = false;
  void select_queries();
};

// Files the --map arguments name: each file itself, each directory searched (recursively, sorted)
// for *.map and *.wkt. Throws InputError for a path that does not exist or a directory with no maps.
std::vector<std::string> expand_map_paths(const std::vector<std::string>& maps);

}  // namespace navbench
