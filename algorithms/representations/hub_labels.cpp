// Hub labels over a graph's vertices (hub_labels.hpp): the order, the pruned Dijkstras, the query.
#include "representations/hub_labels.hpp"

#include <algorithm>
#include <bit>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <functional>
#include <queue>
#include <string>
#include <utility>

#include "representations/dijkstra.hpp"
#include "representations/landmarks.hpp"
#include "representations/types.hpp"

namespace navbench {

namespace {
// Returns the heap's free pages to the system. glibc keeps small freed blocks resident (only the
// top of the heap is trimmed by itself); malloc_trim(0) also releases whole free pages inside the
// heap. Elsewhere nothing: the peak is then the lists' and the arrays' together.
void release_freed() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
}  // namespace

// Vertices by how many shortest paths pass through them, estimated over `samples` roots spread over
// the ids: each root's shortest-path tree adds to every vertex the size of its subtree (the paths
// from the root that pass through it). Ties (and samples = 0): higher degree first, then lower id.
std::vector<std::uint32_t> HubLabels::order(const CsrGraph& g, std::size_t samples) const {
  const std::size_t n = num_vertices(g);
  std::vector<double> score(n, 0), d(n);
  std::vector<Vertex> pred(n);
  std::vector<std::uint32_t> by_dist, size(n);
  samples = std::min(samples, n);
  for (std::size_t k = 0; k < samples; ++k) {
    const Vertex root = Vertex(k * n / samples);
    dijkstra(g, weight_map(g), std::span<const Vertex>(&root, 1), d, &pred);
    by_dist.clear();
    for (std::uint32_t v = 0; v < n; ++v)
      if (d[v] < kInf) by_dist.push_back(v);
    std::sort(by_dist.begin(), by_dist.end(), [&](std::uint32_t a, std::uint32_t b) { return d[a] < d[b]; });
    for (std::uint32_t v : by_dist) size[v] = 1;
    for (auto it = by_dist.rbegin(); it != by_dist.rend(); ++it) {
      score[*it] += size[*it];
      if (pred[*it] != *it) size[pred[*it]] += size[*it];
    }
  }
  std::vector<std::uint32_t> out(n);
  for (std::uint32_t v = 0; v < n; ++v) out[v] = v;
  std::sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (score[a] != score[b]) return score[a] > score[b];
    if (out_degree(a, g) != out_degree(b, g)) return out_degree(a, g) > out_degree(b, g);
    return a < b;
  });
  return out;
}

