#include "representations/visgraph/skip_graph.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <cmath>
#include <stdexcept>

#include "geometry/exact.hpp"

namespace navbench {

namespace {

constexpr std::uint32_t kNone = ~std::uint32_t(0);

// The arcs of u in the CSR graph: indices [first, second).
std::pair<std::uint32_t, std::uint32_t> arc_range(const CsrGraph& g, Vertex u) {
  const std::uint32_t b = (*out_edges(u, g).first).index;
  return {b, b + std::uint32_t(out_degree(u, g))};
}
Vertex head_of(const CsrGraph& g, std::uint32_t arc) { return target(CsrGraph::Edge{0, arc}, g); }

}  // namespace

// A path arriving at corner q in state v along direction d = (dx, dy) continues tautly to x iff it
// turns towards q's obstacle there, or goes straight on: cross(d, x - q) >= 0 for the obstacle on
// the left (even states), <= 0 on the right. That is taut_quadrant's test: the arrival comes from
// the closed quadrant opposite the departures (both lines tangent at q), so a turn towards the
// obstacle wraps its diagonal. Over directions x - q in one closed quadrant (90 degrees) the test
// holds on a closed half-plane of directions, so on a prefix or a suffix of the angular order:
// two end tests and a binary search find it. Exact: integral corners, half-integral d.
inline std::pair<std::uint32_t, std::uint32_t> TautSkipGraph::taut_range(Vertex v, double dx, double dy) const {
  auto [b, e] = arc_range(full_, v);
  if (b == e) return {b, b};
  const CornerQ& Q = cq_[v >> 1];
  const double s = (v & 1) ? -1.0 : 1.0;
  auto ok = [&](std::uint32_t i) {
    const CornerQ& X = cq_[head_of(full_, i) >> 1];
    return s * (dx * (X.y - Q.y) - dy * (X.x - Q.x)) >= 0;
  };
  const bool f = ok(b), l = ok(e - 1);
  if (f && l) return {b, e};
  if (!f && !l) return {b, b};
  std::uint32_t lo = b, hi = e - 1;  // ok(lo) == f, ok(hi) != f: the one change lies in (lo, hi]
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (ok(mid) == f) lo = mid;
    else hi = mid;
  }
  return f ? std::pair{b, hi} : std::pair{hi, e};
}

bool TautSkipGraph::taut(Point a, const ConvexCorner& q, Point b) {
  if (a == b) return false;  // straight back where it came from
  const int o = exact::orient2d(q.at, a, b);
  if (o == 0) return true;  // collinear (or an end at q itself): kept, conservatively
  // The obstacle wedge at q (between its two boundary neighbours, under 180 degrees) lies in the
  // cone from q->a to q->b: both neighbours lie in the closed cone. Both lines are tangent at q,
  // so the wedge is either wholly inside the cone or wholly outside it.
  for (const Point x : {q.before, q.after})
    if (exact::orient2d(q.at, a, x) * o < 0 || exact::orient2d(q.at, x, b) * o < 0) return false;
  return true;
}

// The arcs of the input graph as the constructor's steps read them: each arc's source and its
// reverse, and the taut continuations of an arc.
struct TautSkipGraph::Arcs {
  const TautSkipGraph& g;
  const CsrGraph& full;
  const std::vector<ConvexCorner>& c;
  std::size_t n, m;
  std::vector<Vertex> src;          // per arc: its source state
  std::vector<std::uint32_t> opp;   // per arc: its reverse
  // Grid maps: each vertex's arcs by angle (ang[b .. e) the arc indices of its row [b, e), the order
  // keep_full_graph keeps), so that the taut continuations of an arc are one range of it.
  std::vector<std::uint32_t> ang;

