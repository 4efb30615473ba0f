// The floors of the batteries (docs/testing.md#floors): how many of a map's queries that have a path
// an entry must answer with one. An entry that does not declare may_miss must answer every one; an
// entry that declares it (capabilities.hpp: recast, prm) answers at least the floor the battery
// states for it on that map (every one when none is stated), each missed query a `no_path` row with
// its reason. A case that can find no path for an entry is skipped by name with the reason the
// battery states, never passed. Every found path is checked as any other entry's is.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/registry/registry.hpp"
#include "harness/run/pipeline.hpp"

namespace testbattery {

// One stated floor: on `map` ("*": every map of the battery) `entry` answers at least `least` of the
// queries that have a path; or, with `skip`, the map (every map: the battery's cases) is skipped for
// it with that reason.
struct Floor {
  std::string entry, map;
  std::size_t least = 0;
  std::string skip;
};
using Floors = std::vector<Floor>;

// The floors the registered representation types declare for `battery` (their kFloors,
// representations/capabilities.hpp), each named by its entry ("recast") or variant
// ("recast:min_region=0,max_error=0", as tests/support/battery.cpp names it).
Floors declared_floors(const std::string& battery);

// Why `map` (by default "*": every map, so the battery's cases) is skipped for e ("" when it runs):
// a stated floor with `skip` for that map or for "*".
std::string skip_reason(const navbench::RepresentationEntry& e, const Floors& floors, const std::string& map = "*");

// The queries with a path of one map, for one entry: found or missed, held to the floor.
class PathCount {
 public:
  PathCount(const navbench::RepresentationEntry& e, const Floors& floors, std::string map);
  PathCount(const PathCount&) = delete;
  ~PathCount();  // checks the count against the floor
  // The first row of a query that has a path: true when it found one (the caller checks it); false
  // for a miss, counted when the entry may miss (a no_path row with its reason), a failure otherwise.
  bool found(const navbench::ResultRow& r);
  // The same for a search outside the pipeline: true when it found a path.
  bool found(bool ok, const std::string& what);
  std::size_t paths() const { return found_; }

 private:
  const navbench::RepresentationEntry& e_;
  std::string map_;
  std::size_t found_ = 0, missed_ = 0;
  bool every_ = true;
  std::size_t least_ = 0;
  std::string first_miss_;
};

// A representation that finds no path and says why (declares may_miss), with the capabilities of
// every battery: grid8 behind it, each query unreached. The batteries must fail on it.
navbench::RepresentationEntry finds_nothing();

// The failures (and skips) `f` records, captured instead of reported: a test that a battery fails.
struct Captured {
  std::vector<std::string> failures;
  bool skipped = false;
  bool has(const std::string& text) const;
};
Captured capture(const std::function<void()>& f);

// Runs a battery's body on finds_nothing() with its failures captured, and requires the floor's
// failure among them (no skip); returns them for further checks.
Captured fails_on_nothing(const std::function<void(const navbench::RepresentationEntry&)>& battery);

}  // namespace testbattery
