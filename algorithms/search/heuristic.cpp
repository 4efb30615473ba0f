#include "search/heuristic.hpp"

#include <charconv>
#include <stdexcept>

namespace navbench {

Heuristic parse_heuristic(const std::string& text) {
  Heuristic h;
  h.text = text;
  std::string name = text;
  if (auto star = text.find('*'); star != std::string::npos) {
    name = text.substr(0, star);
    const std::string w = text.substr(star + 1);
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), h.weight);
    if (ec != std::errc() || end != w.data() + w.size() || !(h.weight > 0) || !std::isfinite(h.weight))
      throw std::invalid_argument("heuristic '" + text + "': weight must be a positive number");
  }
  if (name == "euclidean") h.metric = Metric::euclidean;
  else if (name == "octile") h.metric = Metric::octile;
  else if (name == "manhattan") h.metric = Metric::manhattan;
  else if (name == "chebyshev") h.metric = Metric::chebyshev;
  else if (name == "zero") h.metric = Metric::zero;
  else
    throw std::invalid_argument("unknown heuristic '" + name +
                                "' (euclidean, octile, manhattan, chebyshev, zero, optionally *W)");
  return h;
}

}  // namespace navbench
