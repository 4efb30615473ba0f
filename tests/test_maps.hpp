// Small grid maps the test files share: a hand-drawn grid from rows ('.' free, anything else
// blocked), a seeded random grid with a given share of blocked cells, and a random patch (docs/changing-maps.md).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "datasets/dynamic.hpp"
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

}  // namespace testmaps
