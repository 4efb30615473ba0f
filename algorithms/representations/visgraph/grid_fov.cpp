#include "representations/visgraph/grid_fov.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <limits>

#include "geometry/exact.hpp"

namespace navbench {

using exact::orient2d;

GridFov::GridFov(const GridMap& g, const std::vector<ConvexCorner>& nodes) : W(g.width), H(g.height), PW(g.width + 2) {
  if (W > 65530 || H > 65530) throw std::invalid_argument("visgraph: grid side above 65530");
  const int PH = H + 2;
  next_.assign(2 * std::size_t(PW) * PH, 0);
  for (int py = 0; py < PH; ++py) {
    int nb = W + 2, nf = W + 2;  // x + 1 of the next blocked / free cell (W + 2: none)
    for (int px = PW - 1; px >= 0; --px) {
      if (g.passable(px - 1, py - 1)) nf = px;
      else nb = px;
      next_[2 * (std::size_t(py) * PW + px)] = std::uint16_t(nb);
      next_[2 * (std::size_t(py) * PW + px) + 1] = std::uint16_t(nf);
    }
  }
  const std::size_t ncorners = std::size_t(W + 1) * std::size_t(H + 1);
  node_at_.assign(ncorners, -1);
  is_node_.assign((ncorners + 63) / 64, 0);
  ranked_ = true;
  std::size_t last = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::size_t k = std::size_t(nodes[i].at.y) * (W + 1) + std::size_t(nodes[i].at.x);
    node_at_[k] = std::int32_t(i);
    is_node_[k >> 6] |= std::uint64_t(1) << (k & 63);
    if (i > 0 && k <= last) ranked_ = false;
    last = k;
  }
  rank_.assign(is_node_.size(), 0);
  for (std::size_t w = 1; w < is_node_.size(); ++w)
    rank_[w] = rank_[w - 1] + std::uint32_t(__builtin_popcountll(is_node_[w - 1]));
  pinch_.assign(std::size_t(W + 1) * std::size_t(H + 1), 0);
  for (int y = 0; y <= H; ++y)
    for (int x = 0; x <= W; ++x) {
      const bool a = g.passable(x - 1, y - 1), b = g.passable(x, y - 1), c = g.passable(x - 1, y), d = g.passable(x, y);
      pinch_[std::size_t(y) * (W + 1) + x] = (a && d && !b && !c) || (b && c && !a && !d);
    }
}

// Each table entry reads the cells of its own row (next_: a padded row, right to left), of the
// four cells around its grid point (pinch_), or the nodes alone (node_at_, is_node_, rank_): so a
// row holding no changed cell and a point with no changed cell around it keep their entries, and
// the others are made again by the constructor's rules, as are the nodes' marks (cleared at the
// old nodes, set at the new ones). The result equals GridFov(grid, nodes) (tests/test_dynamic.cpp).
void GridFov::update(const GridMap& g, const std::vector<ConvexCorner>& old_nodes, const std::vector<ConvexCorner>& nodes,
                     const std::vector<CellChange>& changed) {
  // (Changes over an eighth of the cells, as a scenario's first update placing the whole map: made
  // anew, which reads each cell once where the repair reads a changed cell's four points.)
  if (g.width != W || g.height != H || next_.empty() || changed.size() * 8 > std::size_t(W) * std::size_t(H)) {
    *this = GridFov(g, nodes);
    return;
  }
  std::vector<std::uint8_t> row(std::size_t(H) + 2, 0);
  for (const CellChange& ch : changed) {
    if (ch.x < 0 || ch.y < 0 || ch.x >= W || ch.y >= H) continue;
    row[std::size_t(ch.y) + 1] = 1;
    for (int y = ch.y; y <= ch.y + 1; ++y)
      for (int x = ch.x; x <= ch.x + 1; ++x) {
        const bool a = g.passable(x - 1, y - 1), b = g.passable(x, y - 1), c = g.passable(x - 1, y), d = g.passable(x, y);
        pinch_[std::size_t(y) * (W + 1) + x] = (a && d && !b && !c) || (b && c && !a && !d);
      }
  }
  for (int py = 1; py <= H; ++py) {
    if (!row[std::size_t(py)]) continue;
    int nb = W + 2, nf = W + 2;
    for (int px = PW - 1; px >= 0; --px) {
      if (g.passable(px - 1, py - 1)) nf = px;
      else nb = px;
      next_[2 * (std::size_t(py) * PW + px)] = std::uint16_t(nb);
      next_[2 * (std::size_t(py) * PW + px) + 1] = std::uint16_t(nf);
    }
  }
  for (const ConvexCorner& k : old_nodes) {
    const std::size_t i = std::size_t(k.at.y) * (W + 1) + std::size_t(k.at.x);
    node_at_[i] = -1;
    is_node_[i >> 6] &= ~(std::uint64_t(1) << (i & 63));
  }
  ranked_ = true;
  std::size_t last = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::size_t k = std::size_t(nodes[i].at.y) * (W + 1) + std::size_t(nodes[i].at.x);
    node_at_[k] = std::int32_t(i);
    is_node_[k >> 6] |= std::uint64_t(1) << (k & 63);
    if (i > 0 && k <= last) ranked_ = false;
    last = k;
  }
  for (std::size_t w = 1; w < is_node_.size(); ++w)
    rank_[w] = rank_[w - 1] + std::uint32_t(__builtin_popcountll(is_node_[w - 1]));
}

