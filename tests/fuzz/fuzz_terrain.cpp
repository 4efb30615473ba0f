// libFuzzer target: a --terrain table (datasets/terrain.hpp parse_terrain) on its first line and
// the Moving AI map it weights on the rest, read as `navbench run --terrain T --map M` reads them.
// The contract: a table of distinct characters (never '@', 'O', 'T') with finite weights >= 1 and
// a grid whose named passable cells carry their weight; or the option's one-line error
// (std::invalid_argument, exit 2 like InputError) or InputError naming the map.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "datasets/terrain.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string s = fuzz::text(data, size);
  const std::size_t nl = s.find('\n');
  const std::string spec = s.substr(0, nl);
  TerrainTable t;
  try {
    t = parse_terrain(spec);
  } catch (const std::invalid_argument& e) {
    const std::string w = e.what();
    require(!w.empty() && w.find('\n') == std::string::npos, "an option error is one line");
    return 0;
  }
  require(!t.weights.empty() && t.text == spec, "a table has weights and keeps its text");
  for (std::size_t i = 0; i < t.weights.size(); ++i) {
    const auto [c, w] = t.weights[i];
    require(c != '@' && c != 'O' && c != 'T', "obstacles stay obstacles");
    require(std::isfinite(w) && w >= 1, "a weight is a finite number >= 1");
    for (std::size_t j = 0; j < i; ++j) require(t.weights[j].first != c, "a character named once");
  }
  if (nl == std::string::npos) return 0;
  std::istringstream in(s.substr(nl + 1));
  try {
    const GridMap g = read_movingai_map(in, "fuzz.map", &t);
    fuzz::check_grid(g);
  } catch (const base::InputError& e) {
    fuzz::one_line(e.what(), "fuzz.map");
  }
  return 0;
}
