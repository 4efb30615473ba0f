// `navbench serve [--map PATH...] [--port P]`: the live viewer (docs/viewer.md). An HTTP server on
// 127.0.0.1 serving one page (harness/serve/web/, embedded into the binary at build time) and a
// small JSON API; every query runs through the same pipeline as `navbench run`.
#pragma once
#include <string>
#include <vector>

namespace navbench {

// Parses its options (cli/arguments.hpp), loads the maps, serves until SIGINT or
// SIGTERM. Returns the exit status: 0 after --help or a clean stop, 2 on bad options or map files,
// 1 when the port cannot be bound.
int serve_command(const std::vector<std::string>& args);

}  // namespace navbench