void GridFov::scan(Point s, std::vector<std::uint32_t>& sure, std::vector<std::uint32_t>& maybe) const {
  // From a pinch point only one quadrant may be entered: leave that rule to the exact test.
  const bool at_pinch = s.x == std::floor(s.x) && s.y == std::floor(s.y) && s.x >= 0 && s.y >= 0 && s.x <= W &&
                        s.y <= H && pinch_[std::size_t(s.y) * (W + 1) + std::size_t(s.x)];
  scan_half(s, +1, at_pinch, 0, sure, maybe);
  scan_half(s, -1, at_pinch, 0, sure, maybe);
}

void GridFov::region(Point s, std::vector<Span>& spans) const {
  thread_local std::vector<std::uint32_t> sure, maybe;  // the nodes found: not asked for here
  sure.clear();
  maybe.clear();
  scan_half(s, +1, false, 0, sure, maybe, &spans, false);
  scan_half(s, -1, false, 0, sure, maybe, &spans, false);
}

void GridFov::scan_tangent(Point s, int qx, int qy, std::vector<std::uint32_t>& sure, std::vector<std::uint32_t>& maybe,
                           std::vector<Span>* spans, bool with_sure, const Directions* within) const {
  // Half f (directions with y-sign f) holds quadrant (qx, -qy) when f == -qy, else (-qx, qy).
  scan_half(s, +1, false, qy < 0 ? qx : -qx, sure, maybe, spans, with_sure, within ? &within->half[0] : nullptr);
  scan_half(s, -1, false, qy > 0 ? qx : -qx, sure, maybe, spans, with_sure, within ? &within->half[1] : nullptr);
  // Both horizontal directions are tangent too, and a horizontal ray can graze a corner whose
  // blocked cell lies in the other half's quarter, which that half no longer sweeps: walk the
  // grid line itself while one of its two sides is free (candidates for the exact test).
  if (s.y != std::floor(s.y) || s.x != std::floor(s.x)) return;
  const int x0 = int(s.x), y = int(s.y);
  auto open = [&](int x) {  // the unit edge [x, x+1] on line y has a free side
    const std::uint16_t* up = next_.data() + 2 * std::size_t(y) * PW + 1;      // row y - 1's next free
    const std::uint16_t* dn = next_.data() + 2 * std::size_t(y + 1) * PW + 1;  // row y's
    return up[2 * (x + 1)] == x + 1 || dn[2 * (x + 1)] == x + 1;
  };
  auto node = [&](int x) -> std::int32_t {
    const std::size_t k = std::size_t(y) * (W + 1) + std::size_t(x);
    return ((is_node_[k >> 6] >> (k & 63)) & 1) ? node_at_[k] : -1;
  };
  int hi = x0, lo = x0 - 1;
  for (; hi < W && open(hi); ++hi)
    if (const std::int32_t id = node(hi + 1); id >= 0) maybe.push_back(std::uint32_t(id));
  for (; lo >= 0 && open(lo); --lo)
    if (const std::int32_t id = node(lo); id >= 0) maybe.push_back(std::uint32_t(id));
  if (spans)  // the cells read: both rows beside line y, columns lo..hi (the last read edge included)
    for (const int row : {y - 1, y})
      if (row >= 0 && row < H) spans->push_back({row, std::max(lo, 0), std::min(hi, W - 1), false, false, true});
}

