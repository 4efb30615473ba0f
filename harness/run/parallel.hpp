// parallel_for: indices [begin, end) handed out one at a time to `threads` threads (the caller is
// thread 0), each call f(i, t) with t the thread's number (for per-thread workspaces). The first
// exception a call throws stops the hand-out and is rethrown here after every thread has joined.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace navbench {

template <class F>
void parallel_for(std::size_t begin, std::size_t end, std::size_t threads, F&& f) {
  std::atomic<std::size_t> next{begin};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&](std::size_t t) {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < end;) f(i, t);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = end;
    }
  };
  std::vector<std::thread> pool;
  const std::size_t n = end > begin ? end - begin : 0;
  for (std::size_t t = 1; t < std::min(threads, n); ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace navbench
