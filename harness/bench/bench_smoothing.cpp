// The smoothing stage (targets: funnel < 2 us per query on den520d-size corridors; los
// cheaper than the search it follows).
//   smooth_funnel_strip/N      funnel over synthetic winding triangle strips of N portals
//   smooth_funnel/<rep>_den520d funnel over the real corridors of den520d scenario queries
//   smooth_los/<rep>_den520d   los with FreeSpace::segment_valid on the real raw paths
//   smooth_search/<rep>_den520d the shared A* (locate + search) for the same queries, to compare
// Real-map benchmarks use the scenario's queries spread evenly (every k-th line) and run them
// round-robin; counters give per-query sizes (portals, raw points, visibility tests).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "datasets/movingai.hpp"
#include "datasets/splitmix.hpp"
#include "geometry/free_space.hpp"
#include "harness/bench/bench_fixture.hpp"
#include "representations/grid/grid.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "search/astar.hpp"
#include "search/heuristic.hpp"
#include "smoothing/los.hpp"
#include "smoothing/smoothing.hpp"

namespace {

using namespace navbench;

// ---------------------------------------------------------------------------------------------
// Synthetic corridors: a centre line that turns by up to +-0.25 rad per step of 1.5, with walls at
// half-widths 0.5..3 (so the inner wall never runs backwards), cut into a triangle strip. Every
// fourth stretch turns hard one way for a while, so the funnel gets real corners on both sides.
struct StripQuery {
  Point start, goal;
  Corridor corridor;
};

StripQuery strip(int portals, std::uint64_t seed) {
  SplitMix rng{seed};
  const int quads = std::max(1, (portals - 1) / 2);
  double heading = rng.unit() * 6.283185307179586, turn = 0;
  Point c{0, 0};
  std::vector<Point> left, right;
  for (int k = 0; k <= quads; ++k) {
    if (k % 12 == 0) turn = (rng.unit() - 0.5) * 0.5;  // a new bend every 12 steps
    const double w = 0.5 + 2.5 * rng.unit();
    const Point n{-std::sin(heading), std::cos(heading)};  // counter-clockwise of the heading
    left.push_back({c.x + w * n.x, c.y + w * n.y});
    right.push_back({c.x - w * n.x, c.y - w * n.y});
    heading += turn;
    c = {c.x + 1.5 * std::cos(heading), c.y + 1.5 * std::sin(heading)};
  }
  StripQuery q;
  for (int k = 0; k < quads; ++k) {
    q.corridor.push_back({left[k], right[k]});
    q.corridor.push_back({left[k + 1], right[k]});  // the strip's diagonal
  }
  q.corridor.push_back({left[quads], right[quads]});
  auto mid = [](Point a, Point b) { return Point{(a.x + b.x) / 2, (a.y + b.y) / 2}; };
  const Point m0 = mid(left[0], right[0]), m1 = mid(left[1], right[1]);
  const Point mk = mid(left[quads], right[quads]), mk1 = mid(left[quads - 1], right[quads - 1]);
  q.start = {m0.x - 0.3 * (m1.x - m0.x), m0.y - 0.3 * (m1.y - m0.y)};
  q.goal = {mk.x + 0.3 * (mk.x - mk1.x), mk.y + 0.3 * (mk.y - mk1.y)};
  return q;
}

// 16 strips of up to 300 portals stay in L2, as a corridor the representation has just written
// does in the pipeline (64 strips spill to L3 and cost ~1.5x).
constexpr std::uint64_t kStrips = 16;
void smooth_funnel_strip(benchmark::State& state) {
  const int n = int(state.range(0));
  std::vector<StripQuery> qs;
  for (std::uint64_t s = 1; s <= kStrips; ++s) qs.push_back(strip(n, s));
  std::size_t i = 0, points = 0;
  for (auto _ : state) {
    const StripQuery& q = qs[i++ % qs.size()];
    Polyline p = funnel_path(q.start, q.goal, q.corridor);
    points += p.size();
    benchmark::DoNotOptimize(p.data());
  }
  state.counters["portals"] = double(qs[0].corridor.size());
  state.counters["path_points"] = double(points) / double(state.iterations());
}
BENCHMARK(smooth_funnel_strip)->Arg(100)->Arg(200)->Arg(300)->Arg(1000)->Unit(benchmark::kNanosecond);

// ---------------------------------------------------------------------------------------------
// Real maps: the raw paths and corridors of the scenario queries.

struct RealQuery {
  Point start, goal;
  Polyline raw;
  std::optional<Corridor> corridor;
};

template <class R>
struct RealSetup {
  Map map;
  std::unique_ptr<R> rep;
  std::unique_ptr<FreeSpace> fs;
  std::vector<std::pair<Point, Point>> endpoints;
  std::vector<RealQuery> queries;  // the ones with a path
};

// Up to `limit` scenario queries spread over the file; false (and the state skipped) without data.
template <class R>
bool setup(benchmark::State& state, const char* rel, RealSetup<R>& s, std::size_t limit = 256) {
  const bench::MapData* d = bench::map_data(rel);  // the shared fixture's cache
  if (!d) {
    state.SkipWithError("map not found (needs ../shared/datasets)");
    return false;
  }
  s.map = d->map;
  const Scenario& sc = d->scenario;
  Params p;
  s.rep = std::make_unique<R>(s.map, p);
  s.fs = std::make_unique<FreeSpace>(s.map);
  const std::size_t m = sc.lines.size(), n = std::min(limit, m);
  const Heuristic h = parse_heuristic("euclidean");
  SearchWorkspace ws;
  for (std::size_t k = 0; k < n; ++k) {
    const auto& l = sc.lines[k * m / n];
    Query q;
    q.start = {l.sx + 0.5, l.sy + 0.5};
    q.goal = {l.gx + 0.5, l.gy + 0.5};
    auto a = s.rep->attach(q.start);
    auto b = s.rep->attach(q.goal);
    if (!a || !b) continue;
    s.endpoints.push_back({q.start, q.goal});
    q.s = std::move(*a);
    q.g = std::move(*b);
    q.direct = s.rep->direct(q);
    SearchStats st;
    if (!std::isfinite(astar(*s.rep, q, h, ws, st))) continue;
    RealQuery r{q.start, q.goal, s.rep->polyline(q), std::nullopt};
    if constexpr (HasCorridor<R>) r.corridor = s.rep->corridor(q);
    s.queries.push_back(std::move(r));
  }
  if (s.queries.empty()) {
    state.SkipWithError("no query with a path");
    return false;
  }
  return true;
}

template <class R>
void funnel_real(benchmark::State& state, const char* rel) {
  RealSetup<R> s;
  if (!setup(state, rel, s)) return;
  std::size_t portals = 0, max_portals = 0;
  for (const auto& q : s.queries) {
    portals += q.corridor->size();
    max_portals = std::max(max_portals, q.corridor->size());
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const RealQuery& q = s.queries[i++ % s.queries.size()];
    Polyline p = funnel_path(q.start, q.goal, *q.corridor);
    benchmark::DoNotOptimize(p.data());
  }
  state.counters["portals_mean"] = double(portals) / double(s.queries.size());
  state.counters["portals_max"] = double(max_portals);
}

// los through the public entry point (VisibleFn) or the template (plain lambda): the difference is
// the cost of the non-owning wrapper.
template <class R, bool Wrapped>
void los_real(benchmark::State& state, const char* rel) {
  RealSetup<R> s;
  if (!setup(state, rel, s)) return;
  const FreeSpace& fs = *s.fs;
  std::size_t raw_points = 0, out_points = 0, tests = 0;
  for (const auto& q : s.queries) {
    raw_points += q.raw.size();
    out_points += los_smooth_with(q.raw, [&](Point a, Point b) {
                    ++tests;
                    return fs.segment_valid(a, b);
                  }).size();
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const RealQuery& q = s.queries[i++ % s.queries.size()];
    auto vis = [&fs](Point a, Point b) { return fs.segment_valid(a, b); };
    Polyline p;
    if constexpr (Wrapped) p = los_smooth(q.raw, vis);
    else p = los_smooth_with(q.raw, vis);
    benchmark::DoNotOptimize(p.data());
  }
  const double nq = double(s.queries.size());
  state.counters["raw_points"] = double(raw_points) / nq;
  state.counters["out_points"] = double(out_points) / nq;
  state.counters["tests"] = double(tests) / nq;
}

// The search los follows: locate + shared A* (euclidean) + polyline, for the same queries.
template <class R>
void search_real(benchmark::State& state, const char* rel) {
  RealSetup<R> s;
  if (!setup(state, rel, s)) return;
  const Heuristic h = parse_heuristic("euclidean");
  SearchWorkspace ws;
  std::size_t i = 0, expansions = 0;
  for (auto _ : state) {
    const auto& [a, b] = s.endpoints[i++ % s.endpoints.size()];
    Query q;
    q.start = a;
    q.goal = b;
    q.s = *s.rep->attach(a);
    q.g = *s.rep->attach(b);
    q.direct = s.rep->direct(q);
    SearchStats st;
    if (std::isfinite(astar(*s.rep, q, h, ws, st))) benchmark::DoNotOptimize(s.rep->polyline(q).data());
    expansions += st.expansions;
  }
  state.counters["expansions"] = double(expansions) / double(state.iterations());
}

void smooth_funnel(benchmark::State& st, const char* rel, int which) {
  if (which == 0) funnel_real<NavMesh>(st, rel);
  else funnel_real<QuadTree>(st, rel);
}
void smooth_los(benchmark::State& st, const char* rel, int which) {
  if (which == 0) los_real<Grid8, true>(st, rel);
  else if (which == 1) los_real<Grid8, false>(st, rel);
  else if (which == 2) los_real<NavMesh, true>(st, rel);
  else los_real<QuadTree, true>(st, rel);
}
void smooth_search(benchmark::State& st, const char* rel, int which) {
  if (which == 0) search_real<Grid8>(st, rel);
  else if (which == 2) search_real<NavMesh>(st, rel);
  else search_real<QuadTree>(st, rel);
}

const char* const kDen = "dao/den520d";
BENCHMARK_CAPTURE(smooth_funnel, navmesh_den520d, kDen, 0)->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(smooth_funnel, quadtree_den520d, kDen, 1)->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(smooth_los, grid8_den520d, kDen, 0)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(smooth_los, grid8_den520d_template, kDen, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(smooth_los, navmesh_den520d, kDen, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(smooth_los, quadtree_den520d, kDen, 3)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(smooth_search, grid8_den520d, kDen, 0)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(smooth_search, navmesh_den520d, kDen, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(smooth_search, quadtree_den520d, kDen, 3)->Unit(benchmark::kMicrosecond);

}  // namespace
