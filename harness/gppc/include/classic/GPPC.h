// navbench's declaration of the competition's classic-track point (SPEC §10): a cell, int16_t x, y.
// An entry includes "GPPC.h" and "Entry.h"; navbench's host provides both, so the entry compiles
// against the host in place of the competition's driver.
#pragma once
#include <cstdint>

namespace GPPC {
struct xyLoc {
  std::int16_t x, y;
};
}  // namespace GPPC
