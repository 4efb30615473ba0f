// All-pairs distances between the places of a graph (the seed write-up's "indirect links": the
// precomputed corner-to-corner distances of a visibility graph), used by the shared A* as an exact
// heuristic (search/astar.hpp): h(v) = min over the goal's links (g, c) of D(place(v), place(g)) + c.
// D(p, q) is the least graph distance from any vertex of place p to any vertex of place q (a place
// groups vertices standing at one point, e.g. the two taut states of a corner), so it never exceeds
// the distance between two particular vertices: h is a lower bound on the distance to the goal
// (admissible; the shared A* reopens closed vertices, so admissible suffices for the optimum).
// On a visibility graph with one place per corner D is the geodesic distance and h is within
// float rounding of the true distance, so A* expands little more than the path. answer() goes
// further and answers a whole query from the table, with no search. Distances are stored as float
// rounded towards zero (never above the double value), n_places^2 * 4 bytes, and beside them each
// pair's predecessor place, 2 bytes (under kNoPrev places); the constructor refuses tables whose
// bytes exceed a budget (the caller reports it) rather than exhaust memory.
//
// On a changing map (docs/changing-maps.md) a table over an undirected graph of places (the second
// constructor: visgraph's corner graph, subgoal's simple subgoal graph) is repaired by update()
// instead of computed again: only the rows and entries the graph's change touches are
// (distance_table.cpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/csr_graph.hpp"
#include "representations/dijkstra.hpp"
#include "representations/representation.hpp"

namespace navbench {

class DistanceTable {
 public:
  DistanceTable() = default;
  // place[v] < places for every vertex v of g. Throws std::length_error beyond max_bytes.
  template <class G, class W>
  DistanceTable(const G& g, W w, std::vector<std::uint32_t> place, std::size_t places, std::size_t max_bytes)
      : place_(std::move(place)), m_(places) {
    const std::size_t n = num_vertices(g);
    const bool with_prev = m_ < kNoPrev;
    const std::size_t bytes = m_ * m_ * (sizeof(float) + (with_prev ? sizeof(std::uint16_t) : 0));
    if (bytes > max_bytes)
      throw std::length_error(std::to_string(m_) + " places need a " + std::to_string(bytes >> 20) +
                              " MiB distance table, above the " + std::to_string(max_bytes >> 20) + " MiB budget");
    d_.assign(m_ * m_, std::numeric_limits<float>::infinity());
    if (with_prev) prev_.assign(m_ * m_, kNoPrev);
    std::vector<std::vector<Vertex>> members(m_);
    for (std::size_t v = 0; v < n; ++v) members[place_[v]].push_back(Vertex(v));
    std::vector<double> dist(n), best(m_);
    std::vector<Vertex> pred(n);
    for (std::size_t p = 0; p < m_; ++p) {
      dijkstra(g, w, members[p], dist, with_prev ? &pred : nullptr);
      float* row = d_.data() + p * m_;
      std::fill(best.begin(), best.end(), std::numeric_limits<double>::infinity());
      for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t q = place_[v];
        if (!(dist[v] < best[q])) continue;
        best[q] = dist[v];
        float f = float(dist[v]);
        if (double(f) > dist[v]) f = std::nextafter(f, 0.0f);  // round towards zero: stays a lower bound
        row[q] = f;
        if (with_prev) prev_[p * m_ + q] = std::uint16_t(place_[pred[v]]);
      }
    }
  }
  // A table over an undirected graph whose vertices are the places themselves (each edge stored
  // both ways, every weight > 0): D(p, q) is its distance, prev(p, q) the vertex before q on a
  // shortest path. `place` maps the caller's query vertices to places, as above (e.g. visgraph's
  // two taut states of a corner to the corner: the corner graph's distances are the taut graph's
  // between places, both the geodesic distance between the corners). The rows are the same
  // Dijkstras as the first constructor's. Throws std::length_error beyond max_bytes.
  DistanceTable(const CsrGraph& places, std::vector<std::uint32_t> place, std::size_t max_bytes);

