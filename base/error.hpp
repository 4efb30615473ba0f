// The one error of bad input (docs/maps.md, docs/command-line.md): a map, scenario, config or
// option value that cannot be read. Its message is one line, "file:line: reason" where a file is
// read; `navbench` prints it after the subcommand's name and exits with status 2.
// base/ is the lowest layer: errors, text and timing; it includes nothing of the project.
#pragma once
#include <stdexcept>
#include <string>

namespace navbench::base {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The one-line error of every reader: "file:line: why".
[[noreturn]] inline void fail(const std::string& file, long line, const std::string& why) {
  throw InputError(file + ":" + std::to_string(line) + ": " + why);
}
// The one-line error of a file read whole (an image, a ROS map's YAML): "file: why".
[[noreturn]] inline void fail(const std::string& file, const std::string& why) { throw InputError(file + ": " + why); }

}  // namespace navbench::base
