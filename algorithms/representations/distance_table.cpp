// The all-pairs table over an undirected graph of places, and its repair on a changing map
// (distance_table.hpp, docs/changing-maps.md).
#include "representations/distance_table.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace navbench {

namespace distance_table_detail {

constexpr double kNoDist = std::numeric_limits<double>::infinity();

// A binary heap of (distance, place), the least first; stale entries are skipped by the caller.
struct TableHeap {
  using Item = std::pair<double, std::uint32_t>;
  std::vector<Item> items;
  void push(double d, std::uint32_t v) {
    items.push_back({d, v});
    std::push_heap(items.begin(), items.end(), std::greater<>());
  }
  Item pop() {
    std::pop_heap(items.begin(), items.end(), std::greater<>());
    const Item it = items.back();
    items.pop_back();
    return it;
  }
  bool empty() const { return items.empty(); }
};

// An entry that a repair may lower only by more than this share of it: a sum taken in another order
// may come out a few units in the last place below the stored one, and such a "gain" would run
// through the whole subtree behind it for nothing. A real gain this small (never seen: distances
// between grid points differ by far more) would leave a real path within 1e-12 of the optimum.
constexpr double kGain = 1e-12;

bool gains(double nd, double old) { return nd < old - kGain * old || (old == kNoDist && nd < kNoDist); }

// Whether an edge into v offering nd ties v's distance d (within kGain, the same sums taken in
// another order): its source is then one of v's predecessors on shortest paths.
bool ties(double nd, double d) { return nd <= d + kGain * d; }

// One row: the distances from place s (row[], +inf where unreachable) and each place's predecessor,
// the least id among its neighbours on a shortest path (ties within kGain): a rule of the distances
// alone, which a repaired row follows too (whatever order its entries were settled in), so that a
// repaired table reads back the same paths as a fresh one. Every neighbour u of v with
// d(u) + w = d(v) is settled before v (w > 0) and offers v its sum. order (optional): the places
// in the order they were settled.
template <class Prev>
void row_dijkstra(const std::vector<std::uint32_t>& off, const std::vector<std::uint32_t>& to, const std::vector<double>& w,
                  std::uint32_t s, double* row, Prev* prow, TableHeap& heap, std::vector<std::uint32_t>* seen) {
  row[s] = 0;
  prow[s] = Prev(s);
  if (seen) seen->push_back(s);
  heap.push(0.0, s);
  while (!heap.empty()) {
    const auto [du, u] = heap.pop();
    if (du > row[u]) continue;
    for (std::uint32_t e = off[u]; e < off[u + 1]; ++e) {
      const std::uint32_t v = to[e];
      const double dv = du + w[e];
      if (dv < row[v]) {
        if (row[v] == kNoDist) {
          if (seen) seen->push_back(v);
          prow[v] = Prev(u);
        } else if (!ties(row[v], dv) || u < prow[v]) {  // a shorter path, or a tie from a lower id
          prow[v] = Prev(u);
        }
        row[v] = dv;
        heap.push(dv, v);
      } else if (u < prow[v] && ties(dv, row[v])) {
        prow[v] = Prev(u);
      }
    }
  }
}

}  // namespace distance_table_detail

using distance_table_detail::TableHeap;
using distance_table_detail::kNoDist;
using distance_table_detail::gains;
using distance_table_detail::row_dijkstra;
using distance_table_detail::ties;

DistanceTable::Flat DistanceTable::flatten(const CsrGraph& g) {
  Flat f;
  const std::size_t n = g.num_vertices();
  f.off.assign(n + 1, 0);
  f.to.reserve(g.num_edges());
  f.w.reserve(g.num_edges());
  for (Vertex u = 0; u < Vertex(n); ++u) {
    for (auto [it, end] = out_edges(u, g); it != end; ++it) f.to.push_back(target(*it, g)), f.w.push_back(g.weight(it->index));
    f.off[u + 1] = std::uint32_t(f.to.size());
  }
  return f;
}

DistanceTable::DistanceTable(const CsrGraph& places, std::vector<std::uint32_t> place, std::size_t max_bytes)
    : place_(std::move(place)), m_(places.num_vertices()) {
  const std::size_t bytes = m_ * m_ * (sizeof(float) + (m_ < kNoPrev ? sizeof(std::uint16_t) : 0));
  if (bytes > max_bytes)
    throw std::length_error(std::to_string(m_) + " places need a " + std::to_string(bytes >> 20) +
                            " MiB distance table, above the " + std::to_string(max_bytes >> 20) + " MiB budget");
  compute_all(flatten(places), false);
}

