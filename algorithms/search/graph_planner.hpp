// GraphPlanner<R>: every graph representation as a Planner (search/planner.hpp). One implementation
// for every type modelling the Representation concept (representations/representation.hpp): it
// locates a query by the type's attachments, runs the shared A* (search/astar.hpp) or Theta* and
// Lazy Theta* (search/theta.hpp) on the per-query overlay of its graph, and turns the vertices found
// into the Outcome's path (or path with arcs) and corridor. Its facets: the graph (observers) and
// its drawing (the viewer). A representation with a query of its own (HasOwnSearch: recast's Detour)
// gets a sibling planner over the same build, OwnQuery<R>, for that search (WithOwnQuery<R>).
// Included where representations are registered (their folders' registration files) and by tests that
// build a representation type directly.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "representations/representation.hpp"
#include "search/astar.hpp"
#include "search/observer.hpp"
#include "search/planner.hpp"
#include "search/theta.hpp"

namespace navbench {

template <Representation R>
class GraphPlanner final : public Planner, public GraphView, public Drawing {
 public:
  // Forwards to R's constructor: (map, params) for a registered entry, (map, R) for the tangent graph.
  template <class... Args>
  explicit GraphPlanner(Args&&... args) : rep_(std::forward<Args>(args)...) {}

  void prepare() override { ws_.reserve(num_vertices(rep_.graph()) + 2); }
  BuildFigures figures() const override { return {rep_.stats(), std::nullopt}; }
  std::unique_ptr<Workspace> workspace() const override {
    auto ws = std::make_unique<SearchWorkspace>();
    ws->reserve(num_vertices(rep_.graph()) + 2);
    return ws;
  }

  // Attaches both points (a representation with role-specific attachments, visgraph: start links only
  // to the states a path from it arrives in, goal links only from those that leave towards it, uses
  // them); a point it does not cover is not_covered, points in different components no_path without
  // a search. A representation that may miss a path (HasMissReason) says no_path with its reason.
  std::optional<Outcome> locate(Query& q, const Request&) const override {
    auto s = [&] {
      if constexpr (HasRoleAttach<R>) return rep_.attach_start(q.start);
      else return rep_.attach(q.start);
    }();
    auto g = [&] {
      if constexpr (HasRoleAttach<R>) return rep_.attach_goal(q.goal);
      else return rep_.attach(q.goal);
    }();
    if (!s || !g) return refused(q, PlanStatus::not_covered);
    q.s = std::move(*s);
    q.g = std::move(*g);
    q.direct = rep_.direct(q);
    if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component) return refused(q, PlanStatus::no_path);
    return std::nullopt;
  }

  // The request's search on the overlay, then the path: for A* the representation's polyline (or its
  // path with arcs, the tangent graph of a disc) and corridor; for Theta* the chain of parents.
  // A representation that hands its path out in pieces (HasPieces) gives the first here, with
  // Outcome::more, unless the query is traced (an observer takes the whole path at once).
  Outcome plan(Query& q, const Request& r) const override {
    Outcome o;
    SearchWorkspace& ws = r.ws ? static_cast<SearchWorkspace&>(*r.ws) : ws_;
    const bool astar_search = r.search == SearchMode::astar;
    if (!astar_search && r.search != SearchMode::theta && r.search != SearchMode::lazy_theta)
      throw std::logic_error("a graph planner asked for a search it does not run");
    q.walk = {};
    if constexpr (HasRoute<R>) {
      if (astar_search && !r.observer && admissible_for<R>(*r.heuristic, q))
        if (const std::optional<bool> routed = rep_.route(q)) {
          if (!*routed) return o;  // no path
          o.status = PlanStatus::found;
          o.more = rep_.first_piece(q, o.path);
          merge_repeated_points(o.path);
          if (!o.more) walked(q, o);
          return o;
        }
    }
    const double cost = astar_search ? run_astar(q, *r.heuristic, o.stats, ws, r.observer)
                                     : any_angle(q, *r.heuristic, r.search, *r.sees, o.stats, o.path, ws, r.observer);
    if (!std::isfinite(cost)) {
      o.status = PlanStatus::no_path;
      if constexpr (HasMissReason<R>) o.message = why(q);
      return o;
    }
    o.status = PlanStatus::found;
    o.cost = cost;
    if (astar_search) {
      if constexpr (HasDiscItems<R>) o.arcs = rep_.disc_items(q);
      if (o.arcs.empty()) {
        // Every raw path passes here (Theta*'s in any_angle): where its start or goal coincides with
        // its first or last portal point or vertex, the repeated point is merged.
        if constexpr (HasPieces<R>) {
          if (!r.observer) o.more = rep_.first_piece(q, o.path);
          else o.path = rep_.polyline(q);
        } else {
          o.path = rep_.polyline(q);
        }
        merge_repeated_points(o.path);
        if constexpr (HasCorridor<R>) o.corridor = rep_.corridor(q);
      }
    }
    if (r.observer) {  // the path it found, for the trace's end event; a path with arcs by its points
      Polyline drawn = o.path;
      for (const PathItem& it : o.arcs)
        if (!it.arc_centre) drawn.push_back(it.p);
      r.observer->path(drawn);
    }
    return o;
  }

