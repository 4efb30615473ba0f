// POST /api/cells and POST /api/reset: editing a grid map (docs/viewer.md#editing-a-map), and
// apply_edit, which also sets weights for api_terrain.cpp (docs/viewer.md#terrain-costs). The edit
// holds its map exclusively while it changes the cells and brings every cached build up to date
// (docs/changing-maps.md#updates), so a query sees the map either before or after an edit, never
// between.
#include <algorithm>

#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

namespace {

// Sets the cells of `want` (x, y, new value) that differ; returns those, each once (as apply_patch
// reports them).
std::vector<CellChange> set_cells(GridMap& g, const std::vector<CellChange>& want) {
  std::vector<CellChange> changed;
  for (const CellChange& c : want) {
    std::uint8_t& cell = g.cells[std::size_t(c.y) * std::size_t(g.width) + std::size_t(c.x)];
    if (cell != c.passable) {
      cell = c.passable;
      changed.push_back(c);
    }
  }
  return changed;
}

using LiveBuilds = std::vector<std::pair<std::string, std::shared_ptr<BuiltRep>>>;

// Takes the free space and the builds to bring up to date out of e's cache. Every cached build is
// finished: builds run under a shared lock of e.state, which the edit holds exclusively. Failed or
// unsupported ones are dropped (tried again on next use). Returns whether e had a free space.
bool take_live_builds(MapEntry& e, LiveBuilds& live, bool cells_changed) {
  std::lock_guard g(e.m);
  const bool had_free = e.space != nullptr;
  if (cells_changed) e.space.reset();  // the free space does not depend on weights
  // The builds at agent radii are made from a copy of the old cells: dropped, and made again from the
  // new cells on next use (as `navbench run --radius R` on the edited map; docs/viewer.md).
  e.radii.clear();
  for (auto it = e.reps.begin(); it != e.reps.end();) {
    std::shared_ptr<BuiltRep> b;
    try {
      b = it->second.built.get();
    } catch (...) {
    }
    if (!b || !b->rep) {
      it = e.reps.erase(it);
      continue;
    }
    live.emplace_back(it->first, std::move(b));
    ++it;
  }
  return had_free;
}

// Brings one build up to date; one entry of the answer's "updates".
json update_one(MapEntry& e, const std::string& text, const std::shared_ptr<BuiltRep>& b,
                const std::vector<CellChange>& changed, bool weights_changed) {
  std::lock_guard gb(b->m);
  const UpdateOutcome o = update_rep(*b, e.pm.map, changed, weights_changed);
  json u = {{"representation", text}, {"update_us", o.update_us}, {"in_place", o.in_place}};
  if (!b->rep) {  // dropped from the cache: the next request builds it again (and reports why it cannot)
    u["error"] = o.error;
    std::lock_guard g(e.m);
    if (auto it = e.reps.find(text); it != e.reps.end() && it->second.built.get() == b) e.reps.erase(it);
  }
  return u;
}

}  // namespace

