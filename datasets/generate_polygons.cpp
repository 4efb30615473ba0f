// Seeded polygon maps (generate_polygons.hpp).
#include "datasets/generate_polygons.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "datasets/splitmix.hpp"
#include "geometry/exact.hpp"

namespace navbench {

void validate(const PolygonMapOptions& o) {
  if (o.obstacles < 1 || o.obstacles > 1000000) throw std::invalid_argument("polygon map: obstacles must be in 1..1000000");
  if (o.vertices < 3 || o.vertices > 1024) throw std::invalid_argument("polygon map: vertices must be in 3..1024");
  if (o.touching < 0 || o.touching > 100) throw std::invalid_argument("polygon map: touching must be in 0..100");
}

PolygonMap generate_polygon_map(const PolygonMapOptions& o) {
  validate(o);
  SplitMix rng{o.seed * 0x9E3779B97F4A7C15ull + 0x51ED2701u};
  const int side = int(std::ceil(std::sqrt(double(o.obstacles))));
  constexpr std::int64_t kCell = 64, kM = 1 << 12;  // lattice cell side; direction square half-side
  const double S = double(side * kCell);
  PolygonMap pm;
  pm.walkable.rings = {{{0, 0}, {S, 0}, {S, S}, {0, S}}};
  for (int k = 0; k < o.obstacles; ++k) {
    const int cx = k % side, cy = k / side;
    // The star's centre: inside the cell's middle half; its reach: up to 30 units (a cell is 64), or
    // 60 for a touching one.
    const std::int64_t ox = cx * kCell + 16 + std::int64_t(rng.below(32)), oy = cy * kCell + 16 + std::int64_t(rng.below(32));
    const Point centre{double(ox), double(oy)};
    const bool touch = std::int64_t(rng.below(100)) < o.touching;
    const std::int64_t reach = touch ? 60 : 30;
    std::vector<Point> ring;
    for (int i = 0; i < o.vertices; ++i) {
      // Ray i: a direction on the square's perimeter (integer, angularly ordered), jittered within its share.
      const std::int64_t share = (8 * kM) / o.vertices;
      const std::int64_t t = std::int64_t(i) * 8 * kM / o.vertices + std::int64_t(rng.below(std::uint64_t(std::max<std::int64_t>(1, share / 2))));
      const std::int64_t q = t / (2 * kM), s = t % (2 * kM) - kM;  // side q, offset s in [-M, M)
      std::int64_t dx = 0, dy = 0;
      if (q == 0) dx = kM, dy = s;
      else if (q == 1) dx = -s, dy = kM;
      else if (q == 2) dx = -kM, dy = -s;
      else dx = s, dy = -kM;
      // Length: 40..100 % of the reach, along the direction scaled to the square's side.
      const std::int64_t len = reach * (40 + std::int64_t(rng.below(61)));  // in hundredths of a unit
      const double x = double(ox) + double(dx * len / (100 * kM)), y = double(oy) + double(dy * len / (100 * kM));
      const Point p{x, y};
      // Rounded to integers, a point may fall on or behind its predecessor's ray: dropped, so that
      // every point turns counter-clockwise around the centre (a star-shaped, simple polygon).
      if (!ring.empty() && exact::orient2d(centre, ring.back(), p) <= 0) continue;
      ring.push_back(p);
    }
    while (ring.size() >= 3 && exact::orient2d(centre, ring.back(), ring.front()) <= 0) ring.pop_back();
    if (ring.size() >= 3) pm.obstacles.push_back({{std::move(ring)}});
  }
  return pm;
}

Map make_polygon_map(const PolygonMapOptions& o) {
  Map m;
  m.kind = MapKind::polygon;
  m.polygons = generate_polygon_map(o);
  m.name = "obstacles-" + std::to_string(o.obstacles) + "-" + std::to_string(o.vertices) + "-" + std::to_string(o.seed) +
           (o.touching > 0 ? "-t" + std::to_string(o.touching) : "");
  m.collection = "generated";
  const double S = m.polygons.walkable.rings[0][2].x;
  m.max = {S, S};
  return m;
}

}  // namespace navbench