  Arcs(const TautSkipGraph& graph, const CsrGraph& full_graph, const std::vector<ConvexCorner>& corners)
      : g(graph), full(full_graph), c(corners), n(full.num_vertices()), m(full.num_edges()), src(m), opp(m) {
    for (Vertex u = 0; u < n; ++u) {
      auto [b, e] = arc_range(full, u);
      for (std::uint32_t i = b; i < e; ++i) src[i] = u;
    }
    // The reverse of arc state(i,a) -> state(j,b) is state(j,-b) -> state(i,-a): the other state is v ^ 1.
    for (std::uint32_t i = 0; i < m; ++i) {
      const Vertex from = head_of(full, i) ^ 1, to = src[i] ^ 1;
      auto [lo, hi] = arc_range(full, from);
      while (lo < hi) {  // arcs of a vertex are sorted by target
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (head_of(full, mid) < to) lo = mid + 1;
        else hi = mid;
      }
      if (lo == arc_range(full, from).second || head_of(full, lo) != to)
        throw std::logic_error("visgraph skip: an arc without its reverse");
      opp[i] = lo;
    }
    if (g.grid_) {
      ang.resize(m);
      for (Vertex u = 0; u < n; ++u) {
        auto [b, e] = arc_range(full, u);
        std::iota(ang.begin() + b, ang.begin() + e, b);
        // All arcs of one state leave into one closed quadrant beside the corner's blocked cell (the
        // lines are tangent there, and the state fixes the obstacle's side), so the cross product
        // orders them by angle, counter-clockwise; exact on integral corners.
        const CornerQ& Q = g.cq_[u >> 1];
        std::stable_sort(ang.begin() + b, ang.begin() + e, [&](std::uint32_t x, std::uint32_t y) {
          const CornerQ &X = g.cq_[head_of(full, x) >> 1], &Y = g.cq_[head_of(full, y) >> 1];
          return (X.x - Q.x) * (Y.y - Q.y) - (X.y - Q.y) * (Y.x - Q.x) > 0;
        });
      }
    }
  }
  // Grid maps: the taut continuations of arc e as a range [lo, hi) of its head's arcs by angle
  // (ang), as TautSkipGraph::taut_range finds them in the kept graph: a path arriving at corner q
  // along d continues tautly to x iff the turn goes towards q's obstacle or straight on, a closed
  // half-plane of directions, so a prefix or a suffix of the angular order (binary search). It
  // holds the arcs back to e's source corner too (straight back: collinear), which for_succ skips.
  std::pair<std::uint32_t, std::uint32_t> range(std::uint32_t e) const {
    const Vertex v = head_of(full, e);
    const CornerQ &Q = g.cq_[v >> 1], &S = g.cq_[src[e] >> 1];
    const double dx = Q.x - S.x, dy = Q.y - S.y, sg = (v & 1) ? -1.0 : 1.0;
    auto [b, en] = arc_range(full, v);
    if (b == en) return {b, b};
    auto ok = [&](std::uint32_t i) {
      const CornerQ& X = g.cq_[head_of(full, ang[i]) >> 1];
      return sg * (dx * (X.y - Q.y) - dy * (X.x - Q.x)) >= 0;
    };
    const bool f = ok(b), l = ok(en - 1);
    if (f && l) return {b, en};
    if (!f && !l) return {b, b};
    std::uint32_t lo = b, hi = en - 1;  // ok(lo) == f, ok(hi) != f: the one change lies in (lo, hi]
    while (hi - lo > 1) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      if (ok(mid) == f) lo = mid;
      else hi = mid;
    }
    return f ? std::pair{b, hi} : std::pair{hi, en};
  }
  // The number of taut continuations of e (for_succ's calls): the range less the arcs back to e's
  // source corner, which lie in it (straight back is collinear) and are found among the head's
  // arcs by target (at most one per state of that corner).
  std::uint32_t count_succ(std::uint32_t e) const {
    if (!g.grid_) {
      std::uint32_t k = 0;
      for_succ(e, [&](std::uint32_t) { ++k; });
      return k;
    }
    const auto [lo, hi] = range(e);
    std::uint32_t k = hi - lo;
    if (k == 0) return 0;
    const Vertex back = (src[e] >> 1) << 1;
    const auto [rb, re] = arc_range(full, head_of(full, e));
    std::uint32_t i = rb, j = re;
    while (i < j) {  // arcs of a vertex are sorted by target
      const std::uint32_t mid = i + (j - i) / 2;
      if (head_of(full, mid) < back) i = mid + 1;
      else j = mid;
    }
    for (; i < re && (head_of(full, i) >> 1) == (back >> 1); ++i) --k;
    return k;
  }
  // Taut continuations of arc e (never straight back to e's source corner): on grid maps the
  // range of its head's arcs by angle (output-sensitive), else every arc of its head tested.
  template <class F>
  void for_succ(std::uint32_t e, F&& f) const {
    const Vertex s = src[e];
    if (g.grid_) {
      const auto [lo, hi] = range(e);
      for (std::uint32_t i = lo; i < hi; ++i)
        if ((head_of(full, ang[i]) >> 1) != (s >> 1)) f(ang[i]);
      return;
    }
    for_succ_tested(e, std::forward<F>(f));
  }
  // The same by testing every arc of e's head (taut_corners), in the order of its row.
  template <class F>
  void for_succ_tested(std::uint32_t e, F&& f) const {
    const Vertex s = src[e], v = head_of(full, e);
    auto [b, en] = arc_range(full, v);
    for (std::uint32_t i = b; i < en; ++i) {
      const Vertex x = head_of(full, i);
      if ((x >> 1) != (s >> 1) && g.taut_corners(s >> 1, v >> 1, x >> 1, c)) f(i);
    }
  }
};