// One half-plane's frame (scan_half): s in the frame (x, f*y), and the tests on rays from it.
struct GridFov::Frame {
  const GridFov& fov;
  const Point S;
  const bool all_maybe;
  std::vector<std::uint32_t>& sure;
  std::vector<std::uint32_t>& maybe;
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  // The orientation of b, c about S. When S lies on the half-integer lattice (the harness's
  // query points, the nodes themselves) every ray's corner does too (integers, or S's own column
  // for `down`), and with coordinates below 2^20 the cross product is exact in doubles (each
  // factor a multiple of 1/2 below 2^21, each product a multiple of 1/4 below 2^42): the sign
  // needs neither the predicate's error filter nor its exact fallback, which collinear rays
  // (frequent on a grid) always reach.
  const bool on_lattice = 2 * S.x == std::floor(2 * S.x) && 2 * S.y == std::floor(2 * S.y) &&
                          std::abs(S.x) < (1 << 20) && std::abs(S.y) < (1 << 20);

  // A ray through a corner; its slope (a division) is filled in only when it bounds a piece.
  static Ray lattice(double x, double y) { return Ray{x, y, 0, 0}; }
  Ray bound(Ray r) const {
    if (r.h == 0) r.k = (r.x - S.x) / (r.y - S.y);
    return r;
  }
  int orient(Point b, Point c) const {
    if (!on_lattice) return orient2d(S, b, c);
    const double d = (b.x - S.x) * (c.y - S.y) - (b.y - S.y) * (c.x - S.x);
    return (d > 0) - (d < 0);
  }
  // Angular order of rays in the closed lower half-plane: +x (0) ... +y (90 deg) ... -x (180).
  int cmp(const Ray& a, const Ray& b) const {
    if ((a.h | b.h) != 0) {
      const int ka = a.h > 0 ? 0 : a.h < 0 ? 2 : 1, kb = b.h > 0 ? 0 : b.h < 0 ? 2 : 1;
      if (ka != kb) return ka < kb ? -1 : 1;
      if (ka != 1) return 0;
    }
    return -orient(Point{a.x, a.y}, Point{b.x, b.y});
  }
  // 2: strictly inside, 1: on the boundary, 0: outside.
  int classify(const Ray& r, const Ray& lo, const Ray& hi) const {
    const int c1 = cmp(lo, r);
    if (c1 > 0) return 0;
    const int c2 = cmp(r, hi);
    if (c2 > 0) return 0;
    return (c1 < 0 && c2 < 0) ? 2 : 1;
  }
  double xat(const Ray& r, double y) const {
    if (r.h != 0) return r.h > 0 ? kInf : -kInf;
    return S.x + r.k * (y - S.y);
  }
  int column(double v) const {  // a cell column index, clamped to the padded grid
    if (!(v > -2)) return -1;
    if (!(v < fov.W + 2)) return fov.W;
    return std::clamp(int(std::floor(v)), -1, fov.W);
  }
  std::int32_t node(int x, int y) const {
    const int W = fov.W, H = fov.H;
    if (x < 0 || y < 0 || x > W || y > H) return -1;
    const std::size_t k = std::size_t(y) * (W + 1) + std::size_t(x);
    const std::uint64_t word = fov.is_node_[k >> 6];
    if (!((word >> (k & 63)) & 1)) return -1;
    if (fov.ranked_) return std::int32_t(fov.rank_[k >> 6] + std::uint32_t(__builtin_popcountll(word & ((std::uint64_t(1) << (k & 63)) - 1))));
    return fov.node_at_[k];
  }
  void emit(std::int32_t id, int cls) const {
    if (cls == 2 && !all_maybe) sure.push_back(std::uint32_t(id));
    else if (cls >= 1) maybe.push_back(std::uint32_t(id));
  }
  void sure_spans(const Piece& pc, int row, double yn, double yf, const std::uint16_t* nr, std::vector<Span>& spans) const;
  // The sweep's first pieces: `whole` (the half or quarter), or each interval of `within` cut to it.
  void start(const Piece& whole, const std::vector<Piece>* within, std::vector<Piece>& pieces) const {
    pieces.assign(1, whole);
    if (!within) return;
    pieces.clear();
    for (const Piece& w : *within) {
      const Ray lo = cmp(w.lo, whole.lo) >= 0 ? w.lo : whole.lo, hi = cmp(w.hi, whole.hi) <= 0 ? w.hi : whole.hi;
      if (cmp(lo, hi) <= 0) pieces.push_back({lo, hi});
    }
  }
};

