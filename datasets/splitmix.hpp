// Splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
// a tiny seeded generator, integer-only, so a seed gives the same stream on every machine and
// compiler: generate changes, run --queries, the smoothing benchmark's corridors, and the seeding
// of generate's xoshiro256** (the generated maps and scenarios).
#pragma once
#include <cstdint>

namespace navbench {

struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // uniform in [0, 1)
  std::uint64_t below(std::uint64_t n) { return next() % n; }  // n small: bias below 2^-40
};

}  // namespace navbench
