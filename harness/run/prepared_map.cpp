#include "harness/run/prepared_map.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "datasets/load_map.hpp"
#include "datasets/splitmix.hpp"
#include "datasets/terrain.hpp"
#include "datasets/wkt.hpp"
#include "geometry/erosion.hpp"
#include "geometry/path_cost.hpp"
#include "geometry/steiner_reference.hpp"
#include "harness/run/parallel.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

namespace fs = std::filesystem;

namespace navbench {
namespace {

// Random query pairs in free space (seeded; docs/command-line.md --queries N --seed S).
// With a radius (docs/radius.md) `clear` also rejects query points closer than R to an obstacle; `off` is
// the query point's offset in its cell (the convention).
Scenario draw_queries(const Map& m, const FreeSpace& free, long n, std::uint64_t seed,
                      const std::function<bool(Point)>& clear = nullptr, double off = 0.5) {
  Scenario sc;
  SplitMix rng{seed};
  const std::string name = fs::path(m.path).filename().string();
  const bool grid = m.kind == MapKind::grid;
  auto draw = [&](double& x, double& y) {
    for (int tries = 0; tries < 100000; ++tries) {
      if (grid) {  // a free cell, as Moving AI scenarios name cells
        x = std::floor(m.min.x + free.map().grid.width * rng.unit());
        y = std::floor(m.min.y + free.map().grid.height * rng.unit());
        if (m.grid.passable(int(x), int(y)) && (!clear || clear({x + off, y + off}))) return;
      } else {
        x = m.min.x + (m.max.x - m.min.x) * rng.unit();
        y = m.min.y + (m.max.y - m.min.y) * rng.unit();
        if (free.point_free({x, y}) && (!clear || clear({x, y}))) return;
      }
    }
    throw InputError(m.path + (clear ? ": no point with the radius's clearance to draw queries from" : ": no free space to draw queries from"));
  };
  for (long i = 0; i < n; ++i) {
    ScenarioLine l;
    l.map = name;
    l.width = grid ? m.grid.width : int(std::ceil(m.max.x));
    l.height = grid ? m.grid.height : int(std::ceil(m.max.y));
    draw(l.sx, l.sy);
    draw(l.gx, l.gy);
    l.optimal = 0;
    l.decimals = 8;
    sc.lines.push_back(l);
  }
  return sc;
}

}  // namespace

std::vector<std::string> expand_map_paths(const std::vector<std::string>& maps) {
  std::vector<std::string> out;
  for (const auto& m : maps) {
    std::error_code ec;
    if (fs::is_directory(m, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(m, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        const auto& p = it->path();
        if (it->is_regular_file() && is_scanned_map_file(p.string())) found.push_back(p.string());
      }
      if (found.empty()) throw InputError(m + ": directory holds no map files (.map, .wkt, .yaml, .mesh, .poly)");
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(m, ec)) {
      out.push_back(m);
    } else {
      throw InputError(m + ": no such map file or directory");
    }
  }
  return out;
}

PreparedMap prepare_map(const std::string& path, const QuerySelection& sel) {
  PreparedMap pm;
  pm.map = load_map(path, sel.read);  // by file type (datasets/load_map.hpp)
  const bool wkt = pm.map.kind == MapKind::polygon;
  if (pm.map.weighted() && (sel.weights.any() || sel.convention != "center"))  // docs/terrain.md
    throw InputError(path + ": the map carries its own costs (scale mode): no --terrain/--costs, and the center convention only");
  if (sel.weights.any()) {  // docs/terrain.md: the weighted map replaces the plain one
    if (wkt) throw InputError(path + ": terrain costs need a grid map (.map), not a polygon map");
    if (!sel.weights.terrain.empty() && !is_movingai_path(path))
      throw InputError(path + ": --terrain names Moving AI map characters; this map has none (use --costs)");
    Map plain = std::move(pm.map);
    if (!sel.weights.terrain.empty()) {
      pm.map = load_terrain_map(path, parse_terrain(sel.weights.terrain));
    } else {
      pm.map = plain;
      apply_cost_layer(pm.map, sel.weights.costs);
    }
    // The scenario's octile optimum holds when the weights left the free cells as they were.
    pm.same_free_cells = pm.map.grid.cells == plain.grid.cells;
  }
  const std::string scen = sel.scen.empty() ? path + ".scen" : sel.scen;
  if (fs::exists(scen)) {
    pm.scen = load_scenario(scen);
    pm.has_scen = true;
    if (!wkt) {
      check_scenario_matches(pm.scen, pm.map.grid);
      const std::string want = fs::path(path).filename().string();
      for (std::size_t i = 0; i < pm.scen.lines.size(); ++i)
        if (fs::path(pm.scen.lines[i].map).filename().string() != want)
          throw InputError(scen + ": query " + std::to_string(i) + " names map '" + pm.scen.lines[i].map +
                           "', not " + want);
    }
  } else if (!sel.scen.empty()) {
    throw InputError(sel.scen + ": cannot open scenario file");
  } else if (sel.queries <= 0) {
    throw InputError(path + ": no scenario file " + scen + " (give --queries N to draw random queries)");
  }
  pm.selection = sel;
  return pm;
}

void PreparedMap::build_queries() {
  if (free) return;
  free = std::make_unique<FreeSpace>(map);
  const double off = (map.kind == MapKind::grid && selection.convention == "center") ? 0.5 : 0.0;
  std::function<bool(Point)> clear;
  if (disc()) {
    rv = std::make_unique<RadiusValidity>(*free);
    clear = [this](Point p) { return rv->point_clear(p, R()); };
    if (map.kind == MapKind::grid) {  // built here, once: sweep units share this map across threads
      eroded = std::make_unique<Map>(map);
      eroded->grid = erode_grid(map.grid, *rv->clearance(), R(), Erosion::centre);
      eroded_cell = std::make_unique<Map>(map);
      eroded_cell->grid = erode_grid(map.grid, *rv->clearance(), R(), Erosion::cell);
    } else {  // polygon maps: the free space shrunk by R (centre: holds every clear point; cell: inside)
      eroded = std::make_unique<Map>(erode_polygon_map(map, R(), Erosion::centre));
      eroded_cell = std::make_unique<Map>(erode_polygon_map(map, R(), Erosion::cell));
    }
  }
  if (!has_scen) {
    scen = draw_queries(map, *free, selection.queries, selection.seed, clear, off);
    if (!selection.save_queries.empty()) {
      std::ofstream out(selection.save_queries);
      write_scenario(out, scen);
      if (!out) throw std::runtime_error(selection.save_queries + ": cannot write");
    }
  }
  const long M = long(scen.lines.size());
  std::vector<long> indices;
  if (selection.every > 1) {  // every k-th query
    for (long i = 0; i < M; i += selection.every) indices.push_back(i);
  } else if (selection.limit > 0 && selection.first) {  // the first N
    for (long i = 0; i < std::min(selection.limit, M); ++i) indices.push_back(i);
  } else {  // --limit N: indices floor(i*M/N), so every bucket is represented (docs/command-line.md)
    const long N = selection.limit > 0 ? std::min(selection.limit, M) : M;
    for (long i = 0; i < N; ++i) indices.push_back(selection.limit > 0 ? long(double(i) * double(M) / double(N)) : i);
  }
  for (long idx : indices) {
    const ScenarioLine& l = scen.lines[std::size_t(idx)];
    QueryInput qi;
    qi.start = {l.sx + off, l.sy + off};
    qi.goal = {l.gx + off, l.gy + off};
    qi.scen_index = idx;
    qi.bucket = l.bucket;
    qi.sx = l.sx, qi.sy = l.sy, qi.gx = l.gx, qi.gy = l.gy;
    if (has_scen && map.kind == MapKind::grid && !disc() && same_free_cells)
      qi.octile_optimal = l.optimal;  // docs/radius.md: empty for R > 0
    queries.push_back(qi);
  }
  if (map.weighted()) compute_octile_costs();
}

void PreparedMap::compute_octile_costs() {
  // docs/terrain.md: the least cost of an 8-connected centre-to-centre path without corner cutting,
  // by the registry's grid8-optimal entry that takes weights (its A* is exact: the octile distance
  // times the least weight never overestimates a weighted step and is consistent).
  const RepresentationEntry* grid8 = nullptr;
  for (const auto& e : representations())
    if (e.caps.grid8_optimal && e.caps.weights) grid8 = &e;
  if (!grid8) return;
  Params p;
  auto rep = grid8->build(map, p);
  rep->prepare();
  Heuristic h = parse_heuristic("octile");
  h.weight = least_weight(map.grid);
  for (auto& qi : queries) {
    if (!free->point_free(qi.start) || !free->point_free(qi.goal)) continue;  // invalid_query rows
    Query q;
    q.start = qi.start;
    q.goal = qi.goal;
    if (!rep->locate(q)) continue;
    SearchStats st;
    const double c = rep->search(q, h, st);
    if (std::isfinite(c)) qi.octile_optimal_cost = c;
  }
}

void PreparedMap::compute_optimum() {
  build_queries();
  if (optimum_done) return;
  if (disc()) {
    // docs/radius.md: the exact optimum of the disc, from the tangent graph (Chew 1985), once per (map, R).
    const auto t0 = std::chrono::steady_clock::now();
    tangent = std::make_unique<TangentGraph>(*free, *rv, R());
    tangent_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (auto& qi : queries) {
      if (!free->point_free(qi.start) || !free->point_free(qi.goal)) continue;  // invalid_query rows
      auto p = tangent->shortest_path(qi.start, qi.goal);
      if (p) qi.optimal = p->length;
    }
    optimum_done = true;
    return;
  }
  // docs/terrain.md: `optimal` keeps its Euclidean meaning on a weighted map, so the exact graph is
  // built on the same free space without the weights.
  const bool weighted = map.weighted();
  const Map unweighted = weighted ? without_weights(map) : Map{};
  auto vis = build_optimum_graph(weighted ? unweighted : map);
  if (!vis) return;
  for (auto& qi : queries) qi.optimal = exact_optimum(*vis, *free, qi.start, qi.goal);
  if (weighted) compute_reference_costs();
  optimum_done = true;
}

double reference_bound(const std::optional<double>& octile_optimal_cost) {
  return octile_optimal_cost ? *octile_optimal_cost * (1 + 1e-9) + 1e-9 : std::numeric_limits<double>::infinity();
}

void PreparedMap::compute_reference_costs() {
  // docs/terrain.md: the least cost over the Steiner-point graph, refined by Snell's law: an upper
  // bound on the true optimum within the convergence the docs state. The octile reference bounds
  // the search (the graph always holds a path no dearer than the best grid8 path).
  // Its queries run on `threads` threads (shortest() is const, with a workspace per thread): at
  // 11-170 ms a query this is most of a weighted map's optimum.
  const SteinerReference ref(map.grid);
  parallel_for(0, queries.size(), std::size_t(std::max(1, threads)), [&](std::size_t i, std::size_t) {
    QueryInput& qi = queries[i];
    if (!free->point_free(qi.start) || !free->point_free(qi.goal)) return;  // invalid_query rows
    if (auto p = ref.shortest(qi.start, qi.goal, reference_bound(qi.octile_optimal_cost))) qi.optimal_cost = p->cost;
  });
}

const Map& PreparedMap::build_map(Erode erode) {
  build_queries();
  if (!eroded || erode == Erode::none) return map;
  return erode == Erode::cell ? *eroded_cell : *eroded;
}

}  // namespace navbench
