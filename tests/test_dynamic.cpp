// Dynamic scenarios (docs/changing-maps.md): the reader's errors, patches, generated change scenarios,
// and the internals of quadtree's, navmesh-tiles' and visgraph's updates and of the all-pairs
// table's repair against a fresh build of the same map state (what every update must answer is the
// update battery's, test_battery_update.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>
#include <random>
#include <set>
#include <sstream>

#include "datasets/dynamic.hpp"
#include "datasets/generate.hpp"
#include "datasets/generate_dynamic.hpp"
#include "geometry/free_space.hpp"
#include "harness/run/oracles.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/registry/registry.hpp"
#include "representations/distance_table.hpp"
#include "representations/navmesh_tiles/navmesh_tiles.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "representations/subgoal/subgoal.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "support/data.hpp"
#include "support/maps.hpp"
#include "support/plan.hpp"
#include "search/graph_planner.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"

namespace navbench {
namespace test_dynamic {

const char* kPatches =
    "type patch\npatches 2\npatch 0\nheight 2\nwidth 3\nmap\n@.@\n...\npatch 1\nheight 1\nwidth 1\nmap\n.\n";

DynamicScenario parse(const std::string& scen, const std::string& patches = kPatches) {
  std::istringstream a(scen), b(patches);
  return read_dynamic_scenario(a, "t.scen", b, "t.patch");
}

std::string error_of(const std::string& scen, const std::string& patches = kPatches) {
  try {
    parse(scen, patches);
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kHead = "version 2\nheight 4\nwidth 5\ncost 1 octile\npatch t.patch\ncommands\n";

TEST(DynamicReader, ReadsCommandsAndPatches) {
  auto d = parse(kHead + "P 0 0 1 1\nQ 0 0 0 4 3 6.65685425\nP 1 1 2 1\nQ 1 0 0 4 3 6.65685425\n");
  EXPECT_EQ(d.width, 5);
  EXPECT_EQ(d.height, 4);
  ASSERT_EQ(d.patches.size(), 2u);
  EXPECT_EQ(d.patches[0].cells, (std::vector<std::uint8_t>{0, 1, 0, 1, 1, 1}));
  ASSERT_EQ(d.commands.size(), 4u);
  EXPECT_EQ(d.commands[0].kind, DynamicCommand::place);
  EXPECT_EQ(d.commands[1].kind, DynamicCommand::query);
  EXPECT_EQ(d.commands[1].gx, 4);
  EXPECT_DOUBLE_EQ(d.commands[3].costs[0], 6.65685425);
  EXPECT_EQ(d.commands[3].epoch, 1);
  EXPECT_EQ(d.name, "t");
}

TEST(DynamicReader, RejectsMalformedInputWithFileAndLine) {
  EXPECT_EQ(error_of("version 1\n"), "t.scen:1: expected 'version 2' (a dynamic scenario), got 'version 1'");
  EXPECT_EQ(error_of("version 2\nheight x\n"), "t.scen:2: height 'x' is not an integer");
  EXPECT_EQ(error_of("version 2\nheight 4\nwidth 5\ncost 1 euclidean\n"), "t.scen:4: cost line names no 'octile' cost");
  EXPECT_EQ(error_of("version 2\nheight 4\nwidth 5\ncost 2 octile\n"), "t.scen:4: cost line says 2 names but lists 1");
  EXPECT_EQ(error_of(kHead + "P 0 7 0 0\n"), "t.scen:7: patch id '7' is not one of the 2 patches");
  EXPECT_EQ(error_of(kHead + "P 0 0 3 0\n"), "t.scen:7: patch 0 (3x2) at (3, 0) reaches outside the map");
  EXPECT_EQ(error_of(kHead + "Q 0 0 0 5 0 1\n"), "t.scen:7: gx 5 is outside the 5x4 map");
  EXPECT_EQ(error_of(kHead + "Q 0 0.5 0 1 0 1\n"), "t.scen:7: sx '0.5' is not an integer cell");
  EXPECT_EQ(error_of(kHead + "Q 0 0 0 1 0\n"), "t.scen:7: expected 'Q epoch sx sy gx gy' and 1 cost(s), got 'Q 0 0 0 1 0'");
  EXPECT_EQ(error_of(kHead + "Q 0 0 0 1 0 abc\n"), "t.scen:7: cost 'abc' is not a number");
  EXPECT_EQ(error_of(kHead + "Q 2 0 0 1 0 1\nQ 1 0 0 1 0 1\n"), "t.scen:8: epoch 1 after epoch 2");
  EXPECT_EQ(error_of(kHead + "X 0\n"), "t.scen:7: unknown command 'X' (P or Q)");
  EXPECT_EQ(error_of(kHead, "type patch\npatches 1\npatch 0\nheight 2\nwidth 3\nmap\n@.@\n"),
            "t.patch:8: patch 0 has 1 rows, height is 2");
  EXPECT_EQ(error_of(kHead, "type patch\npatches 1\npatch 0\nheight 1\nwidth 3\nmap\n@.\n"),
            "t.patch:7: patch 0 row 0 has 2 cells, width is 3");
  EXPECT_EQ(error_of(kHead, "type patch\npatches 2\npatch 1\n"), "t.patch:3: patch 1 out of order (expected 0)");
  EXPECT_EQ(error_of(kHead, ""), "t.patch:1: empty patch file (expected 'type patch')");
}

TEST(DynamicReader, WriteReadRoundTrip) {
  auto d = parse(kHead + "P 0 0 1 1\nQ 0 0 0 4 3 6.65685425\nP 1 1 2 1\nQ 1 0 0 4 3 6.65685425\n");
  std::ostringstream s, p;
  d.patch_file = "t.patch";
  write_dynamic_scenario(s, p, d);
  auto e = parse(s.str(), p.str());
  ASSERT_EQ(e.commands.size(), d.commands.size());
  for (std::size_t i = 0; i < d.commands.size(); ++i) {
    EXPECT_EQ(e.commands[i].kind, d.commands[i].kind);
    EXPECT_EQ(e.commands[i].epoch, d.commands[i].epoch);
    EXPECT_EQ(e.commands[i].costs, d.commands[i].costs);
  }
  ASSERT_EQ(e.patches.size(), d.patches.size());
  for (std::size_t i = 0; i < d.patches.size(); ++i) EXPECT_EQ(e.patches[i].cells, d.patches[i].cells);
}

TEST(DynamicReader, ApplyPatchCountsChangedCells) {
  GridMap m;
  m.width = 5;
  m.height = 4;
  m.cells.assign(20, 1);
  Patch p{3, 2, {0, 1, 0, 1, 1, 1}};
  std::vector<CellChange> ch;
  EXPECT_EQ(apply_patch(m, p, 1, 1, ch), 2u);  // two '@' on free cells
  EXPECT_FALSE(m.passable(1, 1));
  EXPECT_TRUE(m.passable(2, 1));
  EXPECT_FALSE(m.passable(3, 1));
  EXPECT_EQ(apply_patch(m, p, 1, 1, ch), 0u);  // the same patch again changes nothing
  EXPECT_EQ(ch.size(), 2u);
}

using testmaps::random_patch;

// The quadtree after updates: the same leaves as a fresh build; the live cells tile exactly the
// free cells; every cell's neighbours are exactly the cells sharing a side segment with it; cells
// connected in a fresh build share a component label. Several patches per update, some
// cells changed twice, a map whose side is not a power of two (padding).
TEST(DynamicUpdate, QuadtreeMatchesFreshBuild) {
  std::mt19937_64 rng(5);
  for (const auto& [kmax, params] : {std::pair<int, const char*>{3, ""}, {8, ""}, {5, "min=2"}, {5, "merge=0"}, {5, "aspect=1"}}) {
    SCOPED_TRACE(params);
    GridMap g;
    g.width = 37;
    g.height = 29;
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 25 ? 0 : 1);
    Map m = make_grid_map(g, "qt", "test");
    Params p = Params::parse(params);
    QuadTree qt(m, p);
    for (int step = 0; step < 30; ++step) {
      std::vector<CellChange> ch;
      for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
        auto c = random_patch(m.grid, rng, kmax);
        ch.insert(ch.end(), c.begin(), c.end());
      }
      ASSERT_TRUE(qt.update(m, ch)) << "step " << step;
      Params p2 = Params::parse(params);
      const QuadTree fresh(m, p2);
      auto key = [](const QuadTree::Box& b) { return std::tuple(b.min.x, b.min.y, b.max.x, b.max.y); };
      std::vector<std::tuple<double, double, double, double>> a, b;
      for (const auto& x : qt.leaf_boxes()) a.push_back(key(x));
      for (const auto& x : fresh.leaf_boxes()) b.push_back(key(x));
      ASSERT_EQ(a, b) << "leaves, step " << step;
      EXPECT_EQ(qt.quadtree_leaves(), fresh.quadtree_leaves());
      // Tiling: the live cells cover exactly the grid cells a fresh build's cover (every free cell
      // unless min > 1 drops some), each once, and no blocked cell.
      auto cover_of = [&](const QuadTree& t, std::vector<std::uint32_t>* live) {
        std::vector<int> cover(m.grid.cells.size(), 0);
        for (std::uint32_t c = 0; c < t.cell_id_bound(); ++c) {
          if (t.dead(c)) continue;
          if (live) live->push_back(c);
          const auto bx = t.cell_box(c);
          for (int y = int(bx.min.y); y < int(bx.max.y); ++y)
            for (int x = int(bx.min.x); x < int(bx.max.x); ++x) {
              EXPECT_TRUE(m.grid.passable(x, y)) << "cell " << c << " holds blocked (" << x << ", " << y << ")";
              ++cover[std::size_t(y) * std::size_t(m.grid.width) + std::size_t(x)];
            }
        }
        return cover;
      };
      std::vector<std::uint32_t> live;
      const auto cover = cover_of(qt, &live), want_cover = cover_of(fresh, nullptr);
      ASSERT_EQ(cover, want_cover) << "step " << step;
      for (int c : cover) ASSERT_LE(c, 1);
      EXPECT_EQ(qt.cell_count(), live.size());
      // Neighbours against brute force.
      for (const std::uint32_t c : live) {
        const auto r = qt.cell_box(c);
        std::vector<std::uint32_t> want;
        for (const std::uint32_t d : live) {
          if (d == c) continue;
          const auto o = qt.cell_box(d);
          const double ox = std::min(r.max.x, o.max.x) - std::max(r.min.x, o.min.x);
          const double oy = std::min(r.max.y, o.max.y) - std::max(r.min.y, o.min.y);
          if ((ox == 0 && oy > 0) || (oy == 0 && ox > 0)) want.push_back(d);
        }
        auto got = qt.neighbours(c);
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, want) << "neighbours of cell " << c << " step " << step;
      }
      // Components: cells connected in a fresh build share a label (labels may over-approximate
      // after a split, so different labels still prove there is no path).
      std::map<std::int32_t, std::int32_t> back;
      for (int y = 0; y < m.grid.height; ++y)
        for (int x = 0; x < m.grid.width; ++x) {
          if (!cover[std::size_t(y) * std::size_t(m.grid.width) + std::size_t(x)]) continue;
          const Point c{x + 0.5, y + 0.5};
          const std::int32_t u = qt.component(*qt.cell_at(c)), f = fresh.component(*fresh.cell_at(c));
          ASSERT_EQ(back.emplace(f, u).first->second, u) << "(" << x << ", " << y << ") step " << step;
        }
      EXPECT_EQ(qt.stats().vertices, [&] {
        std::size_t n = 0;
        for (const std::uint32_t c : live) n += qt.neighbours(c).size();
        return n / 2;
      }()) << "one graph vertex per portal";
      // The graph read in place from the portal lists: each live portal's out-edges are the other
      // portals of its two cells, once each, weighted by the midpoint distance.
      for (const QuadTree* t : {static_cast<const QuadTree*>(&qt), &fresh}) {
        const auto& G = t->graph();
        const auto w = t->weights();
        std::size_t edges = 0;
        for (Vertex v = 0; v < num_vertices(G); ++v) {
          const auto [ca, cb] = t->portal_cells(v);
          if (ca == QuadTreePortal::kNone) {
            ASSERT_EQ(out_degree(v, G), 0u);
            continue;
          }
          std::set<Vertex> want;
          for (const std::uint32_t c : {ca, cb})
            for (Vertex u = 0; u < num_vertices(G); ++u)
              if (u != v) {
                const auto [ua, ub] = t->portal_cells(u);
                if (ua == c || ub == c) want.insert(u);
              }
          std::vector<Vertex> got;
          for (auto [e, end] = out_edges(v, G); e != end; ++e) {
            got.push_back(target(*e, G));
            const Point d{t->position(v).x - t->position(target(*e, G)).x, t->position(v).y - t->position(target(*e, G)).y};
            ASSERT_DOUBLE_EQ(get(w, *e), std::hypot(d.x, d.y));
          }
          ASSERT_EQ(got.size(), out_degree(v, G));
          std::sort(got.begin(), got.end());
          ASSERT_EQ(got, std::vector<Vertex>(want.begin(), want.end())) << "out-edges of portal " << v << " step " << step;
          edges += got.size();
        }
        EXPECT_EQ(t->stats().edges, edges);
      }
    }
  }
}

// A removed cell's grid cells keep its id as owner until a new cell covers them: blocking part of
// a big cell and then making cells beside the blocked part must not link them to a stale owner
// (nor to a new cell that reuses the removed cell's id elsewhere).
TEST(DynamicUpdate, QuadtreeIgnoresStaleOwners) {
  GridMap g;
  g.width = g.height = 64;  // changes stay under a quarter of the map (else update() rebuilds)
  g.cells.assign(64 * 64, 1);
  Map m = make_grid_map(g, "qt", "test");
  Params p = Params::parse("");
  QuadTree qt(m, p);
  auto set = [&](int x0, int y0, int x1, int y1, std::uint8_t v) {
    std::vector<CellChange> ch;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        m.grid.cells[std::size_t(y * 64 + x)] = v;
        ch.push_back({x, y, v});
      }
    ASSERT_TRUE(qt.update(m, ch));
  };
  auto check = [&](int step) {
    std::vector<std::uint32_t> live;
    for (std::uint32_t c = 0; c < qt.cell_id_bound(); ++c)
      if (!qt.dead(c)) live.push_back(c);
    for (const std::uint32_t c : live) {
      const auto r = qt.cell_box(c);
      std::vector<std::uint32_t> want;
      for (const std::uint32_t d : live) {
        const auto o = qt.cell_box(d);
        const double ox = std::min(r.max.x, o.max.x) - std::max(r.min.x, o.min.x);
        const double oy = std::min(r.max.y, o.max.y) - std::max(r.min.y, o.min.y);
        if (d != c && ((ox == 0 && oy > 0) || (oy == 0 && ox > 0))) want.push_back(d);
      }
      auto got = qt.neighbours(c);
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "neighbours of cell " << c << " step " << step;
    }
  };
  set(4, 4, 8, 8, 0);  // the map's one cell goes; a hole in the middle
  check(0);
  set(2, 2, 12, 12, 0);  // a wider wall: the cells around the hole go, their ids are reused
  check(1);
  set(5, 5, 7, 7, 1);  // an island inside the wall, over grid cells whose owner ids are stale
  check(2);
  set(2, 2, 12, 4, 1);  // the wall's top row opens beside stale owners
  check(3);
  set(12, 0, 16, 16, 0);
  set(6, 2, 8, 12, 1);
  check(4);
}

