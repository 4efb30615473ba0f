// visgraph on weighted maps (docs/terrain.md): a visibility graph over obstacle and weight-region
// corners, each edge priced by the exact path-cost integral of its segment (geometry/path_cost.hpp).
//
// Vertices. On a weighted map a cheapest path bends where it crosses a border between weights
// (Snell's law; Mitchell & Papadimitriou, "The weighted region problem", JACM 1991), not only at
// obstacle corners, and no exact polynomial algorithm is known. Here the vertices are the convex
// obstacle corners (FreeSpace::convex_corners, as on unweighted maps) plus the weight-region
// corners: grid points where the border between two passable cells of different weights turns,
// branches or ends (where it meets an obstacle or the map's edge). A point on a straight stretch
// of border is not a vertex, unless steiner = S > 0 (default 0) asks for every S-th one as well:
// the Steiner points on the borders of Aleksandrov, Lanthier, Maheshwari & Sack ("An
// epsilon-approximation algorithm for weighted shortest paths on polyhedral surfaces", SWAT 1998),
// which bring the graph's paths towards the optimum; by default only the corners are kept. So the
// paths are valid and priced exactly, but may be dearer than the optimum (docs/terrain.md gives the
// measured gap to the octile reference and to denser Steiner sets).
//
// Edges. On weighted ground a cheapest path need not be taut (it may bend away from an obstacle to
// stay on cheap ground), so the tangency rule and the taut states of the unweighted graph do not
// hold: every pair of vertices whose segment is valid (the exact test) is an edge, one vertex per
// corner, except a pair with another vertex V strictly inside its segment. That one pruning keeps
// the cheapest path over this vertex set: the segment's two pieces at V are valid (a valid segment
// never passes through a pinch point, and pieces of it stay clear of obstacles), and the integral
// is additive, so the path through V costs the same (by induction on the vertices inside, a chain
// of kept edges does). Query points link to every vertex they see, pruned the same way; the direct
// start-goal link costs its integral.
//
// Speed-ups. ALT landmarks (default 16) and the all-pairs table (table=1, off by default here: see
// build_weighted) are lower bounds for any symmetric non-negative edge costs, so they stay exact on
// this graph; but the shared A* multiplies the whole heuristic by the map's least weight
// (harness/run/pipeline.cpp), which keeps a metric bound admissible and would make a cost bound
// too large when the least weight exceeds 1: there both are off by default and refused when named. Skip edges (ENLSVG), the taut states and the block candidate
// lists rest on Euclidean tautness and are off (naming taut=1, skip=1 or block>0 is refused).
//
// Size. Each vertex's pairs are found among the vertices of the region its sweep may see
// (GridFov::region, a superset; each candidate then gets the exact test), so the build costs a
// sweep per vertex and, per (vertex, vertex in view), a segment test and for a valid pair its
// integral (one walk, below), and the graph up to n^2 arcs. A costmap whose weights change from cell to cell (an
// inflation layer) has a region corner at nearly every grid point; above max_nodes vertices
// (default 8,192) only the convex corners are kept (regions=0 in the build's params), and with
// more convex corners than that the build is refused.
//
// The pairs' walk. On an open map every pair sees the other (Nav2's speed masks: every cell
// weighted, 7,903 vertices and 30 million pairs on warehouse_speed, their segments some 700 cells
// long), so walks that visit every cell a segment crosses (the segment test's, the integral's)
// made the build cost pairs x length: 258 s there alone on a loaded machine, more than 12 minutes
// in a sweep on one loaded far more. A pair of vertices now takes
// one walk (lattice_walk, in integers: both ends lie on the lattice) that crosses squares of one
// weight at once (wcell_: per cell the largest such square from it towards the walk's direction,
// corner_squares) and answers all three: the segment is valid unless it enters a blocked cell or
// passes a pinch point, the pair is left out where it passes another vertex (inside a square of
// one weight lies neither), and the integral sums the cell walk's pieces per run of one weight
// (exact up to the rounding of one product per run). A pair costs steps in proportion to the
// borders and obstacles its segment passes near, not to its length (docs/terrain.md gives the
// figures). Query points take the same integral, and GridLos's squares of free cells for the
// segment test. Vertices, edges and prices are those of the cell walks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "representations/visgraph/visgraph.hpp"

