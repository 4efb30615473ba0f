#include "base/text.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace navbench::base {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    const std::size_t j = s.find(',', i);
    out.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) return out;
    i = j + 1;
  }
}

bool get_line(std::istream& in, std::string& s) {
  if (!std::getline(in, s)) return false;
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return true;
}

std::vector<std::string> split_ws(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

long keyed(const std::vector<std::string>& f, const std::string& line, const char* key, long hi, const std::string& file,
           long lineno) {
  if (f.size() != 2 || f[0] != key) fail(file, lineno, std::string("expected '") + key + " N', got '" + line + "'");
  long v = 0;
  if (!parse_number(f[1], v)) fail(file, lineno, std::string(key) + " '" + f[1] + "' is not an integer");
  if (v < 1 || v > hi) fail(file, lineno, std::string(key) + " " + f[1] + " is outside 1.." + std::to_string(hi));
  return v;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string number(double v, int significant) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return buf;
}

std::string fnv1a_hex(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace navbench::base
