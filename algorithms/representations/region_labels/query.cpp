// region-labels' queries (region_labels.hpp): locating a point, the labels' answer, the path.
#include "representations/region_labels/region_labels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "geometry/exact.hpp"
#include "representations/visgraph/point_lists.hpp"

namespace navbench {

namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();  // an unseen via; no path
constexpr float kNoneF = std::numeric_limits<float>::infinity();
// Sums within this factor of the least are resolved in doubles: a point list's values are floats,
// each within 2^-24 of its double, so the least exact sum is within about 2^-22 of the least float sum.
constexpr double kNear = 5e-7;

// The line through corner c and `other` is tangent at c (visgraph_detail::tangent_at).
bool tangent_to(const ConvexCorner& c, Point other) {
  if (other == c.at) return true;
  return exact::orient2d(other, c.at, c.before) * exact::orient2d(other, c.at, c.after) >= 0;
}

double dist(Point a, Point b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); }  // hypot is slow

// This thread's last answer, for polyline() after direct_cost() or table_search(): the corners
// between start and goal (none: the segment).
struct LastAnswer {
  Point s{kNone, kNone}, g{kNone, kNone};
  std::vector<Vertex> path;
};
thread_local LastAnswer last;

}  // namespace

// The integer cell walk where it answers (grid maps, and polygon maps that are a union of unit
// squares: their grid, from the lattice's origin), else the free space's exact test.
bool RegionLabels::segment_clear(Point a, Point b) const {
  if (!cell_walk_) return fs_.segment_valid(a, b);
  const Point la{a.x - ox_, a.y - oy_}, lb{b.x - ox_, b.y - oy_};
  GridLos::Result r = los_.test_to_corner(la, lb);
  if (r == GridLos::unknown) r = los_.test_to_corner(lb, la);
  if (r != GridLos::unknown) return r == GridLos::visible;
  return fs_.segment_valid(a, b);
}

bool RegionLabels::sees(Point p, std::uint32_t corner) const {
  const Point c = corners()[corner].at;
  if (!cell_walk_) return fs_.segment_valid(p, c);
  const GridLos::Result r = los_.test({p.x - ox_, p.y - oy_}, {c.x - ox_, c.y - oy_});
  return r == GridLos::unknown ? fs_.segment_valid(p, c) : r == GridLos::visible;
}

void RegionLabels::visible_corners(Point p, std::vector<Link>& out) const {
  thread_local std::vector<std::uint32_t> sure, maybe, stamp;
  thread_local std::uint32_t gen = 0;
  const auto& c = corners();
  out.clear();
  if (map_->kind != MapKind::grid) {
    PointLists::seen(fs_, p, sure);  // polygon maps: visgraph's attach (the triangular expansion), tangency applied
    for (std::uint32_t j : sure) out.push_back({j, dist(p, c[j].at)});
    return;
  }
  sure.clear();
  maybe.clear();
  fov_.scan(p, sure, maybe);
  if (stamp.size() < c.size()) stamp.assign(c.size(), 0);
  if (++gen == 0) std::fill(stamp.begin(), stamp.end(), 0), gen = 1;
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint32_t j : pass ? maybe : sure) {
      if (stamp[j] == gen) continue;
      stamp[j] = gen;
      if (!tangent_to(c[j], p) || (pass && !sees(p, j))) continue;
      out.push_back({j, dist(p, c[j].at)});
    }
}

// A lattice point or cell centre: its record (cell = its id, no links). Any other free point:
// cell -1 and a link to every corner it sees.
std::optional<Attachment> RegionLabels::attach(Point p) const {
  Attachment a;
  if (const std::int64_t id = point_id(p); id >= 0) {
    const PointRec& r = pts_[std::size_t(id)];
    if (r.comp < 0) return std::nullopt;  // not free
    a.cell = id;
    a.component = r.comp;
    // The point's list is read by the search that follows: asked for now, it arrives meanwhile.
    if (points_)
      for (std::uint32_t k = r.first; k < r.last; k += 64 / sizeof(PEntry)) __builtin_prefetch(runs_[r.run].plist.data() + k);
    return a;
  }
  // On a grid a point is free exactly when it lies in the closed square of a free cell (docs/maps.md).
  if (map_->kind != MapKind::grid ? !fs_.point_free(p) : !(p.x >= 0 && p.y >= 0 && p.x <= W_ && p.y <= H_) || cell_of(p) < 0)
    return std::nullopt;
  a.component = fs_.component(p);
  visible_corners(p, a.links);
  return a;
}