namespace navbench {

namespace {

// The label of cell (x, y): 0 blocked or outside the map, else its weight.
double label(const GridMap& g, int x, int y) { return g.passable(x, y) ? g.weight(x, y) : 0.0; }

// Grid point (x, y) is a weight-region corner: among its four unit sides, those that separate two
// passable cells of different weights are not none and not exactly one straight line through it.
// With steiner = S > 0 also a point of a straight stretch of border whose coordinate along it is a
// multiple of S (Steiner points on the borders, the refinement of Aleksandrov et al.; a denser set
// brings the graph's paths closer to the optimum, at the square of the vertices in build work).
bool region_corner(const GridMap& g, int x, int y, int steiner) {
  const double a = label(g, x - 1, y - 1), b = label(g, x, y - 1), c = label(g, x - 1, y), d = label(g, x, y);
  auto border = [](double p, double q) { return p > 0 && q > 0 && p != q; };
  const bool up = border(a, b), down = border(c, d), left = border(a, c), right = border(b, d);
  const int k = int(up) + int(down) + int(left) + int(right);
  if (k == 0) return false;
  if (k == 2 && up && down) return steiner > 0 && y % steiner == 0;     // a vertical border
  if (k == 2 && left && right) return steiner > 0 && x % steiner == 0;  // a horizontal border
  return true;
}

}  // namespace

bool VisGraph::vertex_between(Point a, Point b) const {
  // Doubled coordinates are integers (a, b on the half-integer grid); the lattice points of the
  // doubled segment are a + k (d / g), g = gcd of d's components; a vertex is at an even one.
  const long ax = long(2 * a.x), ay = long(2 * a.y), bx = long(2 * b.x), by = long(2 * b.y);  // exact: integers
  const long dx = bx - ax, dy = by - ay;
  const long g = std::gcd(std::labs(dx), std::labs(dy));
  if (g <= 1) return false;
  const long sx = dx / g, sy = dy / g;
  const long W1 = long(map_->grid.width) + 1;
  for (long k = 1; k < g; ++k) {
    const long x = ax + k * sx, y = ay + k * sy;
    if ((x & 1) || (y & 1)) continue;
    if (vat_[std::size_t(y / 2) * std::size_t(W1) + std::size_t(x / 2)] >= 0) return true;
  }
  return false;
}

double VisGraph::integral(Point a, Point b, std::uint64_t* steps) const {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const int W = weighted_->width, H = weighted_->height, PW = W + 2;
  // Along a grid line each piece weighs the cheaper side, and a point outside the map has no cell:
  // the reference handles those (rare here: pairs on one grid line with no vertex between them).
  if ((dy == 0 && a.y == std::floor(a.y)) || (dx == 0 && a.x == std::floor(a.x)) || (dx == 0 && dy == 0) ||
      !(a.x >= 0 && a.y >= 0 && b.x >= 0 && b.y >= 0 && a.x <= W && b.x <= W && a.y <= H && b.y <= H)) {
    if (steps) *steps += std::uint64_t(std::ceil(std::abs(dx) + std::abs(dy))) + 1;  // its pieces, about
    return navbench::segment_cost(*weighted_, a, b);
  }
  // Both ends on the half-integer lattice (vertices, and query points in either convention) and
  // neither coordinate constant: the exact walk.
  if (!wpal_.empty() && dx != 0 && dy != 0 && 2 * a.x == std::floor(2 * a.x) && 2 * a.y == std::floor(2 * a.y) &&
      2 * b.x == std::floor(2 * b.x) && 2 * b.y == std::floor(2 * b.y))
    return lattice_walk<false>(a, b, steps, nullptr);
  const double len = distance(a, b);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Amanatides & Woo's cell walk (Eurographics 1987). The crossing parameters are segment_cost's,
  // (k - a) / d for the next grid line k (here times 1/d: the same up to an ulp), so the pieces are
  // the same; the cell is tracked through the crossings instead of found from each piece's
  // midpoint. Both ends lie in the map, so the walk stays in the padded table (cells -1 .. W).
  const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
  double kx = dx > 0 ? std::floor(a.x) + 1 : std::ceil(a.x) - 1;
  double ky = dy > 0 ? std::floor(a.y) + 1 : std::ceil(a.y) - 1;
  const int cx = dx == 0 ? int(std::floor(a.x)) : int(dx > 0 ? kx - 1 : kx);
  const int cy = dy == 0 ? int(std::floor(a.y)) : int(dy > 0 ? ky - 1 : ky);
  const double ix = dx != 0 ? 1 / dx : 0, iy = dy != 0 ? 1 / dy : 0;
  double tx = dx != 0 ? (kx - a.x) * ix : kInf, ty = dy != 0 ? (ky - a.y) * iy : kInf;
  const double* w = wpad_.data() + std::ptrdiff_t(cy + 1) * PW + (cx + 1);
  const std::ptrdiff_t step_y = std::ptrdiff_t(sy) * PW;
  double c = 0, t0 = 0;
  std::uint64_t n = 0;
  while (true) {
    ++n;
    const double t1 = std::min({tx, ty, 1.0});
    if (t1 > t0) {
      const double piece = (t1 - t0) * len;
      // A sliver where two crossings nearly coincide weighs nothing rather than +inf.
      if (*w != kInf || piece >= 1e-9) c += piece * *w;
    }
    if (t1 >= 1.0) break;
    if (tx == t1) kx += sx, w += sx, tx = (kx - a.x) * ix;
    if (ty == t1) ky += sy, w += step_y, ty = (ky - a.y) * iy;
    t0 = t1;
  }
  if (steps) *steps += n;
  return c;
}

template <bool kPair>
double VisGraph::lattice_walk(Point a, Point b, std::uint64_t* steps, bool* vertex_inside) const {
  // Doubled coordinates (integers): grid line k is at 2k. The parameter t along a-b is kept as
  // u = t |dx| |dy| (doubled), an integer at every crossing: line X is crossed at
  // u = (2X - ax) |dy|, line Y at |2Y - ay| |dx|. So the walk orders the crossings exactly (two at
  // once: through a grid point, touching no third cell), and the integral is the sum over the runs
  // of cells of one weight of weight x (u where the run ends - u where it starts), times
  // length / (|dx| |dy|): one product per run. The integral is the same both ways, so the walk
  // goes towards +x (two tables of squares, not four: half the memory the walks read).
  if (b.x < a.x) std::swap(a, b);
  const std::int64_t ax = std::int64_t(2 * a.x), ay = std::int64_t(2 * a.y);
  const std::int64_t dx = std::int64_t(2 * b.x) - ax, dy = std::int64_t(2 * b.y) - ay;
  const int sy = dy > 0 ? 1 : -1;
  const std::int64_t ady = dy * sy, U = dx * ady;
  auto floor_half = [](std::int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };  // floor(v / 2)
  auto ceil_half = [&](std::int64_t v) { return -floor_half(-v); };
  // The cell entered right after a, the cell left right before b (as GridLos::test walks).
  std::int64_t cx = floor_half(ax), cy = sy > 0 ? floor_half(ay) : ceil_half(ay) - 1;
  const std::int64_t ex = ceil_half(ax + dx) - 1, ey = sy > 0 ? ceil_half(ay + dy) - 1 : floor_half(ay + dy);
  // u where the walk crosses grid line x = X, y = Y; ux, uy: of the lines after this cell.
  auto u_of_x = [&](std::int64_t X) { return (2 * X - ax) * ady; };
  auto u_of_y = [&](std::int64_t Y) { return (2 * Y - ay) * sy * dx; };
  std::int64_t ux = u_of_x(cx + 1), uy = u_of_y(sy > 0 ? cy + 1 : cy);
  const std::int64_t step_ux = 2 * ady, step_uy = 2 * dx;
  const std::size_t q = sy > 0 ? 1 : 0;
  const std::uint32_t* table = wcell_[q].data() + wcell_off_[q];
  const double* pal = wpal_.data();
  const std::size_t tiles_x = wtiles_x_;
  auto cell = [tiles_x](std::int64_t x, std::int64_t y) { return tile_index(tiles_x, int(x + 1), int(y + 1)); };
  std::size_t at = cell(cx, cy);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::uint32_t run = table[at] >> 16;  // the weight (index) of the current run
  double c = 0;
  std::int64_t run_u = 0, u = 0;  // where the current run began; where the walk entered this cell
  std::uint64_t n = 0;
  while (true) {
    ++n;
    const std::uint32_t e = table[at];
    if ((e >> 16) != run) {
      c += pal[run] * double(u - run_u);
      run_u = u, run = e >> 16;
    }
    if (pal[run] == kInf) break;  // through a blocked cell: +inf, as segment_cost
    if (cx == ex && cy == ey) break;
    // Across the square of one weight ahead (k x k cells from this one towards +x and sy;
    // corner_squares, grid_los.hpp) at once: every cell the segment meets in it weighs the same.
    // If b's cell is in it the run goes on to b; else the walk goes on in the cell it enters where
    // it crosses the square's far side X or Y (through the grid point (X, Y) when both at once).
    if (const std::int64_t k = e & 0xffff; k > 1) {
      if (ex - cx < k && (ey - cy) * sy < k) break;
      const std::int64_t X = cx + k, Y = sy > 0 ? cy + k : cy - k + 1;
      const std::int64_t uX = u_of_x(X), uY = u_of_y(Y);
      if constexpr (kPair) {  // the grid point where it leaves, if it leaves through one
        std::int64_t gx = -1, gy = -1;
        if (uX == uY) gx = X, gy = Y;
        else if (uX < uY && uX % dx == 0 && ((ay + sy * (uX / dx)) & 1) == 0) gx = X, gy = (ay + sy * (uX / dx)) / 2;
        else if (uY < uX && uY % ady == 0 && ((ax + uY / ady) & 1) == 0) gx = (ax + uY / ady) / 2, gy = Y;
        if (gx >= 0 && !pair_point(gx, gy, uX == uY, vertex_inside)) return kInf;
      }
      if (uX <= uY) cx = X, u = uX, ux = uX + step_ux;
      if (uY <= uX) cy = sy > 0 ? Y : Y - 1, u = uY, uy = uY + step_uy;
      if (uX < uY) {  // the y-lines Y' with |2Y' - ay| |dx| <= uX are crossed too: the first one not
        const std::int64_t m = uX / dx;
        const std::int64_t Yn = sy > 0 ? ceil_half(ay + m + 1) : floor_half(ay - m - 1);
        cy = sy > 0 ? Yn - 1 : Yn, uy = u_of_y(Yn);
      } else if (uY < uX) {  // the x-lines X' with (2X' - ax) |dy| <= uY
        const std::int64_t Xn = ceil_half(ax + uY / ady + 1);
        cx = Xn - 1, ux = u_of_x(Xn);
      }
      at = cell(cx, cy);
      continue;
    }
    // One cell on: across the nearer line, or through the grid point where both meet.
    const bool step_x = ux <= uy, step_y = uy <= ux;
    if constexpr (kPair) {
      if (step_x && step_y && !pair_point(cx + 1, sy > 0 ? cy + 1 : cy, true, vertex_inside)) return kInf;
    }
    u = step_x ? ux : uy;
    if (step_x) ux += step_ux, cx += 1;
    if (step_y) uy += step_uy, cy += sy;
    at = cell(cx, cy);
  }
  if (steps) *steps += n;
  if (pal[run] == kInf) return kInf;
  c += pal[run] * double(U - run_u);
  return c * (std::sqrt(double(dx) * double(dx) + double(dy) * double(dy)) / 2 / double(U));
}

// A grid point strictly inside a pair's segment (lattice_walk<true>): false when the segment may
// not pass it (a pinch point, diagonal: the walk crosses both lines there), or when it is a
// vertex (the pair is left out: *vertex_inside); on a square's side, where two free cells of the
// square meet it, it is no pinch point.
bool VisGraph::pair_point(std::int64_t x, std::int64_t y, bool diagonal, bool* vertex_inside) const {
  if (diagonal && los_.is_pinch(Point{double(x), double(y)})) return false;
  if (vat_[std::size_t(y) * std::size_t(weighted_->width + 1) + std::size_t(x)] >= 0) {
    *vertex_inside = true;
    return false;
  }
  return true;
}

std::optional<double> VisGraph::pair_cost(std::uint32_t i, std::uint32_t j, std::uint64_t* steps) const {
  const Point a = pos_[i], b = pos_[j];
  // Along a grid line, off the table or from a pinch point (never a vertex): the three tests.
  if (a.x == b.x || a.y == b.y || wpal_.empty() || los_.is_pinch(a) || los_.is_pinch(b)) {
    if (vertex_between(a, b)) return std::nullopt;
    const GridLos::Result r = los_.test(a, b, steps);
    if (r == GridLos::blocked || (r == GridLos::unknown && !fs_.segment_valid(a, b))) return std::nullopt;
    return integral(a, b, steps);
  }
  bool vertex_inside = false;
  const double c = lattice_walk<true>(a, b, steps, &vertex_inside);
  if (std::isinf(c)) return std::nullopt;
  return c;
}

void VisGraph::build_weighted(const Map& map, Params& params) {
  const GridMap& grid = map.grid;
  weighted_ = &grid;
  const bool taut = params.flag(param(kParams, "taut"), false);
  const bool skip = params.flag(param(kParams, "skip"), false);
  const bool labels = params.flag(param(kParams, "labels"));
  block_ = params.integer(param(kParams, "block"), 0);
  if (params.given(param(kParams, "points"))) params.flag(param(kParams, "points"), false);  // polygon maps only
  if (params.given(param(kParams, "defer"))) params.flag(param(kParams, "defer"));  // no update in place here
  const int steiner = params.integer(param(kParams, "steiner"));
  const int max_nodes = params.integer(param(kParams, "max_nodes"));
  const bool unit_floor = least_weight(grid) == 1.0;
  if (taut || skip || labels || block_ > 0)
    throw UnsupportedMap("visgraph on a weighted map: taut=1, skip=1, labels=1 and block>0 rest on Euclidean tautness (docs/terrain.md)");
  shift_ = 0;

  // Vertices: the convex corners (ids 0 .. m-1, as corners()), then the weight-region corners.
  const auto& c = corners();
  pos_.clear();
  vcomp_.clear();
  for (const ConvexCorner& k : c) pos_.push_back(k.at), vcomp_.push_back(k.component);
  const int W = grid.width, H = grid.height;
  vat_.assign(std::size_t(W + 1) * std::size_t(H + 1), -1);
  for (std::size_t i = 0; i < c.size(); ++i)
    vat_[std::size_t(c[i].at.y) * std::size_t(W + 1) + std::size_t(c[i].at.x)] = std::int32_t(i);
  std::vector<Point> found;
  for (int y = 0; y <= H; ++y)
    for (int x = 0; x <= W; ++x)
      if (vat_[std::size_t(y) * std::size_t(W + 1) + std::size_t(x)] < 0 && region_corner(grid, x, y, steiner))
        found.push_back(Point{double(x), double(y)});
  // The cap: with more than max_nodes vertices in all (a costmap whose weights change from cell to
  // cell has a region corner at nearly every grid point) the region corners are left out by default
  // (regions=0 in the build's params: the convex corners' graph, priced the same way); named, or
  // with too many convex corners alone, the build is refused.
  const bool regions = params.flag(param(kParams, "regions"), c.size() + found.size() <= std::size_t(max_nodes));
  if (regions)
    for (const Point& q : found) {
      vat_[std::size_t(q.y) * std::size_t(W + 1) + std::size_t(q.x)] = std::int32_t(pos_.size());
      pos_.push_back(q);
      vcomp_.push_back(fs_.component(q));
    }
  region_corners_ = pos_.size() - c.size();
  const std::size_t n = pos_.size();
  if (n > std::size_t(max_nodes))
    throw DeclaredCap("visgraph on a weighted map: " + std::to_string(n) + " vertices (" +
                         std::to_string(region_corners_) + " weight-region corners) above max_nodes=" +
                         std::to_string(max_nodes) + ": its graph grows with their square");

  // The heuristics: exact for any non-negative symmetric costs, but scaled by the least weight in
  // the A* (see above), so only where that is 1. Default 16 landmarks, the table only when named:
  // with links to every visible vertex (hundreds per point) the table's goal-place step (start
  // links x goal places) outweighs what it saves (docs/measurements.md, the defaults' table).
  const bool table = params.flag(param(kParams, "table"), false);
  table_mb_ = params.integer(param(kParams, "table_mb"));
  if (params.given(param(kParams, "labels_mb"))) params.integer(param(kParams, "labels_mb"));
  const int alt = params.integer(param(kParams, "alt"), unit_floor && !table ? 16 : 0);
  params.finish("visgraph");
  if (!unit_floor && (table || alt > 0))
    throw UnsupportedMap("visgraph on a weighted map whose least weight is not 1: alt and table bounds would be scaled above the cost");

  // Per grid line its vertices in increasing x (vat_ read row by row), and the sweep attach uses.
  line_off_.assign(std::size_t(H + 2), 0);
  line_.clear();
  for (int y = 0; y <= H; ++y) {
    for (int x = 0; x <= W; ++x)
      if (const std::int32_t v = vat_[std::size_t(y) * std::size_t(W + 1) + std::size_t(x)]; v >= 0) line_.push_back(std::uint32_t(v));
    line_off_[std::size_t(y + 1)] = std::uint32_t(line_.size());
  }
  fov_ = GridFov(grid, c);
  weight_tables(grid);

  weighted_edges(n);

  skip_ = TautSkipGraph();
  landmarks_ = Landmarks();
  if (alt > 0) landmarks_ = Landmarks(graph_, weight_map(graph_), std::size_t(alt));
  table_ = DistanceTable();
  if (table) {
    std::vector<std::uint32_t> place(n);
    std::iota(place.begin(), place.end(), 0u);
    try {
      table_ = DistanceTable(graph_, weight_map(graph_), std::move(place), n, std::size_t(table_mb_) << 20);
    } catch (const std::length_error& e) {
      throw DeclaredCap(std::string("all-pairs table: ") + e.what() + " (raise table_mb)");
    }
  }
}

// The cell weights padded with +inf (integral's walk), and the exact walk's table
// (lattice_walk): per cell and direction (towards +x and -y or +y) its weight's index in
// wpal_ and the square of one weight ahead, in one word (one memory read per step: the walk's
// cost is mostly waiting for the cells it lands on). Only with at most 65,536 different weights,
// blocked included; else integral() walks every cell.
void VisGraph::weight_tables(const GridMap& grid) {
  const int W = grid.width, H = grid.height;
  wpad_.assign(std::size_t(W + 2) * std::size_t(H + 2), std::numeric_limits<double>::infinity());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      if (grid.passable(x, y)) wpad_[std::size_t(y + 1) * std::size_t(W + 2) + std::size_t(x + 1)] = grid.weight(x, y);
  wpal_.assign(wpad_.begin(), wpad_.end());
  std::sort(wpal_.begin(), wpal_.end());
  wpal_.erase(std::unique(wpal_.begin(), wpal_.end()), wpal_.end());
  for (auto& t : wcell_) t.clear();
  if (wpal_.size() <= 65536) {
    std::vector<std::uint16_t> lab(wpad_.size());
    for (std::size_t i = 0; i < lab.size(); ++i)
      lab[i] = std::uint16_t(std::lower_bound(wpal_.begin(), wpal_.end(), wpad_[i]) - wpal_.begin());
    auto sq = corner_squares(lab, W + 2, H + 2);
    wtiles_x_ = std::size_t(W + 2 + 3) / 4;
    for (std::size_t q = 0; q < 2; ++q) {  // towards +x and -y, towards +x and +y
      const std::vector<std::uint16_t>& ahead = sq[1 + 2 * q];
      // A tile is a cache line where the table starts on one (16 words more, to start there).
      wcell_[q].assign(wtiles_x_ * std::size_t((H + 2 + 3) / 4) * 16 + 16, 0);
      wcell_off_[q] = ((64 - (reinterpret_cast<std::uintptr_t>(wcell_[q].data()) & 63)) & 63) / sizeof(std::uint32_t);
      std::uint32_t* t = wcell_[q].data() + wcell_off_[q];
      for (int y = 0; y < H + 2; ++y)
        for (int x = 0; x < W + 2; ++x) {
          const std::size_t i = std::size_t(y) * std::size_t(W + 2) + std::size_t(x);
          t[tile_index(wtiles_x_, x, y)] = std::uint32_t(lab[i]) << 16 | ahead[i];
        }
    }
  } else {
    wpal_.clear();
  }
  wpal_.shrink_to_fit();
}

// Edges: every valid pair in one component without a vertex strictly between them (n vertices).
void VisGraph::weighted_edges(std::size_t n) {
  los_ = GridLos(*weighted_, true);  // with its free squares: the pairs' segments are long
  pair_tests_ = pair_walk_steps_ = 0;
  struct Pair {
    std::uint32_t i, j;
    double w;
  };
  std::vector<Pair> pairs;
  // Room for every pair up to 2^26 (1 GiB of address space, backed only where written): an open
  // map joins nearly every pair, and growing the vector would copy and fault its pages again.
  pairs.reserve(std::min<std::size_t>(n * (n - (n > 0)) / 2, std::size_t(1) << 26));
  std::vector<std::uint32_t> degree(n + 1, 0), seen;
  std::vector<std::uint64_t> mark((n + 63) / 64, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    // The candidates after i: the vertices in the region vertex i may see, marked in a bit set and
    // read back in increasing id (the pairs then come sorted by (i, j); an open map's region holds
    // every vertex, which a sort would order in n log n).
    region_vertices(pos_[i], seen);
    for (const std::uint32_t j : seen)
      if (j > i) mark[j >> 6] |= std::uint64_t(1) << (j & 63);
    for (std::size_t word = (i + 1) >> 6; word < mark.size(); ++word) {
      for (std::uint64_t bits = std::exchange(mark[word], 0); bits != 0; bits &= bits - 1) {
        const std::uint32_t j = std::uint32_t(word * 64 + std::size_t(__builtin_ctzll(bits)));
        if (vcomp_[i] != vcomp_[j]) continue;
        ++pair_tests_;
        const std::optional<double> w = pair_cost(i, j, &pair_walk_steps_);
        if (!w) continue;
        pairs.push_back({i, j, *w});
        ++degree[i + 1], ++degree[j + 1];
      }
    }
  }
  pairs_ = pairs.size();
  // CSR arrays: each vertex's arcs in increasing target order (the pairs come sorted by (i, j), so
  // arcs from i to a smaller j, placed while scanning row j < i, come first too).
  std::partial_sum(degree.begin(), degree.end(), degree.begin());
  std::vector<std::uint32_t> fill(degree.begin(), degree.end() - 1);
  std::vector<Vertex> targets(2 * pairs.size());
  std::vector<double> weights(2 * pairs.size());
  for (const Pair& p : pairs) {
    targets[fill[p.i]] = p.j, weights[fill[p.i]++] = p.w;
    targets[fill[p.j]] = p.i, weights[fill[p.j]++] = p.w;
  }
  pairs.clear();
  pairs.shrink_to_fit();
  graph_ = CsrGraph(std::move(degree), std::move(targets), std::move(weights));
}

void VisGraph::region_vertices(Point p, std::vector<std::uint32_t>& out) const {
  // Each vertex once (neighbouring rows share a grid line), by a per-thread stamp whose
  // generation only grows.
  struct Scratch {
    std::vector<GridFov::Span> spans;
    std::vector<std::uint32_t> stamp;
    std::uint32_t gen = 0;
  };
  thread_local Scratch t;
  out.clear();
  t.spans.clear();
  fov_.region(p, t.spans);
  if (t.stamp.size() < pos_.size()) t.stamp.resize(pos_.size(), 0);
  if (++t.gen == 0) {
    std::fill(t.stamp.begin(), t.stamp.end(), 0);
    t.gen = 1;
  }
  for (const GridFov::Span& sp : t.spans)
    for (const int y : {sp.row, sp.row + 1}) {
      // The span's cells [x0, x1] have their corners at x0 .. x1 + 1 on lines row and row + 1.
      const std::uint32_t* first = line_.data() + line_off_[std::size_t(y)];
      const std::uint32_t* last = line_.data() + line_off_[std::size_t(y) + 1];
      const std::uint32_t* it = std::lower_bound(first, last, sp.x0, [&](std::uint32_t v, int x) { return pos_[v].x < x; });
      for (; it != last && pos_[*it].x <= sp.x1 + 1; ++it)
        if (t.stamp[*it] != t.gen) t.stamp[*it] = t.gen, out.push_back(*it);
    }
}

std::optional<Attachment> VisGraph::attach_weighted(Point p) const {
  if (!fs_.point_free(p)) return std::nullopt;
  Attachment a;
  a.component = fs_.component(p);
  // Off the half-integer grid (not a query of the harness's conventions): no lattice pruning.
  const bool half = p.x * 2 == std::floor(p.x * 2) && p.y * 2 == std::floor(p.y * 2);
  auto consider = [&](std::uint32_t v) {
    if (vcomp_[v] != a.component) return;
    const Point Q = pos_[v];
    if (half && !(p == Q) && vertex_between(p, Q)) return;
    const GridLos::Result r = los_.test(p, Q);
    if (r == GridLos::blocked || (r == GridLos::unknown && !fs_.segment_valid(p, Q))) return;
    a.links.push_back({Vertex(v), integral(p, Q)});
  };
  // Only the vertices of the region the sweep says p may see are tested.
  thread_local std::vector<std::uint32_t> seen;
  region_vertices(p, seen);
  for (const std::uint32_t v : seen) consider(v);
  return a;
}

}  // namespace navbench
