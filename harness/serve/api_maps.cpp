// GET /api/info (what this server has), GET /api/map (a map to draw) and GET /api/structure (a
// representation's structure to draw): docs/viewer.md#the-api.
#include "harness/serve/viewer.hpp"
#include "smoothing/smoothing.hpp"

namespace navbench::viewer {

namespace {

json map_summary(const Map& m, std::size_t id) {
  return {{"id", id},
          {"name", m.name},
          {"collection", m.collection},
          {"kind", m.kind == MapKind::grid ? "grid" : "polygon"},
          {"min", {m.min.x, m.min.y}},
          {"max", {m.max.x, m.max.y}},
          {"width", m.kind == MapKind::grid ? m.grid.width : 0},
          {"height", m.kind == MapKind::grid ? m.grid.height : 0},
          // A ROS map's place in the world (docs/maps.md): the page shows the cursor and the path
          // lengths in metres too. Null where no scale is known (a bare image, every other format).
          {"frame", m.frame && m.frame->resolution > 0
                        ? json{{"resolution", m.frame->resolution}, {"origin", {m.frame->origin_x, m.frame->origin_y}}, {"yaw", m.frame->yaw}}
                        : json(nullptr)}};
}

// What a registry entry declares it can do (representations/capabilities.hpp), for the page to
// decide by rather than by names.
json capabilities(const Capabilities& c) {
  return {{"radius", c.radius == RadiusSupport::tangent_graph ? "tangent_graph" : "shrunk_map"},
          {"grid_only", c.grid_only},
          {"mesh_only", c.mesh_only},
          {"grid8_optimal", c.grid8_optimal},
          {"exact", c.exact},
          {"point_vertices", c.point_vertices},
          {"segment_edges", c.segment_edges},
          {"weights", c.weights},
          {"corridor", c.corridor},
          {"update_in_place", c.update_in_place},
          {"update_approximate", c.update_approximate},
          {"approximate_space", c.approximate_space},
          {"may_miss", c.may_miss},
          {"own_search", c.own_search}};
}

// Grid cells as rows of '.' (free) and '@' (blocked).
json grid_rows(const GridMap& g) {
  json rows = json::array();
  std::string row(std::size_t(g.width), '.');
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) row[std::size_t(x)] = g.passable(x, y) ? '.' : '@';
    rows.push_back(row);
  }
  return rows;
}

// The rings bounding the free space: free space on the left of each ring, so filling them with
// the non-zero rule gives exactly it.
json free_space_rings(const FreeSpace& fs) {
  json rings = json::array();
  for (const auto& r : fs.obstacle_rings()) {
    json pts = json::array();
    for (const auto& p : r) pts.push_back({p.x, p.y});
    rings.push_back(pts);
  }
  return rings;
}

}  // namespace

json api_info(const MapCache& maps) {
  json ms = json::array();
  for (std::size_t i = 0; i < maps.size(); ++i) ms.push_back(map_summary(maps.at(i).pm.map, i));
  json reps = json::array(), sm = json::array();
  for (const auto& e : representations())
    // opt_in: a costly build a sweep takes only when named (cpd's table); the page does not start with one.
    reps.push_back({{"name", e.name}, {"description", e.description}, {"caps", capabilities(e.caps)}, {"opt_in", e.opt_in}});
  for (const auto& s : outside_planners()) {  // named on the command line (docs/outside-planners.md#8-in-the-viewer)
    const bool anyangle = ("," + s.params + ",").find(",track=anyangle,") != std::string::npos;
    reps.push_back({{"name", s.text},
                    {"description", std::string("a planner from outside (") + (anyangle ? "any-angle" : "classic") +
                                        " track): start and goal snap to cell " + (anyangle ? "corners" : "centres")},
                    {"caps", capabilities(s.caps())},
                    {"outside_track", anyangle ? "anyangle" : "classic"}});
  }
  for (const auto& s : smoothers()) sm.push_back({{"name", s.name}, {"description", s.description}});
  return {{"maps", ms},
          {"representations", reps},
          {"smoothers", sm},
          {"heuristics", {"euclidean", "octile", "manhattan", "chebyshev", "zero"}},
          {"searches", {"astar", "theta", "lazy-theta"}},
          {"limits", {{"body_bytes", kMaxBody}, {"representations", kMaxReps}}}};
}

// The map for drawing: grids as rows, polygon maps as the rings of the free space.
json api_map(MapCache& maps, MapEntry& e) {
  std::shared_lock map_lock(e.state);
  const Map& m = e.pm.map;
  json out = map_summary(m, maps.index_of(e));
  out["version"] = e.version;
  if (m.kind == MapKind::grid) {
    out["rows"] = grid_rows(m.grid);
    // docs/terrain.md: a weighted map's cell weights, row-major (1 in blocked cells), and where they came from.
    out["terrain"] = m.grid.weighted() ? json(m.terrain) : json(nullptr);
    out["weights"] = m.grid.weighted() ? json(m.grid.weights) : json(nullptr);
  }
  else out["rings"] = free_space_rings(maps.point_space(e)->free());
  return out;
}

// The structure of one representation on the map, computed once per map version; with a radius
// R > 0, that of its build at R (the shrunk map, or the tangent graph).
Structure api_structure(MapCache& maps, MapEntry& e, const std::string& rep_text, const std::string& radius_text) {
  const auto t0 = base::Clock::now();
  if (rep_text.empty() || rep_text.size() > kMaxSpecChars) throw HttpError(400, "missing or too long 'rep'");
  const auto specs = request_reps(rep_text);
  if (specs.size() != 1) throw HttpError(400, "'rep' names one representation");
  const RepresentationSpec& spec = specs[0];
  std::shared_lock map_lock(e.state);
  Agent agent;
  if (!radius_text.empty()) {
    json r;
    try {
      r = json::parse(radius_text);
    } catch (const json::exception&) {
      r = radius_text;
    }
    agent = read_radius(json{{"radius", r}}, e.pm.map);
    if (agent.disc() && e.pm.map.weighted())
      throw HttpError(400, "'radius' > 0 on a weighted map: agents with a radius on terrain costs are not covered (docs/terrain.md)");
  }
  Structure out;
  out.version = e.version;
  std::shared_ptr<BuiltRep> b;
  if (agent.disc() && !(spec.caps().radius == RadiusSupport::shrunk_map && spec.erosion() == Erosion::none)) {
    if (spec.caps().radius == RadiusSupport::tangent_graph && (!spec.params.empty() || spec.erode))
      throw HttpError(422, spec.name() + " at R > 0 (the tangent graph) takes no parameters, got '" + spec.text + "'");
    const auto deadline = maps.deadline(t0);
    b = maps.built_at(maps.radius_builds(e, agent.R(), deadline), spec, deadline);
    if (!b) throw HttpError(503, "still building " + spec.text + " at this radius; ask again");
  } else {
    b = maps.built(e, spec);
  }
  if (!b->rep) throw HttpError(422, spec.text + " does not support map " + e.pm.map.name + ": " + b->unsupported);
  std::lock_guard g(b->m);
  if (!b->structure) b->structure = structure_bytes(*b->rep);
  out.segments = b->structure->size() / (4 * sizeof(float));
  out.bytes = *b->structure;
  return out;
}

}  // namespace navbench::viewer
