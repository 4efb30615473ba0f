// The map fixtures the test files share (docs/testing.md#fixtures): hand-drawn grids, seeded random
// grids (three generators, each kept because tests pin maps by their seeds), generated maps,
// weighted grids in blobs, random free cell pairs, random patches (docs/changing-maps.md), a Polyanya mesh of a grid's free cells, and an independent 8-connected
// Dijkstra on weighted grids. One copy each: a test file that needs one includes this header.
#pragma once
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dynamic.hpp"
#include "datasets/generate.hpp"
#include "datasets/polyanya.hpp"
#include "geometry/free_space.hpp"
#include "geometry/map.hpp"

namespace testmaps {

// A hand-drawn grid from rows: '.' free, anything else blocked.
inline navbench::Map grid_from(const std::vector<std::string>& rows, const std::string& name = "hand",
                               const std::string& collection = {}) {
  navbench::GridMap g;
  g.height = int(rows.size());
  g.width = int(rows[0].size());
  for (auto& r : rows)
    for (char c : r) g.cells.push_back(c == '.' ? 1 : 0);
  return navbench::make_grid_map(g, name, collection);
}

// Each cell blocked with probability `blocked` (a 64-bit Mersenne twister the caller seeds and keeps).
inline navbench::Map random_grid(int w, int h, double blocked, std::mt19937_64& rng) {
  navbench::GridMap g;
  g.width = w;
  g.height = h;
  std::bernoulli_distribution b(blocked);
  for (int i = 0; i < w * h; ++i) g.cells.push_back(b(rng) ? 0 : 1);
  return navbench::make_grid_map(g, "random");
}

// Each cell blocked when a 32-bit Mersenne twister seeded with `seed` draws below blocked_percent % 100.
inline navbench::Map random_grid_percent(int w, int h, int blocked_percent, unsigned seed) {
  std::mt19937 rng(seed);
  navbench::GridMap g;
  g.width = w;
  g.height = h;
  for (int i = 0; i < w * h; ++i) g.cells.push_back(int(rng() % 100) < blocked_percent ? 0 : 1);
  return navbench::make_grid_map(g, "random");
}

// Random cells plus six square blocks, alternately solid and open, so that a subdivision of the map
// has cells of many sizes.
inline navbench::Map random_grid_with_blocks(int w, int h, double blocked, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution b(blocked);
  navbench::GridMap g;
  g.width = w;
  g.height = h;
  for (int i = 0; i < w * h; ++i) g.cells.push_back(b(rng) ? 0 : 1);
  std::uniform_int_distribution<int> px(0, w - 1), py(0, h - 1), sz(2, std::max(3, w / 3));
  for (int k = 0; k < 6; ++k) {
    const int x0 = px(rng), y0 = py(rng), s = sz(rng), v = k % 2;
    for (int y = y0; y < std::min(h, y0 + s); ++y)
      for (int x = x0; x < std::min(w, x0 + s); ++x) g.cells[std::size_t(y) * w + x] = std::uint8_t(v);
  }
  return navbench::make_grid_map(g, "random");
}

// `navbench generate --kind random` (datasets/generate.hpp): a size x size map, density % blocked.
inline navbench::Map generated_random(std::uint64_t seed, double density, int size) {
  navbench::GenerateOptions o;
  o.kind = "random";
  o.width = o.height = size;
  o.density = density;
  o.seed = seed;
  return navbench::make_grid_map(navbench::generate_map(o), "random-" + std::to_string(seed), "generated");
}

// Weights in square blobs over a random grid (docs/terrain.md): `count` blobs of radius
// 1..max_radius, each of one weight in {1, 1.5, 2, 3, 5} (never below `base`, the weight of the cells
// no blob covers), so that borders and regions both occur; blocked cells weigh 1.
struct Blobs {
  int count = 6;
  int max_radius = 5;
  double base = 1;
  std::string terrain = "test";
};
inline navbench::Map weighted_grid(int w, int h, double blocked, std::mt19937_64& rng, const Blobs& b = {}) {
  navbench::Map m = random_grid(w, h, blocked, rng);
  const double levels[] = {1, 1.5, 2, 3, 5};
  m.grid.weights.assign(m.grid.cells.size(), b.base);
  for (int k = 0; k < b.count; ++k) {
    const int cx = int(rng() % unsigned(w)), cy = int(rng() % unsigned(h)), r = 1 + int(rng() % unsigned(b.max_radius));
    const double v = std::max(b.base, levels[rng() % 5]);
    for (int y = std::max(0, cy - r); y <= std::min(h - 1, cy + r); ++y)
      for (int x = std::max(0, cx - r); x <= std::min(w - 1, cx + r); ++x) m.grid.weights[std::size_t(y) * w + x] = v;
  }
  for (std::size_t i = 0; i < m.grid.cells.size(); ++i)
    if (!m.grid.cells[i]) m.grid.weights[i] = 1;
  m.terrain = b.terrain;
  return m;
}

// The free cells of g, row by row.
inline std::vector<std::pair<int, int>> free_cells(const navbench::GridMap& g) {
  std::vector<std::pair<int, int>> out;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      if (g.passable(x, y)) out.push_back({x, y});
  return out;
}

// n pairs of random free cell centres of m (a generator seeded with `seed`).
inline std::vector<std::pair<navbench::Point, navbench::Point>> free_cell_pairs(const navbench::Map& m, const navbench::FreeSpace& fs,
                                                                              std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> x(0, m.grid.width - 1), y(0, m.grid.height - 1);
  std::vector<std::pair<navbench::Point, navbench::Point>> out;
  auto cell = [&] {
    for (;;) {
      const navbench::Point p{x(rng) + 0.5, y(rng) + 0.5};
      if (fs.point_free(p)) return p;
    }
  };
  while (int(out.size()) < n) out.emplace_back(cell(), cell());
  return out;
}

// The least cost of an 8-connected centre-to-centre path without corner cutting, by plain Dijkstra:
// a step costs its length times the mean of its two cells' weights (+inf when unreachable).
inline double dijkstra8(const navbench::GridMap& g, int sx, int sy, int gx, int gy) {
  const int W = g.width, H = g.height;
  std::vector<double> d(std::size_t(W) * H, INFINITY);
  using E = std::pair<double, int>;
  std::priority_queue<E, std::vector<E>, std::greater<>> pq;
  d[std::size_t(sy) * W + sx] = 0;
  pq.push({0, sy * W + sx});
  while (!pq.empty()) {
    auto [c, v] = pq.top();
    pq.pop();
    if (c > d[std::size_t(v)]) continue;
    const int x = v % W, y = v / W;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy) continue;
        const int nx = x + dx, ny = y + dy;
        if (!g.passable(nx, ny)) continue;
        if (dx && dy && (!g.passable(x + dx, y) || !g.passable(x, y + dy))) continue;
        const double step = (dx && dy ? M_SQRT2 : 1.0) * 0.5 * (g.weight(x, y) + g.weight(nx, ny));
        const int u = ny * W + nx;
        if (c + step < d[std::size_t(u)]) {
          d[std::size_t(u)] = c + step;
          pq.push({c + step, u});
        }
      }
  }
  return d[std::size_t(gy) * W + gx];
}