TautSkipGraph::TautSkipGraph(CsrGraph input, const std::vector<ConvexCorner>& c) {
  static std::atomic<std::uint64_t> builds{0};
  id_ = ++builds;
  const CsrGraph& full = input;
  // Grid corners: integral, the two boundary edges along the two axes (a grid map's, or a polygon
  // map's whose rings run along a lattice, as a grid's free space read as WKT or a mesh of its free
  // cells): the obstacle is then a quadrant at the corner, its diagonal the signs of the two edges.
  grid_ = true;
  auto sign = [](double v) { return double((v > 0) - (v < 0)); };
  for (const ConvexCorner& k : c) {
    const double bx = k.before.x - k.at.x, by = k.before.y - k.at.y, ax = k.after.x - k.at.x, ay = k.after.y - k.at.y;
    const bool integral = k.at.x == std::floor(k.at.x) && k.at.y == std::floor(k.at.y) && std::abs(k.at.x) < (1 << 20) &&
                          std::abs(k.at.y) < (1 << 20);
    const bool axes = (bx == 0) != (by == 0) && (ax == 0) != (ay == 0) && (bx == 0) != (ax == 0);
    if (!integral || !axes) grid_ = false;
    cq_.push_back({k.at.x, k.at.y, sign(bx) + sign(ax), sign(by) + sign(ay)});
  }
  if (!grid_) cq_.clear();
  const Arcs arcs(*this, full, c);
  peel_levels(arcs);
  mark_skip_vertices(arcs);
  make_skip_arcs(arcs);
  keep_full_graph(arcs);
  if (grid_) make_successors();
}

void TautSkipGraph::peel_levels(const Arcs& a) {
  const std::size_t m = a.m;
  const std::vector<std::uint32_t>& opp = a.opp;
  // Edge levels by peeling (ENLSVG docs/results.md): cnt[e] = continuations of e still at level W.
  std::vector<std::uint32_t> cnt(m, 0), cur, next;
  level_.assign(m, kTop);
  for (std::uint32_t e = 0; e < m; ++e) {
    cnt[e] = a.count_succ(e);
    if (cnt[e] == 0) cur.push_back(e);
  }
  std::uint32_t k = 0;
  while (!cur.empty()) {
    ++k;
    for (std::uint32_t e : cur) {
      if (level_[e] != kTop) continue;  // its reverse was peeled earlier in this round
      level_[e] = level_[opp[e]] = k;
      // The arcs continuing into e or into its reverse lose one continuation: those are the
      // reverses of the continuations of the other direction (the relation is symmetric).
      for (std::uint32_t side : {e, opp[e]})
        a.for_succ(side, [&](std::uint32_t g) {
          const std::uint32_t x = opp[g];
          if (level_[x] == kTop && --cnt[x] == 0) next.push_back(x);
        });
    }
    cur.swap(next);
    next.clear();
  }
  levels_ = k;
}

void TautSkipGraph::mark_skip_vertices(const Arcs& a) {
  const std::vector<ConvexCorner>& c = a.c;
  const std::size_t m = a.m;
  const std::vector<Vertex>& src = a.src;
  // Skip vertices: corners with three or more level-W edges (each edge counted from its arc leaving the corner).
  std::vector<std::uint32_t> deg(c.size(), 0);
  for (std::uint32_t e = 0; e < m; ++e)
    if (level_[e] == kTop) ++deg[src[e] >> 1];
  is_skip_.assign(c.size(), 0);
  for (std::size_t i = 0; i < c.size(); ++i) {
    is_skip_[i] = deg[i] >= 3;
    skip_corners_ += is_skip_[i];
  }
}

