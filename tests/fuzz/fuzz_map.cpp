// libFuzzer target: the Moving AI map reader either returns a consistent map or throws InputError.
#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/movingai.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    navbench::GridMap m = navbench::read_movingai_map(in, "fuzz.map");
    if (m.cells.size() != std::size_t(m.width) * std::size_t(m.height)) __builtin_trap();
  } catch (const navbench::base::InputError&) {
  }
  return 0;
}
