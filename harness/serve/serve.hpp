// `navbench serve [--map PATH...] [--port P]`: the live viewer (docs/viewer.md). An HTTP server on
// 127.0.0.1 serving one page (harness/serve/web/, embedded into the binary at build time) and a
// small JSON API; every query runs through the same pipeline as `navbench run`.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace navbench {

// `navbench serve [--map PATH...] [--port P] [--host H] [--cache-maps N] [--rep gppc:...]` (cli/ fills it).
struct ServeArgs {
  std::vector<std::string> maps;
  int port = 8080;
  std::string host = "127.0.0.1";
  std::size_t cache_maps = 4;
  std::vector<std::string> reps;  // planners from outside offered on the page (gppc:..., docs/outside-planners.md)
};

// Loads the maps, serves until SIGINT or SIGTERM. Returns the exit status: 0 after a clean stop,
// 2 on bad map files, 1 when the port cannot be bound.
int serve_command(ServeArgs o);

}  // namespace navbench
