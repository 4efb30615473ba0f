// The parent side of the entry protocol (client.hpp). The memory limit is a watch of the child's
// resident memory (/proc/PID/statm, read at every wait of at most 10 ms), not RLIMIT_AS: AddressSanitizer
// reserves terabytes of address space for its shadow, so an address-space limit stops a sanitizer
// build's child before it starts, while resident memory counts what the entry really touches in
// both builds, and needs no cgroup.
#include "harness/gppc/client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/timing.hpp"

namespace navbench::gppc {

namespace {

bool send_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);  // a dead child is an error here, not SIGPIPE
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= std::size_t(w);
  }
  return true;
}

std::uint64_t resident_bytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return 0;
  return resident * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

// Peak resident memory of a running process in kB (VmHWM of /proc/PID/status); 0 when gone.
std::uint64_t vm_hwm_kb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
  return 0;
}

// Bytes of every regular file in the prefix's folder and below it (SPEC §10: storage counts all
// the entry wrote; the folder is this entry's on this map alone, representation.cpp).
std::uint64_t bytes_under(const std::string& prefix) {
  namespace fs = std::filesystem;
  const fs::path p(prefix);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::uint64_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

// A line of navbench's own in the entry's log (appended, as the entry's output is): how many
// queries went to the entry together (docs/outside-planners.md#4-what-is-measured-and-how).
void log_line(const std::string& log, const std::string& line) {
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;  // the log is for people: a line that cannot be written costs nothing else
  const std::string text = line + "\n";
  [[maybe_unused]] const ssize_t w = ::write(fd, text.data(), text.size());
  ::close(fd);
}

}  // namespace

ReadyRead read_ready(const ReadBytes& read) {
  ReadyRead out;
  Ready r;
  if (!read(&r, sizeof r, out.why)) return out;
  // Not a record of this protocol (a host of another navbench, or stray bytes): the child is killed.
  if (r.magic != kMagic || (r.track != Track::classic && r.track != Track::anyangle)) {
    out.why = "garbled reply";
    return out;
  }
  out.in_name = true;
  if (r.name_len > 4096) {
    out.why = "garbled reply (a name of " + std::to_string(r.name_len) + " bytes)";
    return out;
  }
  out.name.assign(r.name_len, '\0');
  if (!read(out.name.data(), out.name.size(), out.why)) return out;
  out.ok = true;
  out.track = r.track;
  out.us = r.us;
  out.max_rss_kb = r.max_rss_kb;
  return out;
}

Reply read_reply(const ReadBytes& read, const Limits& limits) {
  Reply r;
  Answer head;
  if (!read(&head, sizeof head, r.why)) {
    r.then = Reply::Then::failed;
    return r;
  }
  EntryAnswer& a = r.answer;
  a.calls = head.calls;
  a.search_us = head.search_us;
  std::vector<double> xy(std::size_t(std::min<std::uint64_t>(head.points, limits.max_points)) * 2);
  a.call_times.resize(std::min<std::uint32_t>(head.calls, limits.max_calls));
  std::string message(std::min<std::uint32_t>(head.message_len, 4096), '\0');
  if (head.points > limits.max_points || head.calls > limits.max_calls || head.message_len > 4096 ||
      !read(xy.data(), xy.size() * sizeof(double), r.why) || !read(a.call_times.data(), a.call_times.size() * sizeof(Call), r.why) ||
      !read(message.data(), message.size(), r.why)) {
    if (r.why.empty()) r.why = "garbled reply";
    r.then = Reply::Then::failed;
    return r;
  }
  switch (head.status) {
    case AnswerStatus::done:
      a.ok = true;
      for (std::size_t k = 0; k < xy.size(); k += 2) a.points.push_back({xy[k], xy[k + 1]});
      break;
    case AnswerStatus::unfinished:
      a.error = "GetPath returned false " + std::to_string(head.calls) + " times: the path never finished";
      break;
    case AnswerStatus::too_long:
      a.error = "path of more than " + std::to_string(limits.max_points) + " points";
      break;
    case AnswerStatus::threw:
      a.error = "GetPath threw: " + message;
      r.then = Reply::Then::end;  // the host leaves after an exception
      break;
    default:
      a.error = "garbled reply";
      r.then = Reply::Then::end;
      r.why = "garbled reply";
  }
  return r;
}

