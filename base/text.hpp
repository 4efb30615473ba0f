// Text helpers shared by every reader and writer: comma lists of options, the lines and words of
// the text formats (Moving AI maps and scenarios, dynamic scenarios and patches, WKT), whole-string
// numbers, and the number formats the writers print.
#pragma once
#include <charconv>
#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "base/error.hpp"

namespace navbench::base {

// The items of a comma list as the command line and sweep configs write them ("a,b,c"), empty ones
// included ("a,,b" and "a," hold an empty item; "" is one empty item): the one splitter of every
// option value, so each reader refuses an empty item with its own message.
std::vector<std::string> split_list(const std::string& s);

// The next line without its '\r' (CRLF files, e.g. the street maps); false at the end.
bool get_line(std::istream& in, std::string& s);

// The words of s, split at spaces and tabs.
std::vector<std::string> split_ws(const std::string& s);

// s without leading and trailing white space.
std::string trim(const std::string& s);

// s as text a terminal, a CSV file and a JSON string can all hold: valid UTF-8 kept, every control
// byte and every byte that is not part of a valid UTF-8 sequence written \xNN. Error messages quote
// what a file held, and a binary file, or an outside planner's exception text, can hold anything.
std::string printable(std::string_view s);

// A stable hash of the bytes of s (FNV-1a: Fowler, Noll, Vo), as 16 hex digits.
std::string fnv1a_hex(std::string_view s);

// The whole of s as a number (std::from_chars: no leading '+' or blank, nothing after it; doubles
// accept inf and nan, which callers reject).
template <class T>
bool parse_number(const std::string& s, T& v) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// The value of a header line "key N" (its words f, the line itself for the message), 1 <= N <= hi;
// else InputError "file:line: why".
long keyed(const std::vector<std::string>& f, const std::string& line, const char* key, long hi, const std::string& file,
           long lineno);

// v with `decimals` digits after the point (printf's %.*f).
std::string fixed(double v, int decimals);
// v with `significant` significant digits (printf's %.*g; 6 is what an ostream prints by default,
// 12 the results files' numbers, 17 a double read back exactly).
std::string number(double v, int significant = 6);

}  // namespace navbench::base
