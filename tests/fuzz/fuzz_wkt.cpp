// libFuzzer target: the WKT polygon map reader either returns a map or throws InputError.
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/wkt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    navbench::PolygonMap m = navbench::read_wkt_map(in, "fuzz.wkt");
    if (m.walkable.rings.empty()) __builtin_trap();
  } catch (const navbench::base::InputError&) {
  }
  return 0;
}
