// `navbench sweep CONFIG` and `navbench merge`: many maps x representations x options, run as
// (map, convention, representation) units in parallel, each written atomically when it finishes,
// so an interrupted sweep loses nothing it wrote and a re-run skips finished units.
#pragma once
#include <string>
#include <vector>

namespace navbench {

// Parses and checks a sweep config's JSON text without touching the file system (map paths are
// not resolved): InputError with one line on anything wrong. The fuzz target's entry point.
void check_sweep_config_text(const std::string& text);

// `navbench sweep CONFIG [--out DIR] [--jobs N] [--shard K/N] [--threads N] [--quiet]` (cli/ fills it).
struct SweepArgs {
  std::string config_path, out;
  unsigned jobs = 1;  // default: the number of cores
  long shard_k = 1, shard_n = 1;
  int threads = 1;
  bool quiet = false;
};
// `navbench merge SHARD_DIR... --out DIR`.
struct MergeArgs {
  std::vector<std::string> dirs;
  std::string out;
};

// Runs a sweep; returns the exit status. argv goes to meta.json.
int sweep_command(const SweepArgs& o, const std::vector<std::string>& argv);
// Merges the shard folders of one sweep; returns the exit status.
int merge_command(const MergeArgs& o, const std::vector<std::string>& argv);

}  // namespace navbench
