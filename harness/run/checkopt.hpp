// --checkopt (as Warthog's): the representations declared grid8-optimal, under a heuristic that
// keeps grid A* optimal, must find the scenario file's cost to its printed precision
// (docs/validity.md#checking-grid8-against-the-scenario); a run with a mismatch exits 3.
#pragma once
#include <string>
#include <vector>

#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "search/heuristic.hpp"

namespace navbench {

class OptimalityCheck {
 public:
  OptimalityCheck(bool on, const std::vector<Heuristic>& heuristics, const std::string& first_smoothing);
  // Whether row r of `spec` is checked: on, grid8-optimal, an admissible heuristic (weight <= 1,
  // never above the octile distance: not manhattan), the first smoothing (one row per query), A*,
  // and a plain map (on a weighted one grid8's path is the cheapest, not the shortest).
  bool applies(const RepresentationSpec& spec, const ResultRow& r) const;
  // Counts one checked row; a mismatch prints one line: `where` names the query, `got` and `want` the costs.
  void record(bool match, const std::string& where, const std::string& got, const std::string& want);
  // Prints the summary when on; the exit status: 3 with a mismatch, else 0.
  int finish() const;

 private:
  bool on_;
  std::vector<std::string> admissible_;
  std::string first_smoothing_;
  long checked_ = 0, mismatches_ = 0;
};

// The build row of a representation just built (`ms`: its timed build).
BuildRow make_build_row(const std::string& map, const RepresentationSpec& spec, const std::string& params,
                        const Planner& rep, double ms);

}  // namespace navbench