// One Dijkstra per row (row_dijkstra: the predecessors by a rule of the distances alone).
void DistanceTable::compute_all(const Flat& g, bool keep) {
  const std::size_t n = m_;
  const bool with_prev = n < kNoPrev;
  d_.assign(n * n, std::numeric_limits<float>::infinity());
  prev_.assign(with_prev ? n * n : 0, kNoPrev);
  track_.d.assign(keep ? n * n : 0, kNoDist);
  std::vector<double> dist(n, kNoDist);
  std::vector<std::uint32_t> pred(n, kNoPrev), seen;
  TableHeap heap;
  for (std::size_t p = 0; p < n; ++p) {
    float* row = d_.data() + p * n;
    seen.clear();
    row_dijkstra(g.off, g.to, g.w, std::uint32_t(p), dist.data(), pred.data(), heap, &seen);
    for (const std::uint32_t v : seen) {
      row[v] = down(dist[v]);
      if (with_prev) prev_[p * n + v] = std::uint16_t(pred[v]);
      if (keep) track_.d[p * n + v] = dist[v];
      dist[v] = kNoDist;
    }
  }
  if (keep) track_.off = g.off, track_.to = g.to, track_.w = g.w;
  else track_ = Track();
}

// One update's working state (update()): the new graph against the tracked one, the new table
// being filled (distances in doubles dd, floats df, predecessors pv), and per row its repair.
struct DistanceTable::Repair {
  const Flat& g;
  const Track& old;
  const std::vector<std::int32_t>& old_of_new;
  const std::size_t n, m;
  UpdateStats& stats;
  // A predecessor that is no place any more.
  static constexpr std::uint16_t kGone = kNoPrev - 1;
  std::vector<std::int32_t> new_of_old;
  std::vector<std::uint8_t> full, fresh;  // full: a kept place at a new edge; fresh: per CSR entry, a new edge
  std::vector<std::pair<std::uint32_t, std::uint32_t>> gone;
  std::vector<std::uint32_t> gone_off, gone_to;  // per new place, the kept places whose edge to it went
  std::vector<double> dd;
  std::vector<float> df;
  std::vector<std::uint16_t> pv;
  std::vector<std::uint32_t> sources, watch;
  // Per row: state 0 not looked at, 1 kept, 2 to settle again (its tree path lost an edge or a
  // place), 3 changed otherwise (lowered, or a source's exact entry).
  std::vector<std::uint8_t> state;
  std::vector<std::uint32_t> chain, redo, touched, stamp;
  TableHeap heap;

  Repair(const Flat& g_, const Track& old_, const std::vector<std::int32_t>& o, std::size_t m_, UpdateStats& s)
      : g(g_), old(old_), old_of_new(o), n(o.size()), m(m_), stats(s), new_of_old(m_, -1) {
    for (std::size_t p = 0; p < n; ++p)
      if (old_of_new[p] >= 0) new_of_old[std::size_t(old_of_new[p])] = std::int32_t(p);
  }

  // Edges between kept places that went (per new place, the other ends), and the kept places at
  // an edge that came (whose rows are computed whole: `full`). Returns the rows to compute whole.
  std::size_t diff() {
    full.assign(n, 0), fresh.assign(g.to.size(), 0);
    // (An edge whose weight changed counts as gone and new.)
    std::vector<std::int32_t> mark(std::max(n, m), -1);
    std::vector<double> weight(std::max(n, m), 0);
    for (std::size_t a = 0; a < m; ++a) {  // old edges whose new pair is no edge
      const std::int32_t na = new_of_old[a];
      if (na < 0) continue;
      for (std::uint32_t e = g.off[std::size_t(na)]; e < g.off[std::size_t(na) + 1]; ++e) mark[g.to[e]] = na, weight[g.to[e]] = g.w[e];
      for (std::uint32_t e = old.off[a]; e < old.off[a + 1]; ++e) {
        const std::int32_t nb = new_of_old[old.to[e]];
        if (nb >= 0 && (mark[std::size_t(nb)] != na || weight[std::size_t(nb)] != old.w[e]))
          gone.push_back({std::uint32_t(na), std::uint32_t(nb)});
      }
    }
    std::fill(mark.begin(), mark.end(), -1);
    for (std::size_t p = 0; p < n; ++p) {  // new edges: at a new place, or between kept places
      const std::int32_t a = old_of_new[p];
      if (a >= 0)
        for (std::uint32_t e = old.off[std::size_t(a)]; e < old.off[std::size_t(a) + 1]; ++e)
          mark[old.to[e]] = a, weight[old.to[e]] = old.w[e];
      for (std::uint32_t e = g.off[p]; e < g.off[p + 1]; ++e) {
        const std::int32_t b = old_of_new[g.to[e]];
        if (a < 0 || b < 0) fresh[e] = 1;
        else if (mark[std::size_t(b)] != a || weight[std::size_t(b)] != g.w[e]) fresh[e] = 1, full[p] = 1;
      }
    }
    std::size_t whole_rows = 0;
    for (std::size_t p = 0; p < n; ++p) whole_rows += full[p] || old_of_new[p] < 0;
    return whole_rows;
  }

