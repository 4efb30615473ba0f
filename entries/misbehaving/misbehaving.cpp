// navbench's deliberately misbehaving entry (any-angle track) for the isolation tests
// (tests/test_gppc.cpp, docs/outside-planners.md#5-isolation-an-entry-cannot-take-navbench-down). What it
// does with a query depends on the start's x coordinate; on every other query, and with x = 0, it returns the straight segment
// from start to goal, whatever lies between (so it crosses obstacles and pinch points where asked).
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "Entry.h"

namespace {
enum Behaviour {
  straight = 0,
  crash = 1,          // a write through a null pointer
  abort_now = 2,      // std::abort
  throw_error = 3,    // an exception out of GetPath
  hang = 4,           // never returns
  eat_memory = 5,     // touches memory without end (up to 2 GB, then hangs)
  nan_point = 6,      // a NaN in the path
  outside = 7,        // a point outside the map
  wrong_start = 8,    // the path starts one unit right of the start
  too_long = 9,       // 100,000 points: past any map in the tests (4 (W+1)(H+1) + 16), and small
                      // enough to stay under the tests' memory limit in the sanitizer build
  unfinished = 10,    // GetPath returns false every time
  wrong_goal = 11,    // the path ends one unit right of the goal
  in_pieces = 12,     // the straight segment handed out a point a call (GetPath false until the goal):
                      // the start, then a point one unit further each call; the call that gives the
                      // first move sleeps 2 ms, the one that adds the goal 20 ms (SPEC §15's columns)
};
int calls = 0;
}  // namespace

// On a map 3 cells wide PreprocessMap crashes, on one 7 cells wide it never returns (the
// preprocessing time limit, prepare_ms), on one 5 cells wide PrepareForSearch throws: every query
// of that map is then an error row with the reason, and the run goes on.
void PreprocessMap(const std::vector<bool>&, int width, int, const std::string&) {
  if (width == 3) {
    volatile int* volatile p = nullptr;
    *p = 1;
  }
  if (width == 7)
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

void* PrepareForSearch(const std::vector<bool>&, int width, int, const std::string&) {
  if (width == 5) throw std::runtime_error("no search on this map");
  std::cout << "misbehaving entry: ready\n";
  return &calls;
}

bool GetPath(void*, xyLoc s, xyLoc g, std::vector<xyLoc>& path) {
  ++calls;
  std::cout << "misbehaving entry: query from x = " << s.x << std::endl;  // the log, never the data
  switch (int(s.x)) {
    case crash: {
      volatile int* volatile p = nullptr;
      *p = 1;
      break;
    }
    case abort_now:
      std::abort();
    case throw_error:
      throw std::runtime_error("the entry gave up");
    case hang:
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    case eat_memory: {
      std::vector<char*> blocks;
      for (int i = 0; i < 32; ++i) {
        char* b = static_cast<char*>(std::malloc(64 << 20));
        if (b) std::memset(b, 1, 64 << 20);
        blocks.push_back(b);
      }
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    case nan_point:
      path = {s, {std::numeric_limits<double>::quiet_NaN(), s.y}, g};
      return true;
    case outside:
      path = {s, {-5, s.y}, g};
      return true;
    case wrong_start:
      path = {{s.x + 1, s.y}, g};
      return true;
    case too_long:
      for (int i = 0; i < 100000; ++i) path.push_back(i % 2 ? g : s);
      return true;
    case unfinished:
      return false;
    case wrong_goal:
      path = {s, {g.x + 1, g.y}};
      return true;
    case in_pieces: {
      if (path.empty()) {
        path.push_back(s);
        return false;
      }
      const double dx = g.x - s.x, dy = g.y - s.y, d = std::sqrt(dx * dx + dy * dy), k = double(path.size());
      if (k >= d) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        path.push_back(g);
        return true;
      }
      if (path.size() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      path.push_back({s.x + dx * k / d, s.y + dy * k / d});
      return false;
    }
    default:
      break;
  }
  path = {s, g};
  return true;
}

std::string GetName() { return "misbehaving"; }