EntryProcess::EntryProcess(EntrySpec spec, Limits limits, const GridMap& map, bool preprocess)
    : spec_(std::move(spec)), limits_(limits), map_(&map) {
  if (limits_.max_points == 0)
    limits_.max_points = 4 * std::uint64_t(map.width + 1) * std::uint64_t(map.height + 1) + 16;
  if (::access(spec_.path.c_str(), X_OK) != 0) throw std::invalid_argument("gppc entry '" + spec_.path + "' is not an executable file");
  double us = 0;
  std::int64_t rss = 0;
  if (preprocess) {
    Child pre = start(Mode::preprocess, us, rss);  // throws when PreprocessMap fails
    quit(pre);
    build_.preprocess_ms = us / 1000;
    build_.storage_bytes = bytes_under(spec_.prefix);
    build_.preprocess_peak_kb = peak_kb_;  // no search child yet: the peak is PreprocessMap's
  }
  search_ = start(Mode::search, us, rss);
  build_.prepare_ms = us / 1000;
}

EntryProcess::EntryProcess(EntrySpec spec, Limits limits, const GridMap& map, const BuildInfo& preprocessed)
    : EntryProcess(std::move(spec), limits, map, /*preprocess=*/false) {
  build_.preprocess_ms = preprocessed.preprocess_ms;
  build_.storage_bytes = preprocessed.storage_bytes;
  build_.preprocess_peak_kb = preprocessed.preprocess_peak_kb;
  peak_kb_ = std::max(peak_kb_, preprocessed.preprocess_peak_kb);
}

void EntryProcess::note_peak(const Child& c) {
  if (c.pid > 0) peak_kb_ = std::max(peak_kb_, vm_hwm_kb(c.pid));
}

std::uint64_t EntryProcess::peak_rss_bytes() const { return std::max(peak_kb_, search_.pid > 0 ? vm_hwm_kb(search_.pid) : 0) * 1024; }

EntryProcess::~EntryProcess() { quit(search_); }

// Starts a child in the given mode, sends it the map and waits for its Ready (the mode's function
// has run in it). Throws std::runtime_error when it dies or breaks a limit before that.
EntryProcess::Child EntryProcess::start(Mode mode, double& us, std::int64_t& rss_kb) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) throw std::runtime_error("gppc: socketpair failed");
  const int log = ::open(spec_.log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (log < 0 || null < 0) throw std::runtime_error("gppc: cannot open the entry's log '" + spec_.log + "'");
  const pid_t pid = ::fork();
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    ::dup2(null, 0);
    ::dup2(log, 1);
    ::dup2(log, 2);
    // The socket on both fds 3 and 4; a copy above them first, as dup2 onto itself would keep
    // its close-on-exec flag.
    const int sock = ::fcntl(sv[1], F_DUPFD, 10);
    ::dup2(sock, kRequestFd);
    ::dup2(sock, kReplyFd);
    ::close(sock);
    char* const argv[] = {const_cast<char*>(spec_.path.c_str()), nullptr};
    ::execv(argv[0], argv);
    ::_exit(127);
  }
  ::close(sv[1]);
  ::close(log);
  ::close(null);
  if (pid < 0) {
    ::close(sv[0]);
    throw std::runtime_error("gppc: fork failed");
  }
  Child c{pid, sv[0]};
  Hello h;
  h.mode = mode;
  h.width = map_->width;
  h.height = map_->height;
  h.max_calls = limits_.max_calls;
  h.max_points = limits_.max_points;
  h.prefix_len = std::uint32_t(spec_.prefix.size());
  std::vector<char> cells(map_->cells.begin(), map_->cells.end());
  const char* what = mode == Mode::preprocess ? "PreprocessMap" : "PrepareForSearch";
  if (!send_all(c.fd, &h, sizeof h) || !send_all(c.fd, spec_.prefix.data(), spec_.prefix.size()) ||
      !send_all(c.fd, cells.data(), cells.size()))
    throw std::runtime_error(std::string("gppc entry failed in ") + what + ": " + end(c, ""));
  const ReadyRead r = read_ready([&](void* data, std::size_t n, std::string& why) { return receive(c, data, n, limits_.prepare_ms, why); });
  if (!r.ok) {
    std::string why = end(c, r.why);
    // The host's own refusal of a Hello it does not know (host_main.cpp): one built by another navbench.
    if (why == "entry exited with status 2")
      why += " (a host built by another navbench refuses this one's protocol: rebuild it with scripts/gppc-build)";
    throw std::runtime_error(std::string("gppc entry failed in ") + (r.in_name ? "GetName" : what) + ": " + why);
  }
  if (r.track != spec_.track) {
    end(c, "");
    throw std::invalid_argument("gppc entry '" + spec_.path + "' was built for the " + to_string(r.track) +
                                " track, declared track=" + to_string(spec_.track));
  }
  build_.entry_name = r.name;
  us = r.us;
  rss_kb = r.max_rss_kb;
  peak_kb_ = std::max(peak_kb_, std::uint64_t(std::max<std::int64_t>(r.max_rss_kb, 0)));
  return c;
}

