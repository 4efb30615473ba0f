// navbench: the command line of SPEC §5 (harness/commands.cpp).
#include "harness/cli/commands.hpp"

int main(int argc, char** argv) { return navbench::command_line(argc, argv); }
