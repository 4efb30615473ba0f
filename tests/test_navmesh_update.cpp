// navmesh / navmesh-vertices updates (docs/changing-maps.md): after every update of random patch
// sequences, the triangulation is a valid CDT that covers exactly the free cells, with the same
// vertices, triangle count and components as a fresh build; the portal graph (navmesh) and the corner
// graph (navmesh-vertices) equal what their rules derive from the updated triangles. What every
// update must answer (as a fresh build does, valid paths) is the update battery's (test_battery_update.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "datasets/dynamic.hpp"
#include "datasets/generate.hpp"
#include "geometry/free_space.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/registry/registry.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "support/data.hpp"
#include "support/maps.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_navmesh_update {

using namespace navbench;

namespace {

using Key = std::tuple<double, double, double, double>;

Key seg_key(Point a, Point b) {
  if (std::tie(b.x, b.y) < std::tie(a.x, a.y)) std::swap(a, b);
  return {a.x, a.y, b.x, b.y};
}

double cross(Point a, Point b, Point c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

// The triangulation's own checks and the free space it covers, against a fresh build of the map.
void check_triangulation(const FreeSpaceTriangulation& tri, const Map& m, const std::string& where) {
  SCOPED_TRACE(where);
  const GridMap& g = m.grid;
  ASSERT_TRUE(tri.valid_for_tests());
  const FreeSpaceTriangulation fresh(m);
  const auto& pts = tri.points();
  double area2 = 0;  // twice the area: an integer
  std::size_t live = 0;
  std::set<std::pair<double, double>> used, fresh_used;
  for (std::uint32_t t = 0; t < tri.num_triangles(); ++t) {
    if (!tri.alive(t)) {
      EXPECT_EQ(tri.component(t), -1);
      continue;
    }
    ++live;
    const auto& c = tri.corners(t);
    const Point a = pts[c[0]], b = pts[c[1]], d = pts[c[2]];
    const double cr = cross(a, b, d);
    ASSERT_GT(cr, 0) << "triangle " << t << " not counter-clockwise";
    area2 += cr;
    const int cx = int(std::floor((a.x + b.x + d.x) / 3)), cy = int(std::floor((a.y + b.y + d.y) / 3));
    ASSERT_TRUE(cx >= 0 && cy >= 0 && cx < g.width && cy < g.height && g.passable(cx, cy))
        << "triangle " << t << " centroid in blocked cell (" << cx << ", " << cy << ")";
    for (int i = 0; i < 3; ++i) {
      used.insert({pts[c[i]].x, pts[c[i]].y});
      const std::int32_t u = tri.neighbor(t, i);
      if (u < 0) continue;
      ASSERT_TRUE(tri.alive(std::uint32_t(u)));
      EXPECT_EQ(tri.component(std::uint32_t(u)), tri.component(t));
      // u shares the edge opposite corner i, and names t across it.
      const Key e = seg_key(pts[c[(i + 1) % 3]], pts[c[(i + 2) % 3]]);
      bool back = false;
      for (int j = 0; j < 3; ++j) {
        const auto& cu = tri.corners(std::uint32_t(u));
        back |= tri.neighbor(std::uint32_t(u), j) == std::int32_t(t) && seg_key(pts[cu[(j + 1) % 3]], pts[cu[(j + 2) % 3]]) == e;
      }
      ASSERT_TRUE(back) << "triangles " << t << " and " << u;
    }
  }
  std::size_t free_cells = 0;
  for (auto v : g.cells) free_cells += v != 0;
  ASSERT_EQ(area2, 2.0 * double(free_cells)) << "the triangles' area is not the free cells'";
  EXPECT_EQ(live, fresh.num_triangles()) << "triangle count";
  for (std::uint32_t t = 0; t < fresh.num_triangles(); ++t)
    for (auto c : fresh.corners(t)) fresh_used.insert({fresh.points()[c].x, fresh.points()[c].y});
  EXPECT_EQ(used, fresh_used) << "the triangles' corners";
  EXPECT_EQ(tri.num_components(), fresh.num_components());
  // Every free cell's centre is in a triangle; components match a fresh build's one to one.
  std::map<std::int32_t, std::int32_t> to_fresh, from_fresh;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      const Point p{x + 0.5, y + 0.5};
      const std::int32_t t = tri.locate(p);
      if (!g.passable(x, y)) continue;
      ASSERT_GE(t, 0) << "free cell (" << x << ", " << y << ") not located";
      const auto& c = tri.corners(std::uint32_t(t));
      ASSERT_TRUE(cross(pts[c[0]], pts[c[1]], p) >= 0 && cross(pts[c[1]], pts[c[2]], p) >= 0 && cross(pts[c[2]], pts[c[0]], p) >= 0);
      const std::int32_t a = tri.component(std::uint32_t(t)), b = fresh.component(std::uint32_t(fresh.locate(p)));
      ASSERT_EQ(to_fresh.emplace(a, b).first->second, b) << "(" << x << ", " << y << ")";
      ASSERT_EQ(from_fresh.emplace(b, a).first->second, a) << "(" << x << ", " << y << ")";
    }
}

// navmesh without merging: the live portals are exactly the edges shared by two live triangles, each
// cell lists its portals, and each portal's graph row is the other portals of its two cells.
void check_portals(const NavMesh& nm, const std::string& where) {
  SCOPED_TRACE(where);
  const auto& tri = nm.triangulation();
  const auto& pts = tri.points();
  std::set<std::pair<std::int32_t, std::int32_t>> want, got;
  for (std::uint32_t t = 0; t < tri.num_triangles(); ++t)
    for (int i = 0; i < 3 && tri.alive(t); ++i)
      if (tri.neighbor(t, i) > std::int32_t(t)) want.insert({std::int32_t(t), tri.neighbor(t, i)});
  const auto& G = nm.graph();
  std::size_t live = 0;
  for (Vertex v = 0; v < num_vertices(G); ++v) {
    const auto& p = nm.portal(v);
    if (p.from < 0) {
      EXPECT_EQ(out_degree(v, G), 0u);
      continue;
    }
    ++live;
    ASSERT_TRUE(got.insert({std::min(p.from, p.to), std::max(p.from, p.to)}).second) << "portal twice";
    EXPECT_EQ(nm.position(v).x, (pts[p.left].x + pts[p.right].x) / 2);
    // right, left as seen crossing from `from`: `from`'s third corner is on the right-left-turn side
    const auto& c = tri.corners(std::uint32_t(p.from));
    for (auto k : c) {
      if (k != p.left && k != p.right) {
        EXPECT_GT(cross(pts[p.right], pts[p.left], pts[k]), 0);
      }
    }
    std::set<Vertex> want_row, got_row;
    for (std::int32_t cell : {p.from, p.to})
      for (Vertex q : nm.cell_portals(std::uint32_t(cell)))
        if (q != v) want_row.insert(q);
    for (auto [it, end] = out_edges(v, G); it != end; ++it) {
      const Vertex q = target(*it, G);
      ASSERT_TRUE(got_row.insert(q).second) << "edge twice";
      EXPECT_NEAR(G.weight(it->index), std::hypot(nm.position(v).x - nm.position(q).x, nm.position(v).y - nm.position(q).y), 1e-9);
    }
    ASSERT_EQ(got_row, want_row) << "row of portal " << v;
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(nm.stats().vertices, live);
  for (std::uint32_t c = 0; c < nm.num_cells(); ++c) {
    if (!nm.cell_alive(c)) continue;
    std::size_t k = 0;
    for (Vertex q : nm.cell_portals(c)) k += nm.portal(q).from == std::int32_t(c) || nm.portal(q).to == std::int32_t(c);
    EXPECT_EQ(k, nm.cell_portals(c).size());
  }
}

// navmesh-vertices: the graph its constructor's rule derives from the updated triangles (fans of
// corner slots joined across shared edges; at a pinch point only the fan holding locate()'s
// triangle gets the vertex), compared as segments between positions.
void check_corner_graph(const NavMeshVertices& nv, const std::string& where) {
  SCOPED_TRACE(where);
  const auto& tri = nv.triangulation();
  const auto& pts = tri.points();
  const std::size_t T = tri.num_triangles();
  std::vector<std::uint32_t> parent(3 * T);
  for (std::uint32_t i = 0; i < 3 * T; ++i) parent[i] = i;
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto slot = [&](std::uint32_t t, std::uint32_t corner) {
    const auto& c = tri.corners(t);
    return 3 * t + (c[0] == corner ? 0u : c[1] == corner ? 1u : 2u);
  };
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3 && tri.alive(t); ++i) {
      const std::int32_t u = tri.neighbor(t, i);
      if (u < 0) continue;
      for (int k : {(i + 1) % 3, (i + 2) % 3}) parent[find(3 * t + k)] = find(slot(std::uint32_t(u), tri.corners(t)[k]));
    }
  std::map<std::uint32_t, std::set<std::uint32_t>> fans;
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3 && tri.alive(t); ++i) fans[tri.corners(t)[i]].insert(find(3 * t + i));
  auto has_vertex = [&](std::uint32_t t, int i) {
    const std::uint32_t c = tri.corners(t)[i];
    if (fans[c].size() == 1) return true;
    const std::int32_t o = tri.locate(pts[c]);
    return o >= 0 && find(slot(std::uint32_t(o), c)) == find(3 * t + i);
  };
  std::set<Key> want, got;
  for (std::uint32_t t = 0; t < T; ++t)
    for (int i = 0; i < 3 && tri.alive(t); ++i) {
      const int a = (i + 1) % 3, b = (i + 2) % 3;
      ASSERT_EQ(nv.corner_vertex(t, i) != CsrGraph::null_vertex(), has_vertex(t, i)) << "triangle " << t << " corner " << i;
      if (nv.corner_vertex(t, i) != CsrGraph::null_vertex()) {
        EXPECT_EQ(nv.position(nv.corner_vertex(t, i)).x, pts[tri.corners(t)[i]].x);
        EXPECT_EQ(nv.position(nv.corner_vertex(t, i)).y, pts[tri.corners(t)[i]].y);
      }
      if (has_vertex(t, a) && has_vertex(t, b)) want.insert(seg_key(pts[tri.corners(t)[a]], pts[tri.corners(t)[b]]));
    }
  const auto& G = nv.graph();
  std::size_t edges = 0;
  for (Vertex v = 0; v < num_vertices(G); ++v)
    for (auto [it, end] = out_edges(v, G); it != end; ++it) {
      ++edges;
      got.insert(seg_key(nv.position(v), nv.position(target(*it, G))));
    }
  EXPECT_EQ(edges, 2 * got.size()) << "edges not symmetric or twice";
  EXPECT_EQ(got, want);
}