  // After the graph of places changed (docs/changing-maps.md): `places` the new graph (as the
  // constructor's), `place` the new vertex -> place map, old_of_new[p] the old id of new place p
  // (-1: a new place). Leaves the table the constructor would make of `places` (the same
  // distances, up to the last bits of a sum taken in another order; predecessors on shortest
  // paths). The first update computes every row (the constructor keeps no double distances: a
  // static map pays nothing for them) and keeps, from then on, the distances in doubles and the
  // graph they are of; the next ones repair (distance_table.cpp): new places and the ends of new
  // edges between kept places get their rows computed whole; in every other row the entries whose
  // shortest-path tree path lost an edge or a place are settled again from the rest over the kept
  // edges (Ramalingam & Reps, "An incremental algorithm for a generalization of the shortest-path
  // problem", J. Algorithms 1996, for deletions), then the entries that a new place or edge
  // shortens are lowered from the whole rows (their insertion algorithm; Demetrescu & Italiano, "A
  // new approach to dynamic all pairs shortest paths", J. ACM 2004, for the fully dynamic
  // problem). Above half the places new or at a new edge, every row is computed again.
  // Throws std::length_error beyond max_bytes, as the constructor; when the double distances do
  // not fit max_bytes besides, every update computes every row (nothing kept).
  struct UpdateStats {
    bool whole = false;             // every row computed
    std::size_t rows = 0;           // rows computed whole
    std::size_t repaired = 0;       // rows repaired (an entry settled again)
    std::size_t settled = 0;        // entries settled again by the repairs
  };
  UpdateStats update(const CsrGraph& places, std::vector<std::uint32_t> place, const std::vector<std::int32_t>& old_of_new,
                     std::size_t max_bytes);
  const UpdateStats& last_update() const { return stats_; }

  // The place before q on a shortest path from place p (p itself for q == p; kNoPrev when q is
  // unreachable, or when the table has kNoPrev places or more and keeps no predecessors). It is
  // the place of the predecessor of q's nearest vertex (the double distances decide): following
  // prev from q back to p gives a chain of graph arcs whose length is at most the double D(p, q)
  // (by induction on D: D(p, prev) <= dist(pred) = D(p, q) - w), so on a graph that holds the
  // shortest paths it is one.
  static constexpr std::uint16_t kNoPrev = 0xFFFF;
  // Costs within this of the least table bound `best` can still be optimal: D rounds towards zero
  // by at most 2^-23 relative, far inside the 1e-6 kept.
  static double keep_bound(double best) { return best * (1 + 1e-6) + 1e-9; }
  bool has_prev() const { return !prev_.empty(); }
  std::uint16_t prev(std::uint32_t p, std::uint32_t q) const { return prev_[std::size_t(p) * m_ + q]; }

