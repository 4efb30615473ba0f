// The pipe protocol between navbench (harness/gppc/client.cpp) and its host program for a
// competition entry (harness/gppc/host_main.cpp, linked with the entry's objects): fixed-size
// little records of plain numbers, written and read whole. The child reads requests on fd 3 and
// writes replies on fd 4; its stdout and stderr are the entry's log, never read as data (SPEC §10).
// C++11 on purpose: the host is compiled by an entry's own build files (scripts/gppc-build), and
// some of those ask for -std=c++11.
#pragma once
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>

#include <unistd.h>

namespace navbench {
namespace gppc {

constexpr int kRequestFd = 3;  // the child reads requests here
constexpr int kReplyFd = 4;    // and writes replies here
// "NBGQ": the protocol with each GetPath call's time (Call records, issue 81); a host built for the
// one before ("NBGP") refuses this navbench's Hello, and navbench refuses its Ready: rebuild it.
constexpr std::uint32_t kMagic = 0x4e424751;

enum class Track : std::int32_t { classic = 0, anyangle = 1 };
inline const char* to_string(Track t) { return t == Track::classic ? "classic" : "anyangle"; }

enum class Mode : std::uint32_t { preprocess = 1, search = 2 };

// Parent -> child, once: what to run on which map. Followed by prefix_len bytes of the
// preprocessing prefix and width * height bytes of cells (1 passable).
struct Hello {
  std::uint32_t magic = kMagic;
  Mode mode = Mode::search;
  std::int32_t width = 0, height = 0;
  std::uint32_t max_calls = 0;      // GetPath calls for one incremental path
  std::uint64_t max_points = 0;     // points of one path
  std::uint32_t prefix_len = 0;
};

// Child -> parent after PreprocessMap or PrepareForSearch. Followed by name_len bytes of GetName().
struct Ready {
  std::uint32_t magic = kMagic;
  Track track = Track::classic;     // the xyLoc the host was compiled with
  double us = 0;                    // PreprocessMap's or PrepareForSearch's time
  std::int64_t max_rss_kb = 0;      // the process's peak resident memory so far (Linux VmHWM)
  std::uint32_t name_len = 0;
};

// Parent -> child: one query (kind 1) or the end (kind 0). Classic track: whole cell numbers.
struct QueryMsg {
  std::uint32_t kind = 1;
  double sx = 0, sy = 0, gx = 0, gy = 0;
};

enum class AnswerStatus : std::uint32_t {
  done = 0,          // GetPath returned true
  unfinished = 1,    // GetPath returned false max_calls times
  too_long = 2,      // the path grew past max_points
  threw = 3,         // GetPath threw; followed by message_len bytes (the host then exits)
};

// Child -> parent per query. Followed by points * 2 doubles (x, y), then `calls` Call records, then
// message_len bytes.
struct Answer {
  AnswerStatus status = AnswerStatus::done;
  std::uint32_t calls = 0;
  double search_us = 0;             // GetPath's time alone, all calls summed, taken in the child
  std::uint64_t points = 0;
  std::uint32_t message_len = 0;
};

// One GetPath call of a query (SPEC §15: each call timed on its own, as the competition's driver
// times them for its 20steps_cost and max_step_time): its time, taken in the child next to the
// call, and the path's points after it.
struct Call {
  double us = 0;
  std::uint64_t points = 0;
};

// Whole writes and reads; false on a closed pipe or error.
inline bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= std::size_t(w);
  }
  return true;
}

inline bool read_all(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= std::size_t(r);
  }
  return true;
}

}  // namespace gppc
}  // namespace navbench