  // The next piece (HasPieces): appended with the repeated point where it joins merged; after a
  // route's last piece, its cost and the vertices walked.
  void next_piece(Query& q, const Request&, Outcome& o) const override {
    if constexpr (HasPieces<R>) {
      const std::size_t before = o.path.size();
      o.more = rep_.next_piece(q, o.path);
      o.path.erase(std::unique(o.path.begin() + std::ptrdiff_t(before > 0 ? before - 1 : 0), o.path.end()), o.path.end());
      if (!o.more && q.walk.to >= 0) walked(q, o);
    } else {
      (void)q;
      o.more = false;
    }
  }

  void settle_owed() override {
    if constexpr (HasOwedWork<R>) rep_.derive_owed();
  }

  bool update(const Map& m, const std::vector<CellChange>& changed) override {
    if constexpr (HasUpdate<R>) {
      // An update that throws may leave the structure half changed: report "cannot", so the
      // caller rebuilds it (tests call R::update() directly and see the exception).
      try {
        return rep_.update(m, changed);
      } catch (const std::exception&) {
        return false;
      }
    } else {
      (void)m, (void)changed;
      return false;
    }
  }
  Facets facets() const override { return {this, this, nullptr}; }

  // GraphView
  std::size_t vertices() const override { return num_vertices(rep_.graph()); }
  Point point(Vertex v) const override { return Point(rep_.position(v)); }
  bool outline(Vertex v, std::vector<Point>& out) const override {
    out.clear();
    if constexpr (HasVertexOutline<R>) rep_.vertex_outline(v, out);
    else (void)v;
    return !out.empty();
  }
  // Drawing: the representation's own, or else its graph: every edge between vertex positions.
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

  const R& representation() const { return rep_; }

