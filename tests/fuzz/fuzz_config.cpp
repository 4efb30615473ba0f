// libFuzzer target: the sweep config reader either accepts the JSON or throws InputError (one line).
#include <cstdint>
#include <string>

#include "datasets/movingai.hpp"
#include "harness/sweep/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    navbench::check_sweep_config_text(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const navbench::base::InputError&) {
  }
  return 0;
}
