// libFuzzer target: what a competition entry's process can write back (harness/gppc/client.hpp).
// The input is the bytes the child writes: its Ready record and name, then one reply per query
// (an Answer record, then its points or message), read by the same read_ready and read_reply as
// EntryProcess, each answer then judged (judge.hpp) on a 5 x 4 map with one wall, for the track
// of the input's first byte. The contract: a reply is a path within max_points, an error with a
// reason, or the end of the child; a verdict is no path, an error with its reason, or a path of
// finite length that is valid exactly when it has no reason. Never a crash, an exception, or a
// read past what the child wrote.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "geometry/free_space.hpp"
#include "harness/gppc/judge.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

namespace {

// "..@..", the wall at x = 2 for rows 0..2: free cells around it.
const Map& fuzz_map() {
  static const Map m = [] {
    GridMap g;
    g.width = 5;
    g.height = 4;
    g.cells.assign(20, 1);
    for (int y = 0; y < 3; ++y) g.cells[std::size_t(y) * 5 + 2] = 0;
    return make_grid_map(g, "fuzz", "fuzz");
  }();
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const gppc::Track track = data[0] & 1 ? gppc::Track::anyangle : gppc::Track::classic;
  std::size_t at = 1;
  const gppc::ReadBytes read = [&](void* out, std::size_t n, std::string& why) {
    if (size - at < n) {  // the child closed its end before writing n bytes
      why.clear();
      return false;
    }
    if (n) std::memcpy(out, data + at, n);
    at += n;
    return true;
  };
  const gppc::ReadyRead ready = gppc::read_ready(read);
  if (!ready.ok) {
    require(ready.name.size() <= 4096, "a name of at most 4096 bytes");
    return 0;
  }
  static const FreeSpace fs(fuzz_map());
  gppc::Limits limits;
  limits.max_points = 4 * 6 * 5 + 16;  // the default for a 5 x 4 map
  const Point s{0, 3}, g{4, 0};        // a query around the wall
  for (int q = 0; q < 64; ++q) {
    const std::size_t before = at;
    gppc::Reply r = gppc::read_reply(read, limits);
    require(at <= size, "never reads past what the child wrote");
    if (r.then == gppc::Reply::Then::failed) break;
    require(at > before, "a reply takes bytes");
    const gppc::EntryAnswer& a = r.answer;
    require(a.ok ? a.error.empty() : !a.error.empty(), "an answer is a path or an error with its reason");
    require(a.points.size() <= limits.max_points, "a path within max_points");
    const gppc::Verdict v = gppc::judge(a, track, fs, s, g);
    if (v.kind == gppc::Verdict::Kind::error) require(!v.reason.empty(), "an error has a reason");
    if (v.kind == gppc::Verdict::Kind::ok) {
      require(std::isfinite(v.length) && v.length >= 0, "a path's length is finite");
      require(v.valid == v.reason.empty(), "valid exactly when no reason");
      require(!v.path.empty(), "a path has points");
    }
    if (r.then == gppc::Reply::Then::end) break;
  }
  return 0;
}
