// Every subcommand's command line (docs/command-line.md), parsed into typed structs by one file,
// cli/options.cpp, the only one that compiles CLI11: the commands themselves see only these structs.
// Each parse_* returns nullopt when --help was given (and printed), and throws std::invalid_argument
// with one line for a bad command line ("--limit: needs a positive integer, got '0'").
#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/text.hpp"

#include "datasets/generate.hpp"
#include "datasets/generate_dynamic.hpp"
#include "datasets/generate_polygons.hpp"
#include "datasets/terrain.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/run.hpp"
#include "harness/serve/serve.hpp"
#include "harness/sweep/sweep.hpp"

namespace navbench {

// The structs a subcommand takes are its part's (run/, sweep/, serve/): the parts below cli/ never
// see a command line.
// navbench run: nullopt: --help was given and printed.
std::optional<RunConfig> parse_run_args(const std::vector<std::string>& args);

// navbench sweep CONFIG [--out DIR] [--jobs N] [--shard K/N] [--threads N] [--quiet]
std::optional<SweepArgs> parse_sweep_args(const std::vector<std::string>& args);

// navbench merge SHARD_DIR... --out DIR
std::optional<MergeArgs> parse_merge_args(const std::vector<std::string>& args);

// navbench serve [--map PATH...] [--port P] [--host H] [--cache-maps N]
std::optional<ServeArgs> parse_serve_args(const std::vector<std::string>& args);

// navbench generate KIND ... --out DIR/NAME: a map (gen, checked) or, KIND changes, a change
// scenario of the grid map `map` (change, checked).
struct GenerateArgs {
  std::string kind, dir, name, map;
  GenerateOptions gen;
  ChangeOptions change;
  CostLayerOptions costs;  // kind costs (docs/terrain.md)
  PolygonMapOptions polygons;  // kind wkt without --map (docs/maps.md#seeded-polygon-maps)
  int queries = 100;
};
std::optional<GenerateArgs> parse_generate_args(const std::vector<std::string>& args);

// navbench structure --map FILE --rep SPEC... --out FILE.csv
struct StructureArgs {
  std::string map, out;
  std::vector<RepresentationSpec> reps;
};
std::optional<StructureArgs> parse_structure_args(const std::vector<std::string>& args);

// navbench list: no options; false after --help.
bool parse_list_args(const std::vector<std::string>& args);

namespace cli {
// A message as the one line of an error: line breaks and tabs as spaces, other control bytes and
// bytes that are not UTF-8 as \xNN (base::printable: messages quote what a file held), and a
// message that quotes a whole long line shortened in its middle, keeping where (the start) and why
// (the end).
inline std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  constexpr std::size_t kHead = 400, kTail = 300;
  if (s.size() > kHead + kTail + 100)
    s = s.substr(0, kHead) + " [... " + std::to_string(s.size() - kHead - kTail) + " bytes ...] " + s.substr(s.size() - kTail);
  return base::printable(s);
}
}  // namespace cli

}  // namespace navbench
