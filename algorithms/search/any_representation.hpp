// A built representation behind one small virtual interface (AnyRepresentation), and the adapter
// that puts any type modelling the Representation concept (representations/representation.hpp)
// behind it, binding it to the one shared A* (search/astar.hpp). The harness holds only these.
#pragma once
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "geometry/radius_validity.hpp"
#include "representations/representation.hpp"
#include "search/astar.hpp"

namespace navbench {

// A built representation behind one small virtual interface: a handful of virtual calls per query,
// while the A* inside search() is compiled for the concrete graph.
class AnyRepresentation {
 public:
  virtual ~AnyRepresentation() = default;
  // Joins start and goal to the graph; false when a point is not in the representation's free space.
  virtual bool locate(Query& q) const = 0;
  // The shared A*; returns the path cost (+inf when unreachable) and fills q.path.
  virtual double search(Query& q, const Heuristic& h, SearchStats& stats) = 0;
  // The same with the caller's search memory: the built representation is only read, so threads
  // each holding their own workspace may search it at once (`--threads N`).
  virtual double search(Query& q, const Heuristic& h, SearchStats& stats, SearchWorkspace& ws) const = 0;
  // A workspace sized for this representation (what the built-in one is, for one more thread).
  virtual std::unique_ptr<SearchWorkspace> new_workspace() const = 0;
  virtual Polyline polyline(const Query& q) const = 0;
  virtual std::optional<Corridor> corridor(const Query& q) const = 0;
  virtual BuildStats stats() const = 0;
  virtual std::size_t workspace_bytes() const = 0;
  // Sizes the built-in search workspace for the graph as it is now. The harness calls it after a
  // build or update is timed and before the first query, so neither a build's time nor a query's
  // pays for search memory (a search grows the workspace itself when this was not called). The
  // workspace is the search's, not the representation's: build_ms, rebuild_us and memory_bytes
  // leave it out alike (a 1024 x 1024 grid's is ~38 MB, ~0.1 s of first-touch page faults here).
  virtual void prepare() = 0;
  // The map's cells changed (m holds the new state): update in place and return true, or return
  // false when the representation has no incremental update (the caller rebuilds it).
  virtual bool update(const Map& m, const std::vector<CellChange>& changed) = 0;
  // True when update() may leave a structure other than a fresh build's (HasApproximateUpdate).
  virtual bool update_is_approximate() const = 0;
  // Line segments that draw the structure (empty when the representation offers none).
  virtual std::vector<Segment> structure() const = 0;
  // A path with arcs (docs/radius.md) for the found path, when the representation has one (the tangent
  // graph of a disc agent); empty otherwise: its path is polyline().
  virtual std::vector<PathItem> disc_items(const Query& q) const = 0;
};

template <Representation R>
class Adapter final : public AnyRepresentation {
 public:
  // Forwards to R's constructor: (map, params) for a registered entry, (map, R) for the tangent graph.
  template <class... Args>
  explicit Adapter(Args&&... args) : rep_(std::forward<Args>(args)...) {}
  void prepare() override { ws_.reserve(num_vertices(rep_.graph()) + 2); }
  bool locate(Query& q) const override {
    // A representation with role-specific attachments (visgraph: start links only to the states
    // a path from it arrives in, goal links only from the states that leave towards it) uses them.
    auto s = [&] {
      if constexpr (HasRoleAttach<R>) return rep_.attach_start(q.start);
      else return rep_.attach(q.start);
    }();
    auto g = [&] {
      if constexpr (HasRoleAttach<R>) return rep_.attach_goal(q.goal);
      else return rep_.attach(q.goal);
    }();
    if (!s || !g) return false;
    q.s = std::move(*s);
    q.g = std::move(*g);
    q.direct = rep_.direct(q);
    return true;
  }
  double search(Query& q, const Heuristic& h, SearchStats& stats) override {
    return astar(rep_, q, h, ws_, stats);
  }
  double search(Query& q, const Heuristic& h, SearchStats& stats, SearchWorkspace& ws) const override {
    return astar(rep_, q, h, ws, stats);
  }
  std::unique_ptr<SearchWorkspace> new_workspace() const override {
    auto ws = std::make_unique<SearchWorkspace>();
    ws->reserve(num_vertices(rep_.graph()) + 2);
    return ws;
  }
  Polyline polyline(const Query& q) const override { return rep_.polyline(q); }
  std::optional<Corridor> corridor(const Query& q) const override {
    if constexpr (HasCorridor<R>) return rep_.corridor(q);
    else return std::nullopt;
  }
  BuildStats stats() const override { return rep_.stats(); }
  bool update(const Map& m, const std::vector<CellChange>& changed) override {
    if constexpr (HasUpdate<R>) {
      // An update that throws may leave the structure half changed: report "cannot", so the
      // caller rebuilds it (tests call update() directly and see the exception).
      try {
        return rep_.update(m, changed);
      } catch (const std::exception&) {
        return false;
      }
    } else {
      return false;
    }
  }
  bool update_is_approximate() const override { return HasApproximateUpdate<R>; }
  // The representation's own drawing, or else its graph: every edge between vertex positions.
  std::vector<Segment> structure() const override {
    if constexpr (HasStructure<R>) {
      return rep_.structure();
    } else {
      std::vector<Segment> out;
      const auto& g = rep_.graph();
      for (Vertex v = 0; v < Vertex(num_vertices(g)); ++v)
        for (auto [it, end] = out_edges(v, g); it != end; ++it)
          if (Vertex u = Vertex(target(*it, g)); u > v) out.push_back({rep_.position(v), rep_.position(u)});
      return out;
    }
  }
  std::vector<PathItem> disc_items(const Query& q) const override {
    if constexpr (HasDiscItems<R>) return rep_.disc_items(q);
    else return {};
  }
  std::size_t workspace_bytes() const override { return ws_.memory_bytes(); }
  const R& representation() const { return rep_; }

 private:
  R rep_;
  SearchWorkspace ws_;
};

}  // namespace navbench