// The `sure` spans of piece pc in band row `row` (lines yn, yf; nr: the row's jump table).
void GridFov::Frame::sure_spans(const Piece& pc, int row, double yn, double yf, const std::uint16_t* nr,
                                std::vector<Span>& spans) const {
  const int W = fov.W;
  auto nb = [nr](int x) { return int(nr[2 * (x + 1)]) - 1; };  // next blocked cell at or after x >= -1
  const double L = std::max(xat(pc.hi, yn), xat(pc.hi, yf)), R = std::min(xat(pc.lo, yn), xat(pc.lo, yf));
  const int a = int(std::max(std::ceil(L + 1e-7), 0.0)), b = int(std::min(std::floor(R - 1e-7) - 1, W - 1.0));
  const double t = (yn - S.y) / (yf - S.y);  // a ray through (x, yf) enters the band at S.x + (x - S.x) t
  int run0 = -1, run1 = -2;
  for (int x = a; x <= b; ++x) {
    const double e0 = S.x + (x - S.x) * t, e1 = S.x + (x + 1 - S.x) * t;
    const int lo = std::max(int(std::floor(std::min(double(x), e0) - 1e-7)), -1);
    const int hi = int(std::ceil(std::max(x + 1.0, e1) + 1e-7)) - 1;
    if (nb(lo) <= hi) continue;
    if (x == run1 + 1) run1 = x;
    else {
      if (run1 >= run0) spans.push_back({row, run0, run1, true});
      run0 = run1 = x;
    }
  }
  if (run1 >= run0) spans.push_back({row, run0, run1, true});
}

