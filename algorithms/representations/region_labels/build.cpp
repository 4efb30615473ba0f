// region-labels' build (region_labels.hpp): the corners' tangent graph and its hub labels, the
// per-block candidate lists, and per block the pruned labels of its query points.
#include "representations/region_labels/region_labels.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

#include "geometry/exact.hpp"
#include "representations/visgraph/block_candidates.hpp"

namespace navbench {

static_assert(Representation<RegionLabels>);

namespace {

constexpr double kInfD = std::numeric_limits<double>::infinity();
// Values that agree to this (relative) are taken as equal: sums of the same lengths in another
// order differ by a few units in the last place, and a tie must keep both sides.
constexpr double kTie = 1e-12;

// The line through corner c and `other` is tangent at c (visgraph_detail::tangent_at).
bool tangent_at(const ConvexCorner& c, Point other) {
  if (other == c.at) return true;
  return exact::orient2d(other, c.at, c.before) * exact::orient2d(other, c.at, c.after) >= 0;
}

// Side of corner c's obstacle relative to the directed line a->b: +1 left, -1 right (VisGraph::side).
int side(const ConvexCorner& c, Point a, Point b) {
  int o = exact::orient2d(a, b, c.before);
  if (o == 0) o = exact::orient2d(a, b, c.after);
  return o >= 0 ? 1 : -1;
}

// Calls f(i) for i in [0, n) on `threads` threads, indices handed out one at a time; the first
// exception stops the hand-out and is rethrown after all have joined.
template <class F>
void for_each_index(std::size_t n, int threads, F&& f) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex m;
  auto work = [&] {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < n;) f(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m);
      if (!failure) failure = std::current_exception();
      next = n;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

RegionLabels::RegionLabels(const Map& map, Params& params) : map_(&map), fs_(map) {
  if (map.weighted()) throw UnsupportedMap("region-labels: unweighted maps only (no terrain)");
  // The lattice: unit cells from the box's low corner (a grid's own cells).
  ox_ = std::floor(map.min.x), oy_ = std::floor(map.min.y);
  W_ = std::max(1, int(std::min(std::ceil(map.max.x) - ox_, 1e9))), H_ = std::max(1, int(std::min(std::ceil(map.max.y) - oy_, 1e9)));
  const std::int64_t cells = std::int64_t(W_) * H_;
  const bool small = cells <= (1 << 18);
  const std::size_t ncorners = fs_.convex_corners().size();
  const ParamDecl &dp = param(kParams, "points"), &dr = param(kParams, "region"), &db = param(kParams, "budget_mb");
  const bool budget_given = params.given(db), points_given = params.given(dp), region_given = params.given(dr);
  // With a budget, a setting not given is read once chosen (below), so that the build's record
  // names the setting built.
  const bool points = budget_given && !points_given ? true : params.flag(dp, small && ncorners <= 65536);
  const int region = budget_given && !region_given ? 2 : params.integer(dr, small ? 2 : 4);
  const int threads = params.integer(param(kParams, "threads"));
  const std::size_t budget = std::size_t(params.integer(db)) << 20;
  params.finish("region-labels");
  if (points && points_given && ncorners > 65536)
    throw UnsupportedMap("region-labels: points=1 takes up to 65,536 corners (this map has " + std::to_string(ncorners) + "; take points=0)");
  // The settings to try, fastest first: without a budget the defaults (or those given); with one,
  // each setting not given from the finest to the coarsest (region_labels.hpp).
  std::vector<std::pair<bool, int>> ladder;
  if (!budget_given) {
    ladder.push_back({points, region});
  } else {
    if ((!points_given || points) && ncorners <= 65536) ladder.push_back({true, region});
    if (!points_given || !points) {
      if (region_given) ladder.push_back({false, region});
      else  // region=1 only without points=1: it keeps more than points=1 does (one list per cell and its corners)
        for (int b = ladder.empty() ? 1 : 2; b <= 4; ++b) ladder.push_back({false, b});
    }
  }
  prepare(map, budget);
  const std::size_t fixed = fixed_bytes();
  auto mib = [](std::size_t b) { return std::to_string((b + (1 << 20) - 1) >> 20); };
  if (fixed > budget)
    throw UnsupportedMap("region-labels: the corners' tangent graph and hub labels take " + mib(fixed) + " MiB, above budget_mb=" +
                         mib(budget) + " (raise budget_mb)");
  for (std::size_t k = 0; k < ladder.size(); ++k) {
    const auto [pts, b] = ladder[k];
    const bool last = k + 1 == ladder.size();
    const std::size_t over = lists(map, pts, b, budget - fixed, !last, threads);
    if (!over) {
      if (budget_given && !points_given) params.flag(dp, pts);
      if (budget_given && !region_given) params.integer(dr, b);
      break;
    }
    if (last)
      throw UnsupportedMap("region-labels: the lists at points=" + std::to_string(int(pts)) + (pts ? "" : ",region=" + std::to_string(b)) +
                           " take about " + mib(over) +
                           " MiB, above what budget_mb=" + mib(budget) + " leaves after the labels' " + mib(fixed) +
                           " MiB (raise budget_mb" + (budget_given ? std::string(")") : ", or give budget_mb to choose points and region)"));
  }
  std::vector<std::vector<GridFov::Span>>().swap(spans_);
}

std::int64_t RegionLabels::cell_of(Point p) const {  // grid maps
  const int fx = int(std::floor(p.x)), fy = int(std::floor(p.y));
  const int cx = std::clamp(fx, 0, W_ - 1), cy = std::clamp(fy, 0, H_ - 1);
  const bool ix = p.x == std::floor(p.x) && fx == cx, iy = p.y == std::floor(p.y) && fy == cy;  // on the cell's low side
  for (int k = 0; k < 4; ++k) {
    if (((k & 1) && !iy) || ((k & 2) && !ix)) continue;
    const int x = cx - (k >> 1), y = cy - (k & 1);
    if (x >= 0 && y >= 0 && map_->grid.passable(x, y)) return std::int64_t(y) * W_ + x;
  }
  return -1;
}

void RegionLabels::prepare(const Map& map, std::size_t max_bytes) {
  const bool grid = map.kind == MapKind::grid;
  const auto& c = corners();
  const std::uint32_t n = std::uint32_t(c.size());
  if (grid) {
    los_ = GridLos(map.grid, true), fov_ = GridFov(map.grid, c);
    cell_walk_ = true;
  } else if (std::size_t(W_) * std::size_t(H_) <= kMaxLattice) {
    // A polygon map whose obstacle rings run on grid lines only is the union of the lattice's
    // free unit squares: the segment test between lattice points is then its grid's cell walk
    // (the same rules: a segment along a grid line needs a free side, none passes a point where
    // two blocked squares meet diagonally; tests/test_region_labels.cpp compares the answers).
    bool on_lines = true;
    for (const auto& ring : fs_.obstacle_rings())
      for (std::size_t k = 0; k < ring.size() && on_lines; ++k) {
        const Point a = ring[k], b = ring[(k + 1) % ring.size()];
        on_lines = a.x == std::floor(a.x) && a.y == std::floor(a.y) && (a.x == b.x || a.y == b.y);
      }
    if (on_lines) {
      GridMap g;
      g.width = W_, g.height = H_;
      g.cells.assign(std::size_t(W_) * std::size_t(H_), 0);
      for (int y = 0; y < H_; ++y)
        for (int x = 0; x < W_; ++x) g.cells[std::size_t(y) * W_ + x] = fs_.point_free({ox_ + x + 0.5, oy_ + y + 0.5}) ? 1 : 0;
      los_ = GridLos(g, true);
      cell_walk_ = true;
    }
  }
  pos_.resize(n);
  fpos_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) pos_[i] = c[i].at, fpos_[i] = {float(c[i].at.x), float(c[i].at.y)};
  // The tangent graph. Grid maps: from each corner the sweep of the directions tangent there
  // (visgraph's scan_node), whose regions also make the per-block candidate lists; polygon maps:
  // the corners each corner sees (triangular expansion, visgraph's polygon build). Pairs kept where
  // the line is tangent at both ends.
  std::vector<CsrGraph::WeightedEdge> edges;
  std::vector<std::vector<GridFov::Span>>& spans = spans_;
  spans.assign(grid ? n : 0, {});
  if (!grid) {
    std::vector<std::uint32_t> seen;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!fs_.visible_from_corner(i, seen, true)) {
        seen.clear();
        for (std::uint32_t j = i + 1; j < n; ++j)
          if (c[i].component == c[j].component && fs_.segment_valid(c[i].at, c[j].at)) seen.push_back(j);
      }
      for (std::uint32_t j : seen)
        if (j > i && tangent_at(c[i], c[j].at) && tangent_at(c[j], c[i].at)) edges.push_back({i, j, distance(c[i].at, c[j].at)});
    }
  } else {
    std::vector<std::uint32_t> sure, maybe;
    for (std::uint32_t i = 0; i < n; ++i) {
      sure.clear();
      maybe.clear();
      const int qx = c[i].before.x + c[i].after.x > 2 * c[i].at.x ? 1 : -1;
      const int qy = c[i].before.y + c[i].after.y > 2 * c[i].at.y ? 1 : -1;
      fov_.scan_tangent(c[i].at, qx, qy, sure, maybe, &spans[i], true);
      std::sort(sure.begin(), sure.end());
      sure.erase(std::unique(sure.begin(), sure.end()), sure.end());
      std::sort(maybe.begin(), maybe.end());
      maybe.erase(std::unique(maybe.begin(), maybe.end()), maybe.end());
      auto take = [&](std::uint32_t j, bool proven) {
        if (j > i && tangent_at(c[i], c[j].at) && tangent_at(c[j], c[i].at) && (proven || fs_.segment_valid(c[i].at, c[j].at)))
          edges.push_back({i, j, distance(c[i].at, c[j].at)});
      };
      for (std::uint32_t j : sure) take(j, true);
      for (std::uint32_t j : maybe)
        if (!std::binary_search(sure.begin(), sure.end(), j)) take(j, false);
    }
  }
  graph_ = CsrGraph(n, std::move(edges));
  labels_ = HubLabels(graph_, HubLabels::kSamples, max_bytes);
}

