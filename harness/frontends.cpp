// The front ends, compiled as one translation unit: the subcommands (commands.cpp), run, sweep,
// the viewer's server and the dynamic-scenario driver share heavy headers (CLI11, nlohmann-json,
// httplib, the pipeline's Boost.Graph), parsed here once instead of five times: 25 s of compiler
// time instead of 61 (issue 12: the default job's build on a fresh machine). They hold no timed
// code (queries, builds and updates run in pipeline.cpp, registry.cpp and the representations), so
// this file compiles at -O1 in Release (harness/CMakeLists.txt). Each file still stands alone.
#include "harness/commands.cpp"
#include "harness/dynamic.cpp"
#include "harness/run.cpp"
#include "harness/serve.cpp"
#include "harness/sweep.cpp"