double RegionLabels::direct_cost(const Query& q) const {
  last.s = q.start, last.g = q.goal;
  return answer(q, &last.path, nullptr);
}

std::optional<double> RegionLabels::table_search(Query& q, std::size_t& steps) const {
  const double c = answer(q, &q.path, &steps);
  if (q.path.empty()) last.s = q.start, last.g = q.goal, last.path.clear();  // the segment (or none)
  return c;
}

double RegionLabels::hub_distance(std::uint32_t v, std::uint32_t hub) const {
  const std::uint32_t* h = labels_.hub_ranks();
  const std::uint32_t* it = std::lower_bound(h + labels_.label_begin(v), h + labels_.label_end(v), hub);
  return labels_.entry_distance(std::uint32_t(it - h));
}

// min over hubs h of F_s(h) + F_g(h) (region_labels.hpp), or the segment when clear. Two point
// lists are merged in hub order (merge_lists); otherwise the start's values are folded into one
// array over hub ranks and the goal's scanned against it (fold_values). Sums within kNear of the
// least are compared again in doubles from the labels (unpack).
double RegionLabels::answer(const Query& q, std::vector<Vertex>* path, std::size_t* steps) const {
  if (path) path->clear();
  if (q.start == q.goal) return 0;
  if (!direct(q)) return kNone;
  if (segment_clear(q.start, q.goal)) return dist(q.start, q.goal);
  thread_local std::vector<Cand> cand;
  cand.clear();
  std::size_t n = 0;
  const double best = points_ && q.s.cell >= 0 && q.g.cell >= 0 ? merge_lists(q, cand, n) : fold_values(q, cand, n);
  if (steps) *steps += n;
  if (!(best < kNone) || cand.empty()) return kNone;
  return unpack(q, cand, path);
}

// Two point lists merged without branches on the data (a common hub's turn is hard to predict),
// keeping the least and the second least sum: a second pass, for every candidate within kNear of
// the least, only when they are near. Returns the least sum (+inf: no common hub); n: the entries.
double RegionLabels::merge_lists(const Query& q, std::vector<Cand>& cand, std::size_t& n) const {
  const PointRec& rs = pts_[std::size_t(q.s.cell)];
  const PointRec& rg = pts_[std::size_t(q.g.cell)];
  // Each list from its own run's array: ps[i] for i in [0, ns), pg[j] for j in [0, ng).
  const PEntry* ps = runs_[rs.run].plist.data() + rs.first;
  const PEntry* pg = runs_[rg.run].plist.data() + rg.first;
  const std::uint32_t ns = rs.last - rs.first, ng = rg.last - rg.first;
  n = ns + ng;
  float b1 = kNoneF, b2 = kNoneF;
  std::uint32_t bi = 0, bj = 0;
  for (std::uint32_t i = 0, j = 0; i < ns && j < ng;) {
    const std::uint32_t hi = ps[i].hub, hj = pg[j].hub;
    const float v = hi == hj ? ps[i].d + pg[j].d : kNoneF;
    const bool better = v < b1;
    b2 = better ? b1 : std::min(b2, v);
    b1 = better ? v : b1;
    bi = better ? i : bi;
    bj = better ? j : bj;
    i += hi <= hj;
    j += hj <= hi;
  }
  if (!(b1 < kNoneF)) return kNone;
  if (!(b2 <= b1 * (1 + kNear))) {
    cand.push_back({ps[bi].hub, ps[bi].via, pg[bj].via});
  } else {
    for (std::uint32_t i = 0, j = 0; i < ns && j < ng;) {
      const std::uint32_t hi = ps[i].hub, hj = pg[j].hub;
      if (hi == hj && ps[i].d + pg[j].d <= b1 * (1 + kNear)) cand.push_back({hi, ps[i].via, pg[j].via});
      i += hi <= hj;
      j += hj <= hi;
    }
  }
  return b1;
}

