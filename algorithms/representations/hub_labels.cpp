// Hub labels over a graph's vertices (hub_labels.hpp): the order, the pruned Dijkstras, the query.
#include "representations/hub_labels.hpp"

#include <algorithm>
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

HubLabels::HubLabels(const CsrGraph& g, std::size_t samples, std::size_t max_bytes) {
  const std::size_t n = num_vertices(g);
  vertex_ = order(g, samples);
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t k = 0; k < n; ++k) rank[vertex_[k]] = k;
  struct Entry {
    std::uint32_t hub, next;
    double d;
  };
  std::vector<std::vector<Entry>> label(n);
  std::vector<double> root_d(n, kInf), dist(n, kInf);  // root_d: the root's label, by hub rank
  std::vector<std::uint32_t> pred(n), seen;
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  const CsrWeightMap w = weight_map(g);
  const std::size_t max_entries = max_bytes / kEntryBytes;
  std::size_t entries = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t r = vertex_[k];
    for (const Entry& e : label[r]) root_d[e.hub] = e.d;
    dist[r] = 0;
    pred[r] = r;
    seen.push_back(r);
    pq.push({0.0, r});
    while (!pq.empty()) {
      const auto [du, u] = pq.top();
      pq.pop();
      if (du > dist[u]) continue;
      // Pruned: the labels made so far already give a path r-u no longer than du.
      bool pruned = false;
      for (const Entry& e : label[u])
        if (root_d[e.hub] + e.d <= du) {
          pruned = true;
          break;
        }
      if (pruned) continue;
      if (++entries > max_entries)
        throw UnsupportedMap("hub labels above " + std::to_string(max_bytes >> 20) + " MiB after " + std::to_string(k) +
                             " of " + std::to_string(n) + " roots (raise labels_mb)");
      label[u].push_back({k, pred[u], du});
      for (auto [it, end] = out_edges(u, g); it != end; ++it) {
        const std::uint32_t v = target(*it, g);
        if (rank[v] < k) continue;  // an earlier root: its labels already give d(r, v), it would be pruned
        const double dv = du + get(w, *it);
        if (dv < dist[v]) {
          if (dist[v] == kInf) seen.push_back(v);
          dist[v] = dv;
          pred[v] = u;
          pq.push({dv, v});
        }
      }
    }
    for (std::uint32_t v : seen) dist[v] = kInf;
    seen.clear();
    for (const Entry& e : label[r]) root_d[e.hub] = kInf;
  }
  // Into the flat arrays, each vertex's list freed as soon as it is copied and the freed memory
  // handed back to the system as it adds up (release_freed), so the lists (16 bytes an entry plus
  // their growth slack) and the arrays (kEntryBytes) are not resident together (the peak before
  // and after, and the build time it costs: docs/measurements.md, subgoal:labels=1).
  off_.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) off_[v + 1] = off_[v] + std::uint32_t(label[v].size());
  hub_.reserve(off_[n]);
  dist_.reserve(off_[n]);
  next_.reserve(off_[n]);
  constexpr std::size_t kRelease = std::size_t(8) << 20;  // small labels: no call at all
  std::size_t freed = 0;
  for (auto& l : label) {
    for (const Entry& e : l) hub_.push_back(e.hub), dist_.push_back(e.d), next_.push_back({0, e.next});
    freed += l.capacity() * sizeof(Entry);
    std::vector<Entry>().swap(l);
    if (freed > kRelease) release_freed(), freed = 0;
  }
  std::vector<std::vector<Entry>>().swap(label);
  if (off_[n] * sizeof(Entry) > kRelease) release_freed();
  // Each entry's successor towards its hub: the same hub's entry in the next vertex's label (the
  // hub's own entry, in its own label, is its own successor).
  for (std::uint32_t k = 0; k < off_[n]; ++k) next_[k].entry = find(next_[k].vertex, hub_[k]);
}

