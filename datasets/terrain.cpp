#include "datasets/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "datasets/splitmix.hpp"
#include "base/text.hpp"
#include "representations/params.hpp"

namespace navbench {

TerrainTable parse_terrain(const std::string& text) {
  TerrainTable t;
  t.text = text;
  for (const std::string& item : base::split_list(text)) {
    const auto eq = item.find('=');
    if (item.empty()) throw std::invalid_argument("empty item in --terrain '" + text + "'");
    if (eq != 1) throw std::invalid_argument("--terrain item '" + item + "' is not CHAR=WEIGHT (e.g. S=2)");
    const char c = item[0];
    if (c == '@' || c == 'O' || c == 'T')
      throw std::invalid_argument(std::string("--terrain cannot name '") + c + "': it stays an obstacle");
    double w = 0;
    if (!base::parse_number(item.substr(2), w) || !std::isfinite(w) || w < 1)
      throw std::invalid_argument("--terrain weight of '" + std::string(1, c) + "' must be a number >= 1, got '" +
                                  item.substr(2) + "'");
    for (const auto& [k, v] : t.weights)
      if (k == c) throw std::invalid_argument(std::string("--terrain names '") + c + "' twice");
    t.weights.push_back({c, w});
  }
  if (t.weights.empty()) throw std::invalid_argument("--terrain needs at least one CHAR=WEIGHT");
  return t;
}

Map load_terrain_map(const std::string& path, const TerrainTable& terrain) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw base::InputError(path + ": cannot open map file");
  Map m = make_grid_map(read_movingai_map(in, path, &terrain));
  std::filesystem::path p(path);
  m.path = path;
  m.name = p.filename().string();
  if (m.name.size() > 4 && m.name.ends_with(".map")) m.name.resize(m.name.size() - 4);
  m.collection = p.parent_path().filename().string();
  m.terrain = terrain.text;
  return m;
}

std::vector<double> read_cost_layer(std::istream& in, const std::string& file, int width, int height) {
  using base::fail;
  long lineno = 1;
  std::string s;
  if (!base::get_line(in, s)) fail(file, 1, "empty file (expected 'type costs')");
  if (base::split_ws(s) != std::vector<std::string>{"type", "costs"}) fail(file, 1, "expected 'type costs', got '" + s + "'");
  long h = 0, w = 0;
  ++lineno;
  if (!base::get_line(in, s)) fail(file, lineno, "missing 'height N' line");
  h = base::keyed(base::split_ws(s), s, "height", kMaxMapSide, file, lineno);
  ++lineno;
  if (!base::get_line(in, s)) fail(file, lineno, "missing 'width N' line");
  w = base::keyed(base::split_ws(s), s, "width", kMaxMapSide, file, lineno);
  if (h != height || w != width)
    fail(file, lineno, "cost layer is " + std::to_string(w) + "x" + std::to_string(h) + ", the map " +
                           std::to_string(width) + "x" + std::to_string(height));
  ++lineno;
  if (!base::get_line(in, s) || base::split_ws(s) != std::vector<std::string>{"costs"}) fail(file, lineno, "expected 'costs'");
  std::vector<double> out(std::size_t(width) * height);
  for (int y = 0; y < height; ++y) {
    ++lineno;
    if (!base::get_line(in, s)) fail(file, lineno, "cost layer has " + std::to_string(y) + " rows, height is " + std::to_string(height));
    const auto f = base::split_ws(s);
    if (long(f.size()) != width)
      fail(file, lineno, "row " + std::to_string(y) + " has " + std::to_string(f.size()) + " numbers, width is " + std::to_string(width));
    for (int x = 0; x < width; ++x) {
      double v = 0;
      const std::string& t = f[std::size_t(x)];
      if (t == "inf") v = std::numeric_limits<double>::infinity();
      else if (!base::parse_number(t, v) || !std::isfinite(v) || v < 1)
        fail(file, lineno, "cost '" + t + "' at x " + std::to_string(x) + " is not a number >= 1 or inf");
      out[std::size_t(y) * width + x] = v;
    }
  }
  while (base::get_line(in, s)) {
    ++lineno;
    if (s.find_first_not_of(" \t") != std::string::npos) fail(file, lineno, "extra row after " + std::to_string(height) + " rows");
  }
  return out;
}

void apply_cost_layer(Map& m, const std::string& path) {
  if (m.kind != MapKind::grid) throw base::InputError(path + ": a cost layer needs a grid map, " + m.name + " is a polygon map");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw base::InputError(path + ": cannot open cost layer");
  std::vector<double> w = read_cost_layer(in, path, m.grid.width, m.grid.height);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!std::isfinite(w[i])) m.grid.cells[i] = 0;
    if (!m.grid.cells[i]) w[i] = 1;  // blocked cells keep no weight
  }
  m.grid.weights = std::move(w);
  m.terrain = std::filesystem::path(path).filename().string();
}

void write_cost_layer(std::ostream& out, const GridMap& m) {
  out << "type costs\nheight " << m.height << "\nwidth " << m.width << "\ncosts\n";
  char buf[32];
  std::string row;
  for (int y = 0; y < m.height; ++y) {
    row.clear();
    for (int x = 0; x < m.width; ++x) {
      if (x) row += ' ';
      if (!m.passable(x, y)) {
        row += "inf";
      } else {
        std::snprintf(buf, sizeof buf, "%.6g", m.weight(x, y));
        row += buf;
      }
    }
    out << row << '\n';
  }
}

