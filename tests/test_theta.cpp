// Theta* and Lazy Theta* (search/theta.hpp) through the query pipeline, on every registered
// representation: valid paths no shorter than the exact optimum where the edges are segments,
// not_applicable elsewhere; Lazy Theta* makes fewer segment tests; the published finding that
// Theta* beats A* + post-smoothing on random grids (Nash & Koenig, AI Magazine 2013).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "datasets/generate.hpp"
#include "geometry/free_space.hpp"
#include "geometry/radius_validity.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "search/heuristic.hpp"

using namespace navbench;

namespace {

Map random_map(std::uint64_t seed, double density) {
  GenerateOptions o;
  o.kind = "random";
  o.width = o.height = 48;
  o.density = density;
  o.seed = seed;
  return make_grid_map(generate_map(o), "random-" + std::to_string(seed), "generated");
}

// Random free cell centres of m.
std::vector<std::pair<Point, Point>> queries(const Map& m, const FreeSpace& fs, std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> x(0, m.grid.width - 1), y(0, m.grid.height - 1);
  std::vector<std::pair<Point, Point>> out;
  auto cell = [&] {
    for (;;) {
      const Point p{x(rng) + 0.5, y(rng) + 0.5};
      if (fs.point_free(p)) return p;
    }
  };
  while (int(out.size()) < n) out.emplace_back(cell(), cell());
  return out;
}

struct Totals {
  double gap = 0;
  std::size_t rows = 0, los_checks = 0;
};

}  // namespace

TEST(Theta, EveryRepresentationAnswersOrIsNotApplicable) {
  const Map m = random_map(7, 25);
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const FreeSpace& fs = space.free();
  const auto optimum = build_optimum_graph(m);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "center"};
  const auto qs = queries(m, fs, 3, 25);
  for (const RepresentationEntry& e : representations()) {
    if (e.caps.mesh_only) continue;  // maps read from a .mesh only: the conformance battery runs it on its grids' cell meshes
    SCOPED_TRACE(e.name);
    Params p;
    std::unique_ptr<AnyRepresentation> rep = e.build(m, p);
    rep->prepare();
    for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta}) {
      for (const auto& [s, g] : qs) {
        QueryInput in;
        in.start = s;
        in.goal = g;
        in.optimal = exact_optimum(*optimum, fs, s, g);
        const std::vector<std::string> modes = {"none", "los"};
        const auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = e.name,
                                     .heuristic = h, .smoothings = modes,
                                     .rep = rep.get(), .search = mode, .caps = e.caps, .keep_paths = true},
                                    in);
        for (const ResultRow& r : rows) {
          EXPECT_EQ(r.search, to_string(mode));
          if (!e.caps.segment_edges) {
            EXPECT_EQ(r.status, Status::not_applicable);
            continue;
          }
          if (!in.optimal) {
            EXPECT_EQ(r.status, Status::no_path);
            continue;
          }
          ASSERT_EQ(r.status, Status::ok) << r.message;
          EXPECT_TRUE(*r.valid) << "query (" << s.x << "," << s.y << ")-(" << g.x << "," << g.y << ")";
          EXPECT_TRUE(*r.raw_valid);
          EXPECT_GE(*r.length, *in.optimal - 1e-9);
          EXPECT_LE(*r.length, *r.raw_length + 1e-9);  // los never lengthens
          EXPECT_GT(r.los_checks, 0u);
        }
      }
    }
  }
}

// Theta*'s mean gap is at most A* + los's on random grids (grid8 and grid4), Lazy Theta* makes
// fewer segment tests than Theta*, and both keep a gap of the same class.
TEST(Theta, BeatsPostSmoothingAndLazyTestsLess) {
  const Heuristic h = parse_heuristic("euclidean");
  for (const char* name : {"grid8", "grid4"}) {
    SCOPED_TRACE(name);
    Totals astar_los, theta, lazy;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Map m = random_map(seed, 20);
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
      for (const auto& [s, g] : queries(m, fs, seed, 40)) {
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

// With an agent radius the shortcut is the swept-disc test: every path stays valid for R.
TEST(Theta, DiscAgentPathsValid) {
  const Map m = random_map(11, 15);
  const FreeSpace fs(m);
  const RadiusValidity rv(fs);
  const CostModel cost(m);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "center"};
  for (double R : {0.3, 0.5, 1.5}) {
    SCOPED_TRACE(R);
    const AgentSpace space(m, Agent::with_radius(R));
    // grid8 built on the cells whose centre keeps clearance R (docs/radius.md, erode=centre).
    GridMap eroded = m.grid;
    for (int y = 0; y < eroded.height; ++y)
      for (int x = 0; x < eroded.width; ++x)
        if (!rv.point_clear({x + 0.5, y + 0.5}, R)) eroded.cells[std::size_t(y) * eroded.width + x] = 0;
    const Map em = make_grid_map(eroded, m.name, m.collection);
    Params p;
    auto rep = find_representation("grid8")->build(em, p);
    rep->prepare();
    std::size_t ok = 0;
    for (const auto& [s, g] : queries(m, fs, 5, 60)) {
      QueryInput in;
      in.start = s;
      in.goal = g;
      for (SearchMode mode : {SearchMode::theta, SearchMode::lazy_theta})
        for (const ResultRow& r : run_query({.map = ctx, .space = space, .cost = cost, .rep_text = "grid8", .heuristic = h,
                                             .smoothings = {"none", "los"}, .rep = rep.get(), .search = mode,
                                             .caps = find_representation("grid8")->caps},
                                            in)) {
          if (r.status != Status::ok) continue;
          ++ok;
          EXPECT_TRUE(*r.valid);
          EXPECT_GE(*r.clearance, R - 1e-9);
        }
    }
    EXPECT_GT(ok, 5u);
  }
}
