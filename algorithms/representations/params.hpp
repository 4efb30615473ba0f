// Parameters of a representation: the key=value pairs of `--rep NAME:k=v,...` (docs/command-line.md).
// Each representation reads the keys it knows; finish() rejects any key left unread.
#pragma once
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace navbench {

// The items of a comma list as the command line and sweep configs write them ("a,b,c"), empty ones
// included ("a,,b" and "a," hold an empty item; "" is one empty item): the one splitter of every
// option value, so each reader refuses an empty item with its own message.
std::vector<std::string> split_list(const std::string& s);

class Params {
 public:
  Params() = default;
  // Parses "k=v,k=v" (empty string = no parameters). Throws std::invalid_argument on bad syntax.
  static Params parse(const std::string& text);

  double get_double(const std::string& key, double fallback, double lo, double hi);
  int get_int(const std::string& key, int fallback, int lo, int hi);
  bool get_bool(const std::string& key, bool fallback);
  // A text value as given (a competition entry's path or name, harness/gppc); `fallback` when not given.
  std::string get_string(const std::string& key, const std::string& fallback);
  // Throws std::invalid_argument naming every key no get_*() asked for.
  void finish(const std::string& representation) const;
  // The canonical "k=v,k=v" form (sorted) of every key read, defaults included: what the build CSV records.
  std::string canonical() const;
  bool empty() const { return values_.empty(); }
  // Whether the key was given (a default may depend on which other keys were asked for).
  bool given(const std::string& key) const { return values_.count(key) != 0; }

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> used_;  // key -> value in effect (given or default)
};

}  // namespace navbench
