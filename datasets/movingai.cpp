#include "datasets/movingai.hpp"

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
using base::parse_number;
using base::split_ws;

int header_value(std::istream& in, const std::string& file, long& lineno, const char* key) {
  std::string s;
  ++lineno;
  if (!get_line(in, s)) fail(file, lineno, std::string("missing '") + key + " N' line");
  return int(base::keyed(split_ws(s), s, key, kMaxMapSide, file, lineno));
}

}  // namespace

GridMap read_movingai_map(std::istream& in, const std::string& file, const TerrainTable* terrain) {
  long lineno = 1;
  std::string s;
  if (!get_line(in, s)) fail(file, 1, "empty file (expected 'type octile')");
  {
    auto f = split_ws(s);
    if (f.size() != 2 || f[0] != "type") fail(file, 1, "expected 'type octile', got '" + s + "'");
    if (f[1] != "octile") fail(file, 1, "map type '" + f[1] + "' is not supported (only octile)");
  }
  GridMap m;
  m.height = header_value(in, file, lineno, "height");
  m.width = header_value(in, file, lineno, "width");
  ++lineno;
  if (!get_line(in, s) || split_ws(s) != std::vector<std::string>{"map"}) fail(file, lineno, "expected 'map'");
  if (std::size_t(m.width) * std::size_t(m.height) > (std::size_t(1) << 28))
    fail(file, 2, "map of " + std::to_string(m.width) + "x" + std::to_string(m.height) + " cells is too large");
  m.cells.assign(std::size_t(m.width) * m.height, 0);
  // With a terrain table: each character's weight (0: blocked), looked up per character.
  double weight_of[256] = {};
  if (terrain) {
    weight_of[std::uint8_t('.')] = weight_of[std::uint8_t('G')] = weight_of[std::uint8_t('S')] = 1;
    for (const auto& [c, w] : terrain->weights) weight_of[std::uint8_t(c)] = w;
    m.weights.assign(m.cells.size(), 1.0);
  }
  for (int y = 0; y < m.height; ++y) {
    ++lineno;
    if (!get_line(in, s))
      fail(file, lineno, "map has " + std::to_string(y) + " rows, header says " + std::to_string(m.height));
    if (int(s.size()) != m.width)
      fail(file, lineno, "row " + std::to_string(y) + " has " + std::to_string(s.size()) + " cells, width is " +
                             std::to_string(m.width));
    for (int x = 0; x < m.width; ++x) {
      const char c = s[std::size_t(x)];
      const std::size_t i = std::size_t(y) * m.width + x;
      if (terrain) {
        const double w = weight_of[std::uint8_t(c)];
        m.cells[i] = w > 0;
        if (w > 0) m.weights[i] = w;
      } else {
        m.cells[i] = (c == '.' || c == 'G' || c == 'S') ? 1 : 0;
      }
    }
  }
  while (get_line(in, s)) {  // trailing blank lines are fine, more rows are not
    ++lineno;
    if (s.find_first_not_of(" \t") != std::string::npos)
      fail(file, lineno, "extra row after " + std::to_string(m.height) + " map rows");
  }
  return m;
}

Map load_movingai_map(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw base::InputError(path + ": cannot open map file");
  Map m = make_grid_map(read_movingai_map(in, path));
  std::filesystem::path p(path);
  m.path = path;
  m.name = p.filename().string();
  if (m.name.size() > 4 && m.name.ends_with(".map")) m.name.resize(m.name.size() - 4);
  m.collection = p.parent_path().filename().string();
  return m;
}

