// Line and token helpers shared by the text readers (Moving AI maps and scenarios, dynamic
// scenarios and patches): they split lines, read numbers and report a bad line (file:line: why)
// the same way; and the fixed-point number format the writers print.
#pragma once
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <istream>
#include <string>
#include <system_error>
#include <vector>

#include "datasets/movingai.hpp"  // InputError

namespace navbench::text {

// The next line without its '\r' (CRLF files, e.g. the street maps); false at the end.
inline bool get_line(std::istream& in, std::string& s) {
  if (!std::getline(in, s)) return false;
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return true;
}

// The words of s, split at spaces and tabs.
inline std::vector<std::string> split_ws(const std::string& s) {
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

// The whole of s as a number (std::from_chars: no leading '+' or blank, nothing after it; doubles
// accept inf and nan, which callers reject).
template <class T>
bool parse_number(const std::string& s, T& v) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// The one-line error of every reader: "file:line: why".
[[noreturn]] inline void fail(const std::string& file, long line, const std::string& why) {
  throw InputError(file + ":" + std::to_string(line) + ": " + why);
}

// The value of a header line "key N" (its words f, the line itself for the message), 1 <= N <= hi.
inline long keyed(const std::vector<std::string>& f, const std::string& line, const char* key, long hi,
                  const std::string& file, long lineno) {
  if (f.size() != 2 || f[0] != key) fail(file, lineno, std::string("expected '") + key + " N', got '" + line + "'");
  long v = 0;
  if (!parse_number(f[1], v)) fail(file, lineno, std::string(key) + " '" + f[1] + "' is not an integer");
  if (v < 1 || v > hi) fail(file, lineno, std::string(key) + " " + f[1] + " is outside 1.." + std::to_string(hi));
  return v;
}

// v with `decimals` digits after the point (printf's %.*f).
inline std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace navbench::text
