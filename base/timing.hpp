// The one clock of every timing (docs/results.md: locate_us, search_us, smooth_us, build_ms,
// update_us; a sweep's unit times): a monotonic clock, read as the time elapsed since a start.
#pragma once
#include <chrono>

namespace navbench::base {

using Clock = std::chrono::steady_clock;

// Microseconds from t0 to now.
inline double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }
// Microseconds from a to b.
inline double us_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
// Milliseconds from t0 to now.
inline double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
// Seconds from t0 to now.
inline double s_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace navbench::base