  // The edges that went as CSR (both ways), and whether the edge a-b between kept places went.
  void index_gone() {
    gone_off.assign(n + 1, 0), gone_to.assign(2 * gone.size(), 0);
    for (const auto& [a, b] : gone) ++gone_off[a + 1], ++gone_off[b + 1];
    for (std::size_t p = 0; p < n; ++p) gone_off[p + 1] += gone_off[p];
    std::vector<std::uint32_t> fill(gone_off.begin(), gone_off.end() - 1);
    for (const auto& [a, b] : gone) gone_to[fill[a]++] = b, gone_to[fill[b]++] = a;
  }
  bool went(std::uint32_t a, std::uint32_t b) const {
    return std::find(gone_to.begin() + gone_off[b], gone_to.begin() + gone_off[b + 1], a) != gone_to.begin() + gone_off[b + 1];
  }

  // The kept entries in the new ids (a predecessor that is no place any more: kGone).
  void keep_entries(const std::vector<float>& d_old, const std::vector<std::uint16_t>& prev_old) {
    dd.assign(n * n, kNoDist);
    df.assign(n * n, std::numeric_limits<float>::infinity());
    pv.assign(n * n, kNoPrev);
    std::vector<std::uint16_t> map_prev(m + 1);
    for (std::size_t a = 0; a < m; ++a) map_prev[a] = new_of_old[a] >= 0 ? std::uint16_t(new_of_old[a]) : kGone;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> cols;  // (new, old) of the kept places
    for (std::size_t q = 0; q < n; ++q)
      if (old_of_new[q] >= 0) cols.push_back({std::uint32_t(q), std::uint32_t(old_of_new[q])});
    for (const auto& [p, a] : cols) {
      const double* od = old.d.data() + std::size_t(a) * m;
      const float* of = d_old.data() + std::size_t(a) * m;
      const std::uint16_t* op = prev_old.data() + std::size_t(a) * m;
      double* nd = dd.data() + std::size_t(p) * n;
      float* nf = df.data() + std::size_t(p) * n;
      std::uint16_t* np = pv.data() + std::size_t(p) * n;
      for (const auto& [q, b] : cols) {
        nd[q] = od[b], nf[q] = of[b];
        np[q] = op[b] == kNoPrev ? kNoPrev : map_prev[op[b]];
      }
    }
  }

  // Rows computed whole: the new places and the kept ends of new edges. `sources`: all of them,
  // whose rows hold the exact distance to every place (the graph is undirected).
  void whole_rows() {
    for (std::size_t s = 0; s < n; ++s) {
      if (!full[s] && old_of_new[s] >= 0) continue;
      double* row = dd.data() + s * n;
      std::uint16_t* prow = pv.data() + s * n;
      std::fill(row, row + n, kNoDist);
      std::fill(prow, prow + n, kNoPrev);
      row_dijkstra(g.off, g.to, g.w, std::uint32_t(s), row, prow, heap, nullptr);
      float* frow = df.data() + s * n;
      for (std::size_t v = 0; v < n; ++v) frow[v] = row[v] < kNoDist ? down(row[v]) : std::numeric_limits<float>::infinity();
      ++stats.rows;
      sources.push_back(std::uint32_t(s));
    }
  }

