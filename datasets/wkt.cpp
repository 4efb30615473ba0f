#include "datasets/wkt.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/io/wkt/read.hpp>

#include "base/text.hpp"
#include "geometry/polygons.hpp"

namespace navbench {

namespace bg = boost::geometry;

namespace {

bool starts_with_word(const std::string& s, const char* word) {
  const std::size_t n = std::char_traits<char>::length(word);
  if (s.size() < n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (std::toupper(static_cast<unsigned char>(s[i])) != word[i]) return false;
  return s.size() == n || !std::isalpha(static_cast<unsigned char>(s[n]));
}

// Parses one line into corrected, validated polygons.
BgMultiPolygon parse_line(const std::string& text, const std::string& file, long line) {
  BgMultiPolygon mp;
  try {
    if (starts_with_word(text, "MULTIPOLYGON")) {
      bg::read_wkt(text, mp);
    } else if (starts_with_word(text, "POLYGON")) {
      BgPolygon p;
      bg::read_wkt(text, p);
      mp.push_back(std::move(p));
    } else {
      base::fail(file, line, "expected POLYGON or MULTIPOLYGON, got '" + text.substr(0, 30) + "'");
    }
  } catch (const bg::read_wkt_exception& e) {
    base::fail(file, line, std::string("bad WKT: ") + e.what());
  }
  if (mp.empty()) base::fail(file, line, "empty geometry");
  // Coordinates must be finite and of sane size (|c| <= 1e9 map units): beyond that Boost.Geometry's
  // integer rescaling overflows, and no map needs it.
  auto check = [&](const auto& p) {
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) base::fail(file, line, "coordinate is not a finite number");
    if (std::abs(p.x()) > 1e9 || std::abs(p.y()) > 1e9) base::fail(file, line, "coordinate beyond 1e9 map units");
  };
  for (auto& poly : mp) {
    for (const auto& p : poly.outer()) check(p);
    for (const auto& r : poly.inners())
      for (const auto& p : r) check(p);
    bg::correct(poly);  // orientation and closing point as Boost.Geometry expects
    std::string why;
    if (!bg_is_valid(poly, why)) base::fail(file, line, "invalid polygon: " + why);
  }
  return mp;
}

}  // namespace

PolygonMap read_wkt_map(std::istream& in, const std::string& file) {
  PolygonMap m;
  std::string s;
  long lineno = 0;
  bool have_walkable = false;
  while (std::getline(in, s)) {
    ++lineno;
    const std::string t = base::trim(s);
    if (t.empty() || t[0] == '#') continue;
    BgMultiPolygon mp = parse_line(t, file, lineno);
    if (!have_walkable) {
      if (mp.size() != 1) base::fail(file, lineno, "the walkable area (first line) must be a single polygon");
      m.walkable = from_bg(mp[0]);
      have_walkable = true;
    } else {
      for (const auto& p : mp) m.obstacles.push_back(from_bg(p));
    }
  }
  if (!have_walkable) base::fail(file, lineno + 1, "no walkable area (empty file)");
  return m;
}

Map polygon_map_of_file(const std::string& path, PolygonMap pm) {
  Map m;
  m.polygons = std::move(pm);
  const std::filesystem::path p(path);
  m.name = p.stem().string();
  m.collection = p.parent_path().filename().string();
  m.path = path;
  m.kind = MapKind::polygon;
  const double inf = std::numeric_limits<double>::infinity();
  m.min = {inf, inf};
  m.max = {-inf, -inf};
  for (const Point& q : m.polygons.walkable.rings[0]) {
    m.min = {std::min(m.min.x, q.x), std::min(m.min.y, q.y)};
    m.max = {std::max(m.max.x, q.x), std::max(m.max.y, q.y)};
  }
  return m;
}

Map load_wkt_map(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw base::InputError(path + ":0: cannot open file");
  return polygon_map_of_file(path, read_wkt_map(in, path));
}

void write_wkt_map(std::ostream& out, const PolygonMap& m) {
  const auto old = out.precision(17);
  auto shape = [&](const PolygonShape& s) {
    out << "POLYGON(";
    for (std::size_t r = 0; r < s.rings.size(); ++r) {
      out << (r ? ",(" : "(");
      for (std::size_t i = 0; i <= s.rings[r].size(); ++i) {
        const Point& p = s.rings[r][i % s.rings[r].size()];
        out << (i ? "," : "") << p.x << ' ' << p.y;
      }
      out << ')';
    }
    out << ")\n";
  };
  shape(m.walkable);
  for (const auto& o : m.obstacles) shape(o);
  out.precision(old);
}

}  // namespace navbench
