#include "datasets/polyanya.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <limits>

#include "datasets/polyanya_region.hpp"
#include "base/text.hpp"
#include "datasets/wkt.hpp"
#include "geometry/exact.hpp"

namespace navbench {
namespace {

using base::fail;

// The next line that is not blank, split into words; false at the end of the file.
bool next_words(std::istream& in, long& line, std::vector<std::string>& words) {
  std::string s;
  while (base::get_line(in, s)) {
    ++line;
    words = base::split_ws(s);
    if (!words.empty()) return true;
  }
  return false;
}

template <class T>
T number(const std::string& w, const std::string& file, long line, const char* what) {
  T v{};
  if (!base::parse_number(w, v)) fail(file, line, std::string("expected ") + what + ", got '" + w + "'");
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(v) || std::abs(v) > 1e9) fail(file, line, std::string(what) + " '" + w + "' is not a finite number of sane size");
  return v;
}

void header(std::istream& in, const std::string& file, long& line, const char* magic, int version) {
  std::vector<std::string> w;
  if (!next_words(in, line, w) || w.size() != 1 || w[0] != magic)
    fail(file, line, std::string("expected the header '") + magic + "'");
  if (!next_words(in, line, w) || w.size() != 1) fail(file, line, "expected the format version");
  if (w[0] != std::to_string(version))
    fail(file, line, std::string("version ") + w[0] + " is not read (" + magic + " version " + std::to_string(version) + " only)");
}

// n followed by exactly `per` * n integers in [lo, hi); `from` is the first word of the list.
std::vector<int> index_list(const std::vector<std::string>& w, std::size_t from, int n, int lo, int hi,
                            const std::string& file, long line, const char* what) {
  std::vector<int> out;
  for (int k = 0; k < n; ++k) {
    const int v = number<int>(w[from + std::size_t(k)], file, line, what);
    if (v < lo || v >= hi)
      fail(file, line, std::string(what) + " " + std::to_string(v) + " out of range (" + std::to_string(lo) + ".." + std::to_string(hi - 1) + ")");
    out.push_back(v);
  }
  return out;
}

void check_polygon_shape(const PolyanyaMesh& m, std::size_t i, const std::string& file, long line) {
  const auto& v = m.polygons[i];
  const std::size_t n = v.size();
  double twice_area = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Point a = m.vertices[std::size_t(v[(k + n - 1) % n])], b = m.vertices[std::size_t(v[k])], c = m.vertices[std::size_t(v[(k + 1) % n])];
    if (exact::orient2d(a, b, c) < 0)
      fail(file, line, "polygon " + std::to_string(i) + " is not convex counter-clockwise (clockwise turn at vertex " + std::to_string(v[k]) + ")");
    twice_area += b.x * c.y - c.x * b.y;
  }
  if (!(twice_area > 0)) fail(file, line, "polygon " + std::to_string(i) + " is clockwise or has no area (the spec wants counter-clockwise)");
}

}  // namespace

PolyanyaMesh read_polyanya_mesh(std::istream& in, const std::string& file) {
  long line = 0;
  header(in, file, line, "mesh", 2);
  std::vector<std::string> w;
  if (!next_words(in, line, w) || w.size() != 2) fail(file, line, "expected 'V P' (vertex and polygon counts)");
  const int V = number<int>(w[0], file, line, "vertex count"), P = number<int>(w[1], file, line, "polygon count");
  if (V < 3 || P < 1 || V > 50'000'000 || P > 50'000'000) fail(file, line, "vertex count " + w[0] + " or polygon count " + w[1] + " out of range");
  PolyanyaMesh m;
  std::vector<long> poly_line(std::size_t(P), 0);
  for (int i = 0; i < V; ++i) {
    if (!next_words(in, line, w)) fail(file, line + 1, "file ends after " + std::to_string(i) + " of " + std::to_string(V) + " vertices");
    if (w.size() < 3) fail(file, line, "vertex " + std::to_string(i) + ": expected 'x y n p1 .. pn'");
    m.vertices.push_back({number<double>(w[0], file, line, "x"), number<double>(w[1], file, line, "y")});
    const int n = number<int>(w[2], file, line, "polygon count of a vertex");
    if (n < 1 || std::size_t(n) != w.size() - 3)
      fail(file, line, "vertex " + std::to_string(i) + " announces " + w[2] + " polygons but lists " + std::to_string(w.size() - 3));
    m.vertex_polygons.push_back(index_list(w, 3, n, -1, P, file, line, "polygon index"));
  }
  for (int i = 0; i < P; ++i) {
    if (!next_words(in, line, w)) fail(file, line + 1, "file ends after " + std::to_string(i) + " of " + std::to_string(P) + " polygons");
    const int n = number<int>(w[0], file, line, "vertex count of a polygon");
    if (n < 3) fail(file, line, "polygon " + std::to_string(i) + " has " + w[0] + " vertices (at least 3)");
    if (w.size() != 1 + 2 * std::size_t(n))
      fail(file, line, "polygon " + std::to_string(i) + " with " + w[0] + " vertices needs " + std::to_string(2 * long(n)) +
                           " indices (vertices, then neighbours), got " + std::to_string(w.size() - 1));
    m.polygons.push_back(index_list(w, 1, n, 0, V, file, line, "vertex index"));
    m.neighbours.push_back(index_list(w, 1 + std::size_t(n), n, -1, P, file, line, "neighbour index"));
    poly_line[std::size_t(i)] = line;
    check_polygon_shape(m, std::size_t(i), file, line);
  }
  if (next_words(in, line, w)) fail(file, line, "more lines than the " + std::to_string(V) + " vertices and " + std::to_string(P) + " polygons announced");
  check_mesh_topology(m, file, poly_line);
  return m;
}

