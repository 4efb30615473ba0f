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

// Arguments after `sweep`: CONFIG [--out DIR] [--jobs N] [--shard K/N] [--quiet]. Returns exit status.
int sweep_command(const std::vector<std::string>& args, const std::vector<std::string>& argv);
// Arguments after `merge`: SHARD_DIR... --out DIR. Returns exit status.
int merge_command(const std::vector<std::string>& args, const std::vector<std::string>& argv);

}  // namespace navbench
