// The adapter that puts any type modelling the Representation concept
// (representations/representation.hpp) behind AnyRepresentation, binding it to the one shared A*
// (search/astar.hpp). Included where representations are registered (harness/registry/registry.cpp)
// and by tests that build a representation type directly.
#pragma once
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "geometry/radius_validity.hpp"
#include "representations/representation.hpp"
#include "search/any_representation.hpp"
#include "search/astar.hpp"
#include "search/observer.hpp"
#include "search/theta.hpp"

namespace navbench {

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
  double search(Query& q, const Heuristic& h, SearchStats& stats, SearchObserver* obs) override {
    return run_astar(q, h, stats, ws_, obs);
  }
  double search(Query& q, const Heuristic& h, SearchStats& stats, SearchWorkspace& ws,
                SearchObserver* obs) const override {
    return run_astar(q, h, stats, ws, obs);
  }
  double search_any_angle(Query& q, const Heuristic& h, SearchMode mode, VisibleFn visible, SearchStats& stats,
                          Polyline& path, SearchObserver* obs) override {
    return any_angle(q, h, mode, visible, stats, path, ws_, obs);
  }
  double search_any_angle(Query& q, const Heuristic& h, SearchMode mode, VisibleFn visible, SearchStats& stats,
                          Polyline& path, SearchWorkspace& ws, SearchObserver* obs) const override {
    return any_angle(q, h, mode, visible, stats, path, ws, obs);
  }
  std::size_t graph_vertices() const override { return num_vertices(rep_.graph()); }
  Point vertex_point(Vertex v) const override { return Point(rep_.position(v)); }
  bool vertex_outline(Vertex v, std::vector<Point>& out) const override {
    out.clear();
    if constexpr (HasVertexOutline<R>) rep_.vertex_outline(v, out);
    else (void)v;
    return !out.empty();
  }
  std::unique_ptr<SearchWorkspace> new_workspace() const override {
    auto ws = std::make_unique<SearchWorkspace>();
    ws->reserve(num_vertices(rep_.graph()) + 2);
    return ws;
  }
  // Every representation's raw path passes here (and through any_angle below): where its start or
  // goal coincides with its first or last portal point or vertex, the repeated point is merged.
  Polyline polyline(const Query& q) const override {
    Polyline p = rep_.polyline(q);
    merge_repeated_points(p);
    return p;
  }
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
  void visit_structure(const SegmentSink& emit) const override {
    if constexpr (HasStructure<R>) {
      rep_.structure(emit);
    } else {
      const auto& g = rep_.graph();
      for (Vertex v = 0; v < Vertex(num_vertices(g)); ++v)
        for (auto [it, end] = out_edges(v, g); it != end; ++it)
          if (Vertex u = Vertex(target(*it, g)); u > v) emit({rep_.position(v), rep_.position(u)});
    }
  }
  OwnAnswer own_search(Point start, Point goal) const override {
    if constexpr (HasOwnSearch<R>) return rep_.own_search(start, goal);
    else return {OwnAnswer::Status::error, {}, "no search of its own", 0};
  }
  std::string miss_reason(const Query& q) const override {
    if constexpr (HasMissReason<R>) return rep_.miss_reason(q);
    else return {};
  }
  std::vector<PathItem> disc_items(const Query& q) const override {
    if constexpr (HasDiscItems<R>) return rep_.disc_items(q);
    else return {};
  }
  std::size_t workspace_bytes() const override { return ws_.memory_bytes(); }
  const R& representation() const { return rep_; }

 private:
  // The A* without an observer (the code of every timed query), or observed (search/observer.hpp).
  double run_astar(Query& q, const Heuristic& h, SearchStats& stats, SearchWorkspace& ws, SearchObserver* obs) const {
    if (obs) return astar(rep_, q, h, ws, stats, Observed{obs});
    return astar(rep_, q, h, ws, stats);
  }
  // Theta* on a type whose edges are segments; the harness never asks the others (their entry has
  // no segment_edges), and not compiling it for them keeps the registry's build short.
  double any_angle(Query& q, const Heuristic& h, SearchMode mode, VisibleFn& visible, SearchStats& stats,
                   Polyline& path, SearchWorkspace& ws, SearchObserver* obs) const {
    if constexpr (HasSegmentEdges<R>) {
      const double cost = obs ? theta_star(rep_, q, h, mode, visible, ws, stats, path, Observed{obs})
                              : theta_star(rep_, q, h, mode, visible, ws, stats, path);
      merge_repeated_points(path);
      return cost;
    } else {
      (void)q, (void)h, (void)mode, (void)visible, (void)stats, (void)path, (void)ws, (void)obs;
      throw std::logic_error("any-angle search asked of a representation without segment edges");
    }
  }

  R rep_;
  SearchWorkspace ws_;
};

}  // namespace navbench