std::size_t RegionLabels::fixed_bytes() const {
  return graph_.memory_bytes() + labels_.memory_bytes() + los_.memory_bytes() + fov_.memory_bytes() + pos_.capacity() * sizeof(Point) + fpos_.capacity() * sizeof(fpos_[0]) +
         corners().size() * sizeof(ConvexCorner);
}

// One block's lists at a time (region_labels.hpp), with a thread's scratch: the block's query
// points, the corners they see (the vias), the label entries left after (1) tautness and (2) the
// corners further along, then (3) the values, written as each point's list (points=1) or as the
// region's vias and entries (points=0). One per thread; the blocks of a run in order, so the lists
// do not depend on the threads.
struct RegionLabels::BlockLists {
  BlockLists(const RegionLabels& rl, const BlockCandidates& blocks, const std::vector<std::int8_t>& departs, bool grid)
      : rl_(&rl), blocks_(&blocks), departs_(&departs), grid_(grid), B(rl.B_), BB(B * B), L1(B + 1), NP(L1 * L1 + BB),
        all_cells((1ull << BB) - 1) {
    const std::size_t n = rl.corners().size();
    stamp.assign(n, 0), hub_slot.assign(n, 0), pt.resize(std::size_t(NP));
  }
  // Block r's lists, appended to its run's.
  void make(std::size_t r, Block& out) {
    const int bx = int(r % std::size_t(rl_->nbx_)), by = int(r / std::size_t(rl_->nbx_));
    find_points(bx, by, out);
    find_vias(bx * B, by * B);
    measure_vias();
    prune_along(out);
    prune_values(out);
    if (rl_->points_) write_points(r, out);
    else write_region(r, out);
  }