// Generated change scenarios: seeded, they round-trip through the reader, every kind changes the
// map, and replaying them, the project's grid8 equals every query's octile cost on its epoch's map.
TEST(DynamicGenerate, EveryKindReplaysWithGrid8EqualToTheCosts) {
  GenerateOptions g;
  g.kind = "rooms";
  g.width = g.height = 48;
  g.room = 12;
  const GridMap base = generate_map(g);
  const auto* grid8 = find_representation("grid8");
  ASSERT_NE(grid8, nullptr);
  for (std::string kind : {"doors", "blocks", "sweep"}) {
    ChangeOptions o;
    o.kind = kind;
    o.epochs = 8;
    o.queries = 6;
    o.seed = 3;
    const DynamicScenario d = make_change_scenario(base, o, "gen-" + kind);
    {
      const DynamicScenario again = make_change_scenario(base, o, "gen-" + kind);
      std::ostringstream a1, a2, b1, b2;
      write_dynamic_scenario(a1, b1, d);
      write_dynamic_scenario(a2, b2, again);
      EXPECT_EQ(a1.str(), a2.str()) << kind << ": same seed, same scenario";
      EXPECT_EQ(b1.str(), b2.str());
      const DynamicScenario read = parse(a1.str(), b1.str());
      EXPECT_EQ(read.commands.size(), d.commands.size()) << kind;
    }
    ASSERT_EQ(d.commands.front().kind, DynamicCommand::place);
    EXPECT_EQ(d.patches[0].width, base.width) << "patch 0 is the base map";
    Map m = make_grid_map(GridMap{base.width, base.height, std::vector<std::uint8_t>(base.cells.size(), 1)}, "gen", "test");
    std::unique_ptr<Planner> rep;
    std::size_t changed_after_base = 0, queries = 0;
    std::vector<CellChange> ch;
    bool first = true;
    for (std::size_t i = 0; i < d.commands.size();) {
      ch.clear();
      while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::place) {
        const auto& c = d.commands[i++];
        apply_patch(m.grid, d.patches[std::size_t(c.id)], c.x, c.y, ch);
      }
      if (!first) changed_after_base += ch.size();
      first = false;
      Params p;
      if (!rep || !rep->update(m, ch)) rep = grid8->build(m, p);
      const AgentSpace space(m, Agent{});
      const CostModel cost(m);
      const MapContext ctx{"gen", "test", "center"};
      const Heuristic octile = parse_heuristic("octile");
      const std::vector<std::string> none = {"none"};
      for (; i < d.commands.size() && d.commands[i].kind == DynamicCommand::query; ++i) {
        const auto& c = d.commands[i];
        QueryInput in;
        in.start = {c.sx + 0.5, c.sy + 0.5};
        in.goal = {c.gx + 0.5, c.gy + 0.5};
        auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = "grid8",
                               .heuristic = octile, .smoothings = none,
                               .rep = rep.get()}, in);
        ASSERT_EQ(rows[0].status, Status::ok) << kind << " line " << c.line;
        EXPECT_NEAR(*rows[0].raw_length, c.costs[0], printed_tolerance(c.cost_text[0], c.costs[0])) << kind;
        ++queries;
      }
    }
    EXPECT_GT(changed_after_base, 0u) << kind << " changes the map";
    EXPECT_EQ(queries, std::size_t((o.epochs + 1) * o.queries)) << kind;
  }
  ChangeOptions bad;
  bad.kind = "earthquake";
  EXPECT_THROW(validate(bad), std::invalid_argument);
}

}  // namespace test_dynamic
}  // namespace navbench

