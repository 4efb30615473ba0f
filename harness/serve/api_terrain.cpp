// Terrain costs in the viewer (docs/viewer.md#terrain-costs, docs/terrain.md):
//   POST /api/terrain {"map": ID, "terrain": "S=2,W=5"} or {"map": ID, "costs": "type costs\n...", "name": "x.costs"}
//       the map becomes the weighted map `navbench run --terrain T` / `--costs FILE` builds (from the
//       file's cells: earlier edits of cells are replaced), read by the same parser and reader;
//   POST /api/paint {"map": ID, "cells": [[x, y], ...], "weight": W}
//       a brush: the passable cells listed weigh W (blocked ones are skipped and counted);
//   GET /api/costs?map=ID
//       the map's weights as a cost layer file (what `navbench run --costs` reads).
// Each change goes through apply_edit (api_edit.cpp): the map held exclusively, grid4/grid8 updated
// in place, the other builds that take weights made afresh.
#include <cmath>
#include <sstream>

#include "datasets/terrain.hpp"
#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

namespace {

constexpr std::size_t kMaxTerrainChars = 200;
constexpr std::size_t kMaxNameChars = 100;

// A cost layer's name for the column `terrain` (as `navbench run --costs` names it: the file's name).
std::string layer_name(const json& body) {
  if (!body.contains("name")) return "costs";
  const json& n = body["name"];
  if (!n.is_string() || n.get<std::string>().empty() || n.get<std::string>().size() > kMaxNameChars ||
      n.get<std::string>().find_first_of("/\\\r\n,\"") != std::string::npos)
    throw HttpError(400, "'name' must be a file name (1 to " + std::to_string(kMaxNameChars) + " characters, no / \\ , \" or line break)");
  return n.get<std::string>();
}

}  // namespace

json api_terrain(MapCache& maps, const json& body) {
  only_fields(body, {"map", "terrain", "costs", "name"});
  MapEntry& e = map_of(maps, body);
  const GridMap& g0 = editable_grid(e);
  const bool has_t = body.contains("terrain"), has_c = body.contains("costs");
  if (has_t == has_c) throw HttpError(400, "give either 'terrain' (CHAR=W,...) or 'costs' (a cost layer's text)");
  std::vector<CellChange> want;
  NewWeights nw;
  if (has_t) {
    if (body.contains("name")) throw HttpError(400, "'name' names a cost layer; a terrain table is its own name");
    if (!body["terrain"].is_string() || body["terrain"].get<std::string>().size() > kMaxTerrainChars)
      throw HttpError(400, "'terrain' must be a text such as \"S=2,W=5\" (at most " + std::to_string(kMaxTerrainChars) + " characters)");
    const std::string text = body["terrain"].get<std::string>();
    if (text.find_first_of("\r\n") != std::string::npos) throw HttpError(400, "'terrain' must be one line");
    // The same parser and the same map as `navbench run --terrain` (prepare_map): the file read
    // with the table (invalid_argument: a 400 with its one line).
    const Map tm = load_terrain_map(e.pm.map.path, parse_terrain(text));
    if (tm.grid.width != g0.width || tm.grid.height != g0.height) throw HttpError(409, "map file " + e.pm.map.path + " changed since the start");
    for (int y = 0; y < g0.height; ++y)
      for (int x = 0; x < g0.width; ++x) want.push_back({x, y, tm.grid.cells[std::size_t(y) * std::size_t(g0.width) + std::size_t(x)]});
    nw.weights = tm.grid.weights;
    nw.terrain = tm.terrain;
  } else {
    if (!body["costs"].is_string()) throw HttpError(400, "'costs' must be the text of a cost layer file");
    const std::string name = layer_name(body);
    std::istringstream in(body["costs"].get<std::string>());
    // The same reader as `navbench run --costs` (InputError "name:line: why": a 400), applied as
    // apply_cost_layer does to the file's cells: an inf cell becomes blocked, a blocked one weighs 1.
    std::vector<double> w = read_cost_layer(in, name, g0.width, g0.height);
    std::unique_lock map_lock(e.state);
    const std::vector<std::uint8_t>& file_cells = e.original ? *e.original : g0.cells;
    for (int y = 0; y < g0.height; ++y)
      for (int x = 0; x < g0.width; ++x) {
        const std::size_t i = std::size_t(y) * std::size_t(g0.width) + std::size_t(x);
        std::uint8_t c = file_cells[i];
        if (!std::isfinite(w[i])) c = 0;
        if (!c) w[i] = 1;
        want.push_back({x, y, c});
      }
    nw.weights = std::move(w);
    nw.terrain = name;
    return apply_edit(maps, e, want, &nw);
  }
  std::unique_lock map_lock(e.state);
  return apply_edit(maps, e, want, &nw);
}

json api_paint(MapCache& maps, const json& body) {
  only_fields(body, {"map", "cells", "weight"});
  MapEntry& e = map_of(maps, body);
  const GridMap& g0 = editable_grid(e);
  if (!body.contains("weight") || !body["weight"].is_number() || !std::isfinite(body["weight"].get<double>()) || body["weight"].get<double>() < 1)
    throw HttpError(400, "'weight' must be a number >= 1 (a cell's cost per unit length)");
  const double weight = body["weight"].get<double>();
  const std::vector<std::pair<int, int>> at = request_cells(body, g0);  // every cell checked before any changes
  std::unique_lock map_lock(e.state);
  const GridMap& g = e.pm.map.grid;
  // An unweighted map becomes weighted (every passable cell 1); its `terrain` says it was painted:
  // "brush", or the table's or layer's text + " + brush".
  const std::string& was = e.pm.map.terrain;
  NewWeights nw{g.weighted() ? g.weights : std::vector<double>(g.cells.size(), 1.0),
                was.empty() ? std::string("brush") : was.ends_with("brush") ? was : was + " + brush"};
  std::size_t skipped = 0;
  bool differs = false;
  for (const auto& [x, y] : at) {
    const std::size_t i = std::size_t(y) * std::size_t(g.width) + std::size_t(x);
    if (!g.cells[i]) {
      ++skipped;  // a blocked cell stays blocked (and weighs nothing)
      continue;
    }
    differs |= g.weight(x, y) != weight;
    nw.weights[i] = weight;
  }
  if (!differs) nw = {g.weights, was};  // nothing to paint: the map stays as it is
  json out = apply_edit(maps, e, {}, &nw);
  out["skipped"] = skipped;
  return out;
}

std::string api_costs(MapEntry& e) {
  const GridMap& g = editable_grid(e);
  std::shared_lock map_lock(e.state);
  std::ostringstream out;
  write_cost_layer(out, g);
  return out.str();
}

}  // namespace navbench::viewer