 private:
  struct Raw {
    std::uint32_t hub, via, entry;
    double d;
    std::uint64_t pts;  // the block's points the entry may serve, then those it does
  };
  void find_points(int bx, int by, Block& out);
  void find_vias(int x0, int y0);
  void measure_vias();
  void prune_along(Block& out);
  void prune_values(Block& out);
  void write_points(std::size_t r, Block& out);
  void write_region(std::size_t r, Block& out);
  // The index of corner a among the block's vias (added, seen by no point yet, if new).
  std::size_t via_index(std::uint32_t a) {
    if (!stamp[a]) ids.push_back(a), vis.push_back(0), stamp[a] = std::uint32_t(ids.size());
    return std::size_t(stamp[a] - 1);
  }

  const RegionLabels* rl_;
  const BlockCandidates* blocks_;
  const std::vector<std::int8_t>* departs_;
  bool grid_;
  int B, BB, L1, NP;  // NP <= 41: a point set is one 64-bit mask
  std::uint64_t all_cells;
  // The block's points: the set, and per point k its record id, its cell in the block, where it is.
  std::uint64_t have = 0;
  std::int64_t pid[64];
  int pcell[64];
  std::vector<Point> pt;
  std::vector<Raw> raw;
  std::vector<std::uint32_t> stamp, hub_slot, slots, ids;  // ids: the vias (corner ids); stamp[a]: a's index + 1
  std::vector<std::uint64_t> vis, left;  // per via: the points that see it, those arriving with the obstacle on the left
  std::vector<double> dist, F, ub;       // dist[k * NP + i]; F and ub[s * NP + i] per hub slot s and point i
  std::vector<std::uint8_t> used;
  std::vector<Link> seen;
};

