// libFuzzer target: a cost layer (`--costs FILE`, datasets/terrain.hpp) for a 4 x 3 map. The
// contract: one weight per cell, each a finite number >= 1 or +inf (blocked), which written back
// (write_cost_layer) reads again the same; or InputError naming the file.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/terrain.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr int W = 4, H = 3;
  std::istringstream in(fuzz::text(data, size));
  try {
    const std::vector<double> w = read_cost_layer(in, "fuzz.costs", W, H);
    require(w.size() == std::size_t(W) * H, "one weight per cell");
    GridMap g;
    g.width = W;
    g.height = H;
    g.cells.assign(w.size(), 1);
    g.weights = w;
    for (std::size_t i = 0; i < w.size(); ++i) {
      require(w[i] >= 1 && !std::isnan(w[i]), "a weight is >= 1 or inf");
      if (std::isinf(w[i])) g.cells[i] = 0, g.weights[i] = 1;
    }
    std::ostringstream out;
    write_cost_layer(out, g);
    std::istringstream again(out.str());
    const std::vector<double> back = read_cost_layer(again, "fuzz.costs", W, H);
    for (std::size_t i = 0; i < w.size(); ++i)
      require(std::isinf(w[i]) ? std::isinf(back[i]) : std::abs(back[i] - w[i]) <= 1e-5 * w[i], "a written layer reads back (6 digits)");
  } catch (const base::InputError& e) {
    fuzz::one_line(e.what(), "fuzz.costs");
  }
  return 0;
}