// Reads n bytes within limit_ms, watching the child's resident memory meanwhile (at most every
// 10 ms: a batch's answers arrive every few microseconds, and navbench reading /proc for each would
// keep it busy beside the entry); false with the reason when the time or memory limit is broken or
// the child closed its end.
bool EntryProcess::receive(Child& c, void* data, std::size_t n, double limit_ms, std::string& why) {
  char* p = static_cast<char*>(data);
  const auto t0 = base::Clock::now();
  const std::uint64_t memory_limit = limits_.memory_mb << 20;
  while (n > 0) {
    const double left = limit_ms - base::ms_since(t0);
    if (left <= 0) {
      why = "time limit of " + std::to_string(long(limit_ms)) + " ms exceeded";
      return false;
    }
    if (base::ms_since(watched_) >= 10) {
      watched_ = base::Clock::now();
      if (resident_bytes(c.pid) > memory_limit) {
        why = "memory limit of " + std::to_string(limits_.memory_mb) + " MB exceeded";
        return false;
      }
    }
    pollfd pfd{c.fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, int(std::min(left, 10.0)) + 1);
    if (ready < 0 && errno != EINTR) return false;
    if (ready <= 0) continue;
    const ssize_t got = ::recv(c.fd, p, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // closed: the child died (end() says how)
    p += got;
    n -= std::size_t(got);
  }
  return true;
}

// Kills the child (if it still runs) and reaps it; returns the reason: `why` when set, else how it ended.
std::string EntryProcess::end(Child& c, const std::string& why) {
  if (c.pid < 0) return why;
  note_peak(c);  // while it runs (a dead child's status has no VmHWM left)
  if (!why.empty()) ::kill(c.pid, SIGKILL);
  int status = 0;
  pid_t r;
  // A child that closed its socket may need a moment to exit; one that did not is killed.
  for (int i = 0; (r = ::waitpid(c.pid, &status, WNOHANG)) == 0 && i < 200; ++i) ::usleep(5000);
  if (r == 0) {
    ::kill(c.pid, SIGKILL);
    ::waitpid(c.pid, &status, 0);
  }
  ::close(c.fd);
  c = Child{};
  if (!why.empty()) return why;
  if (WIFSIGNALED(status)) return "entry killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "entry exited with status " + std::to_string(WEXITSTATUS(status));
  return "entry ended";
}

void EntryProcess::quit(Child& c) {
  if (c.pid < 0) return;
  note_peak(c);
  const QueryMsg q{0, 0, 0, 0, 0};
  send_all(c.fd, &q, sizeof q);
  end(c, "");
}

std::vector<EntryAnswer> EntryProcess::answer(const std::vector<EntryQuery>& batch) {
  std::vector<EntryAnswer> out;
  out.reserve(batch.size());
  while (out.size() < batch.size()) {
    if (search_.pid < 0) {  // the last child died: a new one, PrepareForSearch again
      double us = 0;
      std::int64_t rss = 0;
      try {
        search_ = start(Mode::search, us, rss);
        ++restarts_;
      } catch (const std::runtime_error& e) {
        for (std::size_t i = out.size(); i < batch.size(); ++i) out.push_back({false, e.what(), {}, 0, 0});
        break;
      }
    }
    // Every query left goes out at once (batches of 256 queries fit the socket's buffer, so the
    // child's replies never wait for these writes).
    // A child that dies on an early query of the batch refuses the later ones (EPIPE): the answers
    // it wrote before are read all the same, the query it died on gets the error, and the queries
    // it never received go to the next child.
    const std::size_t first = out.size(), stop = std::min(batch.size(), first + 256);
    // said before the queries go, so that the entry's timed calls never share the machine with it
    log_line(spec_.log, stop - first == 1 ? std::string("navbench: 1 query sent alone")
                                          : "navbench: " + std::to_string(stop - first) + " queries sent together");
    std::size_t last = first;
    for (; last < stop; ++last) {
      const QueryMsg q{1, batch[last].sx, batch[last].sy, batch[last].gx, batch[last].gy};
      if (!send_all(search_.fd, &q, sizeof q)) break;
    }
    if (last == first) {  // not one query taken: the child is gone (this query is charged, so a
      out.push_back({false, end(search_, "") + " before taking the query", {}, 0, 0});  // dying child cannot loop)
      continue;
    }
    for (std::size_t i = first; i < last; ++i) {
      Reply r = read_reply([&](void* data, std::size_t n, std::string& why) { return receive(search_, data, n, limits_.query_ms, why); },
                           limits_);
      if (r.then == Reply::Then::failed) {
        out.push_back({false, end(search_, r.why), {}, 0, 0});
        break;
      }
      if (r.then == Reply::Then::end) end(search_, r.why);
      out.push_back(std::move(r.answer));
      if (search_.pid < 0) break;
    }
  }
  return out;
}

}  // namespace navbench::gppc