// Either end not a point list: each end's values from its point list, from its region's entries
// through the vias it sees, or (off the lattice) from the whole labels of the corners it sees. The
// start's are folded into one array over hub ranks (least per hub), the goal's scanned against it;
// then the start's vias of each candidate hub found, and the array set back to +inf. Returns the
// least sum; n: the values read.
double RegionLabels::fold_values(const Query& q, std::vector<Cand>& cand, std::size_t& n) const {
  // The fold in floats: half the cache lines of doubles, which its scattered hubs miss (a sum is
  // then within about 2^-23 of its exact value, well inside kNear: unpack checks again in doubles).
  thread_local std::vector<float> fold;
  thread_local std::vector<double> cost[2];
  if (fold.size() < labels_.vertices()) fold.assign(labels_.vertices(), kNoneF);
  const std::uint32_t* hub = labels_.hub_ranks();
  const double* ld = labels_.distances();
  const Attachment* end[2] = {&q.s, &q.g};
  const Point at[2] = {q.start, q.goal};
  // A region end's distance to each of its region's vias (+inf where it does not see one).
  for (int t = 0; t < 2; ++t) {
    if (end[t]->cell < 0 || points_) continue;
    const PointRec& rec = pts_[std::size_t(end[t]->cell)];
    const Block& run = runs_[rec.run];
    const std::uint32_t v0 = via_off_[off(rec.first)], v1 = via_off_[off(rec.first) + 1];
    cost[t].resize(v1 - v0);
    for (std::uint32_t v = v0; v < v1; ++v) {
      const std::array<float, 2>& a = fpos_[run.via[v]];
      cost[t][v - v0] = (run.via_bits[v] >> rec.last & 1) ? dist(at[t], {double(a[0]), double(a[1])}) : kNone;
    }
  }
  // body(hub, value, via corner) for each value an end offers.
  auto for_values = [&](int t, auto&& body) {
    const Attachment& e = *end[t];
    if (e.cell < 0) {
      for (const Link& l : e.links)
        for (std::uint32_t k = labels_.label_begin(l.vertex), kend = labels_.label_end(l.vertex); k < kend; ++k) body(hub[k], l.cost + ld[k], l.vertex);
      return;
    }
    const PointRec& rec = pts_[std::size_t(e.cell)];
    const Block& run = runs_[rec.run];
    if (points_) {
      for (std::uint32_t k = rec.first; k < rec.last; ++k) {
        const PEntry& x = run.plist[k];
        body(std::uint32_t(x.hub), double(x.d), std::uint32_t(x.via));
      }
      return;
    }
    const std::uint32_t v0 = via_off_[off(rec.first)];
    const double* cv = cost[t].data();
    for (std::uint32_t k = ent_off_[off(rec.first)], kend = ent_off_[off(rec.first) + 1]; k < kend; ++k)
      body(run.e_hub[k], cv[run.e_via[k]] + run.e_dist[k], run.via[v0 + run.e_via[k]]);
  };
  float* f = fold.data();
  for_values(0, [&](std::uint32_t h, double v, std::uint32_t) { f[h] = std::min(f[h], float(v)), ++n; });
  // The goal's scan keeps the least sum (its hub and goal via) and the second least: the other
  // candidates are looked for only when that one is near.
  double best = kNone, second = kNone;
  std::uint32_t h1 = 0, b1 = 0;
  for_values(1, [&](std::uint32_t h, double v, std::uint32_t via) {
    v += f[h];
    if (v < best) second = best, best = v, h1 = h, b1 = via;
    else second = std::min(second, v);
    ++n;
  });
  thread_local std::vector<double> want;  // per candidate: its hub's least start value
  want.clear();
  if (best < kNone) {
    if (second > best * (1 + kNear)) {
      cand.push_back({h1, ~0u, b1});
    } else {
      const double limit = best * (1 + kNear);
      for_values(1, [&](std::uint32_t h, double v, std::uint32_t via) {
        if (v + f[h] <= limit) cand.push_back({h, ~0u, via});
      });
    }
    for (const Cand& x : cand) want.push_back(f[x.h]);
  }
  // The start's vias for each candidate hub (those within kNear of its least value), and the
  // array back to +inf. A region's entries are in hub order: there each candidate's are found by
  // a binary search, not by a pass over all.
  const std::size_t nc = cand.size();
  auto start_via = [&](std::size_t k, double v, std::uint32_t via) {
    if (v > want[k] * (1 + kNear)) return;
    if (cand[k].a == ~0u) cand[k].a = via;
    else if (cand[k].a != via) cand.push_back({cand[k].h, via, cand[k].b});
  };
  if (q.s.cell >= 0 && !points_) {
    const PointRec& rec = pts_[std::size_t(q.s.cell)];
    const Block& run = runs_[rec.run];
    const std::uint32_t v0 = via_off_[off(rec.first)];
    const std::uint32_t* hubs = run.e_hub.data();
    const std::uint32_t* last = hubs + ent_off_[off(rec.first) + 1];
    for (std::size_t k = 0; k < nc; ++k)
      for (const std::uint32_t* e = std::lower_bound(hubs + ent_off_[off(rec.first)], last, cand[k].h); e < last && *e == cand[k].h; ++e) {
        const std::size_t i = std::size_t(e - hubs);
        start_via(k, cost[0][run.e_via[i]] + run.e_dist[i], run.via[v0 + run.e_via[i]]);
      }
    for_values(0, [&](std::uint32_t h, double, std::uint32_t) { f[h] = kNoneF; });
  } else {
    for_values(0, [&](std::uint32_t h, double v, std::uint32_t via) {
      for (std::size_t k = 0; k < nc; ++k)
        if (cand[k].h == h) start_via(k, v, via);
      f[h] = kNoneF;
    });
  }
  return best;
}