namespace {

// A label entry while the labels are made: the hub's rank, the vertex before it towards the hub
// (edge_bit in kBit), and the distance as a key: a double's bits, or (octile) the counts of
// straight and diagonal steps, a + b * 2^32, which add exactly.
struct ListEntry {
  std::uint32_t hub, next;
  std::uint64_t d;
};
using Lists = std::vector<std::vector<ListEntry>>;

template <bool Octile>
struct Key {
  static double value(std::uint64_t x) {
    if constexpr (Octile) return double(std::uint32_t(x)) + double(x >> 32) * HubLabels::kSqrt2;
    else return std::bit_cast<double>(x);
  }
  static std::uint64_t add(std::uint64_t x, std::uint64_t y) {
    if constexpr (Octile) return x + y;
    else return std::bit_cast<std::uint64_t>(value(x) + value(y));
  }
};

// The pruned Dijkstras (Akiba et al. 2013), one per root in rank order. Octile: each edge's
// distance is its step counts (steps, per CSR entry: straight | diagonal << 16), every distance a
// + b sqrt(2) computed from exact counts, so equal counts give equal doubles and the pruning test
// compares exact sums (distinct counts differ by far more than a rounding). settled: the vertices
// they settle, counted (HubLabels::settled()).
template <bool Octile>
Lists pruned_labels(const CsrGraph& g, const std::vector<std::uint32_t>& by_rank, std::span<const std::uint32_t> steps,
                    std::span<const std::uint8_t> edge_bit, std::size_t max_entries, std::size_t max_bytes, std::uint32_t bit,
                    std::uint64_t& settled) {
  using K = Key<Octile>;
  const std::size_t n = num_vertices(g);
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t k = 0; k < n; ++k) rank[by_rank[k]] = k;
  Lists label(n);
  constexpr std::uint64_t kNone = ~std::uint64_t(0);
  std::vector<std::uint64_t> root_d(n, kNone), key(n);  // root_d: the root's label, by hub rank
  std::vector<double> dist(n, HubLabels::kInf);
  std::vector<std::uint32_t> pred(n), seen;  // pred: the vertex before, edge_bit of the edge from it in `bit`
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  const CsrWeightMap w = weight_map(g);
  std::size_t entries = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t r = by_rank[k];
    for (const ListEntry& e : label[r]) root_d[e.hub] = e.d;
    dist[r] = 0;
    key[r] = Octile ? 0 : std::bit_cast<std::uint64_t>(0.0);
    pred[r] = r;
    seen.push_back(r);
    pq.push({0.0, r});
    while (!pq.empty()) {
      const auto [du, u] = pq.top();
      pq.pop();
      if (du > dist[u]) continue;
      ++settled;
      // Pruned: the labels made so far already give a path r-u no longer than du.
      bool pruned = false;
      for (const ListEntry& e : label[u])
        if (root_d[e.hub] != kNone && K::value(K::add(root_d[e.hub], e.d)) <= du) {
          pruned = true;
          break;
        }
      if (pruned) continue;
      if (++entries > max_entries)
        throw DeclaredCap("hub labels above " + std::to_string(max_bytes >> 20) + " MiB after " + std::to_string(k) +
                             " of " + std::to_string(n) + " roots (raise labels_mb)");
      // The lists grow by a quarter at a time, not double: their slack is most of the build's peak
      // memory above the finished labels (docs/measurements.md, subgoal:labels=1).
      std::vector<ListEntry>& l = label[u];
      if (l.size() == l.capacity()) l.reserve(l.size() + l.size() / 4 + 4);
      l.push_back({k, pred[u], key[u]});
      for (auto [it, end] = out_edges(u, g); it != end; ++it) {
        const std::uint32_t v = target(*it, g);
        if (rank[v] < k) continue;  // an earlier root: its labels already give d(r, v), it would be pruned
        std::uint64_t step;
        if constexpr (Octile) step = (steps[it->index] & 0xFFFF) | (std::uint64_t(steps[it->index] >> 16) << 32);
        else step = std::bit_cast<std::uint64_t>(double(get(w, *it)));
        const std::uint64_t kv = K::add(key[u], step);
        const double dv = K::value(kv);
        if (dv < dist[v]) {
          if (dist[v] == HubLabels::kInf) seen.push_back(v);
          dist[v] = dv;
          key[v] = kv;
          pred[v] = u | (edge_bit.empty() || !edge_bit[it->index] ? 0 : bit);
          pq.push({dv, v});
        }
      }
    }
    for (std::uint32_t v : seen) dist[v] = HubLabels::kInf;
    seen.clear();
    for (const ListEntry& e : label[r]) root_d[e.hub] = kNone;
  }
  return label;
}

}  // namespace

