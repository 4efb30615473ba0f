// The registry of representations: name, description, factory. A new representation is one folder
// under algorithms/representations/ plus one line in registry.cpp; `navbench list` prints the
// registry and the conformance battery (tests/test_conformance.cpp) runs on every entry.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
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
  // A path with arcs (SPEC §6) for the found path, when the representation has one (the tangent
  // graph of a disc agent); empty otherwise: its path is polyline().
  virtual std::vector<PathItem> disc_items(const Query& q) const = 0;
};

template <class R>
concept HasDiscItems = requires(const R& r, const Query& q) {
  { r.disc_items(q) } -> std::same_as<std::vector<PathItem>>;
};

template <class R>
concept HasRoleAttach = requires(const R& r, Point p) {
  { r.attach_start(p) } -> std::same_as<std::optional<Attachment>>;
  { r.attach_goal(p) } -> std::same_as<std::optional<Attachment>>;
};

template <Representation R>
class Adapter final : public AnyRepresentation {
 public:
  Adapter(const Map& m, Params& p) : rep_(m, p) {}
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

struct RepresentationEntry {
  std::string name;
  std::string description;
  // Builds from a map; throws std::invalid_argument on unknown/bad parameters or an unsupported map.
  std::function<std::unique_ptr<AnyRepresentation>(const Map&, Params&)> build;
  // Its raw paths are shortest grid8 paths (grid8 itself, subgoal graphs): `--checkopt` then
  // requires their length to equal the scenario's optimum.
  bool grid8_optimal = false;
};

template <Representation R>
RepresentationEntry make_entry(std::string name, std::string description, bool grid8_optimal = false) {
  return {std::move(name), std::move(description),
          [](const Map& m, Params& p) -> std::unique_ptr<AnyRepresentation> { return std::make_unique<Adapter<R>>(m, p); },
          grid8_optimal};
}

const std::vector<RepresentationEntry>& representations();
// `visgraph` for a disc agent of radius R > 1e-9 (SPEC §6): the tangent graph behind the shared A*.
std::unique_ptr<AnyRepresentation> build_tangent_representation(const Map& m, double R);
const RepresentationEntry* find_representation(const std::string& name);

// `--rep` values (SPEC §5): "a,b,c" or "name:k=v,k=v". Each spec keeps the text as given.
struct RepresentationSpec {
  std::string text;    // as given: the `representation` column
  std::string name;
  std::string params;  // "k=v,..." or ""
};
std::vector<RepresentationSpec> parse_rep_option(const std::string& value);

// The harness's own key of a spec's parameters, `erode=centre|cell|none` (SPEC §6: how the map is shrunk
// by R before the representation builds on it; see geometry/erosion.hpp): removed from `params`
// and returned ("" when absent). Throws std::invalid_argument for another value.
// Default: centre (every representation on the one clearance grid). erode=cell keeps only the cells
// that are clear as a whole (Recast's conservative rounding, without its snapping of query points
// to the mesh: a query point in a dropped cell is reported as an error row, the price of that way).
// erode=none builds on the map itself: the search ignores the radius and only the smoother (los,
// funnel with radius) and the validity test know it (TRA*-style for the navmeshes).
std::string take_erode(std::string& params);

}  // namespace navbench
