// The navbench command line (SPEC §5): dispatches argv to its subcommand; returns the exit code.
#pragma once

namespace navbench {
int command_line(int argc, char** argv);
}  // namespace navbench