// One half-plane: rows below s in the frame (x, f*y), i.e. f = +1 scans increasing y, f = -1
// decreasing y (mirrored, which the exact predicates do not mind: negation is exact).
void GridFov::scan_half(Point s, int f, bool all_maybe, int side, std::vector<std::uint32_t>& sure,
                        std::vector<std::uint32_t>& maybe, std::vector<Span>* spans, bool with_sure,
                        const std::vector<Piece>* within) const {
  const Frame fr{*this, Point{s.x, f * s.y}, all_maybe, sure, maybe};
  const Point S = fr.S;
  const Ray kRight{0, 0, 0, 1}, kLeft{0, 0, 0, -1};

  struct Shadow {
    Ray a, b;  // open interval
  };
  struct Far {
    std::int32_t id;
    std::uint32_t run;  // index of its run's shadow
    Ray r;
  };
  // Per-thread scratch: no allocation per query once warm, and no state shared between threads.
  struct Scratch {
    std::vector<Piece> pieces, next, local, tmp;
    std::vector<Shadow> shadows;
    std::vector<Far> far;
  };
  thread_local Scratch scratch;
  auto& [pieces, next, local, tmp, shadows, far] = scratch;
  const Ray down = fr.bound(fr.lattice(S.x, S.y + 1));  // straight down the frame
  fr.start(side > 0 ? Piece{kRight, down} : side < 0 ? Piece{down, kLeft} : Piece{kRight, kLeft}, within, pieces);

  for (int Y = int(std::floor(S.y)); !pieces.empty(); ++Y) {
    const int row = f > 0 ? Y : -Y - 1;  // the real cell row of this band
    if (row < -1 || row > H) break;
    const int near_real = f * Y, far_real = f * (Y + 1);  // real y of the band's two lines
    const double yn = std::max(double(Y), S.y), yf = Y + 1.0;
    const bool below = Y > S.y;  // the whole band lies below S (else S's own band)
    const std::uint16_t* nr = next_.data() + 2 * std::size_t(row + 1) * PW;
    auto nb = [nr](int x) { return int(nr[2 * (x + 1)]) - 1; };      // next blocked cell at or after x >= -1
    auto nf = [nr](int x) { return int(nr[2 * (x + 1) + 1]) - 1; };  // next free cell (W + 1: none)
    // The rows ahead (2 and 3 bands on) are fetched while this one is swept: each band reads a
    // new row of the jump table (PW cells apart), a cache miss per band otherwise.
    const std::uint16_t* ahead[2] = {nullptr, nullptr};
    for (int k = 0; k < 2; ++k)
      if (const int r = row + (k + 2) * f; r >= -1 && r <= H) ahead[k] = next_.data() + 2 * std::size_t(r + 1) * PW;
    next.clear();
    for (const Piece& pc : pieces) {
      const double xl = std::min(fr.xat(pc.hi, yn), fr.xat(pc.hi, yf)), xr = std::max(fr.xat(pc.lo, yn), fr.xat(pc.lo, yf));
      const int x0 = fr.column(xl - 1), x1 = fr.column(xr + 1);
      for (const std::uint16_t* a : ahead)
        if (a) __builtin_prefetch(a + 2 * (x0 + 1)), __builtin_prefetch(a + 2 * (x1 + 1));
      // Every ray of pc crosses this band's cells within [x0, x1]: a superset of what is seen here.
      if (spans && row >= 0 && row < H && x1 >= 0 && x0 < W) spans->push_back({row, std::max(x0, 0), std::min(x1, W - 1), false, !below});
      shadows.clear();
      far.clear();
      for (int x = nb(x0); x <= x1;) {
        const int xe = nf(x) - 1;  // the run of blocked cells [x, xe] (cut at x0 on the left)
        const double xa = x, xb = xe + 1.0;
        for (int cx : {x, xe + 1}) {
          if (const std::int32_t id = fr.node(cx, near_real); id >= 0) {
            if (below) fr.emit(id, fr.classify(fr.lattice(cx, Y), pc.lo, pc.hi));
            else if (Y == S.y) maybe.push_back(std::uint32_t(id));  // a horizontal ray
          }
          if (const std::int32_t id = fr.node(cx, far_real); id >= 0)
            far.push_back({id, std::uint32_t(shadows.size()), fr.lattice(cx, Y + 1.0)});
        }
        // The run's shadow: the open interval between its extreme corners as seen from S. Right
        // of S: top-right to bottom-left; left of S: bottom-right to top-left; straddling S:
        // top-right to top-left. Corners at or above S's level stand for the horizontal ray.
        Ray lo, hi;
        if (xa >= S.x) {
          lo = below ? fr.lattice(xb, Y) : kRight;
          hi = fr.lattice(xa, Y + 1.0);
        } else if (xb <= S.x) {
          lo = fr.lattice(xb, Y + 1.0);
          hi = below ? fr.lattice(xa, Y) : kLeft;
        } else {
          lo = below ? fr.lattice(xb, Y) : kRight;
          hi = below ? fr.lattice(xa, Y) : kLeft;
        }
        shadows.push_back({lo, hi});
        x = xe + 1 <= x1 ? nb(xe + 1) : x1 + 1;
      }
      local.assign(1, pc);
      for (const Shadow& sh : shadows) {
        tmp.clear();
        for (const Piece& p : local) {
          if (fr.cmp(sh.b, p.lo) <= 0 || fr.cmp(sh.a, p.hi) >= 0) {
            tmp.push_back(p);
            continue;
          }
          if (fr.cmp(p.lo, sh.a) <= 0) tmp.push_back({p.lo, fr.bound(sh.a)});
          if (fr.cmp(sh.b, p.hi) <= 0) tmp.push_back({fr.bound(sh.b), p.hi});
        }
        local.swap(tmp);
      }
      // Cells every point of which sees s: the cell's rays lie strictly inside pc (unobstructed
      // before this band, through no pinch point) and the row's cells between where those rays
      // enter the band and the cell are free (the only obstacles met inside the band). Margins
      // of 1e-7 absorb the rounding of xat (~1e-12 here); S's own band never qualifies.
      if (spans && with_sure && below && row >= 0 && row < H) fr.sure_spans(pc, row, yn, yf, nr, *spans);
      // A lone horizontal ray never leaves this row.
      std::erase_if(local, [](const Piece& p) { return p.lo.h != 0 && p.lo.h == p.hi.h; });
      // A corner on the band's far line: its ray must be free of the earlier bands (inside pc)
      // and of this band's other runs; its own run it only touches when the corner is extreme.
      for (const Far& c : far) {
        int cls = fr.classify(c.r, pc.lo, pc.hi);
        for (std::uint32_t k = 0; k < shadows.size() && cls > 0; ++k) {
          const int c1 = fr.cmp(shadows[k].a, c.r), c2 = fr.cmp(c.r, shadows[k].b);
          if (c1 < 0 && c2 < 0) cls = 0;                            // through a run's interior
          else if (k != c.run && (c1 == 0 || c2 == 0)) cls = std::min(cls, 1);  // grazing another run
        }
        fr.emit(c.id, cls);
      }
      next.insert(next.end(), local.begin(), local.end());
    }
    pieces.swap(next);
  }
}

