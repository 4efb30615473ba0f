#include "datasets/dynamic.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "base/text.hpp"

namespace navbench {
namespace {

using base::fail;
using base::get_line;
using base::keyed;
using base::parse_number;
using base::split_ws;

// Reads the next non-empty line (blank lines between sections are tolerated).
bool next_line(std::istream& in, std::string& s, long& lineno) {
  while (get_line(in, s)) {
    ++lineno;
    if (!split_ws(s).empty()) return true;
  }
  return false;
}

std::vector<Patch> read_patches(std::istream& in, const std::string& file) {
  long lineno = 0;
  std::string s;
  if (!next_line(in, s, lineno)) fail(file, 1, "empty patch file (expected 'type patch')");
  if (split_ws(s) != std::vector<std::string>{"type", "patch"}) fail(file, lineno, "expected 'type patch', got '" + s + "'");
  if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'patches N' line");
  const long n = keyed(split_ws(s), s, "patches", 1 << 24, file, lineno);
  std::vector<Patch> out;
  out.reserve(std::size_t(n));
  std::size_t total = 0;
  for (long i = 0; i < n; ++i) {
    if (!next_line(in, s, lineno)) fail(file, lineno + 1, "file ends after " + std::to_string(i) + " of " + std::to_string(n) + " patches");
    auto f = split_ws(s);
    long id = -1;
    if (f.size() != 2 || f[0] != "patch" || !parse_number(f[1], id)) fail(file, lineno, "expected 'patch " + std::to_string(i) + "', got '" + s + "'");
    if (id != i) fail(file, lineno, "patch " + f[1] + " out of order (expected " + std::to_string(i) + ")");
    Patch p;
    if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'height N'");
    p.height = int(keyed(split_ws(s), s, "height", kMaxMapSide, file, lineno));
    if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'width N'");
    p.width = int(keyed(split_ws(s), s, "width", kMaxMapSide, file, lineno));
    if (!next_line(in, s, lineno) || split_ws(s) != std::vector<std::string>{"map"}) fail(file, lineno, "expected 'map'");
    total += std::size_t(p.width) * std::size_t(p.height);
    if (total > (std::size_t(1) << 30)) fail(file, lineno, "patches hold more than 2^30 cells in total");
    p.cells.assign(std::size_t(p.width) * std::size_t(p.height), 0);
    for (int y = 0; y < p.height; ++y) {
      ++lineno;
      if (!get_line(in, s)) fail(file, lineno, "patch " + std::to_string(i) + " has " + std::to_string(y) + " rows, height is " + std::to_string(p.height));
      if (int(s.size()) != p.width)
        fail(file, lineno, "patch " + std::to_string(i) + " row " + std::to_string(y) + " has " + std::to_string(s.size()) +
                               " cells, width is " + std::to_string(p.width));
      for (int x = 0; x < p.width; ++x) {
        const char c = s[std::size_t(x)];
        p.cells[std::size_t(y) * std::size_t(p.width) + std::size_t(x)] = (c == '.' || c == 'G' || c == 'S') ? 1 : 0;
      }
    }
    out.push_back(std::move(p));
  }
  if (next_line(in, s, lineno)) fail(file, lineno, "text after the last patch: '" + s + "'");
  return out;
}

}  // namespace

DynamicScenario read_dynamic_scenario(std::istream& in, const std::string& file, std::istream& patch_in,
                                      const std::string& patch_name) {
  DynamicScenario d;
  d.path = file;
  d.name = std::filesystem::path(file).filename().string();
  if (d.name.ends_with(".scen")) d.name.resize(d.name.size() - 5);
  long lineno = 0;
  std::string s;
  if (!next_line(in, s, lineno)) fail(file, 1, "empty file (expected 'version 2')");
  {
    auto f = split_ws(s);
    if (f.size() != 2 || f[0] != "version" || (f[1] != "2" && f[1] != "2.0"))
      fail(file, lineno, "expected 'version 2' (a dynamic scenario), got '" + s + "'");
  }
  if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'height N'");
  d.height = int(keyed(split_ws(s), s, "height", kMaxMapSide, file, lineno));
  if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'width N'");
  d.width = int(keyed(split_ws(s), s, "width", kMaxMapSide, file, lineno));
  if (std::size_t(d.width) * std::size_t(d.height) > (std::size_t(1) << 28))
    fail(file, lineno, "map of " + std::to_string(d.width) + "x" + std::to_string(d.height) + " cells is too large");
  if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'cost K NAME...'");
  {
    auto f = split_ws(s);
    long k = 0;
    if (f.size() < 3 || f[0] != "cost" || !parse_number(f[1], k)) fail(file, lineno, "expected 'cost K NAME...', got '" + s + "'");
    if (k < 1 || std::size_t(k) != f.size() - 2)
      fail(file, lineno, "cost line says " + f[1] + " names but lists " + std::to_string(f.size() - 2));
    d.cost_names.assign(f.begin() + 2, f.end());
    for (std::size_t i = 0; i < d.cost_names.size(); ++i)
      if (d.cost_names[i] == "octile") d.octile = int(i);
    if (d.octile < 0) fail(file, lineno, "cost line names no 'octile' cost");
  }
  if (!next_line(in, s, lineno)) fail(file, lineno + 1, "missing 'patch FILE'");
  {
    auto f = split_ws(s);
    if (f.size() != 2 || f[0] != "patch") fail(file, lineno, "expected 'patch FILE', got '" + s + "'");
    d.patch_file = f[1];
  }
  if (!next_line(in, s, lineno) || split_ws(s) != std::vector<std::string>{"commands"})
    fail(file, lineno, "expected 'commands', got '" + s + "'");
  d.patches = read_patches(patch_in, patch_name);
  long last_epoch = -1;
  auto cell = [&](const std::string& v, int hi, const char* what) {
    long c = 0;
    if (!parse_number(v, c)) fail(file, lineno, std::string(what) + " '" + v + "' is not an integer cell");
    if (c < 0 || c >= hi) fail(file, lineno, std::string(what) + " " + v + " is outside the " + std::to_string(d.width) + "x" + std::to_string(d.height) + " map");
    return int(c);
  };
  while (next_line(in, s, lineno)) {
    auto f = split_ws(s);
    DynamicCommand c;
    c.line = lineno;
    if (f[0] != "P" && f[0] != "Q") fail(file, lineno, "unknown command '" + f[0] + "' (P or Q)");
    if (f.size() < 2 || !parse_number(f[1], c.epoch) || c.epoch < 0) fail(file, lineno, "epoch missing or not a non-negative integer");
    if (c.epoch < last_epoch) fail(file, lineno, "epoch " + f[1] + " after epoch " + std::to_string(last_epoch));
    last_epoch = c.epoch;
    if (f[0] == "P") {
      c.kind = DynamicCommand::place;
      if (f.size() != 5) fail(file, lineno, "expected 'P epoch id x y', got '" + s + "'");
      long id = 0;
      if (!parse_number(f[2], id) || id < 0 || id >= long(d.patches.size()))
        fail(file, lineno, "patch id '" + f[2] + "' is not one of the " + std::to_string(d.patches.size()) + " patches");
      c.id = int(id);
      c.x = cell(f[3], d.width, "x");
      c.y = cell(f[4], d.height, "y");
      const Patch& p = d.patches[std::size_t(c.id)];
      if (c.x + p.width > d.width || c.y + p.height > d.height)
        fail(file, lineno, "patch " + f[2] + " (" + std::to_string(p.width) + "x" + std::to_string(p.height) + ") at (" + f[3] + ", " +
                               f[4] + ") reaches outside the map");
    } else {
      c.kind = DynamicCommand::query;
      if (f.size() != 6 + d.cost_names.size())
        fail(file, lineno, "expected 'Q epoch sx sy gx gy' and " + std::to_string(d.cost_names.size()) + " cost(s), got '" + s + "'");
      c.sx = cell(f[2], d.width, "sx");
      c.sy = cell(f[3], d.height, "sy");
      c.gx = cell(f[4], d.width, "gx");
      c.gy = cell(f[5], d.height, "gy");
      for (std::size_t k = 0; k < d.cost_names.size(); ++k) {
        double v = 0;
        const std::string& t = f[6 + k];
        if (!parse_number(t, v) || !std::isfinite(v)) fail(file, lineno, "cost '" + t + "' is not a number");
        c.costs.push_back(v);
        c.cost_text.push_back(t);
      }
    }
    d.commands.push_back(std::move(c));
  }
  return d;
}

DynamicScenario load_dynamic_scenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw base::InputError(path + ": cannot open dynamic scenario");
  // The patch file's name is on line 5; read the header once to find it, then parse both.
  std::string patch;
  {
    std::string s;
    long n = 0;
    while (std::getline(in, s) && n < 16) {
      ++n;
      if (!s.empty() && s.back() == '\r') s.pop_back();
      auto f = split_ws(s);
      if (f.size() == 2 && f[0] == "patch") {
        patch = f[1];
        break;
      }
    }
    in.clear();
    in.seekg(0);
  }
  if (patch.empty()) {
    std::istringstream none;
    return read_dynamic_scenario(in, path, none, path);  // throws: reports the header error with its line
  }
  const std::filesystem::path pp = std::filesystem::path(path).parent_path() / patch;
  std::ifstream pin(pp, std::ios::binary);
  if (!pin) throw base::InputError(path + ": cannot open patch file " + pp.string());
  return read_dynamic_scenario(in, path, pin, pp.string());
}