// The block's query points: its lattice points and its cells' centres that are free and lie in
// one of its cells (the cell below and left of a lattice point, the last row and column also
// holding the box's far sides).
void RegionLabels::BlockLists::find_points(int bx, int by, Block& out) {
  const RegionLabels& rl = *rl_;
  const int x0 = bx * B, y0 = by * B;
  have = 0;
  for (int k = 0; k < NP; ++k) {
    const int lx = k < L1 * L1 ? k % L1 : (k - L1 * L1) % B, ly = k < L1 * L1 ? k / L1 : (k - L1 * L1) / B;
    const int cx = std::min(x0 + lx, rl.W_ - 1), cy = std::min(y0 + ly, rl.H_ - 1);
    if (cx / B != bx || cy / B != by) continue;  // a lattice point of the next block
    const Point q = k < L1 * L1 ? Point{rl.ox_ + x0 + lx, rl.oy_ + y0 + ly} : Point{rl.ox_ + x0 + lx + 0.5, rl.oy_ + y0 + ly + 0.5};
    if (x0 + lx > rl.W_ || y0 + ly > rl.H_ || !rl.fs_.point_free(q)) continue;
    pt[k] = q;
    pid[k] = rl.point_id(q);
    pcell[k] = (cx - x0) + (cy - y0) * B;
    have |= 1ull << k;
  }
  out.points += std::size_t(std::popcount(have));
}

// The corners the points see (tangent there): the vias. Grid maps: the block's candidates, each
// proven by the cell masks or by the exact segment test; polygon maps: each point's own expansion
// (visible_corners), their union.
void RegionLabels::BlockLists::find_vias(int x0, int y0) {
  ids.clear();
  vis.clear();
  if (grid_ && have) {
    const auto [first, last] = blocks_->candidates({double(x0), double(y0)});
    const std::uint16_t* sure_m = blocks_->masks({double(x0), double(y0)});
    for (std::size_t k = 0; k < std::size_t(last - first); ++k) {
      const std::uint32_t a = first[k] & ~BlockCandidates::kSure;
      const std::size_t v = via_index(a);
      const std::uint64_t sure = (first[k] & BlockCandidates::kSure) ? all_cells : sure_m ? sure_m[k] : 0;
      for (std::uint64_t m = have; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        if (((sure >> pcell[i]) & 1) || rl_->sees(pt[i], a)) vis[v] |= 1ull << i;
      }
    }
  } else {
    for (std::uint64_t m = have; m; m &= m - 1) {
      const int i = std::countr_zero(m);
      rl_->visible_corners(pt[i], seen);
      for (const Link& l : seen) vis[via_index(l.vertex)] |= 1ull << i;
    }
  }
}

// Each point's distance to each via it sees, and the side it arrives at the via with (at the via
// itself a path may leave on either side).
void RegionLabels::BlockLists::measure_vias() {
  const auto& c = rl_->corners();
  const std::size_t nv = ids.size();
  left.assign(nv, 0);
  dist.assign(nv * NP, kInfD);
  for (std::size_t k = 0; k < nv; ++k) {
    const std::uint32_t a = ids[k];
    for (std::uint64_t m = vis[k]; m; m &= m - 1) {
      const int i = std::countr_zero(m);
      dist[k * NP + i] = distance(pt[i], c[a].at);
      if (pt[i] == c[a].at || side(c[a], pt[i], c[a].at) > 0) left[k] |= 1ull << i;
    }
  }
}

