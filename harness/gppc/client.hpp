// navbench's side of a competition entry (SPEC §10, docs/outside-planners.md): the entry's host
// program runs as a child process; navbench sends it the map and queries and reads back paths and
// the entry's own GetPath times. A crash, an abort, an exception, a hang (the per-query time
// limit), runaway memory (the resident-memory watch) or a garbled reply costs that query an answer
// with an error and ends the child; the next query gets a new child. Whatever the entry prints goes
// to the log file, never into the data.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"
#include "harness/gppc/protocol.hpp"

namespace navbench::gppc {

// The limits of one entry (docs/outside-planners.md#2-run-it); every one is an option of --rep gppc:.
struct Limits {
  double query_ms = 10000;          // one query: all GetPath calls of its path (query_ms=)
  double prepare_ms = 600000;       // PreprocessMap, and PrepareForSearch (prepare_ms=)
  std::uint64_t memory_mb = 4096;   // the child's resident memory (memory_mb=)
  std::uint32_t max_calls = 1000;   // GetPath calls for one incremental path (max_calls=)
  std::uint64_t max_points = 0;     // points of one path; 0: 4 (W+1)(H+1) + 16 (max_points=)
};

struct EntrySpec {
  std::string path;                 // the entry's host program (built from the entry and host_main.cpp)
  Track track = Track::classic;
  std::string log;                  // the entry's stdout and stderr are appended here
  std::string prefix;               // PreprocessMap's and PrepareForSearch's filename prefix
};

// What the build row holds (SPEC §10).
struct BuildInfo {
  std::string entry_name;           // GetName()
  double preprocess_ms = 0, prepare_ms = 0;  // taken in the entry's process, next to the call
  std::uint64_t storage_bytes = 0;  // bytes of every file under the prefix's folder after PreprocessMap
  std::uint64_t preprocess_peak_kb = 0;  // PreprocessMap's child's peak resident memory
};

// One query as the entry receives it: cells for the classic track, corner points for any-angle.
struct EntryQuery {
  double sx = 0, sy = 0, gx = 0, gy = 0;
};

struct EntryAnswer {
  bool ok = false;                  // the entry answered; false: `error` says why
  std::string error;
  std::vector<Point> points;        // as the entry returned them (cells or corner points)
  double search_us = 0;             // GetPath's time alone, measured in the child
  std::uint32_t calls = 0;
  std::vector<Call> call_times;     // each GetPath call's time and the path's points after it (SPEC §15)
};

// Reads exactly n bytes of what the child wrote into data; false with the reason in `why` (empty:
// the child closed its end) when they do not come. EntryProcess reads its socket under the limits;
// the fuzz target (tests/fuzz/fuzz_gppc.cpp) a buffer.
using ReadBytes = std::function<bool(void* data, std::size_t n, std::string& why)>;

// One reply of the search child to a query, as read_reply made it out.
struct Reply {
  EntryAnswer answer;
  // What becomes of the child: it goes on; it ends with `why` as the answer's error (it wrote no
  // whole reply); it ends (killed with `why` when set) and the answer stands as it is.
  enum class Then { keep, failed, end } then = Then::keep;
  std::string why;
};
// The Answer record and the points, calls and message after it. Never trusts a count: a path beyond
// limits.max_points, more calls than limits.max_calls or a message beyond 4096 bytes is a garbled
// reply, read no further.
Reply read_reply(const ReadBytes& read, const Limits& limits);

// The child's Ready record and name after PreprocessMap or PrepareForSearch.
struct ReadyRead {
  bool ok = false;
  std::string name;  // GetName()
  double us = 0;
  std::int64_t max_rss_kb = 0;
  Track track = Track::classic;  // the track the host was built for (the caller compares it)
  bool in_name = false;          // not ok: the name did not come whole (else the record did not)
  std::string why;               // not ok: why (empty: the child closed its end)
};
ReadyRead read_ready(const ReadBytes& read);

class EntryProcess {
 public:
  // Runs PreprocessMap in one child (when `preprocess`; else the prefix holds its files already),
  // then starts the search child (PrepareForSearch), as the competition does. Throws
  // std::runtime_error with a one-line reason when either fails, and std::invalid_argument when
  // the program is missing or was built for the other track.
  EntryProcess(EntrySpec spec, Limits limits, const GridMap& map, bool preprocess = true);
  // Without `preprocess`, the build's figures of the PreprocessMap run that wrote the prefix's
  // files (a kept store, representation.cpp): the build row reports them as that run measured them.
  EntryProcess(EntrySpec spec, Limits limits, const GridMap& map, const BuildInfo& preprocessed);
  ~EntryProcess();
  EntryProcess(const EntryProcess&) = delete;
  EntryProcess& operator=(const EntryProcess&) = delete;

  // Answers a batch of queries, in order: the queries are sent together and each answer is read as
  // it comes. Where the child dies, that query's answer is the error, and a new child (its
  // PrepareForSearch again) takes the rest.
  std::vector<EntryAnswer> answer(const std::vector<EntryQuery>& batch);
  const BuildInfo& build() const { return build_; }
  const EntrySpec& spec() const { return spec_; }
  const Limits& limits() const { return limits_; }
  int restarts() const { return restarts_; }
  // The largest peak resident memory (Linux VmHWM) of this object's children: PreprocessMap's, and
  // every search child's, the running one's read now. getrusage's ru_maxrss would not do: exec
  // keeps the forking parent's peak in it, so a child of a large navbench would report navbench's.
  std::uint64_t peak_rss_bytes() const;

 private:
  struct Child {
    pid_t pid = -1;
    int fd = -1;
  };
  Child start(Mode mode, double& us, std::int64_t& rss_kb);
  bool receive(Child& c, void* data, std::size_t n, double limit_ms, std::string& why);
  std::string end(Child& c, const std::string& why);  // kills and reaps; the reason of the death
  void quit(Child& c);
  void note_peak(const Child& c);  // folds the (live) child's VmHWM into peak_kb_

  EntrySpec spec_;
  Limits limits_;
  const GridMap* map_;
  BuildInfo build_;
  Child search_;
  int restarts_ = 0;
  std::uint64_t peak_kb_ = 0;
  std::chrono::steady_clock::time_point watched_{};  // the last look at a child's resident memory
};

}  // namespace navbench::gppc