namespace navbench {
namespace test_dynamic {

// navmesh-tiles after updates: the same cells, portals and graph as a fresh build of the same map
// (ids aside); the cells cover exactly the free cells; triangles connected in a fresh build
// share a component label. Several patches per update, tiles of several sizes, with and without
// merging, a map whose sides are not multiples of the tile size.
TEST(DynamicUpdate, NavMeshTilesMatchesFreshBuild) {
  std::mt19937_64 rng(9);
  for (const char* params : {"tile=8", "tile=5", "tile=1", "tile=64", "tile=8,merge=1", "tile=6,merge=1"}) {
    SCOPED_TRACE(params);
    GridMap g;
    g.width = 37;
    g.height = 29;
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 25 ? 0 : 1);
    Map m = make_grid_map(g, "nt", "test");
    Params p = Params::parse(params);
    NavMeshTiles nt(m, p);
    using Key = std::vector<double>;
    auto cell_key = [](const std::vector<Point>& c) {
      std::size_t k = 0;  // the lowest corner first (the order stays counter-clockwise)
      for (std::size_t i = 1; i < c.size(); ++i)
        if (std::tie(c[i].x, c[i].y) < std::tie(c[k].x, c[k].y)) k = i;
      Key out;
      for (std::size_t i = 0; i < c.size(); ++i) out.push_back(c[(k + i) % c.size()].x), out.push_back(c[(k + i) % c.size()].y);
      return out;
    };
    auto seg_key = [](Point a, Point b) {
      if (std::tie(b.x, b.y) < std::tie(a.x, a.y)) std::swap(a, b);
      return Key{a.x, a.y, b.x, b.y};
    };
    // Every portal (by its midpoint) with its graph neighbours' midpoints and edge weights.
    auto graph_of = [](const NavMeshTiles& t) {
      std::map<Key, std::vector<Key>> out;
      const auto& G = t.graph();
      for (Vertex v = 0; v < num_vertices(G); ++v) {
        const auto [b, e] = out_edges(v, G);
        if (b == e) continue;
        std::vector<Key> nb;
        for (auto it = b; it != e; ++it) {
          const Vertex u = target(*it, G);
          nb.push_back({t.position(u).x, t.position(u).y, G.weight((*it).index)});
        }
        std::sort(nb.begin(), nb.end());
        out[{t.position(v).x, t.position(v).y}] = nb;
      }
      return out;
    };
    for (int step = 0; step < 30; ++step) {
      std::vector<CellChange> ch;
      for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
        auto c = random_patch(m.grid, rng, 6);
        ch.insert(ch.end(), c.begin(), c.end());
      }
      ASSERT_TRUE(nt.update(m, ch)) << "step " << step;
      Params p2 = Params::parse(params);
      const NavMeshTiles fresh(m, p2);
      std::vector<Key> a, b;
      double area = 0;
      for (const auto& c : nt.cells()) {
        a.push_back(cell_key(c));
        for (std::size_t i = 0; i < c.size(); ++i) {  // shoelace
          const Point p = c[i], q = c[(i + 1) % c.size()];
          area += (p.x * q.y - q.x * p.y) / 2;
        }
      }
      for (const auto& c : fresh.cells()) b.push_back(cell_key(c));
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      ASSERT_EQ(a, b) << "cells, step " << step;
      EXPECT_EQ(area, double(std::count(m.grid.cells.begin(), m.grid.cells.end(), 1))) << "step " << step;
      a.clear(), b.clear();
      for (const auto& s : nt.portal_segments()) a.push_back(seg_key(s[0], s[1]));
      for (const auto& s : fresh.portal_segments()) b.push_back(seg_key(s[0], s[1]));
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      ASSERT_EQ(a, b) << "portals, step " << step;
      EXPECT_EQ(graph_of(nt), graph_of(fresh)) << "graph, step " << step;
      EXPECT_EQ(nt.stats().vertices, fresh.stats().vertices);
      EXPECT_EQ(nt.stats().edges, fresh.stats().edges);
      // Components: one label per free-space component (labels may also join components after
      // splits, never split one), in the updated and in the fresh build.
      const FreeSpace fs(m);
      std::map<std::int32_t, std::int32_t> label_of, fresh_label_of;
      for (int y = 0; y < m.grid.height; ++y)
        for (int x = 0; x < m.grid.width; ++x) {
          if (!m.grid.passable(x, y)) continue;
          const Point c{x + 0.5, y + 0.5};
          const auto u = nt.attach(c), f = fresh.attach(c);
          ASSERT_TRUE(u && f) << "(" << x << ", " << y << ") step " << step;
          const std::int32_t comp = fs.component(c);
          ASSERT_EQ(label_of.emplace(comp, u->component).first->second, u->component) << "(" << x << ", " << y << ") step " << step;
          ASSERT_EQ(fresh_label_of.emplace(comp, f->component).first->second, f->component) << "(" << x << ", " << y << ")";
        }
      // Every portal's ends as seen from its `from` cell: (inside `from`, right, left) turn left,
      // (inside `to`, right, left) turn right.
      auto inside = [&](std::int32_t c) {
        Point m{0, 0};
        const auto k = nt.cell_corners(c);
        for (const Point& q : k) m.x += q.x / double(k.size()), m.y += q.y / double(k.size());
        return m;
      };
      for (const PortalSides& ps : nt.portal_sides()) {
        ASSERT_GT(FreeSpaceTriangulation::orientation(inside(ps.from), ps.right, ps.left), 0) << "step " << step;
        ASSERT_LT(FreeSpaceTriangulation::orientation(inside(ps.to), ps.right, ps.left), 0) << "step " << step;
      }
      // Locate at every grid corner and edge midpoint (tile borders, pinch points, the map's border):
      // a cell exactly where the point is free, one whose closed area holds the point and, at a
      // pinch point, on the side FreeSpace gives the point (cell (x, y) if free, else (x, y - 1)).
      for (int y2 = 0; y2 <= 2 * m.grid.height; ++y2)
        for (int x2 = 0; x2 <= 2 * m.grid.width; ++x2) {
          const Point p{x2 / 2.0, y2 / 2.0};
          const std::int32_t c = nt.locate(p);
          ASSERT_EQ(c >= 0, fs.point_free(p)) << "(" << p.x << ", " << p.y << ") step " << step;
          if (c < 0) continue;
          const auto k = nt.cell_corners(c);
          for (std::size_t i = 0; i < k.size(); ++i)
            ASSERT_GE(FreeSpaceTriangulation::orientation(k[i], k[(i + 1) % k.size()], p), 0) << "(" << p.x << ", " << p.y << ")";
          const int x = x2 / 2, y = y2 / 2;
          const bool pinch = x2 % 2 == 0 && y2 % 2 == 0 && m.grid.passable(x, y) == m.grid.passable(x - 1, y - 1) &&
                             m.grid.passable(x - 1, y) == m.grid.passable(x, y - 1) && m.grid.passable(x, y) != m.grid.passable(x - 1, y);
          if (!pinch) continue;
          const Point own = m.grid.passable(x, y) ? Point{x + 0.5, y + 0.5} : Point{x + 0.5, y - 0.5};
          for (std::size_t i = 0; i < k.size(); ++i)  // the cell reaches toward the owning cell's centre
            ASSERT_GE(FreeSpaceTriangulation::orientation(k[i], k[(i + 1) % k.size()], {p.x + (own.x - p.x) / 8, p.y + (own.y - p.y) / 8}), 0)
                << "pinch (" << x << ", " << y << ") step " << step;
        }
    }
  }
}

