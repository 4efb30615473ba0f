// The registry: one line per representation, with what it can do (representations/capabilities.hpp).
#include "harness/registry/make_entry.hpp"
#include "harness/registry/registry.hpp"

#include <stdexcept>

#include "harness/gppc/representation.hpp"
#include "representations/grid/grid.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "representations/navmesh_tiles/navmesh_tiles.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "representations/subgoal/subgoal.hpp"
#include "representations/tangent/tangent.hpp"
#include "representations/visgraph/visgraph.hpp"

namespace navbench {

namespace {
constexpr Capabilities kGrid{.grid_only = true, .point_vertices = true, .weights = true, .weights_in_place = true};
constexpr Capabilities kGrid8{.grid_only = true, .grid8_optimal = true, .point_vertices = true, .weights = true,
                              .weights_in_place = true};
constexpr Capabilities kMesh{.weights = true};
constexpr Capabilities kPoints{.point_vertices = true, .weights = true};
constexpr Capabilities kTiles{.grid_only = true, .weights = true};
constexpr Capabilities kSubgoal{.grid_only = true, .grid8_optimal = true, .point_vertices = true};
constexpr Capabilities kVisgraph{.exact = true, .point_vertices = true, .weights = true};

RepresentationEntry reference(RepresentationEntry e, std::string params) {
  e.reference_params = std::move(params);
  return e;
}
}  // namespace

const std::vector<RepresentationEntry>& representations() {
  static const std::vector<RepresentationEntry> entries = {
      make_entry<Grid4>("grid4", "4-connected grid, cells as vertices (implicit Boost.Graph)", kGrid),
      make_entry<Grid8>("grid8", "8-connected grid, diagonal sqrt(2), no corner cutting (implicit Boost.Graph)", kGrid8),
      make_entry<QuadTree>("quadtree", "quadtree navigation mesh: merged free cells, portal midpoints (min, merge, aspect)", kMesh),
      make_entry<NavMesh>("navmesh", "CGAL constrained Delaunay triangulation, triangles as nodes, edge midpoints (merge)", kMesh),
      make_entry<NavMeshTiles>("navmesh-tiles", "navmesh per square tile (CGAL per tile, Recast-style): updates triangulate only the changed tiles (tile)", kTiles),
      make_entry<NavMeshVertices>("navmesh-vertices", "CGAL constrained Delaunay triangulation, triangle corners as nodes", kPoints),
      make_entry<SubgoalGraph>("subgoal", "subgoal graph over convex corners, direct-h-reachable octile edges (up to 1,024 subgoals the simple graph's all-pairs table, table=1; else levels=16: N-level, 15 local layers; 1 simple, 2 two-level)", kSubgoal),
      // The optimum's reference is the plain variant (no block lists, skip edges or landmarks):
      // exact like every variant and the cheapest to build, as it is built once per map for few queries.
      reference(with_disc<TangentRepresentation>(make_entry<VisGraph>(
                    "visgraph",
                    "pruned visibility graph over convex corners (tangent edges only): the exact optimum (taut, alt=K landmarks, table=1 all-pairs heuristic); at --radius R > 0 the tangent graph of the disc (Chew 1985), paths with arcs; on weighted maps not exact: convex and weight-region corners (steiner=S: border points too), every valid pair priced by its cost integral (regions, max_nodes; alt and table only)",
                    kVisgraph)),
                "alt=0,block=0,skip=0,table=0"),
  };
  return entries;
}

const RepresentationEntry* find_representation(const std::string& name) {
  for (const auto& e : representations())
    if (e.name == name) return &e;
  // A competition entry (harness/gppc): only by name with its parameters, never in the batteries
  // that build every entry (it needs path= and track=).
  static const RepresentationEntry gppc_entry = gppc::registry_entry();
  if (name == gppc_entry.name) return &gppc_entry;
  return nullptr;
}

const RepresentationEntry* reference_representation() {
  for (const auto& e : representations())
    if (e.caps.exact) return &e;
  return nullptr;
}

const char* to_string(Erode e) {
  switch (e) {
    case Erode::cell: return "cell";
    case Erode::none: return "none";
    case Erode::centre: break;
  }
  return "centre";
}

namespace {

const RepresentationEntry& known(const std::string& n) {
  if (const RepresentationEntry* e = find_representation(n)) return *e;
  std::string names;
  for (const auto& e : representations()) names += (names.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown representation '" + n + "' (known: " + names + ")");
}

// Takes the harness's own key erode=centre|cell|none out of "k=v,..." (the rest stays in order).
std::optional<Erode> take_erode(std::string& params) {
  if (params.empty()) return std::nullopt;
  std::string kept;
  std::optional<Erode> erode;
  for (const std::string& kv : split_list(params)) {
    if (kv.rfind("erode=", 0) == 0) {
      const std::string v = kv.substr(6);
      if (v == "centre") erode = Erode::centre;
      else if (v == "cell") erode = Erode::cell;
      else if (v == "none") erode = Erode::none;
      else throw std::invalid_argument("erode must be centre, cell or none, got '" + v + "'");
    } else {
      kept += (kept.empty() ? "" : ",") + kv;
    }
  }
  params = kept;
  return erode;
}

}  // namespace

std::vector<RepresentationSpec> parse_rep_option(const std::string& value) {
  std::vector<RepresentationSpec> out;
  if (auto colon = value.find(':'); colon != std::string::npos) {
    RepresentationSpec s;
    s.text = value;
    s.entry = &known(value.substr(0, colon));
    s.params = value.substr(colon + 1);
    if (s.entry->name == "gppc") s.text = gppc::row_name(s.params);  // the entry's name, not its path
    s.erode = take_erode(s.params);
    // Keys and values are checked now, by building on a one-cell map, so a bad option fails the
    // command before any work (and not after the first map's results).
    static const Map probe = [] {
      GridMap g;
      g.width = g.height = 1;
      g.cells = {1};
      return make_grid_map(g, "probe");
    }();
    Params p = Params::parse(s.params);
    try {
      s.entry->build(probe, p);
    } catch (const UnsupportedMap&) {
    }
    out.push_back(s);
    return out;
  }
  for (const std::string& n : split_list(value)) {
    if (n.empty()) throw std::invalid_argument("empty representation name in --rep '" + value + "'");
    RepresentationSpec s;
    s.text = n;
    s.entry = &known(n);
    out.push_back(s);
  }
  return out;
}

}  // namespace navbench
