// All-pairs distances between the places of a graph (the seed write-up's "indirect links": the
// precomputed corner-to-corner distances of a visibility graph), used by the shared A* as an exact
// heuristic (search/astar.hpp): h(v) = min over the goal's links (g, c) of D(place(v), place(g)) + c.
// D(p, q) is the least graph distance from any vertex of place p to any vertex of place q (a place
// groups vertices standing at one point, e.g. the two taut states of a corner), so it never exceeds
// the distance between two particular vertices: h is a lower bound on the distance to the goal
// (admissible; the shared A* reopens closed vertices, so admissible suffices for the optimum).
// On a visibility graph with one place per corner D is the geodesic distance and h is within
// float rounding of the true distance, so A* expands little more than the path. Distances are stored as float rounded
// towards zero (never above the double value), n_places^2 * 4 bytes; the constructor refuses
// tables above a byte budget (the caller reports it) rather than exhaust memory.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

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
    if (m_ * m_ * sizeof(float) > max_bytes)
      throw std::length_error(std::to_string(m_) + " places need a " + std::to_string(m_ * m_ * sizeof(float) >> 20) +
                              " MiB distance table, above the " + std::to_string(max_bytes >> 20) + " MiB budget");
    d_.assign(m_ * m_, std::numeric_limits<float>::infinity());
    const bool with_prev = m_ < kNoPrev;
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

  // The place before q on a shortest path from place p (p itself for q == p; kNoPrev when q is
  // unreachable, or when the table has kNoPrev places or more and keeps no predecessors). It is
  // the place of the predecessor of q's nearest vertex (the double distances decide): following
  // prev from q back to p gives a chain of graph arcs whose length is at most the double D(p, q)
  // (by induction on D: D(p, prev) <= dist(pred) = D(p, q) - w), so on a graph that holds the
  // shortest paths it is one.
  static constexpr std::uint16_t kNoPrev = 0xFFFF;
  bool has_prev() const { return !prev_.empty(); }
  std::uint16_t prev(std::uint32_t p, std::uint32_t q) const { return prev_[std::size_t(p) * m_ + q]; }

  bool empty() const { return m_ == 0; }
  std::size_t vertices() const { return place_.size(); }
  std::uint32_t place(Vertex v) const { return place_[v]; }
  // D(p, .) for place p: +inf where unreachable.
  const float* row(std::uint32_t p) const { return d_.data() + std::size_t(p) * m_; }
  std::size_t memory_bytes() const {
    return d_.capacity() * sizeof(float) + prev_.capacity() * sizeof(std::uint16_t) + place_.capacity() * sizeof(std::uint32_t);
  }

 private:
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