std::uint32_t HubLabels::find(std::uint32_t v, std::uint32_t hub) const {
  const auto first = hub_.begin() + off_[v], last = hub_.begin() + off_[v + 1];
  return std::uint32_t(std::lower_bound(first, last, hub) - hub_.begin());  // the label holds the hub (hub_labels.hpp)
}

HubLabels::Meet HubLabels::best(std::span<const End> s, std::span<const End> g) const {
  // Per thread, per hub rank: the least start link + distance to the hub (+inf between queries).
  thread_local std::vector<double> fold;
  if (fold.size() < vertex_.size()) fold.assign(vertex_.size(), kInf);
  if (s.empty() || g.empty()) return {};
  auto least = [](std::span<const End> e) {
    std::uint32_t k = 0;
    for (std::uint32_t i = 1; i < e.size(); ++i)
      if (e[i].bound < e[k].bound) k = i;
    return k;
  };
  const std::uint32_t is = least(s), jg = least(g);
  // A real path's cost, so at least the optimum; kept a hair above it so that rounding in the
  // bounds never drops an end that ties.
  const double upper = (s[is].cost + distance(s[is].vertex, g[jg].vertex) + g[jg].cost) * (1 + 1e-9);
  // The start side folded into one array over hubs (a min without branches: the start link that
  // gave a hub its value is found again below, for the one hub that wins).
  double* d = fold.data();
  for (const End& e : s) {
    if (e.bound > upper) continue;
    for (std::uint32_t k = off_[e.vertex]; k < off_[e.vertex + 1]; ++k) d[hub_[k]] = std::min(d[hub_[k]], e.cost + dist_[k]);
  }
  Meet m;
  for (std::uint32_t j = 0; j < g.size(); ++j) {
    if (g[j].bound > upper) continue;
    const std::uint32_t v = g[j].vertex;
    for (std::uint32_t k = off_[v]; k < off_[v + 1]; ++k) {
      const double c = d[hub_[k]] + dist_[k] + g[j].cost;
      if (c < m.cost) m.cost = c, m.g = j, m.hub = hub_[k];
    }
  }
  // The start link whose label gave the winning hub its value (the same sum, so equal), and the
  // array back to +inf.
  double want = kInf;
  if (m.cost < kInf) want = d[m.hub];
  for (std::uint32_t i = 0; i < s.size(); ++i) {
    const End& e = s[i];
    if (e.bound > upper) continue;
    for (std::uint32_t k = off_[e.vertex]; k < off_[e.vertex + 1]; ++k) {
      if (hub_[k] == m.hub && e.cost + dist_[k] == want) m.s = i, want = -kInf;  // first such link
      d[hub_[k]] = kInf;
    }
  }
  return m;
}

void HubLabels::path(std::uint32_t a, std::uint32_t b, std::uint32_t hub, std::vector<std::uint32_t>& out) const {
  // Entry by entry, one read a step (no search in the next label). The two halves' reads do not
  // depend on each other: walked in step, two are in flight at once.
  thread_local std::vector<std::uint32_t> back;
  back.clear();
  out.push_back(a);
  back.push_back(b);
  std::uint32_t i = find(a, hub), j = find(b, hub);
  while (next_[i].entry != i && next_[j].entry != j) {
    out.push_back(next_[i].vertex);
    back.push_back(next_[j].vertex);
    i = next_[i].entry;
    j = next_[j].entry;
  }
  for (; next_[i].entry != i; i = next_[i].entry) out.push_back(next_[i].vertex);
  for (; next_[j].entry != j; j = next_[j].entry) back.push_back(next_[j].vertex);
  out.insert(out.end(), back.rbegin() + 1, back.rend());  // both halves end at the hub
}

double HubLabels::distance(std::uint32_t u, std::uint32_t v) const {
  double best = kInf;
  std::uint32_t i = off_[u], j = off_[v];
  while (i < off_[u + 1] && j < off_[v + 1]) {
    if (hub_[i] < hub_[j]) ++i;
    else if (hub_[j] < hub_[i]) ++j;
    else best = std::min(best, dist_[i++] + dist_[j++]);
  }
  return best;
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