// The visibility graph after updates equals a fresh build of the same map: the same node pairs,
// the same searched graph (arcs between the same places with the same weights: the taut-state
// graph or the skip graph), the same block lists (entries, flags, masks), and the same nodes seen
// from cell centres and grid corners. Only the nodes whose sweep read a changed cell are swept again: small changes on
// an open map keep most nodes. Several patches per update, parameters that switch the block
// lists, the skip graph, the table and the taut states on and off.
// The sweep cut to a set of directions (GridFov::scan_tangent's `within`, what a visgraph update
// sweeps towards a change) finds in those directions exactly the nodes the whole sweep finds, once
// the uncertain ones take the exact test, and every node it calls sure is visible. Random open
// maps with pinch points, random corners, the cones of one to three random rectangles (near the
// corner, far from it, on its own grid lines).
TEST(DynamicUpdate, GridFovSweepWithinDirectionsMatchesTheWholeSweep) {
  std::mt19937_64 rng(821);
  std::size_t compared = 0, inside = 0;
  for (int round = 0; round < 6; ++round) {
    GridMap g;
    g.width = 40 + int(rng() % 20);
    g.height = 30 + int(rng() % 20);
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 8 ? 0 : 1);
    for (int k = 0; k < 40 * (round % 2); ++k) {  // diagonal pairs: pinch points
      const int x = int(rng() % unsigned(g.width - 1)), y = int(rng() % unsigned(g.height - 1)), d = int(rng() % 2);
      g.cells[std::size_t(y * g.width + x + d)] = 0;
      g.cells[std::size_t((y + 1) * g.width + x + 1 - d)] = 0;
    }
    const Map m = make_grid_map(g, "fov", "test");
    const FreeSpace fs(m);
    const auto& c = fs.convex_corners();
    const GridFov fov(m.grid, c);
    for (std::size_t i = 0; i < c.size(); i += 3) {
      const Point s = c[i].at;
      const int qx = c[i].before.x + c[i].after.x > 2 * s.x ? 1 : -1, qy = c[i].before.y + c[i].after.y > 2 * s.y ? 1 : -1;
      GridFov::Directions d;
      for (int r = 0, nr = 1 + int(rng() % 3); r < nr; ++r) {
        const bool near = rng() % 3 == 0;
        const int x0 = near ? std::clamp(int(s.x) - 3 + int(rng() % 6), 0, g.width - 1) : int(rng() % unsigned(g.width));
        const int y0 = near ? std::clamp(int(s.y) - 3 + int(rng() % 6), 0, g.height - 1) : int(rng() % unsigned(g.height));
        const int y = rng() % 5 == 0 ? int(s.y) : y0;  // a rectangle whose edge lies on the corner's line
        const int w = 1 + int(rng() % 4);
        const int h = 1 + int(rng() % 4);
        fov.add_cone(s, x0, y, std::min(x0 + w, g.width), std::min(y + h, g.height), d);
      }
      fov.close_cones(s, d);
      auto seen = [&](const GridFov::Directions* within) {
        std::vector<std::uint32_t> sure, maybe;
        fov.scan_tangent(s, qx, qy, sure, maybe, nullptr, false, within);
        std::set<std::uint32_t> out;
        for (std::uint32_t j : sure) {
          if (j == i) continue;  // the corner itself: no direction
          if (within) EXPECT_TRUE(fs.segment_valid(s, c[j].at)) << "a sure node not visible";
          if (fov.holds(s, c[j].at, d)) out.insert(j);
        }
        for (std::uint32_t j : maybe)
          if (j != i && fov.holds(s, c[j].at, d) && fs.segment_valid(s, c[j].at)) out.insert(j);
        return out;
      };
      const auto whole = seen(nullptr), cut = seen(&d);
      ASSERT_EQ(whole, cut) << "corner (" << s.x << ", " << s.y << "), round " << round;
      ++compared, inside += whole.size();
    }
  }
  EXPECT_GT(compared, 500u);
  EXPECT_GT(inside, compared);  // the directions hold visible nodes, not only empty cones
}