// (1) tautness and (2) the corners further along, per point (region_labels.hpp): each via's label
// entries with the points they may serve, into raw.
void RegionLabels::BlockLists::prune_along(Block& out) {
  const HubLabels& labels = rl_->labels_;
  const auto& c = rl_->corners();
  const std::vector<std::int8_t>& departs = *departs_;
  const std::size_t nv = ids.size();
  raw.clear();
  for (std::size_t k = 0; k < nv; ++k) {
    if (!vis[k]) continue;
    const std::uint32_t a = ids[k];
    std::uint64_t at_a = 0;
    for (std::uint64_t m = vis[k]; m; m &= m - 1)
      if (pt[std::countr_zero(m)] == c[a].at) at_a |= 1ull << std::countr_zero(m);
    for (std::uint32_t e = labels.label_begin(a); e < labels.label_end(a); ++e) {
      ++out.raw;
      std::uint64_t m = vis[k];
      if (departs[e]) {
        m &= (departs[e] > 0 ? left[k] : ~left[k]) | at_a;
        if (!m) {
          ++out.cut_taut;
          continue;
        }
        for (std::uint32_t y = labels.entry_next(e), f = labels.entry_next_entry(e);;) {
          if (const std::uint32_t j = stamp[y]) m &= ~vis[j - 1];
          const std::uint32_t g = labels.entry_next_entry(f);
          if (!m || g == f) break;  // none left, or y is the hub
          y = labels.entry_next(f);
          f = g;
        }
        if (!m) {
          ++out.cut_dom;
          continue;
        }
      }
      raw.push_back({labels.entry_hub(e), std::uint32_t(k), e, labels.entry_distance(e), m});
    }
  }
  for (std::size_t k = 0; k < nv; ++k) stamp[ids[k]] = 0;
}

// (3) values, per point: F_p(h), the least over the entries left; an entry serves p where it gives
// F_p(h), and hub h only where no hub h' of h's label gives less, F_p(h') + d(h', h). What is left
// in raw, by hub rank then via; used: the vias that serve.
void RegionLabels::BlockLists::prune_values(Block& out) {
  const HubLabels& labels = rl_->labels_;
  slots.clear();
  for (const auto& e : raw)
    if (!hub_slot[e.hub]) slots.push_back(e.hub), hub_slot[e.hub] = std::uint32_t(slots.size());
  F.assign(slots.size() * NP, kInfD);
  for (const auto& e : raw) {
    double* f = F.data() + std::size_t(hub_slot[e.hub] - 1) * NP;
    for (std::uint64_t m = e.pts; m; m &= m - 1) {
      const int i = std::countr_zero(m);
      f[i] = std::min(f[i], dist[e.via * NP + i] + e.d);
    }
  }
  ub.assign(slots.size() * NP, kInfD);
  for (std::size_t s = 0; s < slots.size(); ++s) {
    const std::uint32_t hv = labels.hub_vertex(slots[s]);
    double* u = ub.data() + s * NP;
    for (std::uint32_t e = labels.label_begin(hv); e < labels.label_end(hv); ++e) {
      const std::uint32_t h2 = labels.entry_hub(e);
      if (h2 == slots[s] || !hub_slot[h2]) continue;
      const double* f2 = F.data() + std::size_t(hub_slot[h2] - 1) * NP;
      const double d2 = labels.entry_distance(e);
      for (int i = 0; i < NP; ++i) u[i] = std::min(u[i], f2[i] + d2);
    }
  }
  used.assign(ids.size(), 0);
  std::size_t w = 0;
  for (const auto& e : raw) {
    const std::size_t s = hub_slot[e.hub] - 1;
    const double* f = F.data() + s * NP;
    const double* u = ub.data() + s * NP;
    std::uint64_t keep = 0;
    for (std::uint64_t m = e.pts; m; m &= m - 1) {
      const int i = std::countr_zero(m);
      if (dist[e.via * NP + i] + e.d <= f[i] * (1 + kTie) && f[i] <= u[i] * (1 + kTie)) keep |= 1ull << i;
    }
    if (keep) raw[w] = e, raw[w++].pts = keep, used[e.via] = 1;
    else ++out.cut_value;
  }
  for (std::uint32_t h : slots) hub_slot[h] = 0;
  raw.resize(w);
  std::sort(raw.begin(), raw.end(), [](const auto& u, const auto& v) { return u.hub != v.hub ? u.hub < v.hub : u.via < v.via; });
}