 private:
  // A route's figures once walked (HasRoute): its cost and the vertices walked.
  static void walked(const Query& q, Outcome& o) {
    o.cost = q.walk.cost;
    o.stats.expansions += std::size_t(q.walk.steps);
  }
  // Why a representation that may miss a path answered no_path (its miss_reason, never empty).
  std::string why(const Query& q) const {
    std::string w = rep_.miss_reason(q);
    return w.empty() ? "found no path (it may miss one that exists)" : w;
  }
  Outcome refused(const Query& q, PlanStatus status) const {
    Outcome o;
    o.status = status;
    if constexpr (HasMissReason<R>) {
      o.status = PlanStatus::no_path;  // a missed point or component is a missed path, never an error
      o.message = why(q);
    } else {
      (void)q;
    }
    return o;
  }
  // The A* without an observer (the code of every timed query), or observed (search/observer.hpp).
  double run_astar(Query& q, const Heuristic& h, SearchStats& stats, SearchWorkspace& ws, SearchObserver* obs) const {
    if (obs) return astar(rep_, q, h, ws, stats, Observed{obs});
    return astar(rep_, q, h, ws, stats);
  }
  // Theta* on a type whose edges are segments; the harness never asks the others (their entry has
  // no segment_edges), and not compiling it for them keeps the registrations' build short.
  double any_angle(Query& q, const Heuristic& h, SearchMode mode, const VisibleFn& visible, SearchStats& stats,
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
  mutable SearchWorkspace ws_;  // the planner's own (Request::ws null): one thread at a time
};

// A representation's own query as a planner (HasOwnSearch: recast's Detour findPath and
// findStraightPath), over the build of its graph planner: the search `--search detour` (SearchMode::
// detour). It places the points itself and gives its path without a corridor (Detour's
// findStraightPath has already pulled it through its own).
template <class R>
  requires HasOwnSearch<R>
class OwnQuery final : public Planner {
 public:
  static constexpr SearchMode kSearch = SearchMode::detour;
  explicit OwnQuery(const R& rep) : rep_(&rep) {}
  void prepare() override {}
  BuildFigures figures() const override { return {rep_->stats(), std::nullopt}; }
  std::unique_ptr<Workspace> workspace() const override { return std::make_unique<Workspace>(); }
  std::optional<Outcome> locate(Query&, const Request&) const override { return std::nullopt; }
  Outcome plan(Query& q, const Request&) const override {
    OwnAnswer a = rep_->own_search(q.start, q.goal);
    Outcome o;
    o.stats.generated = std::size_t(a.nodes);
    switch (a.status) {
      case OwnAnswer::Status::found:
        o.status = PlanStatus::found;
        o.path = std::move(a.path);
        o.cost = polyline_length(o.path);
        break;
      case OwnAnswer::Status::no_path:
        o.status = PlanStatus::no_path;
        o.message = a.reason;
        // A representation that may miss a path says why where its own query did not (q: the points).
        if constexpr (HasMissReason<R>) {
          if (o.message.empty()) o.message = rep_->miss_reason(q);
          if (o.message.empty()) o.message = "found no path (it may miss one that exists)";
        }
        break;
      case OwnAnswer::Status::error:
        o.status = PlanStatus::error;
        o.message = a.reason.empty() ? "the search failed" : a.reason;
        break;
    }
    return o;
  }

 private:
  const R* rep_;
};

// The planners of one build of a representation with a query of its own: its graph planner and,
// beside it, OwnQuery<R>; each query goes to the planner of its search. Prepared, measured, updated
// and drawn as the graph planner.
template <Representation R>
  requires HasOwnSearch<R>
class WithOwnQuery final : public Planner {
 public:
  template <class... Args>
  explicit WithOwnQuery(Args&&... args) : graph_(std::forward<Args>(args)...), own_(graph_.representation()) {}
  void prepare() override { graph_.prepare(); }
  BuildFigures figures() const override { return graph_.figures(); }
  std::unique_ptr<Workspace> workspace() const override { return graph_.workspace(); }
  std::optional<Outcome> locate(Query& q, const Request& r) const override { return of(r).locate(q, r); }
  Outcome plan(Query& q, const Request& r) const override { return of(r).plan(q, r); }
  bool update(const Map& m, const std::vector<CellChange>& changed) override { return graph_.update(m, changed); }
  void settle_owed() override { graph_.settle_owed(); }
  Facets facets() const override { return graph_.facets(); }
  const R& representation() const { return graph_.representation(); }

 private:
  const Planner& of(const Request& r) const {
    if (r.search == OwnQuery<R>::kSearch) return own_;
    return graph_;
  }
  GraphPlanner<R> graph_;
  OwnQuery<R> own_;
};

// The planner of a built representation type: its graph planner, with its own query beside it when it has one.
template <Representation R, class... Args>
std::unique_ptr<Planner> make_planner(Args&&... args) {
  if constexpr (HasOwnSearch<R>) return std::make_unique<WithOwnQuery<R>>(std::forward<Args>(args)...);
  else return std::make_unique<GraphPlanner<R>>(std::forward<Args>(args)...);
}

}  // namespace navbench
