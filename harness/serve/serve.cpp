// `navbench serve`: the live viewer (docs/viewer.md). One page (web/, embedded at build time) and a
// small JSON API on 127.0.0.1; the parts are listed in viewer.hpp. This file is the command: its
// options, the maps, the listening socket, and the stop on SIGINT or SIGTERM.
#include "harness/serve/serve.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <httplib.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "harness/serve/viewer.hpp"

#ifndef NAVBENCH_SOURCE_DIR
#define NAVBENCH_SOURCE_DIR "."
#endif

namespace navbench {
namespace {

// The maps given (files or directories), else the bundled datasets/maps. nullptr after one line
// on stderr when a file or directory cannot be read.
std::unique_ptr<viewer::MapCache> load_maps(ServeArgs& o) {
  try {
    if (o.maps.empty()) {
      const std::string bundled = std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps";
      if (!std::filesystem::is_directory(bundled)) throw std::invalid_argument("serve needs --map PATH...");
      o.maps.push_back(bundled);
    }
    return std::make_unique<viewer::MapCache>(expand_map_paths(o.maps), o.cache_maps);
  } catch (const base::InputError& e) {
    std::cerr << "navbench serve: " << base::printable(e.what()) << '\n';
  } catch (const std::invalid_argument& e) {
    std::cerr << "navbench serve: " << base::printable(e.what()) << '\n';
  }
  return nullptr;
}

// Timeouts, threads and socket options of the server.
void configure(httplib::Server& svr, int& listen_fd) {
  svr.set_payload_max_length(viewer::kMaxCostsBody);  // per route: http.cpp (kMaxBody but for a cost layer)
  svr.set_read_timeout(5);
  svr.set_write_timeout(10);
  svr.set_keep_alive_timeout(5);
  // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and the
  // client's delayed ACK add ~40 ms to every answer (measured: 46 ms round trip for 3.5 ms of work).
  svr.set_tcp_nodelay(true);
  // A worker stays with a keep-alive connection until it idles out, and every open tab keeps one
  // or more: 32 workers (the library's default is 8) so several tabs never queue behind each other.
  svr.new_task_queue = [] { return new httplib::ThreadPool(32); };
  // Our own socket options instead of the library's: SO_REUSEADDR (a restart finds the port free
  // at once) but not its SO_REUSEPORT (with which a second server on a busy port would start and
  // share it silently); and we keep the listening socket to widen its backlog after binding.
  svr.set_socket_options([&listen_fd](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd = sock;
  });
}

// Serves until SIGINT or SIGTERM, which a thread of our own waits for (sigwait), not a signal
// handler. The signals are blocked before the server starts its threads, which inherit the mask.
bool serve_until_stopped(httplib::Server& svr, const sigset_t& stop_signals) {
  std::thread stopper([&svr, stop_signals] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    svr.stop();
  });
  const bool ok = svr.listen_after_bind();
  pthread_kill(stopper.native_handle(), SIGTERM);  // wakes the stopper if the server ended otherwise
  stopper.join();
  return ok;
}

// --rep: the planners from outside the page offers (checked now: the program runs, for its track).
bool offer_outside_planners(const ServeArgs& o) {
  std::vector<RepresentationSpec> specs;
  try {
    for (const std::string& text : o.reps)
      for (RepresentationSpec& s : parse_rep_option(text)) {
        if (!s.caps().outside)
          throw std::invalid_argument("--rep takes planners from outside (gppc:...): navbench's own '" + s.text + "' is on the page already");
        specs.push_back(std::move(s));
      }
  } catch (const std::invalid_argument& e) {
    std::cerr << "navbench serve: " << base::printable(e.what()) << '\n';
    return false;
  }
  viewer::set_outside_planners(std::move(specs));
  return true;
}

}  // namespace

int serve_command(ServeArgs o) {
  std::unique_ptr<viewer::MapCache> maps = load_maps(o);
  if (!maps) return 2;
  if (!offer_outside_planners(o)) return 2;

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  httplib::Server svr;
  int listen_fd = -1;
  configure(svr, listen_fd);
  viewer::install_routes(svr, *maps, o.host == "127.0.0.1" || o.host == "localhost" || o.host == "::1");
  const int bound = o.port == 0 ? svr.bind_to_any_port(o.host) : (svr.bind_to_port(o.host, o.port) ? o.port : -1);
  if (bound < 0) {
    std::cerr << "navbench serve: cannot listen on " << o.host << ":" << o.port << " (in use, or not an address of this machine)\n";
    return 1;
  }
  // cpp-httplib 0.11 listens with a backlog of 5: a burst of connections (several tabs, a test's 24
  // clients) overflowed it and clients saw resets (ListenOverflows). listen() again resizes it.
  if (listen_fd >= 0) ::listen(listen_fd, SOMAXCONN);
  std::cout << "navbench serve: " << maps->size() << " maps at http://" << o.host << ":" << bound << "/  (Ctrl-C stops)"
            << std::endl;
  return serve_until_stopped(svr, stop_signals) ? 0 : 1;
}

}  // namespace navbench