// points=1: each point's own list, per hub the least value over its entries and that entry's via.
void RegionLabels::BlockLists::write_points(std::size_t r, Block& out) {
  for (std::uint64_t m = have; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    PointRec rec{std::uint32_t(out.plist.size()), 0, rl_->fs_.component(pt[i]), std::uint32_t(r / kRun)};
    double least = 0;  // the value of the hub last written, in doubles
    for (const auto& e : raw) {
      if (!(e.pts >> i & 1)) continue;
      const double v = dist[e.via * NP + i] + e.d;
      if (out.plist.size() > rec.first && out.plist.back().hub == e.hub) {
        if (v < least) least = v, out.plist.back().d = float(v), out.plist.back().via = std::uint16_t(ids[e.via]);
      } else {
        least = v;
        out.plist.push_back({std::uint16_t(e.hub), std::uint16_t(ids[e.via]), float(v)});
      }
    }
    rec.last = std::uint32_t(out.plist.size());
    out.recs.push_back({pid[i], rec});
  }
}

// points=0: the vias the kept entries use, each with the points that see it, then the entries by
// increasing hub rank (each naming its via by its index among the region's).
void RegionLabels::BlockLists::write_region(std::size_t r, Block& out) {
  const std::size_t nv = ids.size();
  std::vector<std::uint16_t> index(nv, 0);
  std::size_t nu = 0;
  for (std::size_t k = 0; k < nv; ++k)
    if (used[k]) {
      if (nu == 0xFFFF) throw UnsupportedMap("region-labels: a region needs more than 65,535 vias (take a smaller region)");
      index[k] = std::uint16_t(nu++);
      out.via.push_back(ids[k]);
      out.via_bits.push_back(vis[k]);
    }
  for (const auto& e : raw) out.e_hub.push_back(e.hub), out.e_via.push_back(index[e.via]), out.e_dist.push_back(float(e.d));
  for (std::uint64_t m = have; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    out.recs.push_back({pid[i], PointRec{std::uint32_t(r), std::uint32_t(i), rl_->fs_.component(pt[i]), std::uint32_t(r / kRun)}});
  }
}

std::size_t RegionLabels::lists(const Map& map, bool points, int B, std::size_t limit, bool project, int threads) {
  const bool grid = map.kind == MapKind::grid;
  const auto& c = corners();
  const std::uint32_t n = std::uint32_t(c.size());
  points_ = points, B_ = B;
  nbx_ = (W_ + B_ - 1) / B_;
  nby_ = (H_ + B_ - 1) / B_;
  runs_.clear(), pts_.clear(), via_off_.clear(), ent_off_.clear();
  vias_ = entries_ = 0;
  const BlockCandidates blocks = grid ? BlockCandidates(map.grid, c, B_, spans_) : BlockCandidates();
  // Per label entry: the side of its corner's obstacle as the path leaves it towards the next
  // corner on the way to the hub (+1 left, -1 right; 0 at the hub's own entry).
  std::vector<std::int8_t> departs(labels_.entries());
  for (std::uint32_t a = 0; a < n; ++a)
    for (std::uint32_t e = labels_.label_begin(a); e < labels_.label_end(a); ++e) {
      const std::uint32_t x = labels_.entry_next(e);
      departs[e] = x == a ? 0 : std::int8_t(side(c[a], c[a].at, c[x].at));
    }
  // The lattice's records; none above kMaxLattice points (every query then takes the way of a
  // point off the lattice).
  const std::size_t lattice = std::size_t(W_ + 1) * std::size_t(H_ + 1) + std::size_t(W_) * std::size_t(H_);
  if (lattice > kMaxLattice) {
    if (std::getenv("NAVBENCH_REGION_LABELS_STATS")) std::fprintf(stderr, "region-labels: %zu lattice points, no point labels\n", lattice);
    return 0;
  }
  const std::size_t nreg = std::size_t(nbx_) * std::size_t(nby_);
  const std::size_t base = lattice * sizeof(PointRec) + (points ? 0 : 2 * (nreg + (nreg + kRun - 1) / kRun) * sizeof(std::uint32_t));
  if (base > limit) return base;
  pts_.assign(lattice, PointRec{});
  std::vector<BlockLists> makers;
  makers.reserve(std::size_t(std::max(threads, 1)));
  for (int t = 0; t < std::max(threads, 1); ++t) makers.emplace_back(*this, blocks, departs, grid);
  if (const std::size_t over = make_runs(makers, base, limit, project)) {
    runs_.clear(), pts_.clear(), via_off_.clear(), ent_off_.clear();
    runs_.shrink_to_fit(), pts_.shrink_to_fit(), via_off_.shrink_to_fit(), ent_off_.shrink_to_fit();
    return over;
  }
  count_lists();
  return 0;
}