void TautSkipGraph::make_skip_arcs(const Arcs& a) {
  const CsrGraph& full = a.full;
  const std::size_t n = a.n, m = a.m;
  const std::vector<Vertex>& src = a.src;
  // Skip arcs: from each skip vertex's level-W arcs, along the only level-W continuation at each
  // non-skip corner, to the next skip vertex.
  struct SkipArc {
    Vertex u, v;
    double w;
    std::uint32_t cb, ce;  // chain in `chains`
  };
  std::vector<SkipArc> arcs;
  std::vector<Vertex> chains;
  for (std::uint32_t e = 0; e < m; ++e) {
    if (level_[e] != kTop || !is_skip_[src[e] >> 1]) continue;
    double w = full.weight(e);
    std::uint32_t at = e;
    const std::uint32_t cb = std::uint32_t(chains.size());
    for (std::size_t steps = 0; !is_skip_[head_of(full, at) >> 1]; ++steps) {
      chains.push_back(head_of(full, at));
      std::uint32_t nx = kNone;
      a.for_succ_tested(at, [&](std::uint32_t g) {
        if (nx == kNone && level_[g] == kTop) nx = g;
      });
      // A level-W arc always has a level-W continuation (else it would have been peeled).
      if (nx == kNone || steps > m) throw std::logic_error("visgraph skip: a level-W chain ends at a non-skip corner");
      at = nx;
      w += full.weight(at);
    }
    const Vertex v = head_of(full, at);
    if (v == src[e]) {  // a loop back to its own state never lies on a shortest path
      chains.resize(cb);
      continue;
    }
    arcs.push_back({src[e], v, w, cb, std::uint32_t(chains.size())});
  }
  // One arc per (u, v), the shortest chain (the A* needs only the cheapest).
  std::sort(arcs.begin(), arcs.end(), [](const SkipArc& a, const SkipArc& b) {
    return a.u != b.u ? a.u < b.u : a.v != b.v ? a.v < b.v : a.w < b.w;
  });
  std::vector<std::uint32_t> begin(n + 1, 0);
  std::vector<Vertex> targets;
  std::vector<double> weights;
  chain_begin_.assign(1, 0);
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    if (i > 0 && arcs[i].u == arcs[i - 1].u && arcs[i].v == arcs[i - 1].v) continue;
    ++begin[arcs[i].u + 1];
    targets.push_back(arcs[i].v);
    weights.push_back(arcs[i].w);
    chain_.insert(chain_.end(), chains.begin() + arcs[i].cb, chains.begin() + arcs[i].ce);
    chain_begin_.push_back(std::uint32_t(chain_.size()));
  }
  for (std::size_t u = 0; u < n; ++u) begin[u + 1] += begin[u];
  skip_graph_ = CsrGraph(std::move(begin), std::move(targets), std::move(weights));
  chain_.shrink_to_fit();
}

void TautSkipGraph::keep_full_graph(const Arcs& a) {
  const CsrGraph& full = a.full;
  const std::size_t n = full.num_vertices(), m = full.num_edges();
  // The kept full graph. Grid maps: each vertex's arcs by angle (see taut_range: the taut
  // continuations of any arriving direction are then one contiguous range, found by binary search,
  // the "angular range" of a corner's taut edges; Oh & Leong 2017 docs/results.md#query-status mark taut edges one by one).
  // Other maps: by level, highest (W) first, so the marking reads a vertex's arcs only while their
  // level is high enough to continue.
  std::vector<std::uint32_t> fb(n + 1, 0), order(m);
  std::vector<Vertex> ft(m);
  std::vector<double> fw(m);
  std::vector<std::uint32_t> fl(m);
  for (Vertex u = 0; u < n; ++u) {
    auto [b, e] = arc_range(full, u);
    fb[u + 1] = e;
    if (grid_) {
      std::copy(a.ang.begin() + b, a.ang.begin() + e, order.begin() + b);  // by angle (Arcs)
    } else {
      std::iota(order.begin() + b, order.begin() + e, b);
      std::stable_sort(order.begin() + b, order.begin() + e, [&](std::uint32_t x, std::uint32_t y) { return level_[x] > level_[y]; });
    }
    for (std::uint32_t i = b; i < e; ++i) {
      ft[i] = head_of(full, order[i]);
      fw[i] = full.weight(order[i]);
      fl[i] = level_[order[i]];
    }
  }
  full_ = CsrGraph(std::move(fb), std::move(ft), std::move(fw));
  level_ = std::move(fl);
}