// The cone from s of the closed rectangle [x0, x1] x [y0, y1], in each half-plane it reaches: the
// rectangle cut to that half is convex, so the rays through it from s (not in it) form the
// closed interval between the rays through its two extreme corners; a corner on s's own line
// stands for the horizontal ray on its side. A rectangle holding s holds every direction of the half.
void GridFov::add_cone(Point s, int x0, int y0, int x1, int y1, Directions& d) const {
  std::vector<std::uint32_t> none;
  const Ray kRight{0, 0, 0, 1}, kLeft{0, 0, 0, -1};
  for (int h = 0; h < 2; ++h) {
    const int f = h == 0 ? 1 : -1;
    const Frame fr{*this, Point{s.x, f * s.y}, false, none, none};
    const double Sy = fr.S.y;
    double fy0 = f > 0 ? y0 : -y1;
    const double fy1 = f > 0 ? y1 : -y0;
    if (fy1 < Sy) continue;
    fy0 = std::max(fy0, Sy);
    if (fy0 == Sy && x0 <= s.x && s.x <= x1) {
      d.half[h].push_back({kRight, kLeft});
      continue;
    }
    Ray lo{}, hi{};
    bool first = true;
    for (const double yy : {fy0, fy1})
      for (const int xx : {x0, x1}) {
        const Ray r = yy == Sy ? (xx > s.x ? kRight : kLeft) : fr.bound(Frame::lattice(xx, yy));
        if (first || fr.cmp(r, lo) < 0) lo = r;
        if (first || fr.cmp(r, hi) > 0) hi = r;
        first = false;
      }
    d.half[h].push_back({lo, hi});
  }
}

// Each half's intervals in angular order, overlapping or touching ones merged.
void GridFov::close_cones(Point s, Directions& d) const {
  std::vector<std::uint32_t> none;
  for (int h = 0; h < 2; ++h) {
    const Frame fr{*this, Point{s.x, (h == 0 ? 1 : -1) * s.y}, false, none, none};
    auto& v = d.half[h];
    std::sort(v.begin(), v.end(), [&](const Piece& a, const Piece& b) { return fr.cmp(a.lo, b.lo) < 0; });
    std::size_t out = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (out > 0 && fr.cmp(v[k].lo, v[out - 1].hi) <= 0) {
        if (fr.cmp(v[k].hi, v[out - 1].hi) > 0) v[out - 1].hi = v[k].hi;
      } else {
        v[out++] = v[k];
      }
    }
    v.resize(out);
  }
}

bool GridFov::holds(Point s, Point p, const Directions& d) const {
  std::vector<std::uint32_t> none;
  for (int h = 0; h < 2; ++h) {
    const int f = h == 0 ? 1 : -1;
    if (f * p.y < f * s.y) continue;  // the other half's
    const Frame fr{*this, Point{s.x, f * s.y}, false, none, none};
    const Ray r = p.y == s.y ? Ray{0, 0, 0, p.x > s.x ? 1 : -1} : Frame::lattice(p.x, f * p.y);
    for (const Piece& pc : d.half[h])
      if (fr.classify(r, pc.lo, pc.hi) >= 1) return true;
  }
  return false;
}

}  // namespace navbench