HubLabels::HubLabels(const CsrGraph& g, std::size_t samples, std::size_t max_bytes, std::span<const std::uint8_t> edge_bit,
                     std::span<const std::uint32_t> octile_steps) {
  const std::size_t n = num_vertices(g);
  if (n >= kBit) throw DeclaredCap("hub labels: more than 2^31 vertices");
  const bool octile = !octile_steps.empty();
  vertex_ = order(g, samples);
  const std::size_t max_entries = max_bytes / (octile ? kOctileEntryBytes : kEntryBytes);
  Lists label = octile ? pruned_labels<true>(g, vertex_, octile_steps, edge_bit, max_entries, max_bytes, kBit, settled_)
                       : pruned_labels<false>(g, vertex_, octile_steps, edge_bit, max_entries, max_bytes, kBit, settled_);
  // Octile: the packing of the counts, straight ones in the low shift_ bits, diagonal ones above.
  if (octile) {
    std::uint32_t most[2] = {0, 0};
    for (const auto& l : label)
      for (const ListEntry& e : l) most[0] = std::max(most[0], std::uint32_t(e.d)), most[1] = std::max(most[1], std::uint32_t(e.d >> 32));
    shift_ = int(std::bit_width(most[0]));
    if (shift_ + int(std::bit_width(most[1])) > 32 || shift_ >= 32)
      throw DeclaredCap("hub labels: step counts up to " + std::to_string(most[0]) + " straight and " + std::to_string(most[1]) +
                           " diagonal do not pack into 32 bits");
    mask_ = (std::uint32_t(1) << shift_) - 1;
  }
  // Into the flat arrays, each vertex's list freed as soon as it is copied and the freed memory
  // handed back to the system as it adds up (release_freed), so the lists (16 bytes an entry plus
  // their growth slack) and the arrays (kEntryBytes, or kOctileEntryBytes) are not resident
  // together (the peak before and after, and the build time it costs: docs/measurements.md,
  // subgoal:labels=1). The labels lie in the arrays in the order of the lists' addresses (off_ and
  // end_ say where each is), so both the freeing and the writing run in one direction: the memory
  // freed is one stretch of the heap, whole pages that the release hands back, and the arrays,
  // sized without being written (UninitAllocator), are resident only as far as they are written.
  std::vector<std::uint32_t> by_address(n);
  for (std::uint32_t v = 0; v < n; ++v) by_address[v] = v;
  std::sort(by_address.begin(), by_address.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::less<const ListEntry*>()(label[a].data(), label[b].data());
  });
  off_.assign(n, 0);
  end_.assign(n, 0);
  std::size_t total = 0;
  for (std::uint32_t v : by_address) off_[v] = std::uint32_t(total), total += label[v].size(), end_[v] = std::uint32_t(total);
  hub_.resize(total);
  (octile ? pk_.resize(total) : dist_.resize(total));
  next_.resize(total);
  constexpr std::size_t kRelease = std::size_t(1) << 20;  // small labels: no call at all
  std::size_t freed = 0;
  for (std::uint32_t v : by_address) {
    std::vector<ListEntry>& l = label[v];
    for (std::uint32_t i = 0, k = off_[v]; i < l.size(); ++i, ++k) {
      hub_[k] = l[i].hub;
      next_[k] = {0, l[i].next};
      if (octile) pk_[k] = std::uint32_t(l[i].d) | std::uint32_t((l[i].d >> 32) << shift_);
      else dist_[k] = std::bit_cast<double>(l[i].d);
    }
    freed += l.capacity() * sizeof(ListEntry);
    std::vector<ListEntry>().swap(l);
    if (freed > kRelease) release_freed(), freed = 0;
  }
  Lists().swap(label);
  if (total * sizeof(ListEntry) > kRelease) release_freed();
  // Each entry's successor towards its hub: the same hub's entry in the next vertex's label (the
  // hub's own entry, in its own label, is its own successor).
  for (std::uint32_t k = 0; k < total; ++k) next_[k].entry = find(next_[k].vertex & kVertex, hub_[k]);
}

std::uint32_t HubLabels::find(std::uint32_t v, std::uint32_t hub) const {
  const auto first = hub_.begin() + off_[v], last = hub_.begin() + end_[v];
  return std::uint32_t(std::lower_bound(first, last, hub) - hub_.begin());  // the label holds the hub (hub_labels.hpp)
}

