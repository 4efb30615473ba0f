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

std::string printable(std::string_view s) {
  // The length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no
  // surrogates, nothing above U+10FFFF), 0 when there is none.
  auto sequence = [&s](std::size_t i) -> std::size_t {
    const auto b = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned c = b(i);
    std::size_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (i + n > s.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
      if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    return n;
  };
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += s[i++];
      continue;
    }
    if (const std::size_t n = c >= 0x80 ? sequence(i) : 0) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
    ++i;
  }
  return out;
}

std::string fnv1a_hex(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace navbench::base
