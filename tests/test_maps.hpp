// Small grid maps the test files share: a hand-drawn grid from rows ('.' free, anything else
// blocked), a seeded random grid with a given share of blocked cells, and a random patch (docs/changing-maps.md).
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dynamic.hpp"
#include "datasets/polyanya.hpp"
#include "geometry/map.hpp"

namespace testmaps {

inline navbench::Map grid_from(const std::vector<std::string>& rows) {
  navbench::GridMap g;
  g.height = int(rows.size());
  g.width = int(rows[0].size());
  for (auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return navbench::make_grid_map(g, "hand");
}

inline navbench::Map random_grid(int w, int h, double blocked, std::mt19937_64& rng) {
  navbench::GridMap g;
  g.width = w;
  g.height = h;
  std::bernoulli_distribution b(blocked);
  for (int i = 0; i < w * h; ++i) g.cells.push_back(b(rng) ? 0 : 1);
  return navbench::make_grid_map(g, "random");
}

// A random k x k block of free or blocked cells (k = 1..kmax) placed on the map; the cells it changed.
inline std::vector<navbench::CellChange> random_patch(navbench::GridMap& g, std::mt19937_64& rng, int kmax) {
  const int k = 1 + int(rng() % unsigned(kmax));
  navbench::Patch patch{k, k, std::vector<std::uint8_t>(std::size_t(k * k), std::uint8_t(rng() % 2))};
  std::vector<navbench::CellChange> ch;
  navbench::apply_patch(g, patch, int(rng() % unsigned(g.width - k + 1)), int(rng() % unsigned(g.height - k + 1)), ch);
  return ch;
}

// A Polyanya mesh (version 2) of a grid's free cells, one counter-clockwise square per free cell
// (x, y) -> (x + 1, y + 1), as datasets/maps/formats/draw.py makes office-cells.mesh: the same free
// space as the grid. Empty when no cell is free.
inline std::string cells_mesh_text(const navbench::GridMap& g) {
  std::map<std::pair<int, int>, int> cell, corner;  // (x, y) -> polygon id / vertex id
  std::vector<std::pair<int, int>> cells;            // polygon id -> its cell
  auto free = [&](int x, int y) { return g.passable(x, y); };
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      if (free(x, y)) {
        cell.emplace(std::pair{x, y}, int(cells.size()));
        cells.push_back({x, y});
      }
  if (cell.empty()) return {};
  std::vector<std::pair<int, int>> corners;
  for (int y = 0; y <= g.height; ++y)
    for (int x = 0; x <= g.width; ++x)
      if (free(x, y) || free(x - 1, y) || free(x - 1, y - 1) || free(x, y - 1)) {
        corner.emplace(std::pair{x, y}, int(corners.size()));
        corners.push_back({x, y});
      }
  auto id = [&](int x, int y) { return free(x, y) ? cell.at({x, y}) : -1; };
  std::ostringstream out;
  out << "mesh\n2\n" << corners.size() << ' ' << cell.size() << '\n';
  for (auto [x, y] : corners) {
    // The cells around the corner, counter-clockwise in (x, y); runs of -1 collapse to one.
    const int around[4] = {id(x, y), id(x - 1, y), id(x - 1, y - 1), id(x, y - 1)};
    std::vector<int> ps;
    for (int i = 0; i < 4; ++i)
      if (around[i] >= 0 || around[(i + 3) % 4] >= 0) ps.push_back(around[i]);
    if (ps.size() > 1 && ps.front() == -1 && ps.back() == -1) ps.pop_back();
    out << x << ' ' << y << ' ' << ps.size();
    for (int p : ps) out << ' ' << p;
    out << '\n';
  }
  for (auto [x, y] : cells) {
    // Version 2: neighbour k lies across the edge from vertex k - 1 to vertex k.
    out << "4 " << corner.at({x, y}) << ' ' << corner.at({x + 1, y}) << ' ' << corner.at({x + 1, y + 1}) << ' '
        << corner.at({x, y + 1}) << ' ' << id(x - 1, y) << ' ' << id(x, y - 1) << ' ' << id(x + 1, y) << ' ' << id(x, y + 1) << '\n';
  }
  return out.str();
}

// The grid m as that mesh, written to a file and read back as navbench reads a .mesh (the maps
// a mesh_only representation such as navmesh-file builds on); nullopt when no cell is free.
inline std::optional<navbench::Map> cells_mesh_map(const navbench::Map& m) {
  const std::string text = cells_mesh_text(m.grid);
  if (text.empty()) return std::nullopt;
  const auto dir = std::filesystem::temp_directory_path() / ("navbench-cells-mesh-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / ((m.name.empty() ? std::string("map") : m.name) + ".mesh")).string();
  std::ofstream(path) << text;
  return navbench::load_polyanya_mesh(path);
}

}  // namespace testmaps
