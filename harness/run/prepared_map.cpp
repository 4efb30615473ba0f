#include "harness/run/prepared_map.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "datasets/load_map.hpp"
#include "datasets/splitmix.hpp"
#include "datasets/terrain.hpp"
#include "datasets/wkt.hpp"

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
    throw base::InputError(m.path + (clear ? ": no point with the radius's clearance to draw queries from" : ": no free space to draw queries from"));
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
      if (found.empty()) throw base::InputError(m + ": directory holds no map files (.map, .wkt, .yaml, .mesh, .poly)");
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(m, ec)) {
      out.push_back(m);
    } else {
      throw base::InputError(m + ": no such map file or directory");
    }
  }
  return out;
}

PreparedMap prepare_map(const std::string& path, const QuerySelection& sel) {
  PreparedMap pm;
  pm.map = load_map(path, sel.read);  // by file type (datasets/load_map.hpp)
  const bool wkt = pm.map.kind == MapKind::polygon;
  if (pm.map.weighted() && (sel.weights.any() || sel.convention != "center"))  // docs/terrain.md
    throw base::InputError(path + ": the map carries its own costs (scale mode): no --terrain/--costs, and the center convention only");
  if (sel.weights.any()) {  // docs/terrain.md: the weighted map replaces the plain one
    if (wkt) throw base::InputError(path + ": terrain costs need a grid map (.map), not a polygon map");
    if (sel.weights.terrain && !is_movingai_path(path))
      throw base::InputError(path + ": --terrain names Moving AI map characters; this map has none (use --costs)");
    Map plain = std::move(pm.map);
    if (sel.weights.terrain) {
      pm.map = load_terrain_map(path, *sel.weights.terrain);  // the table as parsed where it was given
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
          throw base::InputError(scen + ": query " + std::to_string(i) + " names map '" + pm.scen.lines[i].map +
                           "', not " + want);
    }
  } else if (!sel.scen.empty()) {
    throw base::InputError(sel.scen + ": cannot open scenario file");
  } else if (sel.queries <= 0) {
    throw base::InputError(path + ": no scenario file " + scen + " (give --queries N to draw random queries)");
  }
  pm.selection = sel;
  return pm;
}

AgentMap::AgentMap(const PreparedMap& pm, const Agent& agent, const OracleOptions& o)
    : pm_(pm), space_(pm.map, agent, pm.selection.squeeze), cost_(pm.map), oracles_(space_) {
  select_queries();
  if (o.optimum && o.saved && o.saved(queries_)) {
    oracles_.fill(queries_, false, o.threads);  // the octile costs (weighted maps); the rest was saved
    has_optimum_ = true;
  } else {
    oracles_.fill(queries_, o.optimum, o.threads);
    has_optimum_ = o.optimum;
  }
}

void AgentMap::select_queries() {
  const Map& map = pm_.map;
  const QuerySelection& selection = pm_.selection;
  const double off = (map.kind == MapKind::grid && selection.convention == "center") ? 0.5 : 0.0;
  if (!pm_.has_scen) {
    // With a radius (docs/radius.md) only points the disc may stand on are drawn.
    std::function<bool(Point)> clear;
    if (space_.disc()) clear = [this](Point p) { return space_.validity()->point_clear(p, space_.R()); };
    drawn_ = draw_queries(map, space_.free(), selection.queries, selection.seed, clear, off);
    has_drawn_ = true;
    if (!selection.save_queries.empty()) {
      std::ofstream out(selection.save_queries);
      write_scenario(out, drawn_);
      if (!out) throw std::runtime_error(selection.save_queries + ": cannot write");
    }
  }
  const Scenario& scen = scenario();
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
    if (pm_.has_scen && map.kind == MapKind::grid && !space_.disc() && pm_.same_free_cells)
      qi.octile_optimal = l.optimal;  // docs/radius.md: empty for R > 0
    queries_.push_back(qi);
  }
}

}  // namespace navbench