json apply_edit(MapCache& maps, MapEntry& e, const std::vector<CellChange>& want, const NewWeights* nw) {
  GridMap& g = e.pm.map.grid;
  if (!e.original) e.original = g.cells;
  const std::vector<CellChange> changed = set_cells(g, want);
  // docs/terrain.md: the weights, and where they came from; a blocked cell weighs 1 (as the readers leave it).
  std::size_t weights_changed = 0;
  bool renamed = false;
  if (nw) {
    if (nw->weights.empty() != g.weights.empty()) weights_changed = std::max<std::size_t>(1, nw->weights.size());
    else
      for (std::size_t i = 0; i < nw->weights.size(); ++i) weights_changed += nw->weights[i] != g.weights[i];
    if (weights_changed) g.weights = nw->weights;
    if (nw->terrain != e.pm.map.terrain) {
      e.pm.map.terrain = nw->terrain;
      renamed = true;  // the rows' column `terrain` only: a new version, nothing to rebuild
    }
  }
  if (g.weighted())
    for (const CellChange& c : changed)
      if (!c.passable) g.weights[std::size_t(c.y) * std::size_t(g.width) + std::size_t(c.x)] = 1;
  json updates = json::array();
  double free_us = 0;
  if (!changed.empty() || weights_changed || renamed) {
    ++e.version;
    LiveBuilds live;
    // The free space (validity, components) and the builds (among them the exact optimum's) follow
    // the new cells: the free space is built afresh, each representation updates in place when it can.
    // New weights: grid4/grid8 in place, the other builds that take weights afresh; builds without
    // the capability weights do not read them (on a weighted map they answer not_applicable) and
    // follow changed cells only.
    if (take_live_builds(e, live, !changed.empty()) && !changed.empty()) {
      const auto t0 = base::Clock::now();
      auto fresh = std::make_shared<const AgentSpace>(e.pm.map, Agent{});
      free_us = base::us_since(t0);
      std::lock_guard g2(e.m);
      e.space = std::move(fresh);
    }
    for (auto& [text, b] : live) {
      if (changed.empty() && (!weights_changed || !b->spec.caps().weights)) continue;
      updates.push_back(update_one(e, text, b, changed, weights_changed != 0 && b->spec.caps().weights));
    }
  }
  return {{"map", maps.index_of(e)}, {"version", e.version}, {"changed", changed.size()}, {"weights_changed", weights_changed},
          {"weighted", g.weighted()}, {"terrain", e.pm.map.terrain}, {"free_space_us", free_us}, {"updates", updates}};
}

std::vector<std::pair<int, int>> request_cells(const json& body, const GridMap& g) {
  if (!body.contains("cells") || !body["cells"].is_array()) throw HttpError(400, "'cells' must be an array of [x, y] cells");
  const json& cells = body["cells"];
  if (cells.size() > kMaxCells) throw HttpError(413, "at most " + std::to_string(kMaxCells) + " cells per request");
  std::vector<std::pair<int, int>> out;
  out.reserve(cells.size());
  for (const auto& c : cells) {
    if (!c.is_array() || c.size() != 2 || !c[0].is_number_integer() || !c[1].is_number_integer())
      throw HttpError(400, "each of 'cells' must be [x, y] (two integers)");
    const long long x = c[0].get<long long>(), y = c[1].get<long long>();
    if (x < 0 || y < 0 || x >= g.width || y >= g.height)
      throw HttpError(400, "cell (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the map (0.." +
                               std::to_string(g.width - 1) + ", 0.." + std::to_string(g.height - 1) + ")");
    out.push_back({int(x), int(y)});
  }
  return out;
}

// POST /api/cells {"map": ID, "cells": [[x, y], ...], "blocked": true | false}
json api_cells(MapCache& maps, const json& body) {
  only_fields(body, {"map", "cells", "blocked"});
  MapEntry& e = map_of(maps, body);
  const GridMap& g = editable_grid(e);
  if (!body.contains("blocked") || !body["blocked"].is_boolean()) throw HttpError(400, "'blocked' must be true or false");
  const std::uint8_t v = body["blocked"].get<bool>() ? 0 : 1;
  // Every cell is checked before any changes: a bad request leaves the map as it was.
  std::vector<CellChange> want;
  for (const auto& [x, y] : request_cells(body, g)) want.push_back({x, y, v});
  std::unique_lock map_lock(e.state);  // waits for the queries in flight; new ones wait for this edit
  return apply_edit(maps, e, want);
}

// POST /api/reset {"map": ID}: the cells as read from the file, and no weights (as served at start).
json api_reset(MapCache& maps, const json& body) {
  only_fields(body, {"map"});
  MapEntry& e = map_of(maps, body);
  const GridMap& g = editable_grid(e);
  std::unique_lock map_lock(e.state);
  std::vector<CellChange> want;
  if (e.original)
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) want.push_back({x, y, (*e.original)[std::size_t(y) * std::size_t(g.width) + std::size_t(x)]});
  const NewWeights none;
  return apply_edit(maps, e, want, &none);
}

}  // namespace navbench::viewer
