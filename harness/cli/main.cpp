// navbench: the command line of docs/command-line.md (harness/cli/commands.cpp).
#include "harness/cli/commands.hpp"

int main(int argc, char** argv) { return navbench::command_line(argc, argv); }
