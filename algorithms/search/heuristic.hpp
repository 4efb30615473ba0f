// Heuristics of the shared A* (docs/command-line.md): a metric on vertex positions, optionally weighted.
// Weighted A* (Pohl 1970) with weight w > 1 is inadmissible; its gap column shows the price.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include "geometry/point.hpp"

namespace navbench {

enum class Metric { euclidean, octile, manhattan, chebyshev, zero };

struct Heuristic {
  Metric metric = Metric::euclidean;
  double weight = 1.0;
  std::string text = "euclidean";  // as given on the command line (the `heuristic` column)
};

// Parses "NAME" or "NAME*W" (W > 0). Throws std::invalid_argument with a one-line message.
Heuristic parse_heuristic(const std::string& text);

template <Metric M>
inline double metric_distance(Point a, Point b) {
  const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
  if constexpr (M == Metric::euclidean) return std::sqrt(dx * dx + dy * dy);
  else if constexpr (M == Metric::octile) return std::max(dx, dy) + (M_SQRT2 - 1.0) * std::min(dx, dy);
  else if constexpr (M == Metric::manhattan) return dx + dy;
  else if constexpr (M == Metric::chebyshev) return std::max(dx, dy);
  else return 0.0;
}

// Calls f(std::integral_constant<Metric, M>{}) for the runtime metric: the metric is a template
// argument inside the search loop, so no switch runs per expansion.
template <class F>
decltype(auto) with_metric(Metric m, F&& f) {
  switch (m) {
    case Metric::euclidean: return f(std::integral_constant<Metric, Metric::euclidean>{});
    case Metric::octile: return f(std::integral_constant<Metric, Metric::octile>{});
    case Metric::manhattan: return f(std::integral_constant<Metric, Metric::manhattan>{});
    case Metric::chebyshev: return f(std::integral_constant<Metric, Metric::chebyshev>{});
    case Metric::zero: break;
  }
  return f(std::integral_constant<Metric, Metric::zero>{});
}

}  // namespace navbench
