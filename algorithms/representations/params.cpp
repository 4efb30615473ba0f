#include "representations/params.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

namespace navbench {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::flag: return "flag";
    case ParamType::integer: return "integer";
    case ParamType::choice: return "choice";
    case ParamType::text: return "text";
    case ParamType::real: break;
  }
  return "real";
}

Params Params::parse(const std::string& text) {
  Params p;
  if (text.empty()) return p;
  for (const std::string& item : base::split_list(text)) {
    std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("parameter '" + item + "' is not key=value");
    std::string key = item.substr(0, eq);
    if (p.values_.count(key)) throw std::invalid_argument("parameter '" + key + "' given twice");
    p.values_[key] = item.substr(eq + 1);
  }
  return p;
}

namespace {

std::vector<std::string> choices_of(const ParamDecl& d) { return base::split_list(d.choices ? d.choices : ""); }

// The value of `s` as its declared type says (a flag 0/1, a choice its item's index), range checked.
double parse_value(const ParamDecl& d, const std::string& s) {
  const std::string what = "parameter " + std::string(d.name) + "=" + s;
  double v = 0;
  switch (d.type) {
    case ParamType::flag:
      if (s == "1" || s == "true" || s == "on") return 1;
      if (s == "0" || s == "false" || s == "off") return 0;
      throw std::invalid_argument(what + " is not 0/1");
    case ParamType::choice: {
      const auto items = choices_of(d);
      for (std::size_t i = 0; i < items.size(); ++i)
        if (s == items[i]) return double(i);
      std::string list;
      for (const auto& c : items) list += (list.empty() ? "" : ", ") + c;
      throw std::invalid_argument(what + " is not one of " + list);
    }
    case ParamType::integer: {
      int i = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
      if (ec != std::errc() || end != s.data() + s.size()) throw std::invalid_argument(what + " is not an integer");
      v = i;
      break;
    }
    case ParamType::text: return 0;  // any value as given (Params::parse refuses an empty one)
    case ParamType::real: {
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
        throw std::invalid_argument(what + " is not a number");
      break;
    }
  }
  return v;
}

// The value as the canonical text writes it: a flag 1/0, an integer in decimal, a real as `<<` does.
std::string value_text(const ParamDecl& d, double v) {
  switch (d.type) {
    case ParamType::flag: return v != 0 ? "1" : "0";
    case ParamType::integer: return std::to_string(int(v));
    case ParamType::choice: return choices_of(d).at(std::size_t(v));
    case ParamType::text: return "";  // a text's value is not a number: Params::text records it
    case ParamType::real: break;
  }
  return base::number(v);
}

void check_range(const ParamDecl& d, double v) {
  if (d.type != ParamType::integer && d.type != ParamType::real) return;
  if (v >= d.lo && v <= d.hi) return;
  const auto bound = [&](double b) { return d.type == ParamType::integer ? std::to_string(int(b)) : base::number(b); };
  throw std::invalid_argument("parameter " + std::string(d.name) + "=" + value_text(d, v) + " is outside [" + bound(d.lo) +
                              ", " + bound(d.hi) + "]");
}

// "[lo,hi]", appended piece by piece: `"[" + std::string&&` trips GCC 12's -Wrestrict false positive
// at -O3 (GCC bug 105651), a warning in the default job's build output.
std::string bracket(const std::string& lo, const std::string& hi) {
  std::string s = "[";
  s += lo;
  s += ',';
  s += hi;
  return s += ']';
}

}  // namespace

std::string range_text(const ParamDecl& d) {
  switch (d.type) {
    case ParamType::flag: return "0|1";
    case ParamType::choice: {
      std::string s;
      for (const auto& c : choices_of(d)) s += (s.empty() ? "" : "|") + c;
      return s;
    }
    case ParamType::integer: return bracket(std::to_string(int(d.lo)), std::to_string(int(d.hi)));
    case ParamType::text: return "text";
    case ParamType::real: break;
  }
  return bracket(base::number(d.lo), base::number(d.hi));
}

