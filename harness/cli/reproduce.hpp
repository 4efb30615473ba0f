// navbench reproduce NAME | --list (docs/reproduce.md): runs navbench's counterparts of a published
// table under the publication's conventions and prints both side by side.
#pragma once
#include <string>
#include <vector>

namespace navbench {
int reproduce_command(const std::vector<std::string>& args, const std::vector<std::string>& argv);
}  // namespace navbench