TEST(DynamicUpdate, VisGraphMatchesFreshBuild) {
  std::mt19937_64 rng(13);
  // Open maps (6 % blocked: long sight lines), and maps full of pinch points (diagonal pairs of
  // blocked cells) and one-cell gaps for the two sweeping rules.
  // defer=1 (the default) leaves the skip graph and the block lists owed, defer=0 makes them in
  // the update (the block lists by carrying the kept nodes' entries over).
  for (const auto& [params, pinches] : {std::pair<const char*, bool>{"", false}, {"alt=0,block=0,skip=0,table=0", false},
                                        {"block=4,table=0,defer=0", false}, {"block=1,skip=1,table=0", false}, {"taut=0,block=0", false},
                                        {"block=3,table=0,defer=0", false}, {"alt=0,block=0,skip=0,table=0", true}, {"block=2,table=0,defer=0", true},
                                        {"block=2,table=0", true}}) {
    SCOPED_TRACE(std::string(params) + (pinches ? " pinches" : ""));
    GridMap g;
    g.width = 45;
    g.height = 38;
    for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 6 ? 0 : 1);
    if (pinches)
      for (int k = 0; k < 120; ++k) {  // a diagonal pair: its shared corner is a pinch point
        const int x = int(rng() % unsigned(g.width - 1)), y = int(rng() % unsigned(g.height - 1)), d = int(rng() % 2);
        g.cells[std::size_t(y * g.width + x + d)] = 0;
        g.cells[std::size_t((y + 1) * g.width + x + 1 - d)] = 0;
      }
    Map m = make_grid_map(g, "vg", "test");
    Params p = Params::parse(params);
    VisGraph vg(m, p);
    using Key = std::vector<double>;
    auto arcs_of = [](const VisGraph& v, bool taut = false) {
      std::vector<Key> out;
      const auto& G = taut ? v.taut_graph() : v.graph();
      for (Vertex a = 0; a < num_vertices(G); ++a)
        for (auto [it, end] = out_edges(a, G); it != end; ++it) {
          const Vertex b = target(*it, G);
          out.push_back({v.position(a).x, v.position(a).y, v.position(b).x, v.position(b).y, G.weight((*it).index),
                         double(a & 1), double(b & 1)});
        }
      std::sort(out.begin(), out.end());
      return out;
    };
    auto seen = [](const VisGraph& v, Point q) {
      std::vector<Key> out;
      for (std::uint32_t j : v.visible_tangent_nodes(q)) out.push_back({v.corners()[j].at.x, v.corners()[j].at.y});
      std::sort(out.begin(), out.end());
      return out;
    };
    std::size_t kept = 0, nodes = 0, partly = 0;
    for (int step = 0; step < 10; ++step) {
      std::vector<CellChange> ch;
      for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
        auto c = random_patch(m.grid, rng, step % 4 == 3 ? 7 : 2);
        ch.insert(ch.end(), c.begin(), c.end());
      }
      ASSERT_TRUE(vg.update(m, ch)) << "step " << step;
      if (step > 0) kept += vg.corners().size() - vg.swept_nodes(), nodes += vg.corners().size(), partly += vg.partly_swept_nodes();
      Params p2 = Params::parse(params);
      const VisGraph fresh(m, p2);
      ASSERT_EQ(vg.corners().size(), fresh.corners().size()) << "step " << step;
      ASSERT_EQ(vg.pairs(), fresh.pairs()) << "step " << step;
      // skip=1: the skip graph and its landmarks owed (docs/changing-maps.md), the taut graph
      // searched meanwhile a fresh build's; derived, all of it a fresh build's. With block lists,
      // the lists owed, the points attached by the sweep meanwhile: the same nodes. defer=0: none
      // of it owed.
      const bool defer = std::string(params).find("defer=0") == std::string::npos;
      ASSERT_EQ(vg.skip_owed(), defer && (fresh.skip_corners() > 0 || fresh.levels() > 0)) << "step " << step;
      ASSERT_EQ(vg.lists_owed(), defer && !fresh.block_candidates().empty()) << "step " << step;
      ASSERT_EQ(arcs_of(vg, true), arcs_of(fresh, true)) << "step " << step;
      if (vg.skip_owed()) EXPECT_EQ(vg.landmarks(), nullptr);
      if (vg.lists_owed()) {
        EXPECT_TRUE(vg.block_candidates().empty());
        for (int y2 = 1; y2 < 2 * m.grid.height; y2 += 7)
          for (int x2 = step % 7; x2 < 2 * m.grid.width; x2 += 7) {
            const Point q{x2 / 2.0, y2 / 2.0};
            if (fresh.free_space().point_free(q)) ASSERT_EQ(seen(vg, q), seen(fresh, q)) << "owed lists (" << q.x << ", " << q.y << ") step " << step;
          }
      }
      vg.derive_owed();
      ASSERT_FALSE(vg.skip_owed() || vg.lists_owed());
      ASSERT_EQ(arcs_of(vg), arcs_of(fresh)) << "step " << step;
      EXPECT_EQ(vg.skip_corners(), fresh.skip_corners());
      EXPECT_EQ(vg.levels(), fresh.levels());
      EXPECT_EQ(vg.stats().vertices, fresh.stats().vertices);
      EXPECT_EQ(vg.stats().edges, fresh.stats().edges);
      EXPECT_EQ(vg.distance_table() != nullptr, fresh.distance_table() != nullptr);
      EXPECT_EQ(vg.landmarks() != nullptr, fresh.landmarks() != nullptr);
      EXPECT_TRUE(vg.block_candidates() == fresh.block_candidates()) << "block lists, step " << step;
      EXPECT_TRUE(vg.grid_fov() == fresh.grid_fov()) << "the sweep's tables, step " << step;
      for (int y2 = 0; y2 < 2 * m.grid.height; y2 += 5)
        for (int x2 = step % 5; x2 < 2 * m.grid.width; x2 += 5) {
          const Point q{x2 / 2.0, y2 / 2.0};
          if (!fresh.free_space().point_free(q)) continue;
          ASSERT_EQ(seen(vg, q), seen(fresh, q)) << "(" << q.x << ", " << q.y << ") step " << step;
        }
    }
    // Many nodes are kept by the small updates (30-60 % here; a sweep of every node keeps none).
    EXPECT_GT(kept * 4, nodes) << kept << " of " << nodes;
    // Most of the others are swept only towards the changed cells (with block lists, also towards
    // the blocks whose entries they make again).
    EXPECT_GT(partly * 2, nodes - kept) << partly << " of " << nodes - kept;
  }
}

// Block lists of the nodes swept only towards a change (VisGraph::sweep_toward_change): such a node
// makes again only its entries of the blocks the change may alter, from a sweep cut to those
// blocks' directions, and carries its others over. After every update its lists must equal a fresh
// build's, entry for entry (ids, sure flags, cell masks), for every block side with masks (1 to 4)
// and one without (5): open maps with long sight lines (each change seen by many corners, as on
// arena2) and maps full of pinch points, small obstacles appearing and vanishing one at a time.
TEST(DynamicUpdate, VisGraphBlockEntriesSweptTowardChange) {
  std::mt19937_64 rng(82);
  std::size_t partly = 0, swept = 0, updates = 0;
  for (const int block : {1, 2, 4, 5})
    for (const bool pinches : {false, true}) {
      const std::string params = "alt=0,skip=0,table=0,defer=0,block=" + std::to_string(block);
      SCOPED_TRACE(params + (pinches ? " pinches" : ""));
      GridMap g;
      g.width = 53;
      g.height = 41;
      for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 3 ? 0 : 1);
      for (int k = 0; pinches && k < 60; ++k) {  // a diagonal pair: its shared corner is a pinch point
        const int x = int(rng() % unsigned(g.width - 1)), y = int(rng() % unsigned(g.height - 1)), d = int(rng() % 2);
        g.cells[std::size_t(y * g.width + x + d)] = 0;
        g.cells[std::size_t((y + 1) * g.width + x + 1 - d)] = 0;
      }
      Map m = make_grid_map(g, "vg", "test");
      Params p = Params::parse(params);
      VisGraph vg(m, p);
      for (int step = 0; step < 14; ++step) {
        const auto ch = testmaps::mixed_patch(m.grid, rng, step % 3 == 2 ? 4 : 2);
        if (ch.empty()) continue;
        ASSERT_TRUE(vg.update(m, ch)) << "step " << step;
        Params p2 = Params::parse(params);
        const VisGraph fresh(m, p2);
        ASSERT_EQ(vg.pairs(), fresh.pairs()) << "step " << step;
        ASSERT_TRUE(vg.block_candidates() == fresh.block_candidates()) << "block lists, step " << step;
        if (step > 0) partly += vg.partly_swept_nodes(), swept += vg.swept_nodes(), ++updates;
      }
    }
  // The nodes near a change are swept towards it, not whole (a node swept whole is a new corner).
  EXPECT_GT(updates, 50u);
  EXPECT_GT(partly * 10, swept * 8) << partly << " of " << swept;
}

