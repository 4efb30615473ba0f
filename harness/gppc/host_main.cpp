// navbench's host for a competition entry (SPEC §10, docs/outside-planners.md): the main() an
// entry's objects are linked with in place of the competition's driver. It is compiled once per
// track (include/Entry.h, with include/classic or include/anyangle giving xyLoc). navbench starts it as a child process:
// requests arrive on fd 3, replies leave on fd 4 (harness/gppc/protocol.hpp); whatever the entry
// prints goes to the child's stdout and stderr, which navbench sends to a log.
//
// Mode preprocess: PreprocessMap, one Ready, exit. Mode search: PrepareForSearch, one Ready, then
// one Answer per query. The time of GetPath is taken here, next to the calls (each call's time sent
// on its own, and all calls of an incremental path summed), so that the pipe's traffic never enters
// search_us. Between two calls
// the host does what the competition's driver does and little more: the path vector is kept (and
// cleared) from one query to the next, the queries navbench sent ahead are read in one go, and each
// answer leaves in one write.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

#include "Entry.h"
#include "harness/gppc/protocol.hpp"

using namespace navbench::gppc;

namespace {

// The track is the entry's own xyLoc (double: any-angle, int16_t: classic), so the host compiles
// unchanged with the entry's build files in place of the competition's main.cpp (scripts/gppc-build).
typedef decltype(xyLoc::x) Coordinate;
constexpr Track kTrack = std::is_floating_point<Coordinate>::value ? Track::anyangle : Track::classic;
#ifdef NAVBENCH_GPPC_ANYANGLE
static_assert(kTrack == Track::anyangle, "the any-angle host needs an xyLoc of double");
#endif
xyLoc loc(double x, double y) { return xyLoc{static_cast<Coordinate>(x), static_cast<Coordinate>(y)}; }

// Leaves without running the entry's static destructors or a leak check of its never-freed data
// (the sanitizer builds' LeakSanitizer would turn that into an exit status): the log is flushed.
[[noreturn]] void leave(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

double us_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
}

// This process's peak resident memory in kB: Linux's VmHWM, which exec resets (getrusage's
// ru_maxrss keeps the forking navbench's peak); 0 where /proc is not there.
std::int64_t max_rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoll(line.c_str() + 6, nullptr, 10);
  return 0;
}

void send_ready(double us) {
  const std::string name = GetName();
  Ready r;
  r.track = kTrack;
  r.us = us;
  r.max_rss_kb = max_rss_kb();
  r.name_len = std::uint32_t(name.size());
  if (!write_all(kReplyFd, &r, sizeof r) || !write_all(kReplyFd, name.data(), name.size())) leave(3);
}

// The requests, read as they come: one read takes every query navbench has sent ahead.
class Requests {
 public:
  bool next(QueryMsg& q) {
    while (end_ - begin_ < sizeof q) {
      if (begin_ > 0) {
        std::memmove(buf_, buf_ + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      const ssize_t r = ::read(kRequestFd, buf_ + end_, sizeof buf_ - end_);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      end_ += std::size_t(r);
    }
    std::memcpy(&q, buf_ + begin_, sizeof q);
    begin_ += sizeof q;
    return true;
  }

 private:
  char buf_[256 * sizeof(QueryMsg)];
  std::size_t begin_ = 0, end_ = 0;
};

// One query: GetPath until it returns true, at most max_calls times, the path at most max_points.
// `path` and `calls` are the caller's, kept from one query to the next as the competition's driver
// keeps its path (so their growth is not in the time of a later query's GetPath), and cleared first.
void answer(void* data, const QueryMsg& q, const Hello& h, std::vector<xyLoc>& path, std::vector<Call>& calls) {
  path.clear();
  calls.clear();
  Answer a;
  std::string message;
  const xyLoc s = loc(q.sx, q.sy), g = loc(q.gx, q.gy);
  try {
    for (;;) {
      ++a.calls;
      const auto t = std::chrono::steady_clock::now();
      const bool finished = GetPath(data, s, g, path);
      const double us = us_since(t);
      a.search_us += us;
      Call c;
      c.us = us;
      c.points = path.size();
      calls.push_back(c);
      if (path.size() > h.max_points) {
        a.status = AnswerStatus::too_long;
        break;
      }
      if (finished) break;
      if (a.calls >= h.max_calls) {
        a.status = AnswerStatus::unfinished;
        break;
      }
    }
  } catch (const std::exception& e) {
    a.status = AnswerStatus::threw;
    message = e.what();
  } catch (...) {
    a.status = AnswerStatus::threw;
    message = "an exception that is not a std::exception";
  }
  if (a.status == AnswerStatus::done) a.points = path.size();
  a.calls = std::uint32_t(calls.size());  // the calls made (a throwing one included)
  a.message_len = std::uint32_t(message.size());
  // The answer, its points, its calls and its message in one write.
  std::vector<char> out(sizeof a + a.points * 2 * sizeof(double) + calls.size() * sizeof(Call) + message.size());
  std::memcpy(out.data(), &a, sizeof a);
  char* p = out.data() + sizeof a;
  for (std::size_t i = 0; i < a.points; ++i) {
    const double xy[2] = {double(path[i].x), double(path[i].y)};
    std::memcpy(p, xy, sizeof xy);
    p += sizeof xy;
  }
  if (!calls.empty()) std::memcpy(p, calls.data(), calls.size() * sizeof(Call));
  p += calls.size() * sizeof(Call);
  if (!message.empty()) std::memcpy(p, message.data(), message.size());
  if (!write_all(kReplyFd, out.data(), out.size())) leave(3);
  if (a.status == AnswerStatus::threw) leave(4);  // the entry's state is unknown: navbench starts a new one
}

}  // namespace

int main() {
  Hello h;
  if (!read_all(kRequestFd, &h, sizeof h) || h.magic != kMagic || h.width <= 0 || h.height <= 0) {
    std::cerr << "navbench gppc host: this program is started by navbench (--rep gppc:path=...), not by hand, and by the "
                 "navbench it was built with (another protocol: rebuild it with scripts/gppc-build)\n";
    return 2;
  }
  std::string prefix(h.prefix_len, '\0');
  std::vector<char> cells(std::size_t(h.width) * std::size_t(h.height));
  if (!read_all(kRequestFd, &prefix[0], prefix.size()) || !read_all(kRequestFd, cells.data(), cells.size())) leave(3);
  const std::vector<bool> bits(cells.begin(), cells.end());
  if (h.mode == Mode::preprocess) {
    const auto t = std::chrono::steady_clock::now();
    PreprocessMap(bits, h.width, h.height, prefix);
    send_ready(us_since(t));
    leave(0);
  }
  const auto t = std::chrono::steady_clock::now();
  void* data = PrepareForSearch(bits, h.width, h.height, prefix);
  send_ready(us_since(t));
  QueryMsg q;
  Requests requests;
  std::vector<xyLoc> path;
  std::vector<Call> calls;
  while (requests.next(q) && q.kind == 1) answer(data, q, h, path, calls);
  leave(0);
}
