// Theta* and Lazy Theta* (search/theta.hpp) on the grids: the published finding that Theta* beats
// A* + post-smoothing on random grids (Nash & Koenig, AI Magazine 2013), and Lazy Theta* making fewer
// segment tests. That every Theta* path is valid is the Theta* battery's (test_battery_theta.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "geometry/free_space.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_theta {

using namespace navbench;

namespace {

struct Totals {
  double gap = 0;
  std::size_t rows = 0, los_checks = 0;
};

}  // namespace

// Theta*'s mean gap is at most A* + los's on random grids (grid8 and grid4), Lazy Theta* makes
// fewer segment tests than Theta*, and both keep a gap of the same class.
TEST(Theta, BeatsPostSmoothingAndLazyTestsLess) {
  const Heuristic h = parse_heuristic("euclidean");
  for (const char* name : {"grid8", "grid4"}) {
    SCOPED_TRACE(name);
    Totals astar_los, theta, lazy;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Map m = testmaps::generated_random(seed, 20, 48);
      const AgentSpace space(m, Agent{});
      const CostModel cost(m);
      const FreeSpace& fs = space.free();
      const auto optimum = build_optimum_graph(m);
      const RepresentationEntry* e = find_representation(name);
      ASSERT_NE(e, nullptr);
      Params p;
      auto rep = e->build(m, p);
      rep->prepare();
      const MapContext ctx{m.name, m.collection, "center"};
      for (const auto& [s, g] : testmaps::free_cell_pairs(m, fs, seed, 40)) {
        QueryInput in;
        in.start = s;
        in.goal = g;
        in.optimal = exact_optimum(*optimum, fs, s, g);
        if (!in.optimal || *in.optimal <= 0) continue;
        auto add = [&](Totals& t, SearchMode mode, const char* smoothing) {
          const std::vector<std::string> modes = {smoothing};
          const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = name,
                                       .heuristic = h, .smoothings = modes,
                                       .rep = rep.get(), .search = mode, .caps = e->caps},
                                      in);
          ASSERT_EQ(rows[0].status, Status::ok);
          t.gap += *rows[0].gap;
          t.los_checks += rows[0].los_checks;
          ++t.rows;
        };
        add(astar_los, SearchMode::astar, "los");
        add(theta, SearchMode::theta, "none");
        add(lazy, SearchMode::lazy_theta, "none");
      }
    }
    ASSERT_GT(theta.rows, 100u);
    const double a = astar_los.gap / double(astar_los.rows), t = theta.gap / double(theta.rows),
                 l = lazy.gap / double(lazy.rows);
    std::printf("%s mean gap: A*+los %.4f, Theta* %.4f, Lazy Theta* %.4f; segment tests per query: Theta* %.0f, Lazy %.0f\n",
                name, a, t, l, double(theta.los_checks) / double(theta.rows), double(lazy.los_checks) / double(lazy.rows));
    EXPECT_LE(t, a);
    EXPECT_LT(lazy.los_checks, theta.los_checks);
    EXPECT_LE(l, 2 * t + 0.01);  // the same quality class
  }
}

}  // namespace test_theta
