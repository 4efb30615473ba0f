// The memory of one search, kept between queries (search/astar.hpp runs on it): per-vertex records
// reset in O(touched), the open list's storage, the goal's links. No Boost, so the harness can hold
// workspaces (one per thread) without the search's headers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "representations/types.hpp"
#include "search/planner.hpp"

namespace navbench {

// The goal's links. Most representations link the goal to a handful of vertices: those are kept in
// a small inline list scanned per expansion (no extra cache miss); larger sets (visibility graphs)
// use per-vertex marks reset in O(touched) by a stamp.
struct GoalLinks {
  static constexpr std::size_t kInline = 8;
  std::vector<std::uint32_t> stamp;  // stamp[v] == current => v links to the goal (large sets)
  std::vector<Link> link;            // link[v] valid when marked (large sets)
  Link small[kInline];
  Vertex small_vertex[kInline];
  std::size_t count = 0;
  std::uint32_t current = 0;
  std::size_t n_ = 0;

  // The per-vertex marks are allocated only when a query first spills (visibility graphs), so
  // graphs whose goal has a handful of links (grids, meshes) never pay O(V) memory for them.
  void reset(std::size_t n) {
    n_ = n;
    if (++current == 0) { std::fill(stamp.begin(), stamp.end(), 0); current = 1; }
    count = 0;
  }
  void mark(Vertex v, Vertex goal, double cost) {
    // a vertex listed twice keeps its cheaper link
    if (Link* l = find_mut(v)) {
      if (cost < l->cost) l->cost = cost;
      return;
    }
    if (count < kInline) {
      small[count] = {goal, cost};
      small_vertex[count] = v;
    }
    if (count == kInline && stamp.size() < n_) {
      stamp.resize(n_, 0);
      link.resize(n_);
    }
    if (count == kInline)  // spill the inline list into the marks
      for (std::size_t i = 0; i < kInline; ++i) { stamp[small_vertex[i]] = current; link[small_vertex[i]] = small[i]; }
    if (count >= kInline) { stamp[v] = current; link[v] = {goal, cost}; }
    ++count;
  }
  const Link* find(Vertex v) const { return const_cast<GoalLinks*>(this)->find_mut(v); }

 private:
  Link* find_mut(Vertex v) {
    if (count <= kInline) {
      for (std::size_t i = 0; i < count; ++i)
        if (small_vertex[i] == v) return &small[i];
      return nullptr;
    }
    return stamp[v] == current ? &link[v] : nullptr;
  }
};

// A graph planner's search memory (search/planner.hpp: one per thread).
class SearchWorkspace final : public Workspace {
 public:
  struct Record {
    double dist, cost;    // g and f
    Vertex pred;
    std::uint32_t heap;   // position in the open list's heap
    std::uint8_t color;   // kWhite: not reached yet; kGray: on the open list; kBlack: expanded
    bool dirty;           // written in this query: listed in touched_, reset by the next begin()
  };

  // Allocates for graphs of up to n vertices (virtual ones included) ahead of the first query.
  void reserve(std::size_t n) {
    begin(n);
    touched_.reserve(n);
    goal_links.reset(n);
  }
  // Starts a query on a graph of n vertices (virtual ones included): the records the last query
  // wrote go back to fresh (g = f = +inf, white, own predecessor), so every untouched record reads
  // fresh and the property maps read records with no per-read test.
  void begin(std::size_t n) {
    for (Vertex v : touched_) records_[v] = fresh(v);
    touched_.clear();
    if (records_.size() < n) {
      const std::size_t old = records_.size();
      records_.resize(n);
      for (std::size_t v = old; v < n; ++v) records_[v] = fresh(Vertex(v));
    }
  }
  const Record& record(Vertex v) const { return records_[v]; }
  // The record of v, for writing: listed for the next reset on its first write of the query.
  Record& touch(Vertex v) {
    Record& r = records_[v];
    if (!r.dirty) {
      r.dirty = true;
      touched_.push_back(v);
    }
    return r;
  }
  // For vertices already touched in this query (those on the heap).
  Record& touched_record(Vertex v) { return records_[v]; }
  std::size_t touched() const { return touched_.size(); }
  std::size_t memory_bytes() const {
    return records_.capacity() * sizeof(Record) + touched_.capacity() * sizeof(Vertex) +
           open_storage.capacity() * sizeof(OpenEntry) + goal_links.stamp.capacity() * 4 +
           goal_links.link.capacity() * sizeof(Link);
  }

  // The open list's storage, kept between queries so a query allocates nothing.
  struct OpenEntry {
    double f;
    Vertex v;
  };
  std::vector<OpenEntry> open_storage;

  GoalLinks goal_links;
  std::vector<Link> start_links;
  std::vector<double> landmark_goal;  // d(L_i, T) of the running query (ALT): min over goal links of d(L_i, g) + c
  std::vector<double> landmark_back;  // symmetric tables: max over goal links of d(L_i, g) - c; +inf for others
  std::vector<std::uint32_t> landmark_active;  // the landmarks this query evaluates (Landmarks::active())
  std::vector<std::pair<std::uint32_t, double>> goal_places;  // (place, link cost) of the goal (distance table)
  std::vector<double> goal_value;  // per goal place, the best start-to-goal cost through it (distance table)
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  // The colours of a search (Boost.Graph's default_color_type values, as the searches use them).
  static constexpr std::uint8_t kWhite = 0, kGray = 1, kBlack = 4;

 private:
  static Record fresh(Vertex v) { return {kInf, kInf, v, ~std::uint32_t(0), kWhite, false}; }

  std::vector<Record> records_;
  std::vector<Vertex> touched_;  // vertices whose records this query wrote
};

}  // namespace navbench
