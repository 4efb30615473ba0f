#include <algorithm>
#include <mutex>

#include "search/registration.hpp"

namespace navbench {
namespace {

// Recorded by the Registration objects during static initialisation (in any order of the object
// files): a function-local list, so it exists before the first of them records.
std::vector<std::pair<std::string, Registration::Add>>& recorded() {
  static std::vector<std::pair<std::string, Registration::Add>> list;
  return list;
}
std::mutex& recorded_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

Registration::Registration(const char* folder, Add add) {
  const std::lock_guard lock(recorded_mutex());
  recorded().emplace_back(folder, add);
}

std::vector<std::pair<std::string, Registration::Add>> registrations() {
  std::vector<std::pair<std::string, Registration::Add>> out;
  {
    const std::lock_guard lock(recorded_mutex());
    out = recorded();
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace navbench