Scenario read_scenario(std::istream& in, const std::string& file) {
  Scenario sc;
  sc.path = file;
  std::string s;
  long lineno = 1;
  if (!get_line(in, s)) fail(file, 1, "empty scenario file (expected 'version 1')");
  {
    auto f = split_ws(s);
    if (f.size() != 2 || f[0] != "version") fail(file, 1, "expected 'version 1', got '" + s + "'");
    if (f[1] != "1" && f[1] != "1.0") fail(file, 1, "unknown scenario version '" + f[1] + "'");
  }
  while (get_line(in, s)) {
    ++lineno;
    auto f = split_ws(s);
    if (f.empty()) continue;
    if (f.size() != 9) fail(file, lineno, "expected 9 fields, got " + std::to_string(f.size()));
    ScenarioLine l;
    l.line = lineno;
    if (!parse_number(f[0], l.bucket) || l.bucket < 0) fail(file, lineno, "bucket '" + f[0] + "' is not a count");
    l.map = f[1];
    if (!parse_number(f[2], l.width) || !parse_number(f[3], l.height) || l.width <= 0 || l.height <= 0)
      fail(file, lineno, "map size '" + f[2] + " " + f[3] + "' is not two positive integers");
    double* coords[4] = {&l.sx, &l.sy, &l.gx, &l.gy};
    for (int i = 0; i < 4; ++i)
      if (!parse_number(f[4 + i], *coords[i]) || !std::isfinite(*coords[i]))
        fail(file, lineno, "coordinate '" + f[4 + i] + "' is not a number");
    const std::string& o = f[8];
    if (!parse_number(o, l.optimal) || !std::isfinite(l.optimal) || l.optimal < 0)
      fail(file, lineno, "optimal length '" + o + "' is not a non-negative number");
    // Printed precision: digits after the point and significant digits.
    const auto dot = o.find('.');
    l.decimals = dot == std::string::npos ? 0 : int(o.size() - dot - 1);
    int sig = 0;
    bool leading = true;
    for (char c : o) {
      if (c < '0' || c > '9') continue;
      if (leading && c == '0') continue;
      leading = false;
      ++sig;
    }
    l.significant = sig;
    sc.lines.push_back(std::move(l));
  }
  return sc;
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw base::InputError(path + ": cannot open scenario file");
  return read_scenario(in, path);
}

void check_scenario_matches(const Scenario& s, const GridMap& m) {
  // Blank lines are skipped, so the line read from (file:line) is kept with each query.
  for (std::size_t i = 0; i < s.lines.size(); ++i) {
    const auto& l = s.lines[i];
    if (l.width != m.width || l.height != m.height)
      throw base::InputError(s.path + ": query " + std::to_string(i) + ": map size " + std::to_string(l.width) + "x" +
                       std::to_string(l.height) + " does not match the map's " + std::to_string(m.width) + "x" +
                       std::to_string(m.height));
    // A grid scenario names cells: whole numbers inside the map. A fractional cell (0.5) would be
    // silently moved by the convention's offset and answered, so it is refused.
    const std::string where = l.line > 0 ? s.path + ":" + std::to_string(l.line) : s.path + ": query " + std::to_string(i);
    const struct { const char* name; double v; int size; } c[4] = {
        {"start x", l.sx, m.width}, {"start y", l.sy, m.height}, {"goal x", l.gx, m.width}, {"goal y", l.gy, m.height}};
    auto text = [](double v) {
      std::ostringstream o;
      o << std::setprecision(12) << v;
      return o.str();
    };
    // A cell outside the map is not an error of the file: that query is `invalid_query` and the
    // rest of the file runs (docs/maps.md#scenario-files), as with a query on a blocked cell.
    for (const auto& k : c)
      if (std::floor(k.v) != k.v)
        throw base::InputError(where + ": " + k.name + " " + text(k.v) + " is not a whole cell index");
  }
}

void write_movingai_map(std::ostream& out, const GridMap& m) {
  out << "type octile\nheight " << m.height << "\nwidth " << m.width << "\nmap\n";
  std::string row(std::size_t(m.width), '.');
  for (int y = 0; y < m.height; ++y) {
    for (int x = 0; x < m.width; ++x) row[std::size_t(x)] = m.passable(x, y) ? '.' : '@';
    out << row << '\n';
  }
}

void write_scenario(std::ostream& out, const Scenario& s) {
  out << "version 1\n";
  for (const auto& l : s.lines) {
    out << l.bucket << '\t' << l.map << '\t' << l.width << '\t' << l.height << '\t' << std::setprecision(17) << l.sx
        << '\t' << l.sy << '\t' << l.gx << '\t' << l.gy << '\t' << std::fixed << std::setprecision(8) << l.optimal
        << std::defaultfloat << '\n';
  }
}

double printed_tolerance(const ScenarioLine& l) {
  // Half a unit of the last printed digit (docs/maps.md) plus the files' own arithmetic error, 2e-8 of
  // the length: measured on all 25 shared maps, the newer 8-decimal files (bg, maze, room, street)
  // sum diagonals as 1.41421356 (1.7e-9 relative low: up to 32 printed units on long paths) and the
  // older %g files (dao, sc1, random, wc3) overshoot half a unit by up to 1% of a unit (float sums).
  // A real path difference is at least 2 - sqrt(2) - far above either.
  return 0.5 * std::pow(10.0, -std::max(l.decimals, 0)) + 2e-8 * std::abs(l.optimal);
}

}  // namespace navbench