  // Where a tree path can have lost an edge or a place: the kept ends of the edges that went, and
  // the kept places next to a place that went (the only places whose predecessor can be one).
  void find_watch() {
    std::vector<std::uint8_t> in(n, 0);
    for (const auto& [a, b] : gone)
      for (const std::uint32_t x : {a, b})
        if (!in[x]) in[x] = 1, watch.push_back(x);
    for (std::size_t a = 0; a < m; ++a)
      if (new_of_old[a] < 0)
        for (std::uint32_t e = old.off[a]; e < old.off[a + 1]; ++e)
          if (const std::int32_t q = new_of_old[old.to[e]]; q >= 0 && !in[std::size_t(q)]) in[std::size_t(q)] = 1, watch.push_back(std::uint32_t(q));
  }

  // Row p (kept, not at a new edge), repaired.
  void repair_row(std::size_t p) {
    double* row = dd.data() + p * n;
    std::uint16_t* prow = pv.data() + p * n;
    redo.clear();
    touched.clear();
    mark_lost(p, prow);
    settle_again(row, prow);
    lower_from_sources(p, row);
    canonical_predecessors(p, row, prow);
    float* frow = df.data() + p * n;
    for (const std::uint32_t q : touched) frow[q] = row[q] < kNoDist ? down(row[q]) : std::numeric_limits<float>::infinity();
  }

  // A row whose tree kept every edge and place keeps every entry; else, which entries lost their
  // tree path (state 2, into redo): up each chain of predecessors to a place already decided.
  void mark_lost(std::size_t p, const std::uint16_t* prow) {
    bool hit = false;
    for (const std::uint32_t x : watch) {
      const std::uint16_t y = prow[x];
      if (y == kGone || (y != kNoPrev && gone_off[x] != gone_off[x + 1] && went(y, x))) {
        hit = true;
        break;
      }
    }
    state.assign(n, hit ? 0 : 1);
    state[p] = 1;
    for (std::size_t q = 0; hit && q < n; ++q) {
      if (state[q]) continue;
      chain.clear();
      for (std::uint32_t x = std::uint32_t(q); state[x] == 0;) {
        chain.push_back(x);
        const std::uint16_t y = prow[x];
        if (y == kNoPrev || y == kGone) break;
        if (chain.size() > n) throw std::logic_error("DistanceTable::update: a cycle of predecessors");
        x = y;
      }
      for (std::size_t i = chain.size(); i-- > 0;) {
        const std::uint32_t c = chain[i];
        const std::uint16_t y = prow[c];
        std::uint8_t st;
        if (y == kNoPrev) st = 1;  // unreachable (new places are sources: below)
        else if (y == kGone) st = 2;
        else st = state[y] == 2 || (gone_off[c] != gone_off[c + 1] && went(y, c)) ? 2 : 1;
        state[c] = st;
        if (st == 2) redo.push_back(c);
      }
    }
  }

  // The entries to settle again, from the kept ones beside them (Ramalingam & Reps, for
  // deletions), then by Dijkstra over the kept places: the graph without its new edges, whose
  // distances only grew.
  void settle_again(double* row, std::uint16_t* prow) {
    if (redo.empty()) return;
    ++stats.repaired;
    for (const std::uint32_t q : redo) row[q] = kNoDist, prow[q] = kNoPrev;
    for (const std::uint32_t q : redo) {
      for (std::uint32_t e = g.off[q]; e < g.off[q + 1]; ++e) {
        const std::uint32_t u = g.to[e];
        if (fresh[e] || state[u] != 1 || !(row[u] < kNoDist)) continue;
        const double c = row[u] + g.w[e];
        if (c < row[q]) row[q] = c;
      }
      if (row[q] < kNoDist) heap.push(row[q], q);
    }
    touched = redo;
    while (!heap.empty()) {
      const auto [du, u] = heap.pop();
      if (du > row[u]) continue;
      ++stats.settled;
      for (std::uint32_t e = g.off[u]; e < g.off[u + 1]; ++e) {
        const std::uint32_t v = g.to[e];
        if (fresh[e] || state[v] != 2) continue;
        const double dv = du + g.w[e];
        if (dv < row[v]) row[v] = dv, heap.push(dv, v);
      }
    }
  }

