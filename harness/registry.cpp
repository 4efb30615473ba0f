#include "harness/registry.hpp"

#include <cstdio>
#include <stdexcept>

#include "representations/grid/grid.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "representations/navmesh_tiles/navmesh_tiles.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "representations/subgoal/subgoal.hpp"
#include "representations/tangent/tangent.hpp"
#include "representations/visgraph/visgraph.hpp"

namespace navbench {

const std::vector<RepresentationEntry>& representations() {
  static const std::vector<RepresentationEntry> entries = {
      make_entry<Grid4>("grid4", "4-connected grid, cells as vertices (implicit Boost.Graph)"),
      make_entry<Grid8>("grid8", "8-connected grid, diagonal sqrt(2), no corner cutting (implicit Boost.Graph)", true),
      make_entry<QuadTree>("quadtree", "quadtree navigation mesh: merged free cells, portal midpoints (min, merge, aspect)"),
      make_entry<NavMesh>("navmesh", "CGAL constrained Delaunay triangulation, triangles as nodes, edge midpoints (merge)"),
      make_entry<NavMeshTiles>("navmesh-tiles", "navmesh per square tile (CGAL per tile, Recast-style): updates triangulate only the changed tiles (tile)"),
      make_entry<NavMeshVertices>("navmesh-vertices", "CGAL constrained Delaunay triangulation, triangle corners as nodes"),
      make_entry<SubgoalGraph>("subgoal", "subgoal graph over convex corners, direct-h-reachable octile edges (levels=16 default: N-level, 15 local layers; 1 simple, 2 two-level)", true),
      make_entry<VisGraph>(
          "visgraph",
          "pruned visibility graph over convex corners (tangent edges only): the exact optimum (taut, alt=K landmarks, table=1 all-pairs heuristic); at --radius R > 0 the tangent graph of the disc (Chew 1985), paths with arcs"),
  };
  return entries;
}

std::unique_ptr<AnyRepresentation> build_tangent_representation(const Map& m, double R) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "radius=%.17g", R);  // reads back to the same double
  Params p = Params::parse(buf);
  return std::make_unique<Adapter<TangentRepresentation>>(m, p);
}

const RepresentationEntry* find_representation(const std::string& name) {
  for (const auto& e : representations())
    if (e.name == name) return &e;
  return nullptr;
}

std::string take_erode(std::string& params) {
  std::string kept, erode;
  std::size_t pos = 0;
  while (pos <= params.size()) {
    std::size_t comma = params.find(',', pos);
    if (comma == std::string::npos) comma = params.size();
    const std::string kv = params.substr(pos, comma - pos);
    if (kv.rfind("erode=", 0) == 0) {
      erode = kv.substr(6);
      if (erode != "centre" && erode != "cell" && erode != "none")
        throw std::invalid_argument("erode must be centre, cell or none, got '" + erode + "'");
    } else if (!kv.empty() || comma < params.size()) {
      kept += (kept.empty() ? "" : ",") + kv;
    }
    pos = comma + 1;
  }
  params = kept;
  return erode;
}

std::vector<RepresentationSpec> parse_rep_option(const std::string& value) {
  auto known = [](const std::string& n) {
    if (find_representation(n)) return;
    std::string names;
    for (const auto& e : representations()) names += (names.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument("unknown representation '" + n + "' (known: " + names + ")");
  };
  std::vector<RepresentationSpec> out;
  if (auto colon = value.find(':'); colon != std::string::npos) {
    RepresentationSpec s{value, value.substr(0, colon), value.substr(colon + 1)};
    known(s.name);
    // Keys and values are checked now, by building on a one-cell map, so a bad option fails the
    // command before any work (and not after the first map's results).
    static const Map probe = [] {
      GridMap g;
      g.width = g.height = 1;
      g.cells = {1};
      return make_grid_map(g, "probe");
    }();
    std::string rest = s.params;
    take_erode(rest);
    Params p = Params::parse(rest);
    try {
      find_representation(s.name)->build(probe, p);
    } catch (const UnsupportedMap&) {
    }
    out.push_back(s);
    return out;
  }
  std::size_t pos = 0;
  while (pos <= value.size()) {
    std::size_t comma = value.find(',', pos);
    if (comma == std::string::npos) comma = value.size();
    std::string n = value.substr(pos, comma - pos);
    if (n.empty()) throw std::invalid_argument("empty representation name in --rep '" + value + "'");
    known(n);
    out.push_back({n, n, ""});
    pos = comma + 1;
  }
  return out;
}

}  // namespace navbench