namespace {

// Felzenszwalb & Huttenlocher, "Distance Transforms of Sampled Functions" (2012): the exact squared
// Euclidean distance transform in one dimension (lower envelope of parabolas), run on rows then columns.
void edt_1d(const std::vector<double>& f, std::vector<double>& d, int n) {
  std::vector<int> v(std::size_t(n) + 1);
  std::vector<double> z(std::size_t(n) + 2);
  int k = 0;
  v[0] = 0;
  z[0] = -std::numeric_limits<double>::infinity();
  z[1] = std::numeric_limits<double>::infinity();
  for (int q = 1; q < n; ++q) {
    if (!std::isfinite(f[std::size_t(q)])) continue;
    while (true) {
      const int p = v[std::size_t(k)];
      if (!std::isfinite(f[std::size_t(p)])) {  // only an infinite parabola so far: replace it
        v[std::size_t(k)] = q;
        break;
      }
      const double s = ((f[std::size_t(q)] + double(q) * q) - (f[std::size_t(p)] + double(p) * p)) / (2.0 * q - 2.0 * p);
      if (s <= z[std::size_t(k)]) {
        if (k == 0) {
          v[0] = q;
          break;
        }
        --k;
        continue;
      }
      ++k;
      v[std::size_t(k)] = q;
      z[std::size_t(k)] = s;
      z[std::size_t(k) + 1] = std::numeric_limits<double>::infinity();
      break;
    }
  }
  k = 0;
  for (int q = 0; q < n; ++q) {
    while (z[std::size_t(k) + 1] < q) ++k;
    const int p = v[std::size_t(k)];
    d[std::size_t(q)] = std::isfinite(f[std::size_t(p)]) ? double(q - p) * (q - p) + f[std::size_t(p)]
                                                         : std::numeric_limits<double>::infinity();
  }
}

// Squared distance from each cell centre to the nearest blocked cell centre, the cells around the
// map counting as blocked (the map is padded by one ring).
std::vector<double> squared_obstacle_distance(const GridMap& m) {
  const int W = m.width + 2, H = m.height + 2;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> g(std::size_t(W) * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) g[std::size_t(y) * W + x] = m.passable(x - 1, y - 1) ? inf : 0.0;
  std::vector<double> f(std::size_t(std::max(W, H))), d(f.size());
  for (int x = 0; x < W; ++x) {
    for (int y = 0; y < H; ++y) f[std::size_t(y)] = g[std::size_t(y) * W + x];
    edt_1d(f, d, H);
    for (int y = 0; y < H; ++y) g[std::size_t(y) * W + x] = d[std::size_t(y)];
  }
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) f[std::size_t(x)] = g[std::size_t(y) * W + x];
    edt_1d(f, d, W);
    for (int x = 0; x < W; ++x) g[std::size_t(y) * W + x] = d[std::size_t(x)];
  }
  std::vector<double> out(std::size_t(m.width) * m.height);
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) out[std::size_t(y) * m.width + x] = g[std::size_t(y + 1) * W + x + 1];
  return out;
}

}  // namespace

std::vector<double> generate_cost_layer(const GridMap& m, const CostLayerOptions& o) {
  const std::size_t n = std::size_t(m.width) * m.height;
  std::vector<double> w(n, 1.0);
  if (o.kind == "inflation") {
    if (!(o.wmax >= 1) || !(o.lambda > 0)) throw std::invalid_argument("inflation needs wmax >= 1 and lambda > 0");
    const std::vector<double> d2 = squared_obstacle_distance(m);
    for (std::size_t i = 0; i < n; ++i) {
      const double v = 1 + (o.wmax - 1) * std::exp(-std::sqrt(d2[i]) / o.lambda);
      w[i] = std::round(v * 100) / 100;  // two decimals: the file is the layer
    }
  } else if (o.kind == "regions") {
    // Discs of terrain over a base of 2: roads at 1 (cheaper) and rough ground at 3 or 5 (dearer).
    SplitMix rng{o.seed};
    std::fill(w.begin(), w.end(), 2.0);
    const double side = std::max(m.width, m.height);
    const double kinds[] = {1, 1, 3, 5};
    for (int i = 0; i < o.regions; ++i) {
      const double cx = rng.unit() * m.width, cy = rng.unit() * m.height;
      const double r = side * (0.03 + 0.09 * rng.unit());
      const double v = kinds[rng.below(4)];
      const int x0 = std::max(0, int(cx - r)), x1 = std::min(m.width - 1, int(cx + r));
      const int y0 = std::max(0, int(cy - r)), y1 = std::min(m.height - 1, int(cy + r));
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x)
          if ((x + 0.5 - cx) * (x + 0.5 - cx) + (y + 0.5 - cy) * (y + 0.5 - cy) <= r * r) w[std::size_t(y) * m.width + x] = v;
    }
  } else {
    throw std::invalid_argument("cost layer kind must be inflation or regions, got '" + o.kind + "'");
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!m.cells[i]) w[i] = 1;
  return w;
}

}  // namespace navbench
