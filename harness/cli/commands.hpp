// The navbench command line (docs/command-line.md): dispatches argv to its subcommand; returns the exit code.
#pragma once

namespace navbench {
int command_line(int argc, char** argv);
}  // namespace navbench
