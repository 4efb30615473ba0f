// navbench's declaration of the competition's any-angle-track point (SPEC §10): a point of the
// plane, double x, y; query cell (x, y) is the corner point (x, y).
// Written for navbench (not the competition's file): the one type an entry's code names, under the
// name and header the entries include, so that an unmodified entry compiles against navbench's host.
#pragma once

namespace GPPC {
struct xyLoc {
  double x, y;
};
}  // namespace GPPC
