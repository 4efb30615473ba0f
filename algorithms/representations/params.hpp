// Parameters of a representation: the key=value pairs of `--rep NAME:k=v,...` (docs/command-line.md).
// Each representation declares its parameters once, on its type (`static constexpr std::array
// kParams`: name, type, default, range, one line of help); the registry validates a `--rep` text,
// `navbench list` prints them and the build CSV's canonical text formats them from that
// declaration, and the representation reads its values through it (`params.real(param(kParams,
// "min"))`: reading a key it did not declare does not compile).
#pragma once
#include <array>
#include <cstddef>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.hpp"

namespace navbench {

enum class ParamType { flag, integer, real, choice, text };
const char* to_string(ParamType t);

// One declared parameter. A flag's range is 0..1; a choice's value is the index of its item in
// `choices` ("centre,cell,none"); a text is any non-empty value as given (a competition entry's
// path or name, harness/gppc), its default "" unless `automatic`. `automatic`, when set, says how the build chooses the default
// from the map (`fallback` is then unused and the reader passes the chosen default).
struct ParamDecl {
  const char* name;
  ParamType type;
  double fallback;
  double lo, hi;
  const char* help;
  const char* automatic = nullptr;
  const char* choices = nullptr;
};

// Two given values that do not combine: `a` given as a_value with `b` given inside [b_lo, b_hi]
// (visgraph: skip=1 with table=1). Checked when a `--rep` text is parsed, before any build.
struct ParamClash {
  const char* a;
  double a_value;
  const char* b;
  double b_lo, b_hi;
  const char* message;
};

// The declaration of `name` in a representation's list, found at compile time: a read of an
// undeclared key is not a constant expression, so it does not compile.
template <class List>
consteval const ParamDecl& param(const List& declared, std::string_view name) {
  for (const ParamDecl& d : declared)
    if (name == d.name) return d;
  throw "read of a parameter the representation does not declare (kParams)";
}

// "flag 0|1", "integer [0,64]", "choice centre|cell|none": how `navbench list` shows the range;
// the default as the canonical text writes it ("auto" when `automatic`).
std::string range_text(const ParamDecl& d);
std::string default_text(const ParamDecl& d);

class Params {
 public:
  Params() = default;
  // Parses "k=v,k=v" (empty string = no parameters). Throws std::invalid_argument on bad syntax.
  static Params parse(const std::string& text);

  // The value given, or the declared default (the overloads with a default: the build's choice
  // for an `automatic` parameter). Throws std::invalid_argument on a value outside the declared
  // type or range, std::logic_error when the declaration and the read disagree (type; automatic).
  bool flag(const ParamDecl& d);
  bool flag(const ParamDecl& d, bool automatic_default);
  int integer(const ParamDecl& d);
  int integer(const ParamDecl& d, int automatic_default);
  double real(const ParamDecl& d);
  int choice(const ParamDecl& d);  // the index of the given (or default) item in d.choices
  std::string text(const ParamDecl& d);
  std::string text(const ParamDecl& d, const std::string& automatic_default);
  // Throws std::invalid_argument naming every key no read asked for.
  void finish(const std::string& representation) const;
  // Checks every given key against the declared list (unknown key, value outside its type or
  // range, a declared clash) without reading it: the `--rep` check before any build.
  void check(std::span<const ParamDecl> declared, std::span<const ParamClash> clashes,
             const std::string& representation) const;
  // The canonical "k=v,k=v" form (sorted) of every key read, defaults included: what the build CSV records.
  std::string canonical() const;
  bool empty() const { return values_.empty(); }
  // Whether the key was given (a default may depend on which other keys were asked for).
  bool given(const ParamDecl& d) const { return values_.count(d.name) != 0; }
  // The declarations read so far (tests/test_registry.cpp holds them against the declared list).
  std::vector<const ParamDecl*> read() const;

 private:
  double value(const ParamDecl& d, ParamType want, const double* automatic_default);
  void check_read(const ParamDecl& d, ParamType want, bool automatic) const;
  std::map<std::string, std::string> values_;
  struct Used {
    std::string text;  // the value in effect (given or default), formatted by its type
    const ParamDecl* decl;
  };
  std::map<std::string, Used> used_;
};

}  // namespace navbench