// visgraph with skip=1 after an update (docs/changing-maps.md): the skip graph and its landmarks
// owed, the queries answered exactly on the taut graph by the shared A* (which reports their
// expansions) until they have paid more than the derivation costs; the query that passes it
// derives them, and the derived skip graph, levels and landmarks are a fresh build's. Every
// answer is the fresh build's length.
TEST(DynamicUpdate, VisGraphOwedSkipGraphDerivedByTheQueries) {
  std::mt19937_64 rng(82);
  GridMap g;
  g.width = 64;
  g.height = 48;
  for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 8 ? 0 : 1);
  Map m = make_grid_map(g, "vgowed", "test");
  const char* params = "skip=1,table=0,block=0";
  auto make = [&] {
    Params p = Params::parse(params);
    return find_representation("visgraph")->build(m, p);
  };
  auto rep = make();
  const VisGraph& vg = dynamic_cast<const GraphPlanner<VisGraph>&>(*rep).representation();
  ASSERT_FALSE(vg.skip_owed());
  const Heuristic h = parse_heuristic("euclidean");
  std::uniform_int_distribution<int> qx(0, m.grid.width - 1), qy(0, m.grid.height - 1);
  for (int step = 0; step < 4; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    std::vector<CellChange> ch;
    for (int k = 0; k < 3; ++k) {
      auto c = random_patch(m.grid, rng, 4);
      ch.insert(ch.end(), c.begin(), c.end());
    }
    ASSERT_TRUE(rep->update(m, ch));
    auto fresh_rep = make();
    const VisGraph& fresh = dynamic_cast<const GraphPlanner<VisGraph>&>(*fresh_rep).representation();
    ASSERT_TRUE(vg.skip_owed());
    EXPECT_EQ(vg.landmarks(), nullptr);  // stale landmarks would not bound the new distances
    EXPECT_EQ(vg.skip_corners(), 0u);
    const std::uint64_t price = vg.skip_price();
    ASSERT_GT(price, 0u);
    const FreeSpace fs(m);
    int owed_queries = 0;
    for (; owed_queries < 20000 && vg.skip_owed(); ++owed_queries) {
      const std::uint64_t paid = vg.owed_paid();
      const Point s{qx(rng) + 0.5, qy(rng) + 0.5}, t{qx(rng) + 0.5, qy(rng) + 0.5};
      const Outcome got = testplan::plan(*rep, s, t, h), want = testplan::plan(*fresh_rep, s, t, h);
      ASSERT_EQ(got.status, want.status);
      // Derived by the first query that reaches the A* once the count passed the price (a query
      // decided without a search leaves the count as it was).
      if (!vg.skip_owed()) EXPECT_GT(paid, price) << "derived before the queries paid its price";
      else EXPECT_TRUE(paid <= price || vg.owed_paid() == paid) << "not derived once the queries paid its price";
      if (got.status != PlanStatus::found) continue;
      EXPECT_NEAR(got.cost, want.cost, 1e-9);
      EXPECT_TRUE(fs.path_valid(got.path));
    }
    ASSERT_FALSE(vg.skip_owed()) << "the rule never derived the skip graph";
    EXPECT_GT(owed_queries, 1) << "the first query after an update should not pay for the skip graph";
    // Derived in a query: the fresh build's skip graph (arcs, lengths), levels and landmarks.
    const auto& G = vg.graph();
    const auto& F = fresh.graph();
    ASSERT_EQ(num_vertices(G), num_vertices(F));
    ASSERT_EQ(G.num_edges(), F.num_edges());
    for (Vertex a = 0; a < num_vertices(G); ++a) {
      std::vector<std::pair<Vertex, double>> ga, fa;
      for (auto [it, end] = out_edges(a, G); it != end; ++it) ga.push_back({target(*it, G), G.weight((*it).index)});
      for (auto [it, end] = out_edges(a, F); it != end; ++it) fa.push_back({target(*it, F), F.weight((*it).index)});
      ASSERT_EQ(ga, fa) << "skip arcs of vertex " << a;
    }
    EXPECT_EQ(vg.levels(), fresh.levels());
    EXPECT_EQ(vg.skip_corners(), fresh.skip_corners());
    EXPECT_EQ(vg.skip_price(), fresh.skip_price());
    ASSERT_NE(vg.landmarks(), nullptr);
    ASSERT_EQ(vg.landmarks()->ids(), fresh.landmarks()->ids());
    for (Vertex v = 0; v < vg.landmarks()->size(); ++v)
      for (std::size_t j = 0; j < vg.landmarks()->k(); ++j) ASSERT_EQ(vg.landmarks()->row(v)[j], fresh.landmarks()->row(v)[j]);
    // Then the queries are the fresh build's, search for search.
    for (int q = 0; q < 20; ++q) {
      const Point s{qx(rng) + 0.5, qy(rng) + 0.5}, t{qx(rng) + 0.5, qy(rng) + 0.5};
      const Outcome got = testplan::plan(*rep, s, t, h), want = testplan::plan(*fresh_rep, s, t, h);
      ASSERT_EQ(got.status, want.status);
      EXPECT_EQ(got.cost, want.cost);
      EXPECT_EQ(got.stats.expansions, want.stats.expansions);
    }
  }
}

// visgraph's block lists after an update with defer=1 (docs/changing-maps.md): owed, every query
// point attached by the angular sweep (one unit paid each) and answered as a fresh build answers,
// until the sweeps since the lists became owed number more than their price; the query that finds
// them due makes them, and they are a fresh build's, entry for entry. An update while they are
// still owed owes them anew, nothing paid (owed.hpp). defer=0 makes them in the update.
TEST(DynamicUpdate, VisGraphOwedBlockListsBoughtByTheQueries) {
  std::mt19937_64 rng(83);
  GridMap g;
  g.width = 40;
  g.height = 32;
  for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 8 ? 0 : 1);
  Map m = make_grid_map(g, "vglists", "test");
  const char* params = "block=2,table=1";
  auto make = [&](const char* text) {
    Params p = Params::parse(text);
    return find_representation("visgraph")->build(m, p);
  };
  auto rep = make(params), eager = make("block=2,table=1,defer=0");
  const VisGraph& vg = dynamic_cast<const GraphPlanner<VisGraph>&>(*rep).representation();
  const VisGraph& ve = dynamic_cast<const GraphPlanner<VisGraph>&>(*eager).representation();
  ASSERT_FALSE(vg.lists_owed());
  ASSERT_FALSE(vg.block_candidates().empty());
  const Heuristic h = parse_heuristic("euclidean");
  std::uniform_int_distribution<int> qx(0, m.grid.width - 1), qy(0, m.grid.height - 1);
  for (int step = 0; step < 4; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    std::vector<CellChange> ch;
    for (int k = 0; k < 2; ++k) {
      auto c = random_patch(m.grid, rng, 3);
      ch.insert(ch.end(), c.begin(), c.end());
    }
    ASSERT_TRUE(rep->update(m, ch));
    ASSERT_TRUE(eager->update(m, ch));
    auto fresh_rep = make(params);
    const VisGraph& fresh = dynamic_cast<const GraphPlanner<VisGraph>&>(*fresh_rep).representation();
    ASSERT_FALSE(ve.lists_owed());
    EXPECT_TRUE(ve.block_candidates() == fresh.block_candidates());
    ASSERT_TRUE(vg.lists_owed());
    EXPECT_TRUE(vg.block_candidates().empty());
    const std::uint64_t price = vg.lists_price();
    ASSERT_GT(price, 0u);
    // Step 2: the next update comes while the lists are owed, after a few queries.
    const int before_next = step == 2 ? 5 : 20000;
    const FreeSpace fs(m);
    int owed_queries = 0;
    auto free_point = [&] {
      for (;;)
        if (const Point p{qx(rng) + 0.5, qy(rng) + 0.5}; fs.point_free(p)) return p;
    };
    for (; owed_queries < before_next && vg.lists_owed(); ++owed_queries) {
      const std::uint64_t paid = vg.lists_paid();
      const Point s = free_point(), t = free_point();
      const Outcome got = testplan::plan(*rep, s, t, h), want = testplan::plan(*fresh_rep, s, t, h);
      ASSERT_EQ(got.status, want.status);
      if (!vg.lists_owed()) EXPECT_GT(vg.lists_paid(), price) << "made before the sweeps paid their price";
      else EXPECT_EQ(vg.lists_paid(), paid + 2) << "a start and a goal attached by the sweep";
      if (got.status != PlanStatus::found) continue;
      EXPECT_NEAR(got.cost, want.cost, 1e-9);
      EXPECT_TRUE(fs.path_valid(got.path));
    }
    if (step == 2) {
      ASSERT_TRUE(vg.lists_owed());
      const std::uint64_t paid = vg.lists_paid();
      ASSERT_GT(paid, 0u);
      std::vector<CellChange> more = random_patch(m.grid, rng, 2);
      ASSERT_TRUE(rep->update(m, more));
      ASSERT_TRUE(eager->update(m, more));
      ASSERT_TRUE(vg.lists_owed());
      EXPECT_EQ(vg.lists_paid(), 0u) << "an update while owed owes them anew";
      continue;
    }
    ASSERT_FALSE(vg.lists_owed()) << "the rule never made the lists";
    EXPECT_GT(owed_queries, 1) << "the first query after an update should not pay for the lists";
    EXPECT_TRUE(vg.block_candidates() == fresh.block_candidates()) << "the lists made by a query";
    // Then the queries are the fresh build's, search for search.
    for (int q = 0; q < 20; ++q) {
      const Point s{qx(rng) + 0.5, qy(rng) + 0.5}, t{qx(rng) + 0.5, qy(rng) + 0.5};
      const Outcome got = testplan::plan(*rep, s, t, h), want = testplan::plan(*fresh_rep, s, t, h);
      ASSERT_EQ(got.status, want.status);
      EXPECT_EQ(got.cost, want.cost);
      EXPECT_EQ(got.stats.expansions, want.stats.expansions);
    }
  }
}

