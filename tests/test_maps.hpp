// Small grid maps the test files share: a hand-drawn grid from rows ('.' free, anything else
// blocked) and a seeded random grid with a given share of blocked cells.
#pragma once
#include <random>
#include <string>
#include <vector>

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

}  // namespace testmaps