HubLabels::Meet HubLabels::best(std::span<const End> s_in, std::span<const End> g_in, const Landmarks* lm) const {
  // Per thread: per hub rank the least fold-side link + distance to the hub (+inf between
  // queries); the surviving ends of each side with their indices in the caller's spans.
  thread_local std::vector<double> fold;
  thread_local std::vector<End> side[2];
  thread_local std::vector<std::uint32_t> index[2];
  if (fold.size() < vertex_.size()) fold.assign(vertex_.size(), kInf);
  if (s_in.empty() || g_in.empty()) return {};
  auto least = [](std::span<const End> e) {
    std::uint32_t k = 0;
    for (std::uint32_t i = 1; i < e.size(); ++i)
      if (e[i].bound < e[k].bound) k = i;
    return k;
  };
  std::uint32_t is = least(s_in), jg = least(g_in);
  // A real path's cost (the pair of least bounds), so at least the optimum: an end whose bound is
  // not below it can at best tie, and the pair itself is kept, so the optimum stays among the
  // survivors. (+inf: no pruning.)
  double upper = s_in[is].cost + distance(s_in[is].vertex, g_in[jg].vertex) + g_in[jg].cost;
  auto survivors = [&](int k, std::span<const End> in, std::uint32_t kept) {
    side[k].clear();
    index[k].clear();
    for (std::uint32_t i = 0; i < in.size(); ++i)
      if (i == kept || in[i].bound < upper) side[k].push_back(in[i]), index[k].push_back(i);
  };
  survivors(0, s_in, is);
  survivors(1, g_in, jg);
  // Landmark bounds (tighten) for the survivors alone: the far side's survivors hold the optimum's
  // far end, so bounds over them are bounds on every path that can still win; then prune again.
  if (lm && lm->k() > 0) {
    tighten(*lm, side[0], side[1]);
    // The pair of least bounds after the landmarks, when another, gives a second real path: the
    // upper bound is the cheaper of the two.
    const std::uint32_t ts = least(side[0]), tg = least(side[1]);
    if (index[0][ts] != is || index[1][tg] != jg) {
      const double again = side[0][ts].cost + distance(side[0][ts].vertex, side[1][tg].vertex) + side[1][tg].cost;
      if (again < upper) upper = again, is = index[0][ts], jg = index[1][tg];
    }
    for (int k = 0; k < 2; ++k) {
      const std::uint32_t kept = k == 0 ? is : jg;
      std::size_t w = 0;
      for (std::size_t i = 0; i < side[k].size(); ++i)
        if (index[k][i] == kept || side[k][i].bound < upper) side[k][w] = side[k][i], index[k][w++] = index[k][i];
      side[k].resize(w);
      index[k].resize(w);
    }
  }
  // Fold the side whose labels are shorter in all (the distances are symmetric: the graph is
  // undirected), then scan the other side's ends whose bound is below the best cost found (none
  // other can do better), the least bound first.
  std::size_t total[2] = {0, 0};
  for (int k = 0; k < 2; ++k)
    for (const End& e : side[k]) total[k] += label_size(e.vertex);
  const int f = total[0] <= total[1] ? 0 : 1, o = 1 - f;
  std::uint32_t mo = 0, mf = 0;
  const Meet m = with_distances([&](const auto& dist) {
    double* d = fold.data();
    for (const End& e : side[f])
      for (std::uint32_t k = off_[e.vertex]; k < end_[e.vertex]; ++k) d[hub_[k]] = std::min(d[hub_[k]], e.cost + dist(k));
    Meet best;
    auto scan = [&](std::uint32_t j) {
      const End& e = side[o][j];
      for (std::uint32_t k = off_[e.vertex]; k < end_[e.vertex]; ++k) {
        const double c = d[hub_[k]] + dist(k) + e.cost;
        if (c < best.cost) best.cost = c, mo = j, best.hub = hub_[k];
      }
    };
    // The end of least bound first (its cost is most often the optimum's or near it), then the
    // others in turn, each only while its bound is below the best cost found. (Sorting them by
    // bound to stop at the first that is not cost more than it saved: its mispredicted
    // comparisons made brc202d's visgraph:labels=1 queries 6 % slower, record 15 (k).)
    const std::uint32_t first = least(side[o]);
    scan(first);
    for (std::uint32_t j = 0; j < side[o].size(); ++j)
      if (j != first && side[o][j].bound < best.cost) scan(j);
    // The fold-side link whose label gave the winning hub its value (the same sum, so equal; the
    // first such link), its entry found by binary search (labels are sorted by hub rank); then the
    // array back to +inf, a plain pass over the folded labels.
    if (best.cost < kInf) {
      const double want = d[best.hub];
      for (std::uint32_t i = 0; i < side[f].size(); ++i) {
        const End& e = side[f][i];
        const auto first = hub_.begin() + off_[e.vertex], last = hub_.begin() + end_[e.vertex];
        const auto it = std::lower_bound(first, last, best.hub);
        if (it != last && *it == best.hub && e.cost + dist(std::uint32_t(it - hub_.begin())) == want) {
          mf = i;
          break;
        }
      }
    }
    for (const End& e : side[f])
      for (std::uint32_t k = off_[e.vertex]; k < end_[e.vertex]; ++k) d[hub_[k]] = kInf;
    return best;
  });
  Meet out = m;
  if (m.cost < kInf) {
    out.s = index[0][f == 0 ? mf : mo];
    out.g = index[1][f == 0 ? mo : mf];
  }
  return out;
}