// The hub labels owed after an update with defer=1 (labels=1, visgraph's over the corners and
// subgoal's over the simple subgoal graph; docs/changing-maps.md): every query answered by the
// shared A* as a fresh build answers, its expansions paid, until they pass the price of the last
// labels' making (the vertices its pruned Dijkstras settled); the query that finds them due makes
// them and answers from them, and they are a fresh build's (entries, distances). defer=0 makes them
// in the update.
template <class R>
void owed_labels_bought_by_the_queries(const char* name, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GridMap g;
  g.width = 40;
  g.height = 32;
  for (int i = 0; i < g.width * g.height; ++i) g.cells.push_back((rng() % 100) < 8 ? 0 : 1);
  Map m = make_grid_map(g, "labels", "test");
  auto make = [&](const char* text) {
    Params p = Params::parse(text);
    return find_representation(name)->build(m, p);
  };
  auto rep = make("labels=1"), eager = make("labels=1,defer=0");
  const R& r = dynamic_cast<const GraphPlanner<R>&>(*rep).representation();
  const R& re = dynamic_cast<const GraphPlanner<R>&>(*eager).representation();
  ASSERT_FALSE(r.labels_owed());
  ASSERT_NE(r.hub_labels(), nullptr);
  const Heuristic h = parse_heuristic("euclidean");
  std::uniform_int_distribution<int> qx(0, m.grid.width - 1), qy(0, m.grid.height - 1);
  auto same_labels = [](const HubLabels& a, const HubLabels& b) {
    if (a.vertices() != b.vertices() || a.entries() != b.entries()) return false;
    for (std::uint32_t u = 0; u < a.vertices(); u += 3)
      for (std::uint32_t v = 0; v < a.vertices(); v += 5)
        if (a.distance(u, v) != b.distance(u, v)) return false;
    return true;
  };
  for (int step = 0; step < 3; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    std::vector<CellChange> ch;
    for (int k = 0; k < 2; ++k) {
      auto c = random_patch(m.grid, rng, 3);
      ch.insert(ch.end(), c.begin(), c.end());
    }
    ASSERT_TRUE(rep->update(m, ch));
    ASSERT_TRUE(eager->update(m, ch));
    auto fresh_rep = make("labels=1");
    const R& fresh = dynamic_cast<const GraphPlanner<R>&>(*fresh_rep).representation();
    ASSERT_FALSE(re.labels_owed());
    ASSERT_NE(re.hub_labels(), nullptr);
    EXPECT_TRUE(same_labels(*re.hub_labels(), *fresh.hub_labels()));
    ASSERT_TRUE(r.labels_owed());
    EXPECT_EQ(r.hub_labels(), nullptr);
    const std::uint64_t price = r.labels_price();
    ASSERT_GT(price, 0u);
    const FreeSpace fs(m);
    int owed_queries = 0;
    for (; owed_queries < 20000 && r.labels_owed(); ++owed_queries) {
      const std::uint64_t paid = r.labels_paid();
      const Point s{qx(rng) + 0.5, qy(rng) + 0.5}, t{qx(rng) + 0.5, qy(rng) + 0.5};
      const Outcome got = testplan::plan(*rep, s, t, h), want = testplan::plan(*fresh_rep, s, t, h);
      ASSERT_EQ(got.status, want.status);
      if (!r.labels_owed()) EXPECT_GT(paid, price) << "made before the searches paid their price";
      else EXPECT_TRUE(paid <= price || r.labels_paid() == paid) << "not made once the searches paid their price";
      if (got.status != PlanStatus::found) continue;
      EXPECT_NEAR(got.cost, want.cost, 1e-9);
      EXPECT_TRUE(fs.path_valid(got.path));
    }
    ASSERT_FALSE(r.labels_owed()) << "the rule never made the labels";
    EXPECT_GT(owed_queries, 1) << "the first query after an update should not pay for the labels";
    ASSERT_NE(r.hub_labels(), nullptr);
    EXPECT_TRUE(same_labels(*r.hub_labels(), *fresh.hub_labels())) << "the labels made by a query";
    for (int q = 0; q < 20; ++q) {
      const Point s{qx(rng) + 0.5, qy(rng) + 0.5}, t{qx(rng) + 0.5, qy(rng) + 0.5};
      const Outcome got = testplan::plan(*rep, s, t, h), want = testplan::plan(*fresh_rep, s, t, h);
      ASSERT_EQ(got.status, want.status);
      EXPECT_EQ(got.cost, want.cost);
      EXPECT_EQ(got.stats.expansions, want.stats.expansions);
    }
  }
}

TEST(DynamicUpdate, VisGraphOwedLabelsBoughtByTheQueries) { owed_labels_bought_by_the_queries<VisGraph>("visgraph", 84); }
TEST(DynamicUpdate, SubgoalOwedLabelsBoughtByTheQueries) { owed_labels_bought_by_the_queries<SubgoalGraph>("subgoal", 85); }

// The all-pairs table repaired after a graph change equals a table made afresh from the new graph:
// the same distances and the same predecessors, entry by entry. Random graphs with small integer
// weights (many ties, which the predecessors' rule must settle as a fresh table does, and sums
// exact in doubles); each change removes and adds places and edges, so a repair meets deletions
// (tree paths that lost an edge or a place) and insertions (rows lowered from new places and new
// edges) together; also changes of deletions only and of insertions only.
TEST(DynamicUpdate, DistanceTableRepairEqualsAFreshTable) {
  std::mt19937_64 rng(82);
  struct Edge {
    std::uint32_t a, b;  // stable ids
    double w;
  };
  for (const int kind : {0, 1, 2}) {  // 0: both, 1: deletions only, 2: insertions only
    SCOPED_TRACE("kind " + std::to_string(kind));
    std::vector<std::uint32_t> alive;  // stable ids of the places, in their table order
    std::uint32_t next_id = 0;
    std::vector<Edge> edges;
    for (int i = 0; i < 70; ++i) alive.push_back(next_id++);
    auto add_edges = [&](int k) {
      for (int i = 0; i < k && alive.size() > 1; ++i) {
        const std::uint32_t a = alive[rng() % alive.size()], b = alive[rng() % alive.size()];
        if (a != b) edges.push_back({a, b, double(1 + rng() % 3)});
      }
    };
    add_edges(140);
    auto graph = [&] {
      std::map<std::uint32_t, std::uint32_t> index;
      for (std::uint32_t i = 0; i < alive.size(); ++i) index[alive[i]] = i;
      std::vector<CsrGraph::WeightedEdge> we;
      std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
      for (const Edge& e : edges) {
        const std::uint32_t a = index.at(e.a), b = index.at(e.b);
        if (seen.insert({std::min(a, b), std::max(a, b)}).second) we.push_back({a, b, e.w});
      }
      return CsrGraph(alive.size(), std::move(we));
    };
    auto identity = [](std::size_t n) {
      std::vector<std::uint32_t> p(n);
      for (std::uint32_t i = 0; i < n; ++i) p[i] = i;
      return p;
    };
    DistanceTable table(graph(), identity(alive.size()), std::size_t(1) << 30);
    std::size_t repaired = 0, rows = 0, lowered = 0;
    for (int step = 0; step < 30; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const std::vector<std::uint32_t> before = alive;
      if (kind != 2) {
        for (int k = 0; k < 2 && alive.size() > 10; ++k) alive.erase(alive.begin() + std::ptrdiff_t(rng() % alive.size()));
        for (int k = 0; k < 4 && !edges.empty(); ++k) edges.erase(edges.begin() + std::ptrdiff_t(rng() % edges.size()));
        std::erase_if(edges, [&](const Edge& e) {
          return std::find(alive.begin(), alive.end(), e.a) == alive.end() || std::find(alive.begin(), alive.end(), e.b) == alive.end();
        });
      }
      if (kind != 1) {
        for (int k = 0; k < 2; ++k) alive.insert(alive.begin() + std::ptrdiff_t(rng() % (alive.size() + 1)), next_id++);
        add_edges(6);
      }
      std::vector<std::int32_t> old_of_new(alive.size(), -1);
      for (std::size_t i = 0; i < alive.size(); ++i)
        if (const auto it = std::find(before.begin(), before.end(), alive[i]); it != before.end()) old_of_new[i] = std::int32_t(it - before.begin());
      const CsrGraph g = graph();
      table.update(g, identity(alive.size()), old_of_new, std::size_t(1) << 30);
      const DistanceTable fresh(g, identity(alive.size()), std::size_t(1) << 30);
      const std::size_t n = alive.size();
      ASSERT_EQ(table.vertices(), fresh.vertices());
      for (std::uint32_t p = 0; p < n; ++p)
        for (std::uint32_t q = 0; q < n; ++q) {
          ASSERT_EQ(table.row(p)[q], fresh.row(p)[q]) << p << " -> " << q;
          ASSERT_EQ(table.prev(p, q), fresh.prev(p, q)) << p << " -> " << q;
        }
      const auto& st = table.last_update();
      if (step > 0) {  // the first update computes every row and keeps the doubles from then on
        EXPECT_FALSE(st.whole);
        rows += st.rows, repaired += st.repaired;
        lowered += st.rows > 0 && st.settled > 0;
      }
    }
    // Both repairs ran: rows whose tree lost something (deletions), and whole rows of new places
    // and edges lowering the others' entries (insertions).
    if (kind != 2) { EXPECT_GT(repaired, 0u); }
    if (kind != 1) { EXPECT_GT(rows, 0u); EXPECT_GT(lowered, 0u); }
    if (kind == 2) { EXPECT_EQ(repaired, 0u); }
  }
}