// A random k x k block of free or blocked cells (k = 1..kmax) placed on the map; the cells it changed.
inline std::vector<navbench::CellChange> random_patch(navbench::GridMap& g, std::mt19937_64& rng, int kmax) {
  const int k = 1 + int(rng() % unsigned(kmax));
  navbench::Patch patch{k, k, std::vector<std::uint8_t>(std::size_t(k * k), std::uint8_t(rng() % 2))};
  std::vector<navbench::CellChange> ch;
  // x then y, drawn in this order (as arguments of apply_patch they would be drawn in an order each compiler picks).
  const int x0 = int(rng() % unsigned(g.width - k + 1)), y0 = int(rng() % unsigned(g.height - k + 1));
  navbench::apply_patch(g, patch, x0, y0, ch);
  return ch;
}

// random_patch three times in four; otherwise a checkerboard patch or the inverse of the cells under it.
inline std::vector<navbench::CellChange> mixed_patch(navbench::GridMap& g, std::mt19937_64& rng, int kmax) {
  const int r = int(rng() % 4);
  if (r > 0) return random_patch(g, rng, kmax);
  const int k = 1 + int(rng() % unsigned(kmax)), x0 = int(rng() % unsigned(g.width - k + 1)), y0 = int(rng() % unsigned(g.height - k + 1));
  navbench::Patch p{k, k, std::vector<std::uint8_t>(std::size_t(k * k))};
  const bool invert = rng() % 2;
  for (int y = 0; y < k; ++y)
    for (int x = 0; x < k; ++x)
      p.cells[std::size_t(y * k + x)] = invert ? !g.passable(x0 + x, y0 + y) : std::uint8_t((x + y) % 2);
  std::vector<navbench::CellChange> ch;
  navbench::apply_patch(g, p, x0, y0, ch);
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