// The blocks in runs of kRun consecutive ones, a run at a time per thread (one BlockLists each),
// each run's lists kept as it made them (no copy into one array: the build's peak is the lists
// once, not twice); a point's record and a region's offsets are within its run's arrays. The runs
// are handed out in an order spread over the map (a stride coprime with their number, near its
// golden section), so that the first sixteenth of them is a sample of the whole for the projection.
std::size_t RegionLabels::make_runs(std::vector<BlockLists>& makers, std::size_t base, std::size_t limit, bool project) {
  const std::size_t nreg = std::size_t(nbx_) * std::size_t(nby_);
  const std::size_t nruns = (nreg + kRun - 1) / kRun;
  std::size_t stride = std::max<std::size_t>(1, std::size_t(double(nruns) * 0.618));
  while (std::gcd(stride, nruns) != 1) ++stride;
  runs_.assign(nruns, Block());
  if (!points_) via_off_.assign(nreg + nruns, 0), ent_off_.assign(nreg + nruns, 0);
  std::atomic<std::size_t> bytes{base}, done{0}, over{0};
  std::mutex free_mutex;
  std::vector<BlockLists*> free_makers;
  for (auto& m : makers) free_makers.push_back(&m);
  struct Over {};
  try {
    for_each_index(nruns, int(makers.size()), [&](std::size_t i) {
      const std::size_t u = i * stride % nruns;
      BlockLists* t;
      {
        std::lock_guard<std::mutex> lock(free_mutex);
        t = free_makers.back();
        free_makers.pop_back();
      }
      Block& out = runs_[u];
      for (std::size_t r = u * kRun; r < std::min(nreg, (u + 1) * kRun); ++r) {
        t->make(r, out);
        if (!points_) via_off_[off(r) + 1] = std::uint32_t(out.via.size()), ent_off_[off(r) + 1] = std::uint32_t(out.e_hub.size());
      }
      for (auto& [id, rec] : out.recs) pts_[std::size_t(id)] = rec;
      std::vector<std::pair<std::int64_t, PointRec>>().swap(out.recs);
      out.plist.shrink_to_fit(), out.via.shrink_to_fit(), out.via_bits.shrink_to_fit();
      out.e_hub.shrink_to_fit(), out.e_via.shrink_to_fit(), out.e_dist.shrink_to_fit();
      const std::size_t b = bytes += out.bytes();
      const std::size_t d = ++done;
      {
        std::lock_guard<std::mutex> lock(free_mutex);
        free_makers.push_back(t);
      }
      // Over the limit, or (project) a sixteenth of the runs, at least 8, project above it.
      const std::size_t projected = base + std::size_t(double(b - base) * double(nruns) / double(d));
      if (b > limit || (project && d >= 8 && d * 16 >= nruns && projected > limit)) {
        over = std::max(b, projected);
        throw Over{};
      }
    });
  } catch (const Over&) {
    return over;
  }
  return 0;
}

// The lists' totals (entries(), vias()), and with NAVBENCH_REGION_LABELS_STATS set (a development
// aid, docs/measurements.md) what the pruning left.
void RegionLabels::count_lists() {
  std::size_t raw = 0, cut_taut = 0, cut_dom = 0, cut_value = 0, npts = 0, nvia = 0;
  for (const Block& b : runs_)
    raw += b.raw, cut_taut += b.cut_taut, cut_dom += b.cut_dom, cut_value += b.cut_value, npts += b.points, nvia += b.via.size(),
        entries_ += points_ ? b.plist.size() : b.e_hub.size();
  vias_ = nvia;
  if (std::getenv("NAVBENCH_REGION_LABELS_STATS"))
    std::fprintf(stderr, "region-labels: %zu corners, %zu label entries, %zu blocks of %d, %zu query points; entries %zu: taut -%zu, further -%zu, "
                 "values -%zu, kept %zu (%.1f per point), vias %zu\n",
                 corners().size(), labels_.entries(), std::size_t(nbx_) * std::size_t(nby_), B_, npts, raw, cut_taut, cut_dom, cut_value,
                 entries_, npts ? double(entries_) / double(npts) : 0.0, vias_);
}

}  // namespace navbench