void TautSkipGraph::make_successors() {
  const std::size_t n = full_.num_vertices(), m = full_.num_edges();
  // Per arc e = s -> v, the arcs the marking continues with (run()): v's taut range for e's
  // direction, filtered by level (higher than e's, or level W through a non-skip corner). Fixed
  // per arc, so stored once (CSR) instead of filtered at every query.
  succ_begin_.assign(m + 1, 0);
  for (Vertex u = 0; u < n; ++u) {
    auto [b, e] = arc_range(full_, u);
    for (std::uint32_t i = b; i < e; ++i) {
      const Vertex v = head_of(full_, i);
      const auto [lo, hi] = taut_range(v, cq_[v >> 1].x - cq_[u >> 1].x, cq_[v >> 1].y - cq_[u >> 1].y);
      const bool through = !is_skip_[v >> 1];
      for (std::uint32_t j = lo; j < hi; ++j)
        if ((level_[j] > level_[i] || (level_[j] == kTop && through)) && (head_of(full_, j) >> 1) != (u >> 1))
          succ_.push_back(j);
      succ_begin_[i + 1] = std::uint32_t(succ_.size());
    }
  }
  succ_.shrink_to_fit();
}

// Per-thread memory of local(): stamps reset in O(1) by a generation counter.
struct TautSkipGraph::Scratch {
  std::vector<std::uint32_t> arc_stamp, arc_next, arc_src;        // per arc of the full graph
  std::vector<std::uint32_t> v_stamp, settled, head;              // per state (settled: reached)
  std::vector<std::uint32_t> seed_stamp;                          // per state: its corner is a seed's
  std::vector<Vertex> pred;                                       // per state: kNone for a seed
  std::vector<double> dist;                                       // per state
  std::vector<std::uint32_t> queue;                               // marked arcs, in order
  std::vector<Vertex> reached;                                    // settled states, in order
  std::vector<Vertex> fifo;                                       // label-correcting queue
  std::vector<std::uint8_t> in_fifo;                              // per state: in fifo now
  void queued_push(Vertex v) {
    in_fifo[v] = 1;
    fifo.push_back(v);
  }
  // State v's first visit in generation gen: no arcs, no predecessor, no distance yet.
  void touch(Vertex v, std::uint32_t gen) {
    if (v_stamp[v] != gen) {
      v_stamp[v] = gen;
      head[v] = kNone;
      pred[v] = kNone;
      dist[v] = std::numeric_limits<double>::infinity();
    }
  }
  // Sized for n states and m arcs, the next generation (the stamps reset when it wraps), queues empty.
  void prepare(std::size_t n, std::size_t m) {
    if (arc_stamp.size() < m) {
      arc_stamp.resize(m, 0);
      arc_next.resize(m);
      arc_src.resize(m);
    }
    if (v_stamp.size() < n) {
      v_stamp.resize(n, 0);
      settled.resize(n, 0);
      head.resize(n);
      pred.resize(n);
      dist.resize(n);
      in_fifo.resize(n, 0);
      seed_stamp.resize(n, 0);
    }
    if (++gen == 0) {
      std::fill(arc_stamp.begin(), arc_stamp.end(), 0);
      std::fill(v_stamp.begin(), v_stamp.end(), 0);
      std::fill(seed_stamp.begin(), seed_stamp.end(), 0);
      std::fill(settled.begin(), settled.end(), 0);
      gen = 1;
    }
    queue.clear();
    reached.clear();
    fifo.clear();
  }
  void distances(const CsrGraph& full, const std::vector<Link>& seeds, std::uint32_t gen);
  std::uint32_t gen = 0;
  std::uint64_t owner = 0, used = 0;  // the build (id_) and point whose search this holds; last use
  Point p;
};

