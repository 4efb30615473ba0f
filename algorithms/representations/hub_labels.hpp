// Hub labels (a 2-hop cover) over a graph's vertices (visgraph's corners with labels=1, subgoal's
// subgoals with labels=1): every vertex v keeps a label L(v), a list of (hub, d(v, hub), next vertex
// towards the hub), such that for every two vertices u, v some hub on a shortest u-v path lies in
// both labels; then d(u, v) = min over common hubs h of d(u, h) + d(h, v) (Cohen, Halperin, Kaplan &
// Zwick, "Reachability and distance queries via 2-hop labels", SIAM J. Comput. 2003; for road
// networks Abraham, Delling, Goldberg & Werneck, "A hub-based labeling algorithm for shortest paths
// in road networks", SEA 2011). Built by pruned landmark labelling (Akiba, Iwata & Yoshida, "Fast
// exact shortest-path distance queries on large networks by pruned landmark labeling", SIGMOD
// 2013): vertices in a chosen order, a Dijkstra from each that stops at every vertex whose distance
// the labels made so far already give. The order: vertices that many shortest paths pass through
// first, estimated by the subtree sizes of the shortest-path trees of sampled roots (the sampling of
// Delling, Goldberg, Pajor & Werneck, "Robust distance queries on massive networks", ESA 2014, here
// without their re-sampling).
//
// A query (best()) joins a start's links (vertex, cost) and a goal's: min over start links a, goal
// links b and common hubs h of c_a + d(a, h) + d(h, b) + c_b, the start side's labels folded into
// one array over hubs first (cost: the links' label sizes, summed; no table of vertex pairs and no
// search). The path is read back from the labels: each entry names the next vertex towards its hub,
// whose own label holds that hub too (the pruned Dijkstra only expands vertices it labels), by the
// index of that entry, so path() walks from a vertex to the hub entry by entry, along the
// graph's edges.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include "representations/csr_graph.hpp"

namespace navbench {

class Landmarks;  // representations/landmarks.hpp

// An allocator that leaves the elements resize() adds uninitialised (trivial types), so that memory
// sized ahead and written later, in another order, is not made resident by zeroing it first.
template <class T>
struct UninitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

class HubLabels {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr double kSqrt2 = 1.41421356237309504880;  // M_SQRT2: the octile distances' diagonal
  // The roots whose shortest-path trees order the vertices by default: 16, 64 and 256 gave label
  // entries within a few per cent of each other on brc202d and Aurora (docs/measurements.md).
  static constexpr std::size_t kSamples = 64;
  HubLabels() = default;
  // Bytes a label entry takes once built (hub rank, distance, successor: memory_bytes()); with
  // octile step counts the distance takes 4 bytes instead of 8.
  static constexpr std::size_t kEntryBytes = 4 + sizeof(double) + 8, kOctileEntryBytes = 4 + 4 + 8;
  // g: an undirected graph (each edge stored both ways), weights >= 0. samples: roots whose
  // shortest-path trees decide the order (0: by degree). max_bytes: the most the entries may take
  // (kEntryBytes each); the build stops with UnsupportedMap as soon as they would take more (the
  // label size of a graph is not known before its labels are made, and on a large open map it can
  // outgrow the machine: both callers' parameter, labels_mb, says how much to allow).
  // edge_bit: optional, one bit per CSR entry of g (0 or 1; the caller's, e.g. the subgoal graph's
  // octile path shape): each label entry keeps the bit of the edge its pruned Dijkstra reached it
  // by, from the next vertex towards the hub, so that path() can hand it back per step.
  // octile_steps: optional, per CSR entry the edge's octile steps (straight | diagonal << 16) when
  // every weight is straight + diagonal * sqrt(2) (the subgoal graph's): distances are then kept as
  // exact step counts, packed into 4 bytes (the build stops with UnsupportedMap where the largest
  // counts need more than 32 bits), and every distance is a + b sqrt(2) computed from them.
  HubLabels(const CsrGraph& g, std::size_t samples, std::size_t max_bytes = std::size_t(-1),
            std::span<const std::uint8_t> edge_bit = {}, std::span<const std::uint32_t> octile_steps = {});

