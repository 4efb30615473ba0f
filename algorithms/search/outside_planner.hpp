// What the pipeline knows of a planner from outside (harness/gppc, SPEC §10) beyond
// AnyRepresentation's outside_answer() and outside_build(): kept in this header of its own, which
// only the run and the entry's representation include.
#pragma once
#include <stdexcept>
#include <utility>
#include <vector>

#include "geometry/point.hpp"
#include "representations/types.hpp"

namespace navbench {

// Thrown by a representation's constructor whose build died on a map it does support (a planner
// from outside whose PreprocessMap or PrepareForSearch crashed, threw or broke a limit): the run
// gives every query of that map an `error` row with this reason instead of skipping the map.
struct BuildFailed : UnsupportedMap {
  using UnsupportedMap::UnsupportedMap;
};

class SearchWorkspace;

// A representation that answers queries ahead: told the (start, goal) of the searches about to be
// asked through one workspace (nullptr: the build's own search), in order — with --repetitions N
// each query N times in a row —, it sends them to that workspace's process in batches, so that the
// entry's GetPath calls run back to back as in the competition's driver, without navbench's work
// on each row between them (docs/outside-planners.md#4-what-is-measured-and-how). A search asked otherwise is
// answered alone.
class AnswersAhead {
 public:
  virtual ~AnswersAhead() = default;
  virtual void expect_queries(const std::vector<std::pair<Point, Point>>& queries, const SearchWorkspace* ws) = 0;
};

}  // namespace navbench
