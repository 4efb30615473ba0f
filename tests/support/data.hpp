// The real maps of ../shared/datasets for the tests that read them (ctest label `data`).
// The rule (docs/testing.md): a test that needs a real map lives in a test suite whose name ends in
// `Data` (tests/CMakeLists.txt labels those `data`, the rest `unit`); when the datasets folder is
// present a missing file FAILS the test (a renamed or lost map cannot pass unnoticed), and only
// when the whole folder is absent does the test skip. The folder: $NAVBENCH_SHARED_DATASETS when
// set (to test the rule without a rebuild), else the one configured (CMake cache variable
// NAVBENCH_SHARED_DATASETS, default ../shared/datasets beside the checkout).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace testdata {

inline std::string root() {
  const char* env = std::getenv("NAVBENCH_SHARED_DATASETS");
  return env && *env ? std::string(env) : std::string(NAVBENCH_SHARED_DATASETS);
}

// A file under the datasets folder, e.g. path("movingai/dao/den520d.map").
inline std::string path(const std::string& rel) { return root() + "/" + rel; }

inline bool root_present() { return std::filesystem::is_directory(root()); }

// Why a data test cannot run: "" when `file` exists; otherwise the message to fail or skip with.
inline std::string missing(const std::string& file) {
  const std::string suite = ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
  if (suite.size() < 4 || suite.compare(suite.size() - 4, 4, "Data") != 0)
    return "reads " + file + " but its suite " + suite + " does not end in Data (label data)";
  if (std::filesystem::exists(file) || !root_present()) return "";
  return "missing " + file + " (the datasets folder " + root() + " is present)";
}

// For a part of a unit test that also runs on a real map when the datasets are there: true when
// `file` exists; a non-fatal failure when the folder is present but the file is not.
inline bool optional(const std::string& file) {
  if (std::filesystem::exists(file)) return true;
  if (root_present()) ADD_FAILURE() << "missing " << file << " (the datasets folder " << root() << " is present)";
  return false;
}

}  // namespace testdata

// In a data test's body: fails when the datasets folder is present but `file` is missing (or the
// suite is not a *Data one), skips when the folder is absent.
#define NAVBENCH_REQUIRE_DATA(file)                                                              \
  do {                                                                                           \
    const std::string navbench_file_ = (file);                                                   \
    const std::string navbench_why_ = testdata::missing(navbench_file_);                         \
    if (!navbench_why_.empty()) FAIL() << navbench_why_;                                         \
    if (std::filesystem::exists(navbench_file_)) break;                                          \
    GTEST_SKIP() << "data test: no datasets folder " << testdata::root();                        \
  } while (0)