// Shortest distances over the marked arcs from the seeds. A seed's distance is the straight
// segment from p, already the shortest possible (triangle inequality), so seeds are final at
// once; the rest by label correcting in FIFO order (Bellman-Ford with a queue): on these small
// graphs, nearly acyclic (levels rise strictly along marked arcs), it relaxes each arc about once
// and costs far less than a binary heap's unpredictable branches. Exact with non-negative
// weights: it ends with every distance shortest and pred a shortest-path tree.
void TautSkipGraph::Scratch::distances(const CsrGraph& full, const std::vector<Link>& seeds, std::uint32_t gen) {
  for (const Link& l : seeds)
    if (settled[l.vertex] != gen) {
      settled[l.vertex] = gen;  // settled: reached (its distance may still fall until the FIFO ends)
      reached.push_back(l.vertex);
      queued_push(l.vertex);
    }
  for (std::size_t h = 0; h < fifo.size(); ++h) {
    const Vertex v = fifo[h];
    in_fifo[v] = 0;
    const double d = dist[v];
    for (std::uint32_t e = head[v]; e != kNone; e = arc_next[e]) {
      const Vertex x = head_of(full, e);
      touch(x, gen);
      const double nd = d + full.weight(e);
      if (nd < dist[x]) {
        dist[x] = nd;
        pred[x] = v;
        if (settled[x] != gen) {
          settled[x] = gen;
          reached.push_back(x);
        }
        if (!in_fifo[x]) queued_push(x);
      }
    }
  }
}

// Two kept searches per thread (a query's start and goal), the least recently used replaced.
TautSkipGraph::Scratch* TautSkipGraph::kept_slots() {
  thread_local Scratch slots[2];
  return slots;
}
std::uint64_t& TautSkipGraph::kept_clock() {
  thread_local std::uint64_t clock = 0;
  return clock;
}
const TautSkipGraph::Scratch* TautSkipGraph::kept_search(Point p) const {
  Scratch* slots = kept_slots();
  for (int i = 0; i < 2; ++i)
    if (slots[i].owner == id_ && slots[i].p == p) {
      slots[i].used = ++kept_clock();
      return &slots[i];
    }
  return nullptr;
}

const TautSkipGraph::Scratch& TautSkipGraph::run(const std::vector<ConvexCorner>& c, Point p,
                                                 const std::vector<Link>& seeds, bool reference) const {
  if (!reference)
    if (const Scratch* k = kept_search(p)) return *k;
  Scratch* slots = kept_slots();
  Scratch& t = slots[0].used <= slots[1].used ? slots[0] : slots[1];
  t.owner = reference ? 0 : id_;  // a reference search is never kept
  t.p = p;
  t.used = ++kept_clock();
  const CsrGraph& full = full_;
  const std::size_t n = full.num_vertices(), m = full.num_edges();
  t.prepare(n, m);
  const std::uint32_t gen = t.gen;
  auto touch = [&](Vertex v) { t.touch(v, gen); };
  auto mark = [&](std::uint32_t e, Vertex s) {
    t.arc_stamp[e] = gen;
    t.arc_src[e] = s;
    t.arc_next[e] = t.head[s];  // s is touched
    t.head[s] = e;
    t.queue.push_back(e);
  };
  // The arcs leaving p's visible corners tautly (any level). Grid maps and a half-integral p (exact
  // cross products): the angular range of each seed state; otherwise every arc tested.
  const bool ranges = grid_ && !reference && p.x * 2 == std::floor(p.x * 2) && p.y * 2 == std::floor(p.y * 2) &&
                      std::abs(p.x) <= (1 << 20) && std::abs(p.y) <= (1 << 20);
  // No arc into a seed's corner is marked: p sees that corner, so the straight segment is the only
  // shortest path from p to it (arriving in the seed's state), and a shortest path from p never
  // reaches it any other way; whatever continues from there is marked from the seed itself (its
  // taut range at every level holds the continuations of any arc arriving along the same line).
  for (const Link& l : seeds) t.seed_stamp[l.vertex] = t.seed_stamp[l.vertex ^ 1] = gen;
  for (const Link& l : seeds) {
    const Vertex u = l.vertex;
    touch(u);
    t.dist[u] = std::min(t.dist[u], l.cost);
    if (ranges) {
      const auto [b, e] = taut_range(u, cq_[u >> 1].x - p.x, cq_[u >> 1].y - p.y);
      for (std::uint32_t i = b; i < e; ++i)
        if (t.arc_stamp[i] != gen && t.seed_stamp[head_of(full, i)] != gen) mark(i, u);
      continue;
    }
    auto [b, e] = arc_range(full, u);
    for (std::uint32_t i = b; i < e; ++i) {
      if (t.arc_stamp[i] == gen || t.seed_stamp[head_of(full, i)] == gen) continue;
      const std::uint32_t x = head_of(full, i) >> 1;
      if (reference ? taut(p, c[u >> 1], c[x].at) : taut_point(p, u >> 1, x, c)) mark(i, u);
    }
  }
  // Their continuations: strictly higher level, or level W through a non-skip corner (ENLSVG's marking).
  for (std::size_t h = 0; h < t.queue.size(); ++h) {
    const std::uint32_t e = t.queue[h];
    const Vertex v = head_of(full, e);
    touch(v);
    const Vertex s = t.arc_src[e];
    const std::uint32_t le = level_[e];
    const bool through = !is_skip_[v >> 1];
    if (grid_ && !reference) {  // the precomputed continuations of e
      for (std::uint32_t k = succ_begin_[e], en = succ_begin_[e + 1]; k < en; ++k) {
        const std::uint32_t i = succ_[k];
        if (t.arc_stamp[i] != gen && t.seed_stamp[head_of(full, i)] != gen) mark(i, v);
      }
      continue;
    }
    auto [b, en] = arc_range(full, v);
    for (std::uint32_t i = b; i < en; ++i) {
      const std::uint32_t li = level_[i];
      if (!(li > le || (li == kTop && through))) {
        if (grid_) continue;  // grid maps: arcs by angle
        break;                // arcs by level, highest first: none further
      }
      if (t.arc_stamp[i] == gen) continue;
      const Vertex x = head_of(full, i);
      if (t.seed_stamp[x] == gen) continue;
      if ((x >> 1) == (s >> 1)) continue;
      if (reference ? !taut(c[s >> 1].at, c[v >> 1], c[x >> 1].at) : !taut_corners(s >> 1, v >> 1, x >> 1, c)) continue;
      mark(i, v);
    }
  }
  t.distances(full, seeds, gen);
  return t;
}