std::vector<Map> test_maps() {
  std::vector<Map> out;
  std::mt19937_64 rng(3);
  out.push_back(testmaps::random_grid(37, 29, 0.25, rng));
  out.push_back(testmaps::random_grid(24, 24, 0.5, rng));
  GridMap empty{30, 20, std::vector<std::uint8_t>(600, 1)};
  out.push_back(make_grid_map(empty, "empty"));
  GridMap full{16, 16, std::vector<std::uint8_t>(256, 0)};
  out.push_back(make_grid_map(full, "blocked"));
  for (const char* kind : {"rooms", "maze", "cave"}) {
    GenerateOptions o;
    o.kind = kind;
    o.width = 40;
    o.height = 32;
    o.seed = 5;
    if (o.kind == "cave") o.density = 45;
    if (o.kind == "rooms") o.room = 10;
    out.push_back(make_grid_map(generate_map(o), kind));
  }
  return out;
}

TEST(NavMeshUpdate, TriangulationMatchesFreshBuildAfterPatches) {
  std::mt19937_64 rng(11);
  for (Map m : test_maps()) {
    FreeSpaceTriangulation tri(m);
    for (int step = 0; step < 40; ++step) {
      std::vector<CellChange> ch;
      for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
        auto c = testmaps::mixed_patch(m.grid, rng, step % 2 ? 3 : 7);
        ch.insert(ch.end(), c.begin(), c.end());
      }
      ASSERT_TRUE(tri.update(m.grid, ch));
      check_triangulation(tri, m, m.name + " step " + std::to_string(step));
      if (HasFatalFailure()) return;
    }
  }
}

