// `navbench run --dynamic SCEN` (docs/changing-maps.md): a map that changes between queries. Every
// representation is built once on the starting map and then brought up to date by each update —
// in place when it provides update(), else by a full rebuild, which is then what the update costs.
// The query pipeline is the one of static runs; validity, optimum and the grid8 check are judged
// on the map of the query's epoch.
#pragma once
#include <string>

#include "harness/run/run.hpp"

namespace navbench {

// Runs every dynamic scenario of cfg.dynamic: rows to PREFIX.csv (with the column `epoch`),
// PREFIX.updates.csv, PREFIX.build.csv and PREFIX.meta.json. Returns the exit status
// (3 when --checkopt found a grid8-optimal length that differs from the file's octile cost).
int run_dynamic(const RunConfig& cfg);

}  // namespace navbench
