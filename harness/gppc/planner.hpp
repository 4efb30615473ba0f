// A competition entry as a planner (SPEC §10, docs/outside-planners.md):
// `--rep gppc:path=P,track=classic|anyangle[,name=N]` plus the limits of client.hpp. It plans by
// the entry's GetPath in a child process (EntryProcess); its Outcome carries the entry's own
// GetPath time as search_us and its verdict (judge.hpp), which the judge puts beside the exact
// validity test.
#pragma once
#include <memory>
#include <span>
#include <string>

#include "geometry/map.hpp"
#include "representations/params.hpp"
#include "search/planner.hpp"

namespace navbench::gppc {

// The entry's declared parameters (path, track, name, the limits of client.hpp, log, store).
std::span<const ParamDecl> parameters();
// The entry's planner on a grid map m: its program preprocesses the map and prepares in child
// processes; UnsupportedMap for a map that is not a grid, BuildFailed where the entry dies.
std::unique_ptr<Planner> build_planner(const Map& m, Params& p);
// The `--rep gppc:...` check before any work: declared keys and values, path= and track= given, the
// program there (asked on a one-cell map), a store= folder navbench can write. Throws
// std::invalid_argument with one line. Returns the `representation` column of its rows: "gppc:NAME",
// NAME the name= parameter or the entry program's file name; the row never records the path, so
// shards built elsewhere merge.
std::string check_spec(const std::string& params);

}  // namespace navbench::gppc
