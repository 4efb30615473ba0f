// libFuzzer target: a Polyanya polygon map (.poly, datasets/polyanya.hpp), read and made the
// polygon map of its symmetric difference. The contract: rings of at least three finite points
// and a polygon map of finite rings, or InputError.
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/polyanya.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(fuzz::text(data, size));
  try {
    const auto rings = read_polyanya_poly(in, "fuzz.poly");
    require(!rings.empty(), "at least one polygon");
    for (const auto& r : rings) {
      require(r.size() >= 3, "a polygon has at least three points");
      for (const Point& p : r) require(std::isfinite(p.x) && std::isfinite(p.y), "points finite");
    }
    fuzz::check_polygons(poly_polygon_map(rings, "fuzz.poly"));
  } catch (const base::InputError& e) {
    fuzz::one_line(e.what(), "fuzz.poly");
  }
  return 0;
}
