#include "datasets/generate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <queue>
#include <stdexcept>
#include <vector>

#include "datasets/splitmix.hpp"

namespace navbench {
namespace {

// ---------------------------------------------------------------------------------------------
// Random numbers. xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 2021) seeded through splitmix64 (datasets/splitmix.hpp); bounded draws by
// rejection, so every value depends only on the seed (std::uniform_*_distribution are
// implementation-defined).

// Stream tags: each generator draws from its own stream, so one seed for map and scenario is fine.
enum Stream : std::uint64_t { kRandom = 1, kRooms = 2, kMaze = 3, kPolygons = 4, kScenario = 5, kCave = 6 };

class Rng {
 public:
  Rng(std::uint64_t seed, Stream stream) {
    SplitMix mix{seed ^ (std::uint64_t(stream) * 0xD1B54A32D192ED03ull)};
    for (auto& w : s_) w = mix.next();
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n >= 1: reject the 2^64 mod n lowest values so that x % n is unbiased.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
      const std::uint64_t x = next();
      if (x >= threshold) return x % n;
    }
  }
  // Uniform integer in [lo, hi], lo <= hi.
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + std::int64_t(below(std::uint64_t(hi - lo) + 1));
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

[[noreturn]] void bad(const std::string& why) { throw std::invalid_argument("generate: " + why); }

GridMap blank(int w, int h, std::uint8_t value) {
  GridMap m;
  m.width = w;
  m.height = h;
  m.cells.assign(std::size_t(w) * std::size_t(h), value);
  return m;
}

void set(GridMap& m, int x, int y, std::uint8_t v) {
  m.cells[std::size_t(y) * std::size_t(m.width) + std::size_t(x)] = v;
}

// The 4-connected free regions of m: label[cell] = its region, -1 on a blocked cell; regions are
// numbered in row-major order of their first cell. Returns each region's cell count.
std::vector<std::uint64_t> free_regions(const GridMap& m, std::vector<int>& label) {
  const int W = m.width;
  label.assign(m.cells.size(), -1);
  std::vector<std::uint64_t> sizes;
  std::vector<int> todo;
  for (std::size_t start = 0; start < m.cells.size(); ++start) {
    if (!m.cells[start] || label[start] >= 0) continue;
    const int id = int(sizes.size());
    std::uint64_t count = 0;
    label[start] = id;
    todo.assign(1, int(start));
    while (!todo.empty()) {
      const int c = todo.back();
      todo.pop_back();
      ++count;
      const int x = c % W, y = c / W;
      const int nb[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
      for (const auto& p : nb)
        if (m.passable(p[0], p[1]) && label[std::size_t(p[1]) * std::size_t(W) + std::size_t(p[0])] < 0) {
          label[std::size_t(p[1]) * std::size_t(W) + std::size_t(p[0])] = id;
          todo.push_back(p[1] * W + p[0]);
        }
    }
    sizes.push_back(count);
  }
  return sizes;
}

// ---------------------------------------------------------------------------------------------
// random: exactly round(density% * W*H) blocked cells, chosen by selection sampling (Knuth, TAOCP
// vol. 2, docs/results.md#query-status.4.2, Algorithm S): cell t is blocked with probability (still needed)/(cells left).
GridMap make_random(const GenerateOptions& o) {
  GridMap m = blank(o.width, o.height, 1);
  const std::uint64_t n = m.cells.size();
  const std::uint64_t want = std::uint64_t(std::llround(o.density * double(n) / 100.0));
  Rng rng(o.seed, kRandom);
  std::uint64_t chosen = 0;
  for (std::uint64_t t = 0; t < n && chosen < want; ++t)
    if (rng.below(n - t) < want - chosen) {
      m.cells[t] = 0;
      ++chosen;
    }
  return m;
}

// ---------------------------------------------------------------------------------------------
// rooms: Moving AI's "NNroom" layout (Sturtevant 2012): a wall on every row and column whose index
// is a multiple of NN (so the top row and left column are wall, each room has (NN-1)^2 floor cells
// when the map side is a multiple of NN), and one door cell at a random position in every wall
// segment between two neighbouring rooms, so all rooms are connected.
GridMap make_rooms(const GenerateOptions& o) {
  const int p = o.room, W = o.width, H = o.height;
  GridMap m = blank(W, H, 1);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      if (x % p == 0 || y % p == 0) set(m, x, y, 0);
  Rng rng(o.seed, kRooms);
  // Vertical walls x = k*p (k >= 1) with a room on both sides, one segment per room row.
  for (int x = p; x + 1 < W; x += p)
    for (int y0 = 0; y0 < H; y0 += p) {
      const int lo = y0 + 1, hi = std::min(y0 + p - 1, H - 1);
      if (lo <= hi) set(m, x, int(rng.between(lo, hi)), 1);
    }
  // Horizontal walls y = k*p (k >= 1), one segment per room column.
  for (int y = p; y + 1 < H; y += p)
    for (int x0 = 0; x0 < W; x0 += p) {
      const int lo = x0 + 1, hi = std::min(x0 + p - 1, W - 1);
      if (lo <= hi) set(m, int(rng.between(lo, hi)), y, 1);
    }
  return m;
}

// ---------------------------------------------------------------------------------------------
// maze: a perfect maze by randomized depth-first search (the "recursive backtracker"; e.g. J. Buck,
// "Mazes for Programmers", 2015) over a coarse grid of corridor x corridor cells separated by walls
// 1 cell wide, like Moving AI's maze512-W maps. Coarse cell (i, j) is the floor square starting at
// (i*(w+1), j*(w+1)); columns/rows that do not fit a whole coarse cell stay blocked.
GridMap make_maze(const GenerateOptions& o) {
  const int w = o.corridor, q = w + 1;
  const int nx = (o.width + 1) / q, ny = (o.height + 1) / q;
  GridMap m = blank(o.width, o.height, 0);
  auto carve = [&](int x0, int y0, int cw, int ch) {
    for (int y = y0; y < y0 + ch; ++y)
      for (int x = x0; x < x0 + cw; ++x) set(m, x, y, 1);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) carve(i * q, j * q, w, w);
  Rng rng(o.seed, kMaze);
  std::vector<std::uint8_t> visited(std::size_t(nx) * std::size_t(ny), 0);
  std::vector<int> stack;
  const int first = int(rng.below(std::uint64_t(nx) * std::uint64_t(ny)));
  visited[std::size_t(first)] = 1;
  stack.push_back(first);
  static constexpr int kDx[4] = {1, -1, 0, 0}, kDy[4] = {0, 0, 1, -1};
  while (!stack.empty()) {
    const int c = stack.back(), ci = c % nx, cj = c / nx;
    int options[4], k = 0;
    for (int d = 0; d < 4; ++d) {
      const int ni = ci + kDx[d], nj = cj + kDy[d];
      if (ni >= 0 && nj >= 0 && ni < nx && nj < ny && !visited[std::size_t(nj) * nx + ni]) options[k++] = d;
    }
    if (k == 0) {
      stack.pop_back();
      continue;
    }
    const int d = options[rng.below(std::uint64_t(k))];
    const int ni = ci + kDx[d], nj = cj + kDy[d];
    // Open the wall between the two coarse cells over the corridor's whole width.
    if (kDx[d] != 0) carve(std::min(ci, ni) * q + w, cj * q, 1, w);
    else carve(ci * q, std::min(cj, nj) * q + w, w, 1);
    visited[std::size_t(nj) * nx + ni] = 1;
    stack.push_back(nj * nx + ni);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// polygons: a field of random convex and star-shaped (non-convex) polygons, the kind of obstacle
// field used to illustrate visibility-graph planning (Lozano-Pérez & Wesley, CACM 22(10), 1979),
// placed with their bounding discs 2 cells apart (so rasterised obstacles never touch) and
// rasterised by cell centre. All geometry is integer (1/1024 cell) so it is exact on every machine.
constexpr std::int64_t kUnit = 1024;   // fixed-point units per cell
constexpr std::int64_t kTurn = 8192;   // parameter range of one turn around the square [-P,P]^2
constexpr std::int64_t kSide = kTurn / 8;

// Integer floor(sqrt(v)), v >= 0.
std::int64_t isqrt(std::int64_t v) {
  std::int64_t r = std::int64_t(std::sqrt(double(v)));
  while (r > 0 && r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

// A direction for parameter t in [0, kTurn): walking the boundary of the square [-P,P]^2
// counter-clockwise (angle increases monotonically with t); returned unnormalised.
void square_direction(std::int64_t t, std::int64_t& dx, std::int64_t& dy) {
  const std::int64_t P = kSide, s = t % (2 * P), side = t / (2 * P);
  switch (side) {
    case 0: dx = P; dy = -P + s; break;
    case 1: dx = P - s; dy = P; break;
    case 2: dx = -P; dy = P - s; break;
    default: dx = -P + s; dy = -P; break;
  }
}

struct Disc {
  std::int64_t x, y, r;
};

// Even-odd rule for point (px, py) against polygon v (fixed point), exact integer arithmetic.
bool inside_polygon(const std::vector<std::pair<std::int64_t, std::int64_t>>& v, std::int64_t px, std::int64_t py) {
  bool in = false;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    const auto [xi, yi] = v[i];
    const auto [xj, yj] = v[j];
    if ((yi > py) == (yj > py)) continue;
    // px < x of the edge at height py  <=>  (px - xj)(yi - yj) < (py - yj)(xi - xj), flipped if yi < yj.
    const std::int64_t lhs = (px - xj) * (yi - yj), rhs = (py - yj) * (xi - xj);
    if (yi > yj ? lhs < rhs : lhs > rhs) in = !in;
  }
  return in;
}

GridMap make_polygons(const GenerateOptions& o) {
  GridMap m = blank(o.width, o.height, 1);
  const std::int64_t W = std::int64_t(o.width) * kUnit, H = std::int64_t(o.height) * kUnit;
  // Radii between a quarter of rmax and rmax = 1/6 of the shorter side (at least 1.5 cells).
  const std::int64_t rmax = std::max<std::int64_t>(3 * kUnit / 2, std::min(W, H) / 6);
  const std::int64_t rmin = std::max<std::int64_t>(kUnit, rmax / 4);
  const std::int64_t margin = kUnit, gap = 2 * kUnit;
  Rng rng(o.seed, kPolygons);
  std::vector<Disc> placed;
  for (int n = 0; n < o.obstacles; ++n) {
    // Up to 64 tries to find a disc clear of the map border and of the discs already placed.
    std::optional<Disc> disc;
    for (int attempt = 0; attempt < 64 && !disc; ++attempt) {
      const std::int64_t span = std::max<std::int64_t>(rmax - rmin, 0);
      // Skewed small: the product of two draws, made one after the other (as the operands of * they
      // would be drawn in an order each compiler picks; the product is the same either way).
      std::int64_t r = rmin;
      if (span != 0) {
        const std::int64_t u = rng.between(0, span), v = rng.between(0, span);
        r += u * v / span;
      }
      if (W - margin - r < r + margin || H - margin - r < r + margin) continue;
      const Disc d{rng.between(r + margin, W - margin - r), rng.between(r + margin, H - margin - r), r};
      bool clear = true;
      for (const Disc& e : placed) {
        const std::int64_t dx = d.x - e.x, dy = d.y - e.y, sep = d.r + e.r + gap;
        if (dx * dx + dy * dy < sep * sep) {
          clear = false;
          break;
        }
      }
      if (clear) disc = d;
    }
    if (!disc) continue;
    placed.push_back(*disc);
    // Shape: 35% convex (all vertices on the disc's circle), 35% star (radii alternating between
    // 70..100% and 20..50%: deep notches), 30% irregular (radii 45..100%).
    const std::uint64_t shape = rng.below(20);
    const bool convex = shape < 7, star = !convex && shape < 14;
    const int k = convex ? int(rng.between(3, 9)) : star ? 2 * int(rng.between(3, 7)) : int(rng.between(5, 12));
    // Elongation along x (45..100%) then a rotation by the rational point ((b^2-a^2), 2ab)/(a^2+b^2)
    // of the unit circle: affine maps keep convex shapes convex and stay inside the disc.
    const std::int64_t elong = rng.between(460, 1024);
    const std::int64_t a = rng.between(-1024, 1024), b = 1024;
    const std::int64_t rc = b * b - a * a, rs = 2 * a * b, rd = a * a + b * b;
    std::vector<std::pair<std::int64_t, std::int64_t>> v;
    v.reserve(std::size_t(k));
    for (int i = 0; i < k; ++i) {
      // Jittered angles: vertex i in the middle 80% of the i-th of k equal sectors (sorted by construction).
      const std::int64_t t = (std::int64_t(i) * kTurn + rng.between(kTurn / 10, kTurn * 9 / 10)) / k;
      const std::int64_t percent = convex  ? 100
                                   : !star ? rng.between(45, 100)
                                   : i % 2 == 0 ? rng.between(70, 100)
                                                : rng.between(20, 50);
      const std::int64_t ri = disc->r * percent / 100;
      std::int64_t dx = 0, dy = 0;
      square_direction(t, dx, dy);
      const std::int64_t norm = isqrt(dx * dx + dy * dy);
      std::int64_t px = dx * ri / norm, py = dy * ri / norm;
      px = px * elong / 1024;
      const std::int64_t qx = (rc * px - rs * py) / rd, qy = (rs * px + rc * py) / rd;
      v.emplace_back(disc->x + qx, disc->y + qy);
    }
    // Rasterise: a cell is blocked when its centre lies inside the polygon.
    std::int64_t minx = v[0].first, maxx = minx, miny = v[0].second, maxy = miny;
    for (const auto& [x, y] : v) {
      minx = std::min(minx, x), maxx = std::max(maxx, x);
      miny = std::min(miny, y), maxy = std::max(maxy, y);
    }
    const int x0 = int(std::max<std::int64_t>(0, minx / kUnit - 1));
    const int x1 = int(std::min<std::int64_t>(o.width - 1, maxx / kUnit + 1));
    const int y0 = int(std::max<std::int64_t>(0, miny / kUnit - 1));
    const int y1 = int(std::min<std::int64_t>(o.height - 1, maxy / kUnit + 1));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        if (inside_polygon(v, x * kUnit + kUnit / 2, y * kUnit + kUnit / 2)) set(m, x, y, 0);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// cave: cellular-automaton caves with the "4-5 rule" (Johnson, Yannakakis & Togelius, "Cellular
// automata for real-time generation of infinite cave levels", PCG workshop 2010; J. Babcock's
// RogueBasin write-up "Cellular Automata Method for Generating Random Cave-Like Levels"): every
// cell starts as rock with probability density%, then 4 rounds of "rock iff at least 5 of the 9
// cells of its 3x3 block are rock" (cells outside the map count as rock). So that a cavern is
// tens of cells wide on a large map (as in game maps) rather than a few, the automaton runs on a
// coarse grid of s x s blocks, s = max(1, min(W, H) / 128), which is then scaled up and smoothed by
// 2 more rounds at full resolution. Finally every free region but the largest (4-connected; the
// first in row-major order on a tie) is filled, so the cave is one connected system.

// One round of the 4-5 rule on a w x h grid of 0/1 (1 = rock).
void cave_round(std::vector<std::uint8_t>& rock, int w, int h) {
  std::vector<std::uint8_t> next(rock.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int count = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = x + dx, ny = y + dy;
          count += (nx < 0 || ny < 0 || nx >= w || ny >= h) ? 1 : rock[std::size_t(ny) * std::size_t(w) + std::size_t(nx)];
        }
      next[std::size_t(y) * std::size_t(w) + std::size_t(x)] = count >= 5;
    }
  rock.swap(next);
}

GridMap make_cave(const GenerateOptions& o) {
  const int W = o.width, H = o.height;
  const int s = std::max(1, std::min(W, H) / 128);
  const int cw = (W + s - 1) / s, ch = (H + s - 1) / s;
  Rng rng(o.seed, kCave);
  // Rock with probability density% (in millionths, so 4 decimals of the percentage count).
  const std::uint64_t threshold = std::uint64_t(std::llround(o.density * 10000.0));
  std::vector<std::uint8_t> coarse(std::size_t(cw) * std::size_t(ch));
  for (auto& c : coarse) c = rng.below(1000000) < threshold;
  for (int r = 0; r < 4; ++r) cave_round(coarse, cw, ch);
  std::vector<std::uint8_t> rock(std::size_t(W) * std::size_t(H));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      rock[std::size_t(y) * std::size_t(W) + std::size_t(x)] = coarse[std::size_t(y / s) * std::size_t(cw) + std::size_t(x / s)];
  if (s > 1)
    for (int r = 0; r < 2; ++r) cave_round(rock, W, H);
  GridMap m = blank(W, H, 0);
  for (std::size_t i = 0; i < rock.size(); ++i) m.cells[i] = rock[i] ? 0 : 1;
  // Keep the largest 4-connected free region.
  std::vector<int> label;
  const std::vector<std::uint64_t> sizes = free_regions(m, label);
  if (!sizes.empty()) {
    const int keep = int(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
    for (std::size_t i = 0; i < m.cells.size(); ++i)
      if (label[i] != keep) m.cells[i] = 0;
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Exact octile lengths: a + b*sqrt(2) with integer a (orthogonal steps) and b (diagonal steps).
// a, b < 2^27 on maps up to 8192^2, so the squares below fit in 64 bits.
struct Octile {
  std::int64_t a = 0, b = 0;
};

// Sign of da + db*sqrt(2), exact (sqrt(2) is irrational, so it is 0 only when da = db = 0).
// Fast path: the double value is within 1e-7 of the truth for |da|, |db| < 2^27, so a larger
// magnitude decides the sign; only near-ties take the exact integer route.
int sign_of(std::int64_t da, std::int64_t db) {
  const double diagonal = double(db) * 1.4142135623730951;
  const double approx = double(da) + diagonal;
  if (approx > 1e-6) return 1;
  if (approx < -1e-6) return -1;
  if (da >= 0 && db >= 0) return (da | db) != 0 ? 1 : 0;
  if (da <= 0 && db <= 0) return -1;
  const std::int64_t aa = da * da, bb = 2 * db * db;
  return da > 0 ? (aa > bb ? 1 : -1) : (aa > bb ? -1 : 1);
}
bool less(Octile p, Octile q) { return sign_of(p.a - q.a, p.b - q.b) < 0; }

double to_double(Octile o) {
  const double diagonal = double(o.b) * std::sqrt(2.0);  // separate statement: no fused multiply-add
  return double(o.a) + diagonal;
}

// A* (Hart, Nilsson & Raphael 1968) with the octile heuristic, which is consistent for 8-connected
// moves without corner cutting; with exact costs the first time the goal is popped it is optimal.
class OctileSearch {
 public:
  explicit OctileSearch(const GridMap& m)
      : m_(m), g_(m.cells.size()), stamp_(m.cells.size(), 0), closed_(m.cells.size(), 0) {}

  std::optional<Octile> run(int sx, int sy, int gx, int gy) {
    if (!m_.passable(sx, sy) || !m_.passable(gx, gy)) return std::nullopt;
    ++generation_;
    const int W = m_.width;
    auto h = [&](int x, int y) {
      const std::int64_t dx = std::abs(x - gx), dy = std::abs(y - gy);
      return Octile{std::max(dx, dy) - std::min(dx, dy), std::min(dx, dy)};
    };
    struct Entry {
      Octile f, g;
      int cell;
    };
    auto worse = [](const Entry& p, const Entry& q) {
      const int s = sign_of(p.f.a - q.f.a, p.f.b - q.f.b);
      if (s != 0) return s > 0;
      return less(p.g, q.g);  // equal f: deeper node first
    };
    std::priority_queue<Entry, std::vector<Entry>, decltype(worse)> open(worse);
    const int start = sy * W + sx, goal = gy * W + gx;
    touch(start, Octile{});
    open.push({h(sx, sy), Octile{}, start});
    while (!open.empty()) {
      const Entry e = open.top();
      open.pop();
      const std::size_t c = std::size_t(e.cell);
      if (closed_[c] == generation_ || g_[c].a != e.g.a || g_[c].b != e.g.b) continue;  // stale entry
      if (e.cell == goal) return e.g;
      closed_[c] = generation_;
      const int x = e.cell % W, y = e.cell / W;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          const int nx = x + dx, ny = y + dy;
          if (!m_.passable(nx, ny)) continue;
          const bool diagonal = dx != 0 && dy != 0;
          if (diagonal && (!m_.passable(x + dx, y) || !m_.passable(x, y + dy))) continue;  // no corner cutting
          const Octile g{e.g.a + (diagonal ? 0 : 1), e.g.b + (diagonal ? 1 : 0)};
          const int n = ny * W + nx;
          const std::size_t nc = std::size_t(n);
          if (closed_[nc] == generation_) continue;
          if (stamp_[nc] == generation_ && !less(g, g_[nc])) continue;
          touch(n, g);
          const Octile hn = h(nx, ny);
          open.push({Octile{g.a + hn.a, g.b + hn.b}, g, n});
        }
    }
    return std::nullopt;
  }

 private:
  void touch(int cell, Octile g) {
    stamp_[std::size_t(cell)] = generation_;
    g_[std::size_t(cell)] = g;
  }
  const GridMap& m_;
  std::vector<Octile> g_;
  std::vector<std::uint32_t> stamp_, closed_;
  std::uint32_t generation_ = 0;
};

}  // namespace

void validate(const GenerateOptions& o) {
  auto side = [](const char* what, int v) {
    if (v < 1 || v > kMaxGeneratedSide)
      bad(std::string(what) + " " + std::to_string(v) + " is outside 1.." + std::to_string(kMaxGeneratedSide));
  };
  side("width", o.width);
  side("height", o.height);
  if (o.kind == "random" || o.kind == "cave") {
    if (!std::isfinite(o.density) || o.density < 0 || o.density > 100)
      bad("density " + std::to_string(o.density) + " is outside 0..100 (percent)");
  } else if (o.kind == "rooms") {
    if (o.room < 2 || o.room > kMaxGeneratedSide)
      bad("room size " + std::to_string(o.room) + " is outside 2.." + std::to_string(kMaxGeneratedSide));
  } else if (o.kind == "maze") {
    if (o.corridor < 1 || o.corridor > kMaxGeneratedSide)
      bad("corridor width " + std::to_string(o.corridor) + " is outside 1.." + std::to_string(kMaxGeneratedSide));
    if (o.corridor > std::min(o.width, o.height))
      bad("corridor width " + std::to_string(o.corridor) + " does not fit in a " + std::to_string(o.width) + "x" +
          std::to_string(o.height) + " map");
  } else if (o.kind == "polygons") {
    if (o.obstacles < 0 || o.obstacles > 100000)
      bad("obstacle count " + std::to_string(o.obstacles) + " is outside 0..100000");
  } else {
    bad("unknown map kind '" + o.kind + "' (expected random, rooms, maze, polygons or cave)");
  }
}

GridMap generate_map(const GenerateOptions& o) {
  validate(o);
  if (o.kind == "random") return make_random(o);
  if (o.kind == "rooms") return make_rooms(o);
  if (o.kind == "maze") return make_maze(o);
  if (o.kind == "cave") return make_cave(o);
  return make_polygons(o);
}

std::string generated_map_name(const GenerateOptions& o) {
  validate(o);
  // Built by appending (GCC 12 warns falsely, -Wrestrict, on "literal" + std::string&&).
  std::string name = o.kind;
  name += '-';
  if (o.kind == "random" || o.kind == "cave") {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, o.density);  // shortest round-trip form
    (void)ec;
    name.append(buf, end);
    name += '-';
  } else if (o.kind == "rooms") {
    name += std::to_string(o.room);
    name += '-';
  } else if (o.kind == "maze") {
    name += std::to_string(o.corridor);
    name += '-';
  }
  name += std::to_string(o.width);
  if (o.height != o.width) {
    name += 'x';
    name += std::to_string(o.height);
  }
  return name;
}

std::optional<double> octile_distance(const GridMap& m, int sx, int sy, int gx, int gy) {
  OctileSearch search(m);
  auto r = search.run(sx, sy, gx, gy);
  if (!r) return std::nullopt;
  return to_double(*r);
}

Scenario make_scenario(const GridMap& m, const std::string& map_file_name, int queries, std::uint64_t seed) {
  if (queries < 0 || queries > 1000000) bad("query count " + std::to_string(queries) + " is outside 0..1000000");
  Scenario sc;
  sc.path = map_file_name + ".scen";
  if (queries == 0) return sc;
  // 4-connected components (with no corner cutting, 8-connected reachability is the same).
  const int W = m.width, H = m.height;
  const std::size_t N = m.cells.size();
  std::vector<int> comp;
  const std::vector<std::uint64_t> size = free_regions(m, comp);
  // Uniform ordered pairs of distinct free cells, pairs in different components skipped, is the
  // same as: component c with probability s_c(s_c-1) / sum, then two distinct cells of c uniformly.
  std::vector<std::uint64_t> cumulative(size.size());
  std::uint64_t total = 0;
  for (std::size_t c = 0; c < size.size(); ++c) cumulative[c] = total += size[c] * (size[c] - 1);
  if (total == 0) bad("the map has no two connected free cells to make queries from");
  // Cells grouped by component (counting sort, in row-major order within a component).
  std::vector<std::size_t> offset(size.size() + 1, 0);
  for (std::size_t c = 0; c < size.size(); ++c) offset[c + 1] = offset[c] + size[c];
  std::vector<int> cells(offset.back());
  {
    std::vector<std::size_t> fill(offset.begin(), offset.end() - 1);
    for (std::size_t i = 0; i < N; ++i)
      if (comp[i] >= 0) cells[fill[std::size_t(comp[i])]++] = int(i);
  }
  Rng rng(seed, kScenario);
  OctileSearch search(m);
  for (int k = 0; k < queries; ++k) {
    const std::uint64_t r = rng.below(total);
    const std::size_t c = std::size_t(std::upper_bound(cumulative.begin(), cumulative.end(), r) - cumulative.begin());
    const std::uint64_t i = rng.below(size[c]);
    std::uint64_t j = rng.below(size[c] - 1);
    if (j >= i) ++j;
    const int s = cells[offset[c] + i], g = cells[offset[c] + j];
    const auto opt = search.run(s % W, s / W, g % W, g / W);
    if (!opt) throw std::logic_error("make_scenario: connected cells without a path");  // cannot happen
    ScenarioLine l;
    l.optimal = to_double(*opt);
    l.bucket = int(std::floor(l.optimal / 4));
    l.map = map_file_name;
    l.width = W;
    l.height = H;
    l.sx = s % W;
    l.sy = s / W;
    l.gx = g % W;
    l.gy = g / W;
    l.decimals = 8;
    sc.lines.push_back(std::move(l));
  }
  std::stable_sort(sc.lines.begin(), sc.lines.end(),
                   [](const ScenarioLine& p, const ScenarioLine& q) { return p.bucket < q.bucket; });
  return sc;
}

void write_generated(const std::string& dir, const std::string& name, const GridMap& m, const Scenario& s) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory (" + ec.message() + ")");
  const std::string base = (std::filesystem::path(dir) / name).string();
  {
    std::ofstream out(base + ".map", std::ios::binary);
    if (!out) throw std::runtime_error(base + ".map: cannot write");
    write_movingai_map(out, m);
    if (!out.flush()) throw std::runtime_error(base + ".map: write failed");
  }
  {
    std::ofstream out(base + ".map.scen", std::ios::binary);
    if (!out) throw std::runtime_error(base + ".map.scen: cannot write");
    write_scenario(out, s);
    if (!out.flush()) throw std::runtime_error(base + ".map.scen: write failed");
  }
}

}  // namespace navbench