// A region whose boundary stays while its cells flip: a checkerboard inverted under a patch. The
// constraints inside are the same before and after, so CGAL may leave those faces untouched; their
// marks must flip anyway.
TEST(NavMeshUpdate, InvertedCheckerboardFlipsMarks) {
  GridMap g{12, 12, std::vector<std::uint8_t>(144, 1)};
  for (int y = 2; y < 10; ++y)
    for (int x = 2; x < 10; ++x) g.cells[std::size_t(y * 12 + x)] = std::uint8_t((x + y) % 2);
  Map m = make_grid_map(g, "checker");
  FreeSpaceTriangulation tri(m);
  for (int step = 0; step < 4; ++step) {
    std::vector<CellChange> ch;
    for (int y = 3; y < 9; ++y)
      for (int x = 3; x < 9; ++x) {
        auto& c = m.grid.cells[std::size_t(y * 12 + x)];
        c = !c;
        ch.push_back({x, y, c});
      }
    ASSERT_TRUE(tri.update(m.grid, ch));
    check_triangulation(tri, m, "step " + std::to_string(step));
  }
}

TEST(NavMeshUpdate, GraphsMatchTheirTrianglesAfterPatches) {
  std::mt19937_64 rng(13);
  for (Map m : test_maps()) {
    Params p0, p1;
    NavMesh nm(m, p0);
    NavMeshVertices nv(m, p1);
    for (int step = 0; step < 30; ++step) {
      std::vector<CellChange> ch;
      for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
        auto c = testmaps::mixed_patch(m.grid, rng, 5);
        ch.insert(ch.end(), c.begin(), c.end());
      }
      ASSERT_TRUE(nm.update(m, ch));
      ASSERT_TRUE(nv.update(m, ch));
      const std::string where = m.name + " step " + std::to_string(step);
      check_portals(nm, where);
      check_corner_graph(nv, where);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(NavMeshUpdate, DeclinesWhatItCannotUpdate) {
  std::mt19937_64 rng(1);
  Map m = testmaps::random_grid(20, 20, 0.3, rng);
  Params p;
  NavMesh nm(m, p);
  EXPECT_TRUE(NavMesh::kCapabilities.update_approximate);
  // A quarter of the map or more: rebuild.
  std::vector<CellChange> many;
  for (int i = 0; i < 101; ++i) many.push_back({i % 20, i / 20, m.grid.cells[std::size_t(i)]});
  EXPECT_FALSE(nm.update(m, many));
  // Another size.
  Map other = testmaps::random_grid(21, 20, 0.3, rng);
  EXPECT_FALSE(nm.update(other, {{0, 0, other.grid.cells[0]}}));
  // A polygon map.
  Map poly;
  poly.kind = MapKind::polygon;
  EXPECT_FALSE(nm.update(poly, {}));
  Params pv;
  Map pm;
  pm.kind = MapKind::polygon;
  pm.polygons.walkable.rings = {{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};
  NavMeshVertices nv(pm, pv);
  EXPECT_FALSE(nv.update(pm, {{0, 0, 1}}));
}

// The real scenario: dao_arena2's updates, the triangulation checked after each (first 60).
TEST(NavMeshUpdateData, Arena2Scenario) {
  const std::string path = testdata::path("gppc-dynamic/dao_arena2.scen");
  NAVBENCH_REQUIRE_DATA(path);
  const DynamicScenario d = load_dynamic_scenario(path);
  GridMap g{d.width, d.height, std::vector<std::uint8_t>(std::size_t(d.width) * std::size_t(d.height), 1)};
  Map m = make_grid_map(g, d.name);
  Params p0, p1;
  std::unique_ptr<NavMesh> nm = std::make_unique<NavMesh>(m, p0);
  std::unique_ptr<NavMeshVertices> nv = std::make_unique<NavMeshVertices>(m, p1);
  int updates = 0, in_place = 0;
  std::vector<CellChange> ch;
  for (std::size_t i = 0; i < d.commands.size() && updates < 60;) {
    ch.clear();
    while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::place) {
      const auto& c = d.commands[i++];
      apply_patch(m.grid, d.patches[std::size_t(c.id)], c.x, c.y, ch);
    }
    while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::query) ++i;
    ++updates;
    const bool a = nm->update(m, ch), b = nv->update(m, ch);
    ASSERT_EQ(a, b);
    if (!a) {
      Params q0, q1;
      nm = std::make_unique<NavMesh>(m, q0);
      nv = std::make_unique<NavMeshVertices>(m, q1);
      continue;
    }
    ++in_place;
    const std::string where = "update " + std::to_string(updates);
    check_triangulation(nm->triangulation(), m, where);
    check_portals(*nm, where);
    check_corner_graph(*nv, where);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(in_place, 30);
}

}  // namespace

}  // namespace test_navmesh_update
