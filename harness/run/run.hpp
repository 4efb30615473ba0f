// `navbench run` (docs/command-line.md#run) and the unit of work it shares with `navbench
// sweep`: one map, one representation -> build once, then every selected query through the pipeline.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/description.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/prepared_map.hpp"

namespace navbench {

// Builds `spec` for am's agent (harness/run/timed_build.hpp) and runs every query of am: rows go to sink; returns the build row, or
// nullopt when nothing was built: the representation does not support this kind of map or the map is
// beyond a limit it declares (a note goes to stderr, and the record of why to `unrun`, when given:
// docs/results.md#maps-not-run), or it takes no weights and the map is weighted (its rows are not_applicable).
std::optional<BuildRow> run_unit(const AgentMap& am, const RepresentationSpec& spec, const UnitOptions& opt,
                                 const std::function<void(const ResultRow&)>& sink,
                                 const std::function<void(const UnrunRow&)>& unrun = nullptr);

// The record of a (map, convention, agent, representation) that has no rows (docs/results.md#maps-not-run):
// reason "skip_maps", "kind" or "cap", and the message saying why.
UnrunRow unrun_row(const Map& m, const std::string& convention, const Agent& agent, const RepresentationSpec& spec,
                   const std::string& reason, const std::string& message);

// `navbench run` (cli/ parses its arguments into a RunConfig, argv for meta.json included): runs; returns the process exit status (0 = completed; 3 = --checkopt found mismatches).
int run(const RunConfig& cfg);

}  // namespace navbench
