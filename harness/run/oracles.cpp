#include "harness/run/oracles.hpp"

#include <cmath>
#include <limits>

#include "geometry/path_quality.hpp"
#include "harness/run/parallel.hpp"
#include "harness/run/pipeline.hpp"
#include "base/timing.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

namespace navbench {

std::optional<double> exact_optimum(const Planner& vis, const FreeSpace& fs, Point s, Point g) {
  if (!fs.point_free(s) || !fs.point_free(g)) return std::nullopt;
  Query q;
  q.start = s;
  q.goal = g;
  const Heuristic h = parse_heuristic("euclidean");
  const Request r{.search = SearchMode::astar, .heuristic = &h};
  if (vis.locate(q, r)) return std::nullopt;  // not covered, or different components
  const Outcome o = vis.plan(q, r);
  if (o.status != PlanStatus::found) return std::nullopt;
  return polyline_length(o.path);
}

std::optional<double> disc_optimum(const TangentGraph& tangent, const FreeSpace& fs, Point s, Point g) {
  if (!fs.point_free(s) || !fs.point_free(g)) return std::nullopt;  // invalid_query rows
  auto p = tangent.shortest_path(s, g);
  if (!p) return std::nullopt;
  return p->length;
}

std::optional<double> octile_cost(const Planner& grid8, const FreeSpace& fs, const CostModel& cost, Point s, Point g) {
  if (!fs.point_free(s) || !fs.point_free(g)) return std::nullopt;  // invalid_query rows
  Query q;
  q.start = s;
  q.goal = g;
  const Heuristic h = cost.scale(parse_heuristic("octile"));
  const Request r{.search = SearchMode::astar, .heuristic = &h};
  if (grid8.locate(q, r)) return std::nullopt;
  const Outcome o = grid8.plan(q, r);
  if (o.status != PlanStatus::found) return std::nullopt;
  return o.cost;
}

double reference_bound(const std::optional<double>& octile_optimal_cost) {
  return octile_optimal_cost ? *octile_optimal_cost * (1 + 1e-9) + 1e-9 : std::numeric_limits<double>::infinity();
}

std::optional<double> reference_cost(const SteinerReference& ref, const FreeSpace& fs, Point s, Point g,
                                     const std::optional<double>& octile_optimal_cost) {
  if (!fs.point_free(s) || !fs.point_free(g)) return std::nullopt;  // invalid_query rows
  if (auto p = ref.shortest(s, g, reference_bound(octile_optimal_cost))) return p->cost;
  return std::nullopt;
}

std::unique_ptr<Planner> build_optimum_graph(const Map& map) {
  const RepresentationEntry* e = reference_representation();
  if (!e) return nullptr;
  Params p = Params::parse(e->reference_params);
  return e->build(map, p);
}

const RepresentationEntry* octile_entry() {
  const RepresentationEntry* grid8 = nullptr;
  for (const auto& e : representations())
    if (e.caps.grid8_optimal && e.caps.weights) grid8 = &e;
  return grid8;
}

Oracles::Oracles(const AgentSpace& space) : space_(space), cost_(space.map()) {}
Oracles::~Oracles() = default;

void Oracles::build_tangent() {
  if (tangent_) return;
  // docs/radius.md: the exact optimum of the disc, from the tangent graph (Chew 1985), once per (map, R).
  const auto t0 = base::Clock::now();
  tangent_ = std::make_unique<TangentGraph>(space_.free(), *space_.validity(), space_.R());
  tangent_ms_ = base::ms_since(t0);
}

void Oracles::prepare() {
  if (space_.disc()) build_tangent();
  else if (space_.free().squeeze()) squeeze_ = squeeze_ ? std::move(squeeze_) : std::make_unique<SqueezeOptimum>(space_.free());
  else build_graph();
}

void Oracles::build_graph() {
  if (graph_) return;
  // docs/terrain.md: `optimal` keeps its Euclidean meaning on a weighted map, so the exact graph is
  // built on the same free space without the weights.
  const Map& m = space_.map();
  if (m.weighted()) plain_ = std::make_unique<Map>(without_weights(m));
  graph_ = build_optimum_graph(plain_ ? *plain_ : m);
}

std::optional<double> Oracles::optimum(Point s, Point g) {
  if (space_.disc()) {
    build_tangent();
    return disc_optimum(*tangent_, space_.free(), s, g);
  }
  if (space_.free().squeeze()) {  // SPEC §11: the optimum a path through pinch points may reach
    if (!squeeze_) squeeze_ = std::make_unique<SqueezeOptimum>(space_.free());
    return squeeze_->length(s, g);
  }
  build_graph();
  if (!graph_) return std::nullopt;
  return exact_optimum(*graph_, space_.free(), s, g);
}

void Oracles::fill(std::vector<QueryInput>& queries, bool optimum, int threads) {
  const FreeSpace& fs = space_.free();
  if (cost_.weighted()) {
    if (const RepresentationEntry* grid8 = octile_entry()) {
      Params p;
      auto rep = grid8->build(space_.map(), p);
      rep->prepare();
      for (auto& qi : queries) qi.octile_optimal_cost = octile_cost(*rep, fs, cost_, qi.start, qi.goal);
    }
  }
  if (!optimum) return;
  for (auto& qi : queries) qi.optimal = this->optimum(qi.start, qi.goal);
  if (!cost_.weighted() || space_.disc()) return;
  // Its queries on `threads` threads: shortest() is const, with a workspace per thread.
  const SteinerReference ref(space_.map().grid);
  parallel_for(0, queries.size(), std::size_t(std::max(1, threads)), [&](std::size_t i, std::size_t) {
    QueryInput& qi = queries[i];
    qi.optimal_cost = reference_cost(ref, fs, qi.start, qi.goal, qi.octile_optimal_cost);
  });
}

}  // namespace navbench
