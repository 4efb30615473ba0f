// The verdict on an entry's answer (SPEC §10, docs/outside-planners.md#6-why-navbenchs-verdict-is-the-stricter-one):
// the same columns as for navbench's own paths. A reply the harness cannot take (the entry died, broke a
// limit, never finished its path, sent a coordinate that is not a finite number, or points so far
// apart that the length overflows) is status
// `error` with the reason; a path is `ok`, and `valid` = 0 with the reason when its ends are not the
// query's or it breaks its track's rule: classic, cells joined by cardinal or diagonal runs whose
// every unit step is free and cuts no corner; any-angle, the exact test of docs/validity.md at the
// `corner` convention.
#pragma once
#include <optional>
#include <string>

#include "geometry/free_space.hpp"
#include "geometry/point.hpp"
#include "harness/gppc/client.hpp"

namespace navbench::gppc {

struct Verdict {
  enum class Kind { ok, no_path, error } kind = Kind::error;
  std::string reason;          // error: why; ok and invalid: why invalid; else empty
  Polyline path;               // in map coordinates (cell centres for classic), repeated points merged
  double length = 0;           // classic: the octile sum; any-angle: the Euclidean length
  bool valid = false;
};

// s, g: the query as the entry received it (cells, or corner points for any-angle).
Verdict judge(const EntryAnswer& a, Track track, const FreeSpace& fs, Point s, Point g);

// The classic track's rule on a list of cells; empty when the path keeps it, else the reason.
std::string classic_rule(const GridMap& m, const std::vector<Point>& cells);

}  // namespace navbench::gppc
