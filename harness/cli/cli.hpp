// Shared command-line helpers for navbench's subcommands (docs/command-line.md), on CLI11 (header-only, Debian
// libcli11-dev). Each subcommand builds its own CLI::App named "navbench X", adds its options and
// calls cli::parse: --help prints the app's help to stdout (exit 0); every parse error becomes one
// std::invalid_argument line, which main.cpp prints as "navbench X: message" with exit status 2.
#pragma once
#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace navbench::cli {

// A CLI::App configured the navbench way: a repeated scalar option keeps its last value (as the
// hand-written loops did), and unknown arguments are collected so they can be reported by name.
inline void configure(CLI::App& app) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_extras();
  app.get_formatter()->column_width(34);
}

// An option that may be given several times, one value each time (--rep a --rep b:k=v,...);
// commas stay inside the value.
template <typename T>
CLI::Option* repeated(CLI::App& app, const std::string& name, std::vector<T>& into, const std::string& desc) {
  return app.add_option(name, into, desc)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// Validators of typed options: CLI11 checks the text before converting it to the option's type,
// so each option is parsed once, by CLI11, with one message ("--limit: needs a positive integer, got '0'").
inline CLI::Validator integer_in(long long lo, long long hi, const std::string& what) {
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        long long n = 0;
        std::size_t used = 0;
        try {
          n = std::stoll(v, &used);
        } catch (...) {
          used = 0;
        }
        if (v.empty() || used != v.size() || n < lo || n > hi) return "needs " + what + ", got '" + v + "'";
        return "";
      },
      what);
}
inline CLI::Validator positive_integer(long long hi = (1LL << 40)) { return integer_in(1, hi, "a positive integer"); }
inline CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 19)
          return "needs a non-negative integer, got '" + v + "'";
        return "";
      },
      "a non-negative integer");
}

// Collapses a (possibly multi-line) message into one line.
inline std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Parses `args` (the arguments after the subcommand name, in order) into `app`.
// Returns 0 when --help/-h was given (help already printed: the command returns that status),
// nullopt when the command should go on. Throws std::invalid_argument with one line otherwise.
inline std::optional<int> parse(CLI::App& app, const std::vector<std::string>& args) {
  // CLI11 wants help even when other arguments are wrong: look for it first.
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << app.help();
      return 0;
    }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(one_line(e.what()));
  }
  for (const auto& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') throw std::invalid_argument("unknown option '" + extra + "'");
    throw std::invalid_argument("unexpected argument '" + extra + "'");
  }
  // An option's value never starts with "--": `--out --quiet` means --out lacks its value.
  for (const CLI::Option* o : app.get_options())
    for (const auto& v : o->results())
      if (v.rfind("--", 0) == 0) throw std::invalid_argument(o->get_name() + " needs a value, got option '" + v + "'");
  return std::nullopt;
}

}  // namespace navbench::cli
