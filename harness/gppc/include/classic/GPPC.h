// navbench's declaration of the competition's classic-track point (SPEC §10): a cell, int16_t x, y.
// An entry includes "GPPC.h" and "Entry.h"; navbench's host provides both, so the entry compiles
// against the host in place of the competition's driver.
// Written for navbench (not the competition's file): the one type an entry's code names, under the
// name and header the entries include, so that an unmodified entry compiles against navbench's host.
#pragma once
#include <cstdint>

namespace GPPC {
struct xyLoc {
  std::int16_t x, y;
};
}  // namespace GPPC
