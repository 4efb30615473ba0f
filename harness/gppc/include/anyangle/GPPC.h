// navbench's declaration of the competition's any-angle-track point (SPEC §10): a point of the
// plane, double x, y; query cell (x, y) is the corner point (x, y).
#pragma once

namespace GPPC {
struct xyLoc {
  double x, y;
};
}  // namespace GPPC
