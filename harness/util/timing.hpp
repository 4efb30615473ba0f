// The one clock of the harness's timings (docs/results.md: locate_us, search_us, smooth_us, build_ms,
// update_us): a monotonic clock, read as elapsed microseconds or milliseconds since a start.
// Header-only and below every part of harness/ (the lead moves it into base/ with errors and text).
#pragma once
#include <chrono>

namespace navbench {

using Clock = std::chrono::steady_clock;

// Microseconds from t0 to now.
inline double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }
// Microseconds from a to b.
inline double us_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
// Milliseconds from t0 to now.
inline double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace navbench