// The candidate of least exact value, |s - a| + d(a, h) + d(h, b) + |b - g| in doubles; its
// corners (the labels' path from a through h to b) into path, and its length summed along them.
double RegionLabels::unpack(const Query& q, const std::vector<Cand>& cand, std::vector<Vertex>* path) const {
  std::size_t pick = 0;
  if (cand.size() > 1) {
    double least = kNone;
    for (std::size_t k = 0; k < cand.size(); ++k) {
      const Cand& x = cand[k];
      const double v = dist(q.start, pos_[x.a]) + hub_distance(x.a, x.h) + hub_distance(x.b, x.h) + dist(pos_[x.b], q.goal);
      if (v < least) least = v, pick = k;
    }
  }
  thread_local std::vector<std::uint32_t> up;
  up.clear();
  labels_.path(cand[pick].a, cand[pick].b, cand[pick].h, up);
  if (path) path->assign(up.begin(), up.end());
  double c = 0;
  Point prev = q.start;
  for (std::uint32_t v : up) c += dist(prev, pos_[v]), prev = pos_[v];
  return c + dist(prev, q.goal);
}

// Start, the corners of the answer, goal. After table_search() the corners are in q.path; after
// the A* took the direct link (direct_cost()) they are this thread's last answer, or found again.
Polyline RegionLabels::polyline(const Query& q) const {
  const std::vector<Vertex>* via = &q.path;
  std::vector<Vertex> again;
  if (q.path.empty()) {
    if (last.s == q.start && last.g == q.goal) via = &last.path;
    else answer(q, &again, nullptr), via = &again;
  }
  Polyline out;
  out.reserve(via->size() + 2);
  out.push_back(q.start);
  for (Vertex v : *via)
    if (!(pos_[v] == out.back())) out.push_back(pos_[v]);
  if (out.size() > 1 && out.back() == q.goal) out.pop_back();
  out.push_back(q.goal);
  return out;
}

BuildStats RegionLabels::stats() const {
  BuildStats s;
  s.vertices = num_vertices(graph_);
  s.edges = graph_.num_edges();
  s.memory_bytes = fixed_bytes() + pts_.capacity() * sizeof(PointRec) + (via_off_.capacity() + ent_off_.capacity()) * 4;
  for (const Block& b : runs_) s.memory_bytes += b.bytes();
  return s;
}

}  // namespace navbench
