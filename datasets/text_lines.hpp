// Line and token helpers shared by the text readers (Moving AI maps and scenarios, dynamic
// scenarios and patches): they split lines and read numbers the same way; each reader words its
// own errors.
#pragma once
#include <charconv>
#include <cstddef>
#include <istream>
#include <string>
#include <system_error>
#include <vector>

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

}  // namespace navbench::text