std::string default_text(const ParamDecl& d) { return d.automatic ? "auto" : value_text(d, d.fallback); }

void Params::check_read(const ParamDecl& d, ParamType want, bool automatic) const {
  if (d.type != want) throw std::logic_error(std::string("parameter ") + d.name + " is declared " + to_string(d.type) + ", read as " + to_string(want));
  if (automatic != !!d.automatic)
    throw std::logic_error(std::string("parameter ") + d.name + (d.automatic ? " is declared automatic, read without its default" : " has a declared default, read with another"));
}

double Params::value(const ParamDecl& d, ParamType want, const double* automatic_default) {
  check_read(d, want, automatic_default != nullptr);
  double v = automatic_default ? *automatic_default : d.fallback;
  if (auto it = values_.find(d.name); it != values_.end()) v = parse_value(d, it->second);
  check_range(d, v);
  used_[d.name] = {value_text(d, v), &d};
  return v;
}

bool Params::flag(const ParamDecl& d) { return value(d, ParamType::flag, nullptr) != 0; }
bool Params::flag(const ParamDecl& d, bool automatic_default) {
  const double v = automatic_default ? 1 : 0;
  return value(d, ParamType::flag, &v) != 0;
}
int Params::integer(const ParamDecl& d) { return int(value(d, ParamType::integer, nullptr)); }
int Params::integer(const ParamDecl& d, int automatic_default) {
  const double v = automatic_default;
  return int(value(d, ParamType::integer, &v));
}
double Params::real(const ParamDecl& d) { return value(d, ParamType::real, nullptr); }
int Params::choice(const ParamDecl& d) { return int(value(d, ParamType::choice, nullptr)); }

std::string Params::text(const ParamDecl& d) {
  check_read(d, ParamType::text, false);
  const auto it = values_.find(d.name);
  const std::string v = it != values_.end() ? it->second : "";
  used_[d.name] = {v, &d};
  return v;
}

std::string Params::text(const ParamDecl& d, const std::string& automatic_default) {
  check_read(d, ParamType::text, true);
  const auto it = values_.find(d.name);
  const std::string v = it != values_.end() ? it->second : automatic_default;
  used_[d.name] = {v, &d};
  return v;
}

void Params::finish(const std::string& representation) const {
  std::string unknown;
  for (const auto& [k, v] : values_)
    if (!used_.count(k)) unknown += (unknown.empty() ? "" : ", ") + k;
  if (!unknown.empty())
    throw std::invalid_argument("representation " + representation + " has no parameter " + unknown);
}

void Params::check(std::span<const ParamDecl> declared, std::span<const ParamClash> clashes,
                   const std::string& representation) const {
  std::string unknown;
  std::map<std::string, double> given;
  for (const auto& [k, text] : values_) {
    const ParamDecl* d = nullptr;
    for (const ParamDecl& c : declared)
      if (k == c.name) d = &c;
    if (!d) {
      unknown += (unknown.empty() ? "" : ", ") + k;
      continue;
    }
    given[k] = parse_value(*d, text);
    check_range(*d, given[k]);
  }
  if (!unknown.empty())
    throw std::invalid_argument("representation " + representation + " has no parameter " + unknown);
  for (const ParamClash& c : clashes) {
    const auto a = given.find(c.a), b = given.find(c.b);
    if (a != given.end() && b != given.end() && a->second == c.a_value && b->second >= c.b_lo && b->second <= c.b_hi)
      throw std::invalid_argument(c.message);
  }
}

std::string Params::canonical() const {
  std::string out;
  for (const auto& [k, u] : used_) out += (out.empty() ? "" : ",") + k + "=" + u.text;
  return out;
}

std::vector<const ParamDecl*> Params::read() const {
  std::vector<const ParamDecl*> out;
  for (const auto& [k, u] : used_) out.push_back(u.decl);
  return out;
}

}  // namespace navbench
