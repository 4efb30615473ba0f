// The registry: one line per representation; what it can do and its parameters are declared on its
// type (kCapabilities, kParams) and checked by make_entry.
#include "harness/registry/make_entry.hpp"
#include "harness/registry/registry.hpp"

#include <stdexcept>

#include "harness/gppc/representation.hpp"
#include "representations/cpd/cpd.hpp"
#include "representations/grid/grid.hpp"
#include "representations/meshfile/meshfile.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "representations/navmesh_tiles/navmesh_tiles.hpp"
#include "representations/prm/prm.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "representations/recast/recast.hpp"
#include "representations/subgoal/subgoal.hpp"
#include "representations/tangent/tangent.hpp"
#include "representations/visgraph/visgraph.hpp"

namespace navbench {

namespace {
RepresentationEntry reference(RepresentationEntry e, std::string params) {
  e.reference_params = std::move(params);
  return e;
}
}  // namespace

const std::vector<RepresentationEntry>& representations() {
  static const std::vector<RepresentationEntry> entries = {
      make_entry<Grid4>("grid4", "4-connected grid, cells as vertices (implicit Boost.Graph)"),
      make_entry<Grid8>("grid8", "8-connected grid, diagonal sqrt(2), no corner cutting (implicit Boost.Graph)"),
      make_entry<QuadTree>("quadtree", "quadtree navigation mesh: merged free cells, portal midpoints (min, merge, aspect)"),
      make_entry<NavMesh>("navmesh", "CGAL constrained Delaunay triangulation, triangles as nodes, edge midpoints (merge)"),
      make_entry<NavMeshTiles>("navmesh-tiles", "navmesh per square tile (CGAL per tile, Recast-style): updates triangulate only the changed tiles (tile)"),
      make_entry<MeshFile>("navmesh-file", "navmesh on the convex polygons of the navigation mesh the map was read from (Polyanya's .mesh), portal midpoints; other maps: not supported"),
      make_entry<NavMeshVertices>("navmesh-vertices", "CGAL constrained Delaunay triangulation, triangle corners as nodes"),
      make_entry<RecastMesh>("recast", "Recast/Detour navigation mesh (librecast, docs/recast.md): voxelised walkable area, regions, simplified contours, convex polygons; searched between portal midpoints like navmesh"),
      make_entry<Prm>("prm", "probabilistic roadmap (Kavraki et al. 1996): samples seeded free points, each joined to its k nearest (Boost.Geometry rtree) where the segment is valid; may miss a path that exists"),
      make_entry<PrmStar>("prm-star", "PRM* (Karaman & Frazzoli 2011): samples seeded free points joined within the radius gamma sqrt(6 A / pi) (log n / n)^(1/2), A the free area; asymptotically optimal; may miss a path that exists"),
      make_entry<CompressedPathDatabase>("cpd", "compressed path database (SRC, Strasser, Harabor & Botea 2014): grid8's first moves between all free cells, one Dijkstra each (threads), rows run-length encoded over a DFS order; a query walks first moves, no search (max_cells, cache=DIR; docs/cpd.md)"),
      make_entry<SubgoalGraph>("subgoal", "subgoal graph over convex corners, direct-h-reachable octile edges (up to 1,024 subgoals the simple graph's all-pairs table, table=1; else levels=16: N-level, 15 local layers; 1 simple, 2 two-level)"),
      // The optimum's reference is the plain variant (no block lists, skip edges or landmarks):
      // exact like every variant and the cheapest to build, as it is built once per map for few queries.
      reference(make_entry<VisGraph, TangentRepresentation>(
                    "visgraph",
                    "pruned visibility graph over convex corners (tangent edges only): the exact optimum (taut, alt=K landmarks, table=1 all-pairs heuristic); at --radius R > 0 the tangent graph of the disc (Chew 1985), paths with arcs; on weighted maps not exact: convex and weight-region corners (steiner=S: border points too), every valid pair priced by its cost integral (regions, max_nodes; alt and table only)"),
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

namespace {

const RepresentationEntry& known(const std::string& n) {
  if (const RepresentationEntry* e = find_representation(n)) return *e;
  std::string names;
  for (const auto& e : representations()) names += (names.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown representation '" + n + "' (known: " + names + ")");
}

// "name:k=v,...", checked against the entry's declaration: every key declared (erode: the harness's
// key of a shrunk-map entry), every value of its declared type and range, no declared clash. The
// representation's own keys stay in `params` (in order), erode becomes the typed field.
RepresentationSpec parse_spec(const std::string& value, std::size_t colon) {
  RepresentationSpec s;
  s.text = value;
  if (value.substr(0, colon).find(',') != std::string::npos)
    throw std::invalid_argument("--rep '" + value + "': a list of names takes no parameters, and a name with parameters " +
                                "is given alone (one --rep each: --rep " + value.substr(0, value.substr(0, colon).rfind(',')) +
                                " --rep " + value.substr(value.substr(0, colon).rfind(',') + 1) + ")");
  s.entry = &known(value.substr(0, colon));
  const std::string given = value.substr(colon + 1);
  if (s.entry->name == "gppc") {  // a competition entry: its own check, rows named by name=, never the path
    gppc::check_spec(given);
    s.text = gppc::row_name(given);
    s.params = given;
    return s;
  }
  std::vector<ParamDecl> declared(s.entry->params.begin(), s.entry->params.end());
  if (s.entry->caps.radius == RadiusSupport::shrunk_map) declared.push_back(kErodeParam);
  Params::parse(given).check(declared, s.entry->clashes, s.entry->name);
  for (const std::string& kv : given.empty() ? std::vector<std::string>{} : base::split_list(given)) {
    if (kv.rfind(std::string(kErodeParam.name) + "=", 0) == 0) {
      Params e = Params::parse(kv);
      s.erode = Erosion(e.choice(kErodeParam));  // the choice's index is the Erosion value
    } else {
      s.params += (s.params.empty() ? "" : ",") + kv;
    }
  }
  return s;
}

}  // namespace

std::string RepresentationSpec::build_params(const Params& read, bool shrunk) const {
  std::string out = read.canonical();
  if (shrunk && caps().radius == RadiusSupport::shrunk_map)
    out = std::string(kErodeParam.name) + "=" + to_string(erosion()) + (out.empty() ? "" : "," + out);
  return out;
}

std::vector<RepresentationSpec> parse_rep_option(const std::string& value) {
  std::vector<RepresentationSpec> out;
  if (auto colon = value.find(':'); colon != std::string::npos) {
    // Checked now, against the declaration, so a bad option fails the command before any work.
    out.push_back(parse_spec(value, colon));
    return out;
  }
  for (const std::string& n : base::split_list(value)) {
    if (n.empty()) throw std::invalid_argument("empty representation name in --rep '" + value + "'");
    RepresentationSpec s;
    s.text = n;
    s.entry = &known(n);
    if (n == "gppc") gppc::check_spec("");  // an entry needs path= and track=: says so now
    out.push_back(s);
  }
  return out;
}

bool any_outside_planner(const std::vector<RepresentationSpec>& reps) {
  for (const RepresentationSpec& r : reps)
    if (r.name() == "gppc") return true;
  return false;
}

}  // namespace navbench
