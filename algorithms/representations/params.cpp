#include "representations/params.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

namespace navbench {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = s.find(',', pos);
    out.push_back(s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) return out;
    pos = comma + 1;
  }
}

Params Params::parse(const std::string& text) {
  Params p;
  if (text.empty()) return p;
  for (const std::string& item : split_list(text)) {
    std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("parameter '" + item + "' is not key=value");
    std::string key = item.substr(0, eq);
    if (p.values_.count(key)) throw std::invalid_argument("parameter '" + key + "' given twice");
    p.values_[key] = item.substr(eq + 1);
  }
  return p;
}

static std::string fmt(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

double Params::get_double(const std::string& key, double fallback, double lo, double hi) {
  double v = fallback;
  if (auto it = values_.find(key); it != values_.end()) {
    const std::string& s = it->second;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
      throw std::invalid_argument("parameter " + key + "=" + s + " is not a number");
  }
  if (v < lo || v > hi)
    throw std::invalid_argument("parameter " + key + "=" + fmt(v) + " is outside [" + fmt(lo) + ", " + fmt(hi) + "]");
  used_[key] = fmt(v);
  return v;
}

int Params::get_int(const std::string& key, int fallback, int lo, int hi) {
  int v = fallback;
  if (auto it = values_.find(key); it != values_.end()) {
    const std::string& s = it->second;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
      throw std::invalid_argument("parameter " + key + "=" + s + " is not an integer");
  }
  if (v < lo || v > hi)
    throw std::invalid_argument("parameter " + key + "=" + std::to_string(v) + " is outside [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  used_[key] = std::to_string(v);
  return v;
}

bool Params::get_bool(const std::string& key, bool fallback) {
  bool v = fallback;
  if (auto it = values_.find(key); it != values_.end()) {
    const std::string& s = it->second;
    if (s == "1" || s == "true" || s == "on") v = true;
    else if (s == "0" || s == "false" || s == "off") v = false;
    else throw std::invalid_argument("parameter " + key + "=" + s + " is not 0/1");
  }
  used_[key] = v ? "1" : "0";
  return v;
}

std::string Params::get_string(const std::string& key, const std::string& fallback) {
  const auto it = values_.find(key);
  const std::string v = it != values_.end() ? it->second : fallback;
  used_[key] = v;
  return v;
}

void Params::finish(const std::string& representation) const {
  std::string unknown;
  for (const auto& [k, v] : values_)
    if (!used_.count(k)) unknown += (unknown.empty() ? "" : ", ") + k;
  if (!unknown.empty())
    throw std::invalid_argument("representation " + representation + " has no parameter " + unknown);
}

std::string Params::canonical() const {
  std::string out;
  for (const auto& [k, v] : used_) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

}  // namespace navbench
