// The disc agent's fixtures (docs/radius.md) shared by the radius and Theta* batteries: an
// independent slow clearance test, the generated maps with corridors exactly 2R wide, pinch points
// and random grids, their queries, and a map prepared for one radius as the harness prepares it.
#pragma once
#include <algorithm>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "datasets/movingai.hpp"
#include "geometry/distance.hpp"
#include "harness/run/run.hpp"
#include "support/maps.hpp"

namespace testradius {

using namespace navbench;
// An independent slow clearance: brute force over every blocked square and the map's four sides,
// no clearance grid, no row scans (radius_validity.cpp's fast path), only the distance primitives.
struct SlowClearance {
  const GridMap& g;
  template <class BoxDist>
  double over_squares(BoxDist dist) const {
    double d = std::numeric_limits<double>::infinity();
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x)
        if (!g.passable(x, y)) d = std::min(d, dist(double(x), double(y), double(x + 1), double(y + 1)));
    return d;
  }
  double sides(double x0, double y0, double x1, double y1) const {
    return std::min(std::min(x0, y0), std::min(double(g.width) - x1, double(g.height) - y1));
  }
  double point(Point p) const {
    return std::min(sides(p.x, p.y, p.x, p.y),
                    over_squares([&](double a, double b, double c, double d) { return point_box_distance(p, a, b, c, d); }));
  }
  double segment(Point p, Point q) const {
    return std::min(sides(std::min(p.x, q.x), std::min(p.y, q.y), std::max(p.x, q.x), std::max(p.y, q.y)),
                    over_squares([&](double a, double b, double c, double d) { return segment_box_distance(p, q, a, b, c, d); }));
  }
  double arc(const Arc& arc) const {
    double x0, y0, x1, y1;
    arc_bounds(arc, x0, y0, x1, y1);
    return std::min(sides(x0, y0, x1, y1),
                    over_squares([&](double a, double b, double c, double d) { return arc_box_distance(arc, a, b, c, d); }));
  }
  // docs/radius.md for R > 0: every piece keeps distance >= R - 1e-9.
  bool valid(const std::vector<PathItem>& items, double R) const {
    const double lim = R - 1e-9;
    if (items.size() == 1) return point(items[0].p) >= lim;
    for (std::size_t i = 1; i < items.size(); ++i) {
      if (!items[i].arc_centre) {
        if (segment(items[i - 1].p, items[i].p) < lim) return false;
        continue;
      }
      Arc a;
      if (!make_arc(items[i - 1].p, items[i].p, items[i + 1].p, a) || this->arc(a) < lim) return false;
      ++i;
    }
    return true;
  }
};

// The generated maps of the radius battery: corridors exactly 2R wide (1 cell: R = 0.5; 3 cells:
// R = 1.5), pinch points, open rooms and seeded random grids.
inline std::vector<Map> radius_maps() {
  std::vector<Map> out;
  out.push_back(testmaps::grid_from({"......@@@.....",
                      "......@@@.....",
                      "..............",
                      "......@@@.....",
                      "......@@@....."}, "corridor-1", "conformance"));
  out.push_back(testmaps::grid_from({"......@@@@.......",
                      "......@@@@.......",
                      ".................",
                      ".................",
                      ".................",
                      "......@@@@.......",
                      "......@@@@......."}, "corridor-3", "conformance"));
  out.push_back(testmaps::grid_from({"..........",
                      "..@...@...",
                      "...@.@....",
                      "....@.....",
                      "...@.@..@.",
                      "........@."}, "pinches", "conformance"));
  std::mt19937_64 rng(13);
  for (int k = 0; k < 2; ++k) {
    GridMap g;
    g.width = 14;
    g.height = 12;
    std::bernoulli_distribution b(0.18);
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back(b(rng) ? 0 : 1);
    out.push_back(make_grid_map(g, "random-" + std::to_string(k), "conformance"));
  }
  return out;
}

// Queries between cell centres, some valid for a radius and some not (seeded), plus the two ends
// of the map's middle row (through the corridors).
inline Scenario radius_queries(const Map& m, int random_pairs = 10) {
  Scenario sc;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> X(0, m.grid.width - 1), Y(0, m.grid.height - 1);
  auto add = [&](int sx, int sy, int gx, int gy) {
    ScenarioLine l;
    l.map = m.name;
    l.width = m.grid.width;
    l.height = m.grid.height;
    l.sx = sx, l.sy = sy, l.gx = gx, l.gy = gy;
    sc.lines.push_back(l);
  };
  const int mid = m.grid.height / 2;
  add(0, mid, m.grid.width - 1, mid);
  add(1, mid, m.grid.width - 2, mid);
  for (int k = 0; k < random_pairs; ++k) {
    int sx, sy, gx, gy;
    do sx = X(rng), sy = Y(rng); while (!m.grid.passable(sx, sy));
    do gx = X(rng), gy = Y(rng); while (!m.grid.passable(gx, gy));
    add(sx, sy, gx, gy);
  }
  return sc;
}

inline const std::vector<double> kRadii = {0, 0.3, 0.5, 1.5};

// A map and its queries for one radius, as the harness prepares them (its optimum included).
struct Prepared {
  PreparedMap pm;
  std::unique_ptr<AgentMap> am;  // reads pm
};
inline std::unique_ptr<Prepared> prepared(const Map& m, double R, int random_pairs = 10) {
  auto p = std::make_unique<Prepared>();
  p->pm.map = m;
  p->pm.scen = radius_queries(m, random_pairs);
  p->pm.has_scen = true;
  p->pm.selection.convention = "center";
  p->am = std::make_unique<AgentMap>(p->pm, Agent::with_radius(R), OracleOptions{});
  return p;
}


}  // namespace testradius
