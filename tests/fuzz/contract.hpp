// What every libFuzzer target of tests/fuzz/ asserts of a reader (docs/testing.md#fuzzing): it
// returns a consistent value or throws the project's input error, nothing else. A broken
// invariant prints what broke and traps (libFuzzer keeps the input as a crash).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "datasets/movingai.hpp"
#include "geometry/map.hpp"

namespace navbench::fuzz {

[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "fuzz contract broken: %s\n", what.c_str());
  __builtin_trap();
}
inline void require(bool ok, const char* what) {
  if (!ok) broken(what);
}

inline std::string text(const std::uint8_t* data, std::size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// The input cut at its first NUL byte: two files in one input (a scenario and its patch file, a
// YAML file and its image). Without a NUL the second is empty.
inline std::pair<std::string, std::string> two_files(const std::string& s) {
  const std::size_t z = s.find('\0');
  if (z == std::string::npos) return {s, ""};
  return {s.substr(0, z), s.substr(z + 1)};
}

// An error message of a reader is one line, naming its file.
inline void one_line(const std::string& message, const std::string& file) {
  require(!message.empty() && message.find('\n') == std::string::npos, "an error message is one non-empty line");
  require(message.find(file) != std::string::npos, "an error message names its file");
}

// A grid as every reader hands it on: a side in 1..kMaxMapSide, one cell 0 or 1 each, weights
// absent or one finite weight >= 1 per cell.
inline void check_grid(const GridMap& g) {
  require(g.width >= 1 && g.height >= 1 && g.width <= kMaxMapSide && g.height <= kMaxMapSide, "grid sides in 1..kMaxMapSide");
  require(g.cells.size() == std::size_t(g.width) * std::size_t(g.height), "one cell per square");
  for (std::uint8_t c : g.cells) require(c == 0 || c == 1, "a cell is 0 or 1");
  if (g.weighted()) {
    require(g.weights.size() == g.cells.size(), "one weight per cell");
    for (double w : g.weights) require(std::isfinite(w) && w >= 1, "a weight is a finite number >= 1");
  }
}

// A polygon map: a walkable outer ring, every ring of at least three finite points.
inline void check_polygons(const PolygonMap& m) {
  require(!m.walkable.rings.empty(), "a polygon map has a walkable ring");
  auto rings = [](const PolygonShape& s) {
    for (const auto& r : s.rings) {
      require(r.size() >= 3, "a ring has at least three points");
      for (const Point& p : r) require(std::isfinite(p.x) && std::isfinite(p.y), "a ring's points are finite");
    }
  };
  rings(m.walkable);
  for (const auto& o : m.obstacles) {
    require(!o.rings.empty(), "an obstacle has a ring");
    rings(o);
  }
}

}  // namespace navbench::fuzz
