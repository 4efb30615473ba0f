// The one oracle service (docs/architecture.md#glossary-one-name-per-idea): the reference answers a row is judged
// against, for `navbench run`, the sweep, changing maps and the viewer alike.
//   optimal              the exact Euclidean optimum (docs/validity.md): for the point agent the
//                        shortest path over the registry's exact graph (the visibility graph), on a
//                        weighted map the same free space without the weights; for a disc the
//                        tangent graph's (Chew 1985; docs/radius.md)
//   octile_optimal_cost  weighted maps: the least cost of an 8-connected centre-to-centre path
//   optimal_cost         weighted maps: the Steiner-point reference (geometry/steiner_reference.hpp),
//                        bounded by the octile cost (docs/terrain.md)
// Each answer is a function of the structure it is read from, so a caller that keeps such a
// structure elsewhere (the viewer shares the user's builds) asks the same function; `Oracles`
// owns the structures for one (map, agent).
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "geometry/squeeze_optimum.hpp"
#include "geometry/steiner_reference.hpp"
#include "geometry/tangent_graph.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/agent_space.hpp"
#include "harness/run/cost_model.hpp"

namespace navbench {

struct QueryInput;

// The exact Euclidean shortest path length from the visibility graph `vis`; nullopt when a point
// is not free or the goal is unreachable.
std::optional<double> exact_optimum(AnyRepresentation& vis, const FreeSpace& fs, Point s, Point g);
// A disc's exact optimum from its tangent graph (free points only; nullopt when unreachable).
std::optional<double> disc_optimum(const TangentGraph& tangent, const FreeSpace& fs, Point s, Point g);
// The least cost of an 8-connected centre-to-centre path without corner cutting, by `grid8` (an
// octile_entry() build on the weighted map): its A* with the octile distance times the least
// weight is exact (never overestimates a weighted step, and consistent).
std::optional<double> octile_cost(AnyRepresentation& grid8, const FreeSpace& fs, const CostModel& cost, Point s, Point g);
// The weighted reference optimum (an upper bound on the true optimum within the convergence
// docs/terrain.md states), its search bounded by the octile reference (reference_bound).
std::optional<double> reference_cost(const SteinerReference& ref, const FreeSpace& fs, Point s, Point g,
                                     const std::optional<double>& octile_optimal_cost);

// The bound the reference optimum's search takes (docs/terrain.md): the octile reference, which its
// graph always matches or beats, plus rounding; +inf without one.
double reference_bound(const std::optional<double>& octile_optimal_cost);

// The graph `exact_optimum` searches: the registry's exact entry (caps.exact) in its reference
// variant, the cheapest exact one to build (the visibility graph without block lists, skip edges
// or landmarks: random512-10-0 in 7 s instead of 36 s), which matters as the optimum is computed
// once per map and the query count per map is small. nullptr when no exact entry is registered.
std::unique_ptr<AnyRepresentation> build_optimum_graph(const Map& map);
// The registry's grid8-optimal entry that takes weights (octile_cost's graph); nullptr if none.
const RepresentationEntry* octile_entry();

// The oracles of one (map, agent): their structures built on first use, then read.
class Oracles {
 public:
  // space (and its map) must outlive this; nothing is built yet.
  explicit Oracles(const AgentSpace& space);
  ~Oracles();

  // Fills the columns of `queries` (points that are not free keep them empty: invalid_query rows):
  // on a weighted map octile_optimal_cost always; with `optimum` also `optimal` and, weighted,
  // optimal_cost, whose queries run on `threads` threads (at 11-170 ms a query this is most of a
  // weighted map's optimum).
  void fill(std::vector<QueryInput>& queries, bool optimum, int threads);
  // One query's `optimal`; builds the structure on first use.
  std::optional<double> optimum(Point s, Point g);
  // Builds the optimum's structure now (a disc's tangent graph, the point agent's exact graph):
  // afterwards a disc's optimum() only reads it, so threads may ask at once (the viewer).
  void prepare();

  // A disc's tangent graph (built by fill or optimum), its build time; nullptr before or for a point.
  const TangentGraph* tangent() const { return tangent_.get(); }
  double tangent_build_ms() const { return tangent_ms_; }

 private:
  const AgentSpace& space_;
  CostModel cost_;
  std::unique_ptr<TangentGraph> tangent_;
  double tangent_ms_ = 0;
  std::unique_ptr<Map> plain_;                   // weighted maps: the map without its weights
  std::unique_ptr<AnyRepresentation> graph_;     // the point agent's exact graph
  std::unique_ptr<SqueezeOptimum> squeeze_;      // the point agent's exact optimum under --pinch allow
  void build_tangent();
  void build_graph();
};

// The point agent's exact optimum on a changing map (docs/changing-maps.md): the graph kept up to
// date like the representations (in place, else rebuilt).
class ChangingOptimum {
 public:
  explicit ChangingOptimum(const Map& m) : graph_(build_optimum_graph(m)) {}
  void update(const Map& m, const std::vector<CellChange>& changed) {
    if (graph_ && !graph_->update(m, changed)) graph_ = build_optimum_graph(m);
  }
  std::optional<double> operator()(const FreeSpace& fs, Point s, Point g) {
    return graph_ ? exact_optimum(*graph_, fs, s, g) : std::nullopt;
  }

 private:
  std::unique_ptr<AnyRepresentation> graph_;
};

}  // namespace navbench
