// Every input of the fuzz corpora (tests/fuzz/corpus/NAME/: the seeds, and every finding of the
// campaigns kept as a regression input; docs/testing.md#fuzzing) replayed through its fuzz target's
// own code, in every build (no clang or libFuzzer needed): the target's sources are compiled into
// this test with their entry point renamed (tests/CMakeLists.txt). A broken contract traps, which
// fails the test; the file being replayed is printed first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

#define NAVBENCH_FUZZ_TARGET(name) extern "C" int navbench_fuzz_##name(const std::uint8_t* data, std::size_t size);
NAVBENCH_FUZZ_TARGET(config)
NAVBENCH_FUZZ_TARGET(costs)
NAVBENCH_FUZZ_TARGET(dynamic)
NAVBENCH_FUZZ_TARGET(gppc)
NAVBENCH_FUZZ_TARGET(map)
NAVBENCH_FUZZ_TARGET(mesh)
NAVBENCH_FUZZ_TARGET(pgm)
NAVBENCH_FUZZ_TARGET(png)
NAVBENCH_FUZZ_TARGET(poly)
NAVBENCH_FUZZ_TARGET(rosmap)
NAVBENCH_FUZZ_TARGET(scen)
NAVBENCH_FUZZ_TARGET(serve)
NAVBENCH_FUZZ_TARGET(terrain)
NAVBENCH_FUZZ_TARGET(wkt)
extern "C" int navbench_fuzz_init_serve(int* argc, char*** argv);

namespace {

struct Target {
  const char* name;
  int (*one)(const std::uint8_t*, std::size_t);
};

const Target kTargets[] = {{"config", navbench_fuzz_config}, {"costs", navbench_fuzz_costs}, {"dynamic", navbench_fuzz_dynamic},
                           {"gppc", navbench_fuzz_gppc},     {"map", navbench_fuzz_map},     {"mesh", navbench_fuzz_mesh},
                           {"pgm", navbench_fuzz_pgm},       {"png", navbench_fuzz_png},     {"poly", navbench_fuzz_poly},
                           {"rosmap", navbench_fuzz_rosmap}, {"scen", navbench_fuzz_scen},   {"serve", navbench_fuzz_serve},
                           {"terrain", navbench_fuzz_terrain}, {"wkt", navbench_fuzz_wkt}};

void PrintTo(const Target& t, std::ostream* os) { *os << t.name; }

class FuzzCorpus : public ::testing::TestWithParam<Target> {};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

// Each corpus holds inputs, and each replays within its reader's contract.
TEST_P(FuzzCorpus, EveryInputKeepsTheReadersContract) {
  const Target& t = GetParam();
  if (std::string(t.name) == "serve") navbench_fuzz_init_serve(nullptr, nullptr);
  const fs::path dir = fs::path(NAVBENCH_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / t.name;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  EXPECT_FALSE(files.empty()) << dir;
  for (const fs::path& f : files) {
    std::cerr << "replaying " << f.filename().string() << '\n';
    const std::string bytes = slurp(f);
    EXPECT_EQ(t.one(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0) << f;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzCorpus, ::testing::ValuesIn(kTargets),
                         [](const ::testing::TestParamInfo<Target>& i) { return std::string(i.param.name); });
