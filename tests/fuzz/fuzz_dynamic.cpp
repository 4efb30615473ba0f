// libFuzzer target: a changing-map scenario (`version 2`, datasets/dynamic.hpp) and its patch file,
// the input cut at its first NUL byte (scenario, then patches). The contract: every command in
// range (a placed patch inside the map, a query's cells inside it, one finite cost per name,
// epochs in order), which replayed on the map (apply_patch) keeps the map's size; or InputError
// naming one of the two files.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/dynamic.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [scen, patches] = fuzz::two_files(fuzz::text(data, size));
  std::istringstream sin(scen), pin(patches);
  DynamicScenario d;
  try {
    d = read_dynamic_scenario(sin, "fuzz.scen", pin, "fuzz.patch");
  } catch (const base::InputError& e) {
    const std::string w = e.what();
    require(w.find('\n') == std::string::npos && (w.starts_with("fuzz.scen") || w.starts_with("fuzz.patch")), "one line naming the file");
    return 0;
  }
  require(d.width >= 1 && d.height >= 1 && d.octile >= 0 && std::size_t(d.octile) < d.cost_names.size(), "a map and an octile cost");
  GridMap g;
  g.width = d.width;
  g.height = d.height;
  g.cells.assign(std::size_t(d.width) * std::size_t(d.height), 1);
  long epoch = -1;
  std::vector<CellChange> changed;
  for (const DynamicCommand& c : d.commands) {
    require(c.epoch >= epoch, "epochs in order");
    epoch = c.epoch;
    if (c.kind == DynamicCommand::place) {
      require(c.id >= 0 && std::size_t(c.id) < d.patches.size(), "a placed patch exists");
      const Patch& p = d.patches[std::size_t(c.id)];
      require(p.cells.size() == std::size_t(p.width) * std::size_t(p.height), "a patch has its cells");
      require(c.x >= 0 && c.y >= 0 && c.x + p.width <= d.width && c.y + p.height <= d.height, "a placed patch inside the map");
      changed.clear();
      const std::size_t n = apply_patch(g, p, c.x, c.y, changed);
      require(n == changed.size() && g.cells.size() == std::size_t(d.width) * std::size_t(d.height), "a patch keeps the map's size");
    } else {
      require(g.inside(c.sx, c.sy) && g.inside(c.gx, c.gy), "a query's cells inside the map");
      require(c.costs.size() == d.cost_names.size() && c.cost_text.size() == c.costs.size(), "one cost per name");
      for (double v : c.costs) require(std::isfinite(v), "costs finite");
    }
  }
  return 0;
}