// A scenario replayed through visgraph, each update checked against a fresh build of the same map
// state: the same arcs, block lists, skip graph and landmarks (ids and distances), and all-pairs
// table (distances, predecessors). The repairs a replay meets here are those of the real scenario
// (obstacles appearing in open space, seen by many corners), not only the random patches of
// VisGraphMatchesFreshBuild. params: one visgraph build each, e.g. "" (the defaults) and "table=0"
// (skip graph and landmarks).
void replay_visgraph_against_fresh(const DynamicScenario& d, int updates, const std::vector<std::string>& params) {
  Map m = make_grid_map(GridMap{d.width, d.height, std::vector<std::uint8_t>(std::size_t(d.width) * std::size_t(d.height), 1)},
                        d.name, "test");
  std::vector<std::unique_ptr<VisGraph>> vgs;
  for (const std::string& text : params) {
    Params p = Params::parse(text);
    vgs.push_back(std::make_unique<VisGraph>(m, p));
  }
  std::vector<CellChange> ch;
  int done = 0;
  for (std::size_t i = 0; i < d.commands.size() && done < updates;) {
    ch.clear();
    while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::place) {
      const auto& c = d.commands[i++];
      apply_patch(m.grid, d.patches[std::size_t(c.id)], c.x, c.y, ch);
    }
    while (i < d.commands.size() && d.commands[i].kind == DynamicCommand::query) ++i;
    if (ch.empty()) continue;
    ++done;
    for (std::size_t k = 0; k < params.size(); ++k) {
      SCOPED_TRACE("\"" + params[k] + "\", update " + std::to_string(done));
      VisGraph& vg = *vgs[k];
      ASSERT_TRUE(vg.update(m, ch));
      Params p = Params::parse(params[k]);
      const VisGraph fresh(m, p);
      ASSERT_EQ(vg.corners().size(), fresh.corners().size());
      ASSERT_EQ(vg.pairs(), fresh.pairs());
      // skip=1: the skip graph and its landmarks owed, and the block lists (defer=1, the
      // default); derived here, then compared with a fresh build's (levels, skip arcs and their
      // lengths, landmarks and their distances, lists). defer=0: nothing owed, the lists carried.
      const bool defer = params[k].find("defer=0") == std::string::npos;
      ASSERT_EQ(vg.skip_owed(), defer && fresh.levels() > 0);
      ASSERT_EQ(vg.lists_owed(), defer && !fresh.block_candidates().empty());
      vg.derive_owed();
      ASSERT_FALSE(vg.skip_owed() || vg.lists_owed());
      const auto& G = vg.graph();
      const auto& F = fresh.graph();
      ASSERT_EQ(num_vertices(G), num_vertices(F));
      for (Vertex a = 0; a < num_vertices(G); ++a) {
        std::vector<std::pair<Vertex, double>> ga, fa;
        for (auto [it, end] = out_edges(a, G); it != end; ++it) ga.push_back({target(*it, G), G.weight((*it).index)});
        for (auto [it, end] = out_edges(a, F); it != end; ++it) fa.push_back({target(*it, F), F.weight((*it).index)});
        std::sort(ga.begin(), ga.end()), std::sort(fa.begin(), fa.end());
        ASSERT_EQ(ga, fa) << "arcs of vertex " << a;
      }
      EXPECT_TRUE(vg.block_candidates() == fresh.block_candidates()) << "block lists";
      EXPECT_TRUE(vg.grid_fov() == fresh.grid_fov()) << "the sweep's tables";
      EXPECT_EQ(vg.skip_corners(), fresh.skip_corners());
      EXPECT_EQ(vg.levels(), fresh.levels());
      ASSERT_EQ(vg.landmarks() != nullptr, fresh.landmarks() != nullptr);
      if (const Landmarks* l = vg.landmarks()) {
        const Landmarks* f = fresh.landmarks();
        ASSERT_EQ(l->ids(), f->ids()) << "landmarks chosen";
        for (Vertex v = 0; v < l->size(); ++v)
          for (std::size_t j = 0; j < l->k(); ++j) ASSERT_EQ(l->row(v)[j], f->row(v)[j]) << "landmark " << j << ", vertex " << v;
      }
      ASSERT_EQ(vg.distance_table() != nullptr, fresh.distance_table() != nullptr);
      if (const DistanceTable* t = vg.distance_table()) {
        const DistanceTable* f = fresh.distance_table();
        const std::uint32_t n = std::uint32_t(vg.corners().size());
        for (std::uint32_t a = 0; a < n; ++a)
          for (std::uint32_t b = 0; b < n; ++b) {
            const float x = t->row(a)[b], y = f->row(a)[b];
            // float entries of double sums taken in another order: equal, or within a few units
            // in the last place
            ASSERT_TRUE(x == y || std::abs(x - y) <= 4e-7f * std::max(std::abs(x), std::abs(y))) << a << " -> " << b << ": " << x << " " << y;
            ASSERT_EQ(t->prev(a, b), f->prev(a, b)) << a << " -> " << b;
          }
      }
    }
  }
  EXPECT_EQ(done, updates);
}

// On a project-made map (rooms, blocks appearing and vanishing: obstacles in open rooms, as in
// arena2), so the check runs without the datasets too.
TEST(DynamicUpdate, VisGraphReplayMatchesFreshBuild) {
  GenerateOptions g;
  g.kind = "rooms";
  g.width = g.height = 64;
  g.room = 32;
  ChangeOptions o;
  o.kind = "blocks";
  o.epochs = 6;
  o.queries = 1;
  o.block = 3;
  o.changes = 3;
  o.seed = 82;
  replay_visgraph_against_fresh(make_change_scenario(generate_map(g), o, "rooms-blocks"), 6, {"", "defer=0", "table=0"});
}

// The competition's arena2 scenario: its first updates (the first sweeps every corner; the others
// repair in place), with the defaults (table and block lists), with table=0 (skip graph and
// landmarks) and with block=0,table=0 (the nodes near a change swept only towards it, as on the
// Aurora switch, whose corners take no block lists).
TEST(DynamicUpdateData, VisGraphArena2MatchesFreshBuild) {
  const std::string path = testdata::path("gppc-dynamic/dao_arena2.scen");
  NAVBENCH_REQUIRE_DATA(path);
  replay_visgraph_against_fresh(load_dynamic_scenario(path), 5, {"", "defer=0", "table=0", "block=0,table=0"});
}

}  // namespace test_dynamic
}  // namespace navbench
