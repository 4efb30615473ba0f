// Changing maps (docs/changing-maps.md): a representation brought up to date through every update of a
// real dynamic scenario (../shared/datasets/gppc-dynamic), each update timed alone and followed by a
// timed full build of the same map state (run --dynamic --rebuild-baseline's order, without the
// queries). Counters: update_median_us, update_p95_us, rebuild_median_us, ratio (median rebuild /
// median update), updates, in_place (updates done in place; the rest fell back to a rebuild).
//   build/navbench_bench --benchmark_filter=update/ --benchmark_repetitions=3
#include <string>
#include <vector>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "datasets/dynamic.hpp"
#include "harness/bench/bench_fixture.hpp"
#include "base/timing.hpp"

namespace {

using namespace navbench;

// The scenario replayed once: the map at the start (all free, docs/changing-maps.md) and per update the map state
// after it and the cells it changed.
struct Replay {
  Map start;
  std::vector<GridMap> states;
  std::vector<std::vector<CellChange>> changes;
};

const Replay* replay(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Replay>> cache;
  auto& slot = cache[name];
  if (slot) return slot.get();
  const std::string path = std::string(NAVBENCH_SHARED_DATASETS) + "/gppc-dynamic/" + name + ".scen";
  if (!std::filesystem::exists(path)) return nullptr;
  const DynamicScenario d = load_dynamic_scenario(path);
  auto r = std::make_unique<Replay>();
  GridMap g;
  g.width = d.width;
  g.height = d.height;
  g.cells.assign(std::size_t(d.width) * std::size_t(d.height), 1);
  r->start = make_grid_map(g, d.name, "gppc-dynamic");
  std::vector<CellChange> changed;
  for (std::size_t i = 0; i < d.commands.size();) {
    changed.clear();
    bool placed = false;
    while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::place) {
      const DynamicCommand& c = d.commands[i++];
      apply_patch(g, d.patches[std::size_t(c.id)], c.x, c.y, changed);
      placed = true;
    }
    while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::query) ++i;
    if (!placed) continue;
    r->states.push_back(g);
    r->changes.push_back(changed);
  }
  slot = std::move(r);
  return slot.get();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double p95(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, std::size_t(0.95 * double(v.size() - 1) + 0.5))];
}

void update_vs_rebuild(benchmark::State& state, const char* scenario, const char* rep_text) {
  const Replay* r = replay(scenario);
  if (!r) return state.SkipWithError("scenario not found (needs ../shared/datasets/gppc-dynamic)");
  std::vector<double> update_us, rebuild_us;
  std::size_t in_place = 0;
  for (auto _ : state) {
    Map m = r->start;
    auto rep = bench::build_rep(rep_text, m);
    for (std::size_t u = 0; u < r->states.size(); ++u) {
      m.grid = r->states[u];
      const auto t0 = base::Clock::now();
      if (rep->update(m, r->changes[u])) {
        ++in_place;
      } else {
        rep.reset();
        rep = bench::build_rep(rep_text, m);
      }
      update_us.push_back(base::us_since(t0));
      // The baseline on the same state right after, as run --dynamic --rebuild-baseline does, so
      // both meet the same caches and allocator.
      const auto t1 = base::Clock::now();
      auto fresh = bench::build_rep(rep_text, m);
      rebuild_us.push_back(base::us_since(t1));
    }
  }
  const double um = median(update_us), rm = median(rebuild_us);
  state.counters["update_median_us"] = um;
  state.counters["update_p95_us"] = p95(update_us);
  state.counters["rebuild_median_us"] = rm;
  state.counters["ratio"] = um > 0 ? rm / um : 0;
  state.counters["updates"] = double(r->states.size());
  state.counters["in_place"] = double(in_place) / double(std::max<std::size_t>(1, state.iterations()));
}

}  // namespace

namespace navbench::bench {
void register_update(const std::string& rep, const std::string& scenario) {
  // The benchmark keeps its own copies: RegisterBenchmark stores the pointers it is given.
  static std::vector<std::unique_ptr<std::string>> texts;
  texts.push_back(std::make_unique<std::string>(rep));
  const char* r = texts.back()->c_str();
  texts.push_back(std::make_unique<std::string>(scenario));
  const char* s = texts.back()->c_str();
  benchmark::RegisterBenchmark(("update/" + rep + "/" + scenario).c_str(), update_vs_rebuild, s, r)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
}
}  // namespace navbench::bench
