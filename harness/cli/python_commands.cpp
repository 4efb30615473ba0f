// navbench export / navbench compare: exec scripts/navpy.sh -m navbench NAME ARGS... (python_commands.hpp).
#include "harness/cli/python_commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "base/error.hpp"

#ifndef NAVBENCH_SOURCE_DIR
#define NAVBENCH_SOURCE_DIR "."
#endif

namespace {

// The checkout navbench was built from holds scripts/navpy.sh (which puts python/ on PYTHONPATH and picks
// a Python with pandas); $NAVBENCH_SOURCE_DIR names another checkout.
std::string navpy() {
  const char* env = std::getenv("NAVBENCH_SOURCE_DIR");
  const std::filesystem::path root = env && *env ? env : NAVBENCH_SOURCE_DIR;
  const std::filesystem::path script = root / "scripts" / "navpy.sh";
  if (!std::filesystem::exists(script))
    throw navbench::base::InputError(script.string() + " not found: the results package runs from navbench's checkout "
                                                       "(set NAVBENCH_SOURCE_DIR to it)");
  return script.string();
}

int exec_package(const char* name, const std::vector<std::string>& args) {
  const std::string script = navpy();
  std::vector<std::string> words = {script, "-m", "navbench", name};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  ::execv(script.c_str(), argv.data());
  throw std::runtime_error("cannot run " + script + ": " + std::strerror(errno));
}

}  // namespace

int navbench::export_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  return exec_package("export", args);
}

int navbench::compare_command(const std::vector<std::string>& args, const std::vector<std::string>&) {
  return exec_package("compare", args);
}
