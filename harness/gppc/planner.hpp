// A competition entry as a planner (SPEC §10, docs/outside-planners.md):
// `--rep gppc:path=P,track=classic|anyangle[,name=N]` plus the limits of client.hpp. It plans by
// the entry's GetPath in a child process (EntryProcess); its Outcome carries the entry's own
// GetPath time as search_us and its verdict (judge.hpp), which the judge puts beside the exact
// validity test.
#pragma once
#include <string>

#include "harness/registry/registry.hpp"

namespace navbench::gppc {

// The registry line (harness/registry/registry.cpp).
RepresentationEntry registry_entry();
// The `--rep gppc:...` check before any work: declared keys and values, path= and track= given,
// the program there. Throws std::invalid_argument with one line.
void check_spec(const std::string& params);
// The `representation` column of a `gppc:...` value: "gppc:NAME", NAME the name= parameter or the
// entry program's file name; the row never records the path, so shards built elsewhere merge.
std::string row_name(const std::string& params);

}  // namespace navbench::gppc