  // The ends of the new edges and the new places (sources): their rows hold the exact distance
  // to p; each entry it lowers is lowered, and what that reaches in turn (the insertions of
  // Ramalingam & Reps). A path that a new edge shortens has a last source on it, after which it
  // runs over kept edges, along which the entries are now closed (kept, or settled again above).
  void lower_from_sources(std::size_t p, double* row) {
    for (const std::uint32_t s : sources) {
      const double ds = dd[std::size_t(s) * n + p];
      if (!gains(ds, row[s])) continue;
      if (state[s] == 1) state[s] = 3, touched.push_back(s);
      row[s] = ds;
      heap.push(ds, s);
    }
    while (!heap.empty()) {
      const auto [du, u] = heap.pop();
      if (du > row[u]) continue;
      ++stats.settled;
      for (std::uint32_t e = g.off[u]; e < g.off[u + 1]; ++e) {
        const std::uint32_t v = g.to[e];
        const double dv = du + g.w[e];
        if (gains(dv, row[v])) {
          if (state[v] == 1) state[v] = 3, touched.push_back(v);
          row[v] = dv, heap.push(dv, v);
        }
      }
    }
  }

  // The predecessors by the fresh rows' rule (row_dijkstra), wherever it may give another place:
  // at the entries that changed, their neighbours (one of which may tie now or no more), and the
  // sources (new edges).
  void canonical_predecessors(std::size_t p, const double* row, std::uint16_t* prow) {
    if (stamp.size() != n) stamp.assign(n, 0);
    auto canonical = [&](std::uint32_t r) {
      if (stamp[r] == p + 1 || r == p) return;
      stamp[r] = std::uint32_t(p + 1);
      if (!(row[r] < kNoDist)) {
        prow[r] = kNoPrev;
        return;
      }
      std::uint32_t best = kNoPrev;
      for (std::uint32_t e = g.off[r]; e < g.off[r + 1]; ++e)
        if (g.to[e] < best && ties(row[g.to[e]] + g.w[e], row[r])) best = g.to[e];
      prow[r] = std::uint16_t(best);
    };
    for (const std::uint32_t q : touched) {
      canonical(q);
      for (std::uint32_t e = g.off[q]; e < g.off[q + 1]; ++e) canonical(g.to[e]);
    }
    for (const std::uint32_t s : sources) canonical(s);
  }
};

DistanceTable::UpdateStats DistanceTable::update(const CsrGraph& places, std::vector<std::uint32_t> place,
                                                 const std::vector<std::int32_t>& old_of_new, std::size_t max_bytes) {
  const std::size_t n = places.num_vertices(), m = m_;
  if (old_of_new.size() != n) throw std::logic_error("DistanceTable::update: one old id per place");
  const std::size_t bytes = n * n * (sizeof(float) + (n < kNoPrev ? sizeof(std::uint16_t) : 0));
  if (bytes > max_bytes)
    throw std::length_error(std::to_string(n) + " places need a " + std::to_string(bytes >> 20) +
                            " MiB distance table, above the " + std::to_string(max_bytes >> 20) + " MiB budget");
  const Flat g = flatten(places);
  place_ = std::move(place);
  stats_ = UpdateStats();
  // Tracked from the first update on, while the doubles fit the budget too; the repair keeps one
  // id free (Repair::kGone) below kNoPrev.
  const bool fits = n * n * sizeof(double) <= max_bytes && n + 1 < kNoPrev && m + 1 < kNoPrev;
  const bool tracked = !track_.d.empty() && prev_.size() == m * m;
  if (!fits || !tracked) {
    m_ = n;
    compute_all(g, fits);
    stats_.whole = true;
    stats_.rows = n;
    return stats_;
  }
  Repair r(g, track_, old_of_new, m, stats_);
  if (2 * r.diff() > n) {  // most rows would be computed whole anyway
    m_ = n;
    compute_all(g, true);
    stats_.whole = true;
    stats_.rows = n;
    return stats_;
  }
  r.index_gone();
  r.keep_entries(d_, prev_);
  r.whole_rows();
  r.find_watch();
  // Every other row, repaired.
  for (std::size_t p = 0; p < n; ++p)
    if (!r.full[p] && old_of_new[p] >= 0) r.repair_row(p);
  m_ = n;
  d_ = std::move(r.df);
  prev_ = std::move(r.pv);
  track_.d = std::move(r.dd);
  track_.off = g.off, track_.to = g.to, track_.w = g.w;
  return stats_;
}

}  // namespace navbench