void TautSkipGraph::local(const std::vector<ConvexCorner>& c, Point p, const std::vector<Link>& seeds,
                          std::vector<Link>& out) const {
  const Scratch& t = run(c, p, seeds);
  out.clear();
  out.reserve(t.reached.size());
  for (Vertex v : t.reached) out.push_back({v, t.dist[v]});
}

std::pair<double, Vertex> TautSkipGraph::meet(const std::vector<ConvexCorner>& c, Point s,
                                              const std::vector<Link>& seeds_s, Point g,
                                              const std::vector<Link>& seeds_g) const {
  // Two kept slots: running g's search never replaces s's, just used (the least recent goes).
  const Scratch& a = run(c, s, seeds_s);
  const Scratch& b = run(c, g, seeds_g);
  std::pair<double, Vertex> best{std::numeric_limits<double>::infinity(), kNone};
  for (const Vertex v : a.reached) {
    const Vertex w = v ^ 1;
    if (b.v_stamp[w] != b.gen || b.settled[w] != b.gen) continue;
    const double d = a.dist[v] + b.dist[w];
    if (d < best.first) best = {d, v};
  }
  return best;
}

void TautSkipGraph::local_reference(const std::vector<ConvexCorner>& c, Point p, const std::vector<Link>& seeds,
                                    std::vector<Link>& out) const {
  const Scratch& t = run(c, p, seeds, true);
  out.clear();
  for (Vertex v : t.reached) out.push_back({v, t.dist[v]});
}

std::vector<Vertex> TautSkipGraph::local_path(const std::vector<ConvexCorner>& c, Point p,
                                              const std::vector<Link>& seeds, Vertex target, double& d) const {
  const Scratch& t = run(c, p, seeds);
  std::vector<Vertex> path;
  if (target >= t.settled.size() || t.settled[target] != t.gen) return path;
  d = t.dist[target];
  for (Vertex v = target; v != kNone; v = t.pred[v]) path.push_back(v);
  std::reverse(path.begin(), path.end());
  return path;
}

bool TautSkipGraph::chain(Vertex u, Vertex v, std::vector<Vertex>& out) const {
  auto [b, e] = arc_range(skip_graph_, u);
  for (std::uint32_t i = b; i < e; ++i)
    if (head_of(skip_graph_, i) == v) {
      out.insert(out.end(), chain_.begin() + chain_begin_[i], chain_.begin() + chain_begin_[i + 1]);
      return true;
    }
  return false;
}

std::size_t TautSkipGraph::memory_bytes() const {
  return full_.memory_bytes() + (succ_begin_.capacity() + succ_.capacity()) * 4 + cq_.capacity() * sizeof(CornerQ) + level_.capacity() * 4 + is_skip_.capacity() + skip_graph_.memory_bytes() + chain_begin_.capacity() * 4 +
         chain_.capacity() * sizeof(Vertex);
}

}  // namespace navbench