std::vector<std::vector<Point>> read_polyanya_poly(std::istream& in, const std::string& file) {
  long line = 0;
  header(in, file, line, "poly", 1);
  std::vector<std::string> w;
  if (!next_words(in, line, w) || w.size() != 1) fail(file, line, "expected the number of polygons");
  const int N = number<int>(w[0], file, line, "polygon count");
  if (N < 1 || N > 10'000'000) fail(file, line, "polygon count " + w[0] + " out of range");
  std::vector<std::vector<Point>> out;
  for (int i = 0; i < N; ++i) {
    if (!next_words(in, line, w)) fail(file, line + 1, "file ends after " + std::to_string(i) + " of " + std::to_string(N) + " polygons");
    const int n = number<int>(w[0], file, line, "point count");
    if (n < 3) fail(file, line, "polygon " + std::to_string(i) + " has " + w[0] + " points (at least 3)");
    if (w.size() != 1 + 2 * std::size_t(n))
      fail(file, line, "polygon " + std::to_string(i) + " announces " + w[0] + " points but gives " + std::to_string(w.size() - 1) + " numbers");
    std::vector<Point> ring;
    for (int k = 0; k < n; ++k)
      ring.push_back({number<double>(w[1 + 2 * std::size_t(k)], file, line, "x"), number<double>(w[2 + 2 * std::size_t(k)], file, line, "y")});
    check_simple_ring(ring, file, line, i);
    out.push_back(std::move(ring));
  }
  if (next_words(in, line, w)) fail(file, line, "more lines than the " + std::to_string(N) + " polygons announced");
  return out;
}


Map load_polyanya_mesh(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw base::InputError(path + ": cannot open mesh file");
  const PolyanyaMesh mesh = read_polyanya_mesh(in, path);
  Map map = polygon_map_of_file(path, mesh_polygon_map(mesh, path));
  // The file's own polygons, for navmesh-file. Version 2's neighbours[i] lies across
  // vertices[i - 1] - vertices[i]; MeshPolygons' edge i runs vertices[i] - vertices[i + 1], so its
  // polygon across is version 2's entry i + 1.
  auto polys = std::make_shared<MeshPolygons>();
  polys->vertices = mesh.vertices;
  for (std::size_t p = 0; p < mesh.polygons.size(); ++p) {
    const auto& vs = mesh.polygons[p];
    const std::size_t n = vs.size();
    std::vector<std::uint32_t> ids(n);
    std::vector<std::int32_t> across(n);
    for (std::size_t i = 0; i < n; ++i) {
      ids[i] = std::uint32_t(vs[i]);
      across[i] = std::int32_t(mesh.neighbours[p][(i + 1) % n]);
    }
    polys->polygons.push_back(std::move(ids));
    polys->across.push_back(std::move(across));
  }
  polys->free_space = map.polygons;
  map.mesh = std::move(polys);
  return map;
}

Map load_polyanya_poly(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw base::InputError(path + ": cannot open polygon map file");
  return polygon_map_of_file(path, poly_polygon_map(read_polyanya_poly(in, path), path));
}

}  // namespace navbench
