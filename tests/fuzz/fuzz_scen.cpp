// libFuzzer target: the scenario reader either returns lines with finite numbers or throws InputError.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/movingai.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    navbench::Scenario s = navbench::read_scenario(in, "fuzz.scen");
    for (const auto& l : s.lines)
      if (!std::isfinite(l.sx) || !std::isfinite(l.optimal) || l.width <= 0) __builtin_trap();
    navbench::GridMap g;
    g.width = 3;
    g.height = 3;
    g.cells.assign(9, 1);
    navbench::check_scenario_matches(s, g);
  } catch (const navbench::base::InputError&) {
  }
  return 0;
}
