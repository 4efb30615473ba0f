// --threads N: the queries of one (map, representation) answered in parallel over one
// shared read-only build, each thread with its own search workspace, give the same rows in the same
// order as one thread (timing columns aside). Built also under ThreadSanitizer (scripts/build tsan)
// so a data race in the shared build, the free space or the smoothers is reported, not just lucky.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "datasets/generate.hpp"
#include "datasets/terrain.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/run.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_threads {

using namespace navbench;

namespace {

// A seeded maze-like map with random queries (some blocked-free pairs in different rooms too).
PreparedMap prepared(const std::string& kind, int queries) {
  GenerateOptions o;
  o.kind = kind;
  o.width = 48;
  o.height = 40;
  o.seed = 7;
  PreparedMap pm;
  pm.map = make_grid_map(generate_map(o), "threads-" + kind, "test");
  pm.selection.queries = queries;
  pm.selection.seed = 3;
  return pm;
}

std::vector<ResultRow> rows_of(const AgentMap& am, const std::string& rep, int threads) {
  UnitOptions opt;
  opt.heuristics = {parse_heuristic("euclidean"), parse_heuristic("octile*1.5")};
  opt.smoothings = {"none", "los", "funnel"};
  opt.paths = true;
  opt.threads = threads;
  std::vector<ResultRow> rows;
  const RepresentationSpec spec = parse_rep_option(rep).at(0);
  run_unit(am, spec, opt, [&](const ResultRow& r) { rows.push_back(r); });
  return rows;
}

class Threads : public ::testing::TestWithParam<std::string> {};

TEST_P(Threads, SameRowsInSameOrderAsOneThread) {
  for (const char* kind : {"random", "rooms"}) {
    SCOPED_TRACE(kind);
    const PreparedMap pm = prepared(kind, 60);
    const AgentMap am(pm, Agent{}, {});
    const auto one = rows_of(am, GetParam(), 1);
    ASSERT_EQ(one.size(), 60u * 2 * 3);
    std::size_t solved = 0;
    for (const auto& r : one) solved += r.status == Status::ok;
    EXPECT_GT(solved, 0u) << "a test that solves nothing compares nothing";
    for (int t : {2, 4}) {
      const auto many = rows_of(am, GetParam(), t);
      ASSERT_EQ(many.size(), one.size()) << t << " threads";
      for (std::size_t i = 0; i < one.size(); ++i) {
        const ResultRow& a = one[i];
        const ResultRow& b = many[i];
        SCOPED_TRACE(std::to_string(t) + " threads, row " + std::to_string(i));
        ASSERT_EQ(a.scen_index, b.scen_index);
        ASSERT_EQ(a.heuristic, b.heuristic);
        ASSERT_EQ(a.smoothing, b.smoothing);
        EXPECT_EQ(a.status, b.status);
        EXPECT_EQ(a.length, b.length);
        EXPECT_EQ(a.optimal, b.optimal);
        EXPECT_EQ(a.gap, b.gap);
        EXPECT_EQ(a.valid, b.valid);
        EXPECT_EQ(a.raw_length, b.raw_length);
        EXPECT_EQ(a.expansions, b.expansions);
        EXPECT_EQ(a.generated, b.generated);
        EXPECT_EQ(a.path_points, b.path_points);
        EXPECT_EQ(a.message, b.message);
        ASSERT_EQ(a.path.size(), b.path.size());
        for (std::size_t k = 0; k < a.path.size(); ++k) EXPECT_EQ(a.path[k], b.path[k]);
      }
    }
  }
}

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const auto& e : representations())
    if (!e.caps.mesh_only) out.push_back(e.name);  // these maps are grids; a mesh_only entry needs a .mesh
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, Threads, ::testing::ValuesIn(names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

// The weighted maps' reference optimum_cost (docs/terrain.md) runs its queries on --threads threads:
// the same costs as one thread, query by query (and, under TSan, no race in the shared reference).
TEST(Threads, ReferenceCostsEqualOneThread) {
  std::vector<std::optional<double>> costs[2];
  for (int k = 0; k < 2; ++k) {
    PreparedMap pm = prepared("rooms", 12);
    CostLayerOptions co;
    co.kind = "regions";
    co.regions = 6;
    pm.map.grid.weights = generate_cost_layer(pm.map.grid, co);
    const AgentMap am(pm, Agent{}, {.threads = k + 1});
    for (const auto& q : am.queries()) costs[k].push_back(q.optimal_cost);
  }
  ASSERT_EQ(costs[0].size(), 12u);
  EXPECT_GE(std::count_if(costs[0].begin(), costs[0].end(), [](const auto& c) { return c.has_value(); }), 6);
  EXPECT_EQ(costs[1], costs[0]);
}

}  // namespace

}  // namespace test_threads