  // A query end: a vertex, the cost of the link from the query point to it, and a lower bound on
  // every start-goal path through that link (e.g. the link plus the straight line to the far end).
  struct End {
    std::uint32_t vertex;
    double cost, bound;
  };
  // The best start-hub-goal combination (cost +inf when no start link reaches a goal link).
  struct Meet {
    double cost = kInf;
    std::uint32_t s = 0, g = 0;  // indices into the start's and the goal's ends
    std::uint32_t hub = 0;       // the hub's rank
  };
  // The pair of least bounds gives an upper bound U on the optimum (a real path's cost), and every
  // end whose bound is not below U is left out (its paths are no shorter than one already had; the
  // pair itself stays). With landmarks (lm, over the labels' own graph; nullptr or none: the ends'
  // own bounds only) the survivors' bounds are raised by tighten() and pruned again. The side whose
  // labels are shorter is folded into one array over hubs; the other side's ends are scanned by
  // increasing bound until a bound reaches the best cost found.
  Meet best(std::span<const End> s, std::span<const End> g, const Landmarks* lm = nullptr) const;
  // Raises each start and goal end's bound by landmarks over the labels' own graph (a symmetric
  // table; none: nothing changes), the shared A*'s bound (search/astar.hpp, fold_landmarks; Goldberg
  // & Harrelson's ALT): over the far side's ends b, to = min d(L, b) + c_b and back = max d(L, b) -
  // c_b; an end a is then at least max(to - d(L, a), d(L, a) - back) from every far end, by the
  // triangle inequality in the graph alone. best() calls it; only the bounds change.
  static void tighten(const Landmarks& lm, std::span<End> s, std::span<End> g);
  // The vertices from a through the hub of rank `hub` to b (a first, b last), appended to out. Both
  // labels must hold that hub (as best()'s Meet has it).
  // With steps: per step out[i] -> out[i + 1] (appended to steps, one per step) the edge_bit of the
  // edge walked, in bit 0, and in bit 1 whether the step runs against the edge as the bit was given
  // (from out[i + 1] to out[i] in the CSR entry: the steps from a up to the hub).
  void path(std::uint32_t a, std::uint32_t b, std::uint32_t hub, std::vector<std::uint32_t>& out,
            std::vector<std::uint8_t>* steps = nullptr) const;
  // d(u, v) by the labels (+inf: not connected).
  double distance(std::uint32_t u, std::uint32_t v) const;

  std::size_t label_size(std::uint32_t v) const { return end_[v] - off_[v]; }
  // The entries themselves, for structures built on the labels (region-labels' per-region labels):
  // v's entries are label_begin(v) .. label_end(v) - 1, in increasing hub rank; per entry k the hub's
  // rank, d(v, hub), the next vertex towards the hub (v itself at the hub's own entry) and that
  // vertex's entry for the same hub (k itself at the hub's own entry).
  std::uint32_t label_begin(std::uint32_t v) const { return off_[v]; }
  std::uint32_t label_end(std::uint32_t v) const { return end_[v]; }
  std::uint32_t entry_hub(std::uint32_t k) const { return hub_[k]; }
  double entry_distance(std::uint32_t k) const {
    return pk_.empty() ? dist_[k] : double(pk_[k] & mask_) + double(pk_[k] >> shift_) * kSqrt2;
  }
  std::uint32_t entry_next(std::uint32_t k) const { return next_[k].vertex & kVertex; }
  std::uint32_t entry_next_entry(std::uint32_t k) const { return next_[k].entry; }
  std::uint32_t hub_vertex(std::uint32_t rank) const { return vertex_[rank]; }
  const std::uint32_t* hub_ranks() const { return hub_.data(); }                   // entry_hub(k) = hub_ranks()[k]
  const double* distances() const { return dist_.empty() ? nullptr : dist_.data(); }  // nullptr with octile step counts
  std::size_t vertices() const { return vertex_.size(); }
  bool empty() const { return off_.empty(); }
  std::size_t entries() const { return hub_.size(); }
  // Vertices the build's pruned Dijkstras settled (a heap pop and its pruning test or relaxations):
  // the work of making the labels, in the units the shared A*'s expansions are counted in (the
  // price of labels owed after an update, owed.hpp).
  std::uint64_t settled() const { return settled_; }
  std::size_t memory_bytes() const {
    return (off_.capacity() + end_.capacity() + hub_.capacity() + pk_.capacity() + vertex_.capacity()) * 4 + next_.capacity() * sizeof(Next) + dist_.capacity() * sizeof(double);
  }

 private:
  std::vector<std::uint32_t> order(const CsrGraph& g, std::size_t samples) const;
  // The index of the entry for `hub` in v's label (which must hold it).
  std::uint32_t find(std::uint32_t v, std::uint32_t hub) const;
  // Entries of vertex v: off_[v] .. end_[v] - 1, in increasing hub rank (the vertices' labels in
  // the order the build freed them, see the constructor); next_: per entry, the
  // next vertex towards the hub and the index of the same hub's entry in its label.
  template <class T>
  using Uninit = std::vector<T, UninitAllocator<T>>;
  std::vector<std::uint32_t> off_, end_;
  std::uint64_t settled_ = 0;
  Uninit<std::uint32_t> hub_;
  struct Next {
    std::uint32_t entry, vertex;  // vertex: the next vertex, its edge_bit in the top bit
  };
  static constexpr std::uint32_t kBit = std::uint32_t(1) << 31, kVertex = kBit - 1;
  Uninit<Next> next_;
  Uninit<double> dist_;          // the distances, or (octile) empty and:
  Uninit<std::uint32_t> pk_;     // straight steps in the low shift_ bits, diagonal steps above
  int shift_ = 0;
  std::uint32_t mask_ = 0;
  // Calls f with the entries' distance, k -> double (one of two types, so the loops stay branch-free).
  template <class F>
  auto with_distances(F&& f) const {
    struct Real {
      const double* d;
      double operator()(std::uint32_t k) const { return d[k]; }
    };
    struct Octile {
      const std::uint32_t* p;
      std::uint32_t mask;
      int shift;
      double operator()(std::uint32_t k) const { return double(p[k] & mask) + double(p[k] >> shift) * kSqrt2; }
    };
    return pk_.empty() ? f(Real{dist_.data()}) : f(Octile{pk_.data(), mask_, shift_});
  }
  std::vector<std::uint32_t> vertex_;  // rank -> vertex
};

}  // namespace navbench