  // The query answered from the table without a search (the seed write-up's "indirect links" taken
  // to the whole query): a shortest path that does not join start and goal directly leaves the start
  // by one of its links s, follows a shortest place-to-place path and reaches the goal by one of its
  // links g, so the optimum is min over s, g of c_s + D(s, g) + c_g. D is a float rounded towards
  // zero (within 2^-23 relative below), so every pair within 1e-6 relative of the least bound is a
  // candidate (the optimal pair always is); each candidate's place chain is read back from the
  // predecessors (graph arcs, so a real path, of length at most the double D) and priced in doubles
  // with arc(a, b), the weight the A* would add between places a and b; the cheapest is a real path
  // no longer than the optimum, hence optimal. lower(v): a lower bound on the distance from vertex v
  // to the goal (start links are read in increasing c_s + lower, so rows that cannot win are
  // skipped); vertex(p): the vertex of place p that q.path names. Fills q.path (empty when no link
  // pair connects) and returns the cost (+inf: none); steps counts the places walked. nullopt
  // without predecessors. The direct start-goal link is the caller's (it alone knows its cost).
  template <class Lower, class Arc, class VertexOf>
  std::optional<double> answer(Query& q, std::size_t& steps, Lower lower, Arc arc, VertexOf vertex) const {
    if (!has_prev()) return std::nullopt;
    q.path.clear();
    struct Candidate {
      double bound;
      std::uint32_t s, g;  // indices into q.s.links, q.g.links
    };
    thread_local std::vector<Candidate> cand;  // per-thread scratch: no allocation per query
    thread_local std::vector<std::uint32_t> goal_place, chain, best_chain;
    thread_local std::vector<std::pair<double, std::uint32_t>> order;
    cand.clear();
    goal_place.clear();
    order.clear();
    for (const Link& g : q.g.links) goal_place.push_back(place_[g.vertex]);
    const std::size_t ng = goal_place.size();
    for (std::uint32_t i = 0; i < q.s.links.size(); ++i) order.push_back({q.s.links[i].cost + lower(q.s.links[i].vertex), i});
    std::sort(order.begin(), order.end());
    double best = std::numeric_limits<double>::infinity(), keep = best;
    for (const auto& [bound, i] : order) {
      if (bound > keep) break;
      const double cs = q.s.links[i].cost;
      const float* r = row(place_[q.s.links[i].vertex]);
      for (std::uint32_t j = 0; j < ng; ++j) {
        const double v = cs + double(r[goal_place[j]]) + q.g.links[j].cost;
        if (!(v <= keep) || !(v < std::numeric_limits<double>::infinity())) continue;  // unreachable pairs too
        cand.push_back({v, i, j});
        if (v < best) best = v, keep = keep_bound(best);
      }
    }
    if (!std::isfinite(best)) return best;  // no start link reaches a goal link
    double exact = std::numeric_limits<double>::infinity();
    std::uint32_t bs = 0, bg = 0;
    for (const Candidate& k : cand) {
      if (k.bound > keep) continue;
      // The chain from the goal's place back to the start's, priced start side first (the order
      // the A* adds its arc weights in).
      const std::uint32_t sp = place_[q.s.links[k.s].vertex], gp = goal_place[k.g];
      chain.clear();
      for (std::uint32_t x = gp; x != sp; x = prev(sp, x)) {
        if (x == kNoPrev || chain.size() > m_) return std::nullopt;  // never: D(sp, gp) is finite
        chain.push_back(x);
      }
      steps += chain.size() + 1;
      double cost = q.s.links[k.s].cost;
      std::uint32_t at = sp;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) cost += arc(at, *it), at = *it;
      cost += q.g.links[k.g].cost;
      if (cost < exact) exact = cost, bs = k.s, bg = k.g, best_chain.swap(chain);
    }
    if (!std::isfinite(exact)) return exact;
    // The path's vertices: the start link's, a vertex at each place of the chain, the goal link's.
    q.path.push_back(q.s.links[bs].vertex);
    for (std::size_t i = best_chain.size(); i-- > 1;) q.path.push_back(vertex(best_chain[i]));
    if (!best_chain.empty()) q.path.push_back(q.g.links[bg].vertex);
    else if (q.g.links[bg].vertex != q.path.back()) q.path.push_back(q.g.links[bg].vertex);
    return exact;
  }

  bool empty() const { return m_ == 0; }
  std::size_t vertices() const { return place_.size(); }
  std::uint32_t place(Vertex v) const { return place_[v]; }
  // D(p, .) for place p: +inf where unreachable.
  const float* row(std::uint32_t p) const { return d_.data() + std::size_t(p) * m_; }
  std::size_t memory_bytes() const {
    return d_.capacity() * sizeof(float) + prev_.capacity() * sizeof(std::uint16_t) + place_.capacity() * sizeof(std::uint32_t) +
           track_.d.capacity() * sizeof(double) + (track_.off.capacity() + track_.to.capacity()) * sizeof(std::uint32_t) +
           track_.w.capacity() * sizeof(double);
  }

 private:
  // The graph of places in flat arrays (what update() diffs and searches).
  struct Flat {
    std::vector<std::uint32_t> off, to;  // CSR: the neighbours of p are to[off[p] .. off[p + 1] - 1]
    std::vector<double> w;
  };
  static Flat flatten(const CsrGraph& g);
  // Every row from g (distances in doubles into track_.d when keep).
  void compute_all(const Flat& g, bool keep);
  // A float rounded towards zero from a distance (a lower bound, as the constructors store).
  static float down(double x) {
    float f = float(x);
    if (double(f) > x) f = std::nextafter(f, 0.0f);
    return f;
  }
  // From the first update() on: the distances in doubles (m_ x m_) and the graph they are of.
  struct Track {
    std::vector<double> d;
    std::vector<std::uint32_t> off, to;
    std::vector<double> w;
  };
  Track track_;
  // update()'s working state and steps (distance_table.cpp).
  struct Repair;
  UpdateStats stats_;
  std::vector<std::uint32_t> place_;
  std::size_t m_ = 0;
  std::vector<float> d_;
  std::vector<std::uint16_t> prev_;  // m_ x m_ predecessor places (empty when m_ >= kNoPrev)
};

// A representation that offers an all-pairs table (nullptr: none this build).
template <class R>
concept HasDistanceTable = requires(const R& r) {
  { r.distance_table() } -> std::same_as<const DistanceTable*>;
};

}  // namespace navbench