bool is_dynamic_scenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string s;
  if (!get_line(in, s)) return false;
  auto f = split_ws(s);
  return f.size() == 2 && f[0] == "version" && (f[1] == "2" || f[1] == "2.0");
}

void write_dynamic_scenario(std::ostream& out, std::ostream& pout, const DynamicScenario& d) {
  pout << "type patch\npatches " << d.patches.size() << '\n';
  for (std::size_t i = 0; i < d.patches.size(); ++i) {
    const Patch& p = d.patches[i];
    pout << "patch " << i << "\nheight " << p.height << "\nwidth " << p.width << "\nmap\n";
    for (int y = 0; y < p.height; ++y) {
      for (int x = 0; x < p.width; ++x) pout << (p.cells[std::size_t(y) * std::size_t(p.width) + std::size_t(x)] ? '.' : '@');
      pout << '\n';
    }
  }
  out << "version 2\nheight " << d.height << "\nwidth " << d.width << "\ncost " << d.cost_names.size();
  for (auto& n : d.cost_names) out << ' ' << n;
  out << "\npatch " << d.patch_file << "\ncommands\n";
  for (const auto& c : d.commands) {
    if (c.kind == DynamicCommand::place) {
      out << "P " << c.epoch << ' ' << c.id << ' ' << c.x << ' ' << c.y << '\n';
    } else {
      out << "Q " << c.epoch << ' ' << c.sx << ' ' << c.sy << ' ' << c.gx << ' ' << c.gy;
      for (std::size_t k = 0; k < c.costs.size(); ++k) {
        if (k < c.cost_text.size() && !c.cost_text[k].empty()) out << ' ' << c.cost_text[k];
        else out << ' ' << std::setprecision(14) << c.costs[k];
      }
      out << '\n';
    }
  }
}

std::size_t apply_patch(GridMap& m, const Patch& p, int x0, int y0, std::vector<CellChange>& changed) {
  std::size_t n = 0;
  for (int y = 0; y < p.height; ++y) {
    const int my = y0 + y;
    if (my < 0 || my >= m.height) continue;
    for (int x = 0; x < p.width; ++x) {
      const int mx = x0 + x;
      if (mx < 0 || mx >= m.width) continue;
      const std::uint8_t v = p.cells[std::size_t(y) * std::size_t(p.width) + std::size_t(x)];
      std::uint8_t& cell = m.cells[std::size_t(my) * std::size_t(m.width) + std::size_t(mx)];
      if (cell != v) {
        cell = v;
        changed.push_back({mx, my, v});
        ++n;
      }
    }
  }
  return n;
}

double printed_tolerance(const std::string& printed, double value) {
  const auto dot = printed.find('.');
  const auto e = printed.find_first_of("eE");
  int decimals = 0;
  if (dot != std::string::npos) decimals = int((e == std::string::npos ? printed.size() : e) - dot - 1);
  return 0.5 * std::pow(10.0, -decimals) + 2e-8 * std::abs(value);
}

}  // namespace navbench