void HubLabels::path(std::uint32_t a, std::uint32_t b, std::uint32_t hub, std::vector<std::uint32_t>& out,
                     std::vector<std::uint8_t>* steps) const {
  // Entry by entry, one read a step (no search in the next label). The two halves' reads do not
  // depend on each other: walked in step, two are in flight at once. Each half's step bits: from a
  // (or b) towards the hub, against the edges' direction (the Dijkstra from the hub reached each
  // vertex from the next one); the b half is reversed at the end, so its steps run along them.
  thread_local std::vector<std::uint32_t> back;
  thread_local std::vector<std::uint8_t> back_bits;
  back.clear();
  back_bits.clear();
  out.push_back(a);
  back.push_back(b);
  const std::size_t first = steps ? steps->size() : 0;
  auto step = [&](std::uint32_t& i, std::vector<std::uint32_t>& to, std::vector<std::uint8_t>* bits) {
    const std::uint32_t v = next_[i].vertex;
    to.push_back(v & kVertex);
    if (bits) bits->push_back(std::uint8_t(v >> 31));
    i = next_[i].entry;
  };
  std::vector<std::uint8_t>* bb = steps ? &back_bits : nullptr;
  std::uint32_t i = find(a, hub), j = find(b, hub);
  while (next_[i].entry != i && next_[j].entry != j) step(i, out, steps), step(j, back, bb);
  while (next_[i].entry != i) step(i, out, steps);
  while (next_[j].entry != j) step(j, back, bb);
  out.insert(out.end(), back.rbegin() + 1, back.rend());  // both halves end at the hub
  if (steps) {
    for (std::size_t k = first; k < steps->size(); ++k) (*steps)[k] |= 2;  // against the edge
    steps->insert(steps->end(), back_bits.rbegin(), back_bits.rend());
  }
}

double HubLabels::distance(std::uint32_t u, std::uint32_t v) const {
  return with_distances([&](const auto& dist) {
    double best = kInf;
    std::uint32_t i = off_[u], j = off_[v];
    while (i < end_[u] && j < end_[v]) {
      if (hub_[i] < hub_[j]) ++i;
      else if (hub_[j] < hub_[i]) ++j;
      else best = std::min(best, dist(i++) + dist(j++));
    }
    return best;
  });
}

void HubLabels::tighten(const Landmarks& lm, std::span<End> s, std::span<End> g) {
  const std::size_t k = lm.k();
  if (k == 0) return;
  thread_local std::vector<double> to, back;  // per-thread scratch: no allocation per query
  auto one_side = [&](std::span<End> ends, std::span<const End> far) {
    to.assign(k, kInf);
    back.assign(k, -kInf);
    for (const End& b : far) {
      const double* r = lm.row(b.vertex);
      for (std::size_t i = 0; i < k; ++i) to[i] = std::min(to[i], r[i] + b.cost), back[i] = std::max(back[i], r[i] - b.cost);
    }
    for (End& a : ends) {
      const double* r = lm.row(a.vertex);
      double lb = 0;
      for (std::size_t i = 0; i < k; ++i)
        if (r[i] < kInf && to[i] < kInf) lb = std::max({lb, to[i] - r[i], r[i] - back[i]});
      a.bound = std::max(a.bound, a.cost + lb);
    }
  };
  one_side(s, g);  // the far side's costs only: the first call's new bounds do not enter the second
  one_side(g, s);
}

}  // namespace navbench
