// The subcommands whose work is the results package's (python/navbench, docs/results.md#the-python-package):
// `navbench export` and `navbench compare` run `scripts/navpy.sh -m navbench NAME ARGS...` in place of
// this process, so the results schema is read, and the database and the comparison written, by one
// implementation (the Python one, which the report also uses).
#pragma once

#include <string>
#include <vector>

namespace navbench {
int export_command(const std::vector<std::string>& args, const std::vector<std::string>& argv);
int compare_command(const std::vector<std::string>& args, const std::vector<std::string>& argv);
}  // namespace navbench
