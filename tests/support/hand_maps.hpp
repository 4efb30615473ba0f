// The hand-drawn maps of the conformance battery and their queries, each with the status it must
// get and, where worked out by hand, its exact optimum: an open room, tiny and fully blocked maps,
// walls between components, a long thin corridor and pinch points (a path may not cross one, SPEC §1).
// The Theta* battery runs the same queries.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "harness/run/pipeline.hpp"
#include "support/maps.hpp"

namespace testhand {

struct Case {
  navbench::Point s, g;
  navbench::Status expect;
  double optimal;  // worked out by hand; < 0 = not checked
};
struct HandMap {
  navbench::Map map;
  std::vector<Case> cases;
};

inline std::vector<HandMap> hand_maps() {
  using navbench::Status;
  auto grid = [](const std::vector<std::string>& rows, const std::string& name) {
    return testmaps::grid_from(rows, name, "conformance");
  };
  std::vector<HandMap> out;
  out.push_back({grid({"..........", "..........", "..........", "..........", ".........."}, "open"),
                 {{{0.5, 0.5}, {9.5, 4.5}, Status::ok, std::hypot(9.0, 4.0)},
                  {{2.5, 2.5}, {2.5, 2.5}, Status::ok, 0.0},                    // start == goal
                  {{2.2, 2.3}, {2.7, 2.9}, Status::ok, std::hypot(0.5, 0.6)},  // same cell
                  {{0, 0}, {10, 5}, Status::ok, std::hypot(10.0, 5.0)},        // map corners
                  {{-1, 2}, {3.5, 2.5}, Status::invalid_query, -1},            // outside
                  {{3.5, 2.5}, {3.5, 5.5}, Status::invalid_query, -1}}});
  out.push_back({grid({"."}, "one"), {{{0.5, 0.5}, {0.5, 0.5}, Status::ok, 0.0}, {{0.1, 0.2}, {0.9, 0.7}, Status::ok, -1}}});
  out.push_back({grid({"@@@", "@@@"}, "blocked"), {{{0.5, 0.5}, {2.5, 1.5}, Status::invalid_query, -1}}});
  out.push_back({grid({".....@....",
                       ".@@..@.@@.",
                       ".@...@..@.",
                       ".....@....",
                       "@@@@@@@@@@",
                       ".........."},
                      "walls"),
                 {{{0.5, 0.5}, {4.5, 3.5}, Status::ok, -1},
                  {{2.5, 2.5}, {0.5, 0.5}, Status::ok, -1},
                  {{0.5, 0.5}, {9.5, 0.5}, Status::no_path, -1},  // wall between
                  {{0.5, 5.5}, {9.5, 5.5}, Status::ok, 9.0},
                  {{1.5, 1.5}, {0.5, 0.5}, Status::invalid_query, -1}}});  // start in an obstacle
  std::vector<std::string> rows;
  rows.push_back(std::string(60, '.'));
  rows.push_back(std::string(59, '@') + ".");
  rows.push_back(std::string(60, '.'));
  out.push_back({grid(rows, "corridor"),
                 {{{0.5, 0.5}, {0.5, 2.5}, Status::ok, 2 * std::hypot(58.5, 0.5) + 1.0},
                  {{0.5, 0.5}, {59.5, 0.5}, Status::ok, 59.0}}});
  // Cells (1,1) and (2,2) touch only at the corner (2,2): a pinch point no path may cross.
  out.push_back({grid({"..@", "..@", "@@."}, "pinch"),
                 {{{0.5, 0.5}, {2.5, 2.5}, Status::no_path, -1}, {{0.5, 0.5}, {1.5, 1.5}, Status::ok, std::sqrt(2.0)}}});
  // With a way round, the path must go round, not through the pinch.
  out.push_back({grid({"....", "..@.", ".@..", "...."}, "pinch2"), {{{1.5, 1.5}, {2.5, 2.5}, Status::ok, std::sqrt(2.0)}}});
  return out;
}

inline HandMap hand_map(const std::string& name) {
  for (HandMap& h : hand_maps())
    if (h.map.name == name) return h;
  throw std::invalid_argument("no hand map " + name);
}

}  // namespace testhand
