// The representations the batteries run on (docs/testing.md#batteries): every registry entry, the
// walk-through's example representation (docs/example/, not registered) and registered variants
// whose parameters change their structure. A battery is one parameterised GoogleTest suite over the
// entries that declare a capability (representations/capabilities.hpp); `ctest -N` lists each
// entry by name. A battery no entry qualifies for runs one case that fails, never zero cases.
#pragma once
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/registry/registry.hpp"

namespace navbench {
void PrintTo(const RepresentationEntry& e, std::ostream* os);
}  // namespace navbench

namespace testbattery {

// Every entry the batteries know (the conformance battery runs on all of them).
const std::vector<navbench::RepresentationEntry>& entries();

// The entries whose declared capabilities satisfy `declares`; when none does, one entry named
// "none_declares_<capability>" without a build, on which check_entry() fails.
std::vector<navbench::RepresentationEntry> declaring(const std::string& capability,
                                                     const std::function<bool(const navbench::Capabilities&)>& declares);

// A battery case's first line: fails the case on declaring()'s placeholder.
void check_entry(const navbench::RepresentationEntry& e);

// The test name of an entry: its name with every character other than a letter or digit as '_'.
std::string test_name(const ::testing::TestParamInfo<navbench::RepresentationEntry>& i);

}  // namespace testbattery
