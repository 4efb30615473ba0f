// cpd (algorithms/representations/cpd/): the first-move table against a plain Dijkstra on seeded
// random grids (every pair of free cells: the move is optimal, the row has the fewest runs its
// optimal-move sets allow, the same table on any thread count and node order's answers), the node
// orders, the cache file (round trip, another version, key or order, truncated, corrupt, ignored and
// rebuilt by the representation), the size cap, and the representation's answers against grid8's
// A* on random points (cell centres, corners, edges: several links a side).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "harness/registry/registry.hpp"
#include "harness/run/pipeline.hpp"
#include "representations/cpd/cache.hpp"
#include "representations/cpd/cpd.hpp"
#include "search/heuristic.hpp"
#include "search/workspace.hpp"
#include "support/maps.hpp"
#include "support/plan.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_cpd {

using namespace navbench;
namespace fs = std::filesystem;

namespace {

// The cost of a move and its cell step, written out here (not read from grid.hpp), in GridEdge's
// direction order: E, W, S, N, SE, NE, SW, NW.
constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

// Whether move d from cell (x, y) is a grid8 move: the target free, a diagonal only with both
// orthogonal cells free (no corner cutting).
bool move_ok(const GridMap& g, int x, int y, int d) {
  const int nx = x + kDx[d], ny = y + kDy[d];
  if (!g.passable(nx, ny)) return false;
  return d < 4 || (g.passable(nx, y) && g.passable(x, ny));
}

// Every cell's least cost to cell t by a plain Dijkstra in doubles (+inf: unreachable). The grid's
// moves are symmetric, so it is also the cost from t.
std::vector<double> costs_to(const GridMap& g, int t) {
  const int W = g.width;
  std::vector<double> d(g.cells.size(), INFINITY);
  using E = std::pair<double, int>;
  std::priority_queue<E, std::vector<E>, std::greater<>> pq;
  d[std::size_t(t)] = 0;
  pq.push({0, t});
  while (!pq.empty()) {
    const auto [c, v] = pq.top();
    pq.pop();
    if (c > d[std::size_t(v)]) continue;
    for (int k = 0; k < 8; ++k) {
      if (!move_ok(g, v % W, v / W, k)) continue;
      const int u = v + kDy[k] * W + kDx[k];
      const double nc = c + (k < 4 ? 1.0 : M_SQRT2);
      if (nc < d[std::size_t(u)]) d[std::size_t(u)] = nc, pq.push({nc, u});
    }
  }
  return d;
}

// The maps: seeded random grids of several densities and shapes (disconnected areas included).
std::vector<Map> random_maps() {
  std::vector<Map> out;
  const int sizes[][2] = {{17, 13}, {24, 9}, {20, 20}};
  const double blocked[] = {0.15, 0.3, 0.4};
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    std::mt19937_64 rng(seed * 7919);
    const int w = sizes[seed - 1][0], h = sizes[seed - 1][1];
    out.push_back(testmaps::random_grid(w, h, blocked[seed - 1], rng));
  }
  return out;
}

// The fewest runs a row can have: targets in order, each with its set of optimal first moves (any
// move for the source and for unreachable targets), cut where the running intersection empties.
std::size_t fewest_runs(const std::vector<unsigned>& sets) {
  std::size_t runs = 1;
  unsigned common = sets[0];
  for (std::size_t i = 1; i < sets.size(); ++i) {
    common &= sets[i];
    if (!common) ++runs, common = sets[i];
  }
  return runs;
}

}  // namespace

// Every pair of free cells on each map, in each node order: the table's move leaves the source by a
// grid8 move and starts a shortest path (its cost plus the rest equals the plain Dijkstra's), the
// walk by first moves arrives with the Dijkstra's cost, and each row has exactly the fewest runs
// the optimal-move sets allow (so every tie was found: a missed tie lengthens some row).
TEST(CpdTable, FirstMovesAreOptimalAndRowsAreFewest) {
  for (const Map& m : random_maps()) {
    const GridMap& g = m.grid;
    const GridGraph graph(g, true);
    std::vector<std::vector<double>> to(g.cells.size());
    for (std::size_t c = 0; c < g.cells.size(); ++c)
      if (g.cells[c]) to[c] = costs_to(g, int(c));
    for (cpd::Order o : {cpd::Order::hilbert, cpd::Order::dfs, cpd::Order::rows}) {
      SCOPED_TRACE(std::string(cpd::to_string(o)) + " on a " + std::to_string(g.width) + "x" + std::to_string(g.height) + " grid");
      const cpd::NodeOrder order = cpd::make_order(g, graph, o);
      const cpd::FirstMoveTable table(graph, order, 2);
      ASSERT_EQ(table.rows(), order.size());
      std::size_t pairs = 0;
      for (std::uint32_t s = 0; s < order.size(); ++s) {
        const int sc = int(order.cell_of[s]), sx = sc % g.width, sy = sc / g.width;
        std::vector<unsigned> sets(order.size(), 0xFF);
        for (std::uint32_t t = 0; t < order.size(); ++t) {
          const int tc = int(order.cell_of[t]);
          const std::vector<double>& d = to[std::size_t(tc)];
          if (s == t || !std::isfinite(d[std::size_t(sc)])) continue;
          unsigned optimal = 0;  // the moves that begin a shortest path, by the plain Dijkstra
          for (int k = 0; k < 8; ++k)
            if (move_ok(g, sx, sy, k) &&
                std::abs((k < 4 ? 1.0 : M_SQRT2) + d[std::size_t(sc + kDy[k] * g.width + kDx[k])] - d[std::size_t(sc)]) < 1e-9)
              optimal |= 1u << k;
          sets[t] = optimal;
          const unsigned move = table.first_move(s, t);
          ASSERT_TRUE(optimal >> move & 1u) << "move " << move << " from cell " << sc << " to " << tc;
          ++pairs;
        }
        EXPECT_EQ(table.row(s).size(), fewest_runs(sets)) << "row of cell " << sc;
      }
      EXPECT_GT(pairs, order.size());  // (the maps have paths)
    }
  }
}

// The rows as stored: each starts at rank 0 and its runs at increasing ranks; the table is the same
// built on 1 or 3 threads.
TEST(CpdTable, RowsAreWellFormedAndIndependentOfThreads) {
  for (const Map& m : random_maps()) {
    const GridGraph graph(m.grid, true);
    const cpd::NodeOrder order = cpd::make_order(m.grid, graph, cpd::Order::hilbert);
    const cpd::FirstMoveTable one(graph, order, 1), three(graph, order, 3);
    EXPECT_TRUE(one == three);
    for (std::uint32_t s = 0; s < one.rows(); ++s) {
      const auto row = one.row(s);
      ASSERT_FALSE(row.empty());
      EXPECT_EQ(row[0] >> cpd::FirstMoveTable::kMoveBits, 0u);
      for (std::size_t i = 1; i < row.size(); ++i) EXPECT_LT(row[i - 1] >> 4, row[i] >> 4);
    }
  }
}

// The orders are permutations of the free cells; dfs keeps each component in one block of ranks;
// rows is row-major; the component labels are 4-connected components.
TEST(CpdTable, OrdersArePermutationsOfTheFreeCells) {
  for (const Map& m : random_maps()) {
    const GridGraph graph(m.grid, true);
    const std::size_t free = std::size_t(std::count(m.grid.cells.begin(), m.grid.cells.end(), 1));
    for (cpd::Order o : {cpd::Order::hilbert, cpd::Order::dfs, cpd::Order::rows}) {
      const cpd::NodeOrder n = cpd::make_order(m.grid, graph, o);
      ASSERT_EQ(n.size(), free);
      std::set<std::uint32_t> seen(n.cell_of.begin(), n.cell_of.end());
      EXPECT_EQ(seen.size(), free);
      for (std::uint32_t r = 0; r < n.size(); ++r) {
        EXPECT_TRUE(m.grid.cells[n.cell_of[r]]);
        EXPECT_EQ(n.rank_of[n.cell_of[r]], r);
      }
      if (o == cpd::Order::rows) {
        EXPECT_TRUE(std::is_sorted(n.cell_of.begin(), n.cell_of.end()));
      }
      if (o == cpd::Order::dfs) {
        for (std::uint32_t r = 1; r < n.size(); ++r) EXPECT_LE(n.component[r - 1], n.component[r]);
      }
      // two cells share a component exactly when the plain Dijkstra reaches one from the other
      for (std::uint32_t r = 0; r < n.size(); r += 7) {
        const std::vector<double> d = costs_to(m.grid, int(n.cell_of[r]));
        for (std::uint32_t u = 0; u < n.size(); ++u)
          EXPECT_EQ(n.component[u] == n.component[r], std::isfinite(d[n.cell_of[u]]));
      }
    }
  }
}

namespace {

// A fresh folder for one test's cache files.
fs::path cache_folder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("navbench-test-cpd-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void patch_bytes(const fs::path& file, std::size_t offset, const std::string& bytes) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(offset));
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

struct Built {
  Map map;
  GridGraph graph;
  cpd::NodeOrder order;
  cpd::FirstMoveTable table;
  cpd::CacheKey key;
};
Built built(const Map& m, cpd::Order o = cpd::Order::hilbert) {
  Built b{m, GridGraph(m.grid, true), {}, {}, {}};
  b.order = cpd::make_order(b.map.grid, b.graph, o);
  b.table = cpd::FirstMoveTable(b.graph, b.order, 1);
  b.key = cpd::cache_key(b.map.grid, b.order, o);
  return b;
}

}  // namespace

// Written and read back: the same table. A missing file says so.
TEST(CpdCache, RoundTrip) {
  const fs::path dir = cache_folder("round");
  const Built b = built(random_maps()[0]);
  const fs::path file = cpd::cache_file(dir, b.key);
  std::string why;
  EXPECT_FALSE(cpd::read_cache(file, b.key, why));
  EXPECT_EQ(why, "missing");
  cpd::write_cache(file, b.key, b.table);
  const std::optional<cpd::FirstMoveTable> back = cpd::read_cache(file, b.key, why);
  ASSERT_TRUE(back) << why;
  EXPECT_TRUE(*back == b.table);
  // nothing else left in the folder (the temporary file was renamed)
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// A file that does not hold the key's table is refused with its reason: another format version,
// another map (its file under this map's name), another node order, truncated, padded, corrupt.
TEST(CpdCache, MismatchedTruncatedAndCorruptFilesAreRefused) {
  const fs::path dir = cache_folder("bad");
  const std::vector<Map> maps = random_maps();
  const Built a = built(maps[0]), other = built(maps[1]), dfs = built(maps[0], cpd::Order::dfs);
  const fs::path file = cpd::cache_file(dir, a.key);
  auto refused = [&](const std::string& expect) {
    std::string why;
    EXPECT_FALSE(cpd::read_cache(file, a.key, why));
    EXPECT_NE(why.find(expect), std::string::npos) << why;
  };
  // the version (4 bytes after the 8-byte magic)
  cpd::write_cache(file, a.key, a.table);
  const std::uint32_t later = cpd::kFormatVersion + 1;
  patch_bytes(file, 8, std::string(reinterpret_cast<const char*>(&later), 4));
  refused("format version " + std::to_string(later));
  // another map's table under this name
  cpd::write_cache(file, other.key, other.table);
  refused("another map's table");
  // the same map in another order
  cpd::write_cache(file, dfs.key, dfs.table);
  refused("another node order");
  // truncated: a byte short, then the header cut
  cpd::write_cache(file, a.key, a.table);
  const auto size = fs::file_size(file);
  fs::resize_file(file, size - 1);
  refused("truncated");
  fs::resize_file(file, 20);
  refused("truncated");
  // padded
  cpd::write_cache(file, a.key, a.table);
  fs::resize_file(file, size + 4);
  refused("truncated or padded");
  // one byte of the last run changed: the checksum
  cpd::write_cache(file, a.key, a.table);
  patch_bytes(file, size - 1, std::string(1, '\x7f'));
  refused("corrupt");
  // not a table at all
  std::ofstream(file, std::ios::binary | std::ios::trunc) << std::string(200, 'x');
  refused("not a cpd table");
  fs::remove_all(dir);
}

// Through the representation: the first build writes the table, the second reads it; a corrupt file
// is ignored, the table built again and the file replaced by a good one.
TEST(CpdCache, TheRepresentationReadsWritesAndReplaces) {
  const fs::path dir = cache_folder("rep");
  const Map m = random_maps()[2];
  auto build = [&] {
    Params p = Params::parse("cache=" + dir.string());
    return CompressedPathDatabase(m, p);
  };
  const CompressedPathDatabase first = build();
  EXPECT_FALSE(first.from_cache());
  const CompressedPathDatabase second = build();
  EXPECT_TRUE(second.from_cache());
  EXPECT_TRUE(second.table() == first.table());
  ASSERT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  const fs::path file = fs::directory_iterator(dir)->path();
  EXPECT_EQ(file.filename().string().rfind("cpd-v" + std::to_string(cpd::kFormatVersion) + "-hilbert-", 0), 0u) << file;
  fs::resize_file(file, fs::file_size(file) / 2);
  const CompressedPathDatabase third = build();
  EXPECT_FALSE(third.from_cache());
  EXPECT_TRUE(third.table() == first.table());
  EXPECT_TRUE(build().from_cache());  // the file was written again, whole
  // a cache folder that is not there is refused before any build
  Params bad = Params::parse("cache=" + (dir / "absent").string());
  EXPECT_THROW(CompressedPathDatabase(m, bad), std::invalid_argument);
  fs::remove_all(dir);
}

// Above max_cells the build is refused as a map it does not support (the harness skips the pair
// with the message), before any table is made.
TEST(Cpd, SizeCapRefusesTheMap) {
  const Map m = random_maps()[2];
  const std::size_t free = std::size_t(std::count(m.grid.cells.begin(), m.grid.cells.end(), 1));
  Params over = Params::parse("max_cells=" + std::to_string(free - 1));
  try {
    CompressedPathDatabase c(m, over);
    ADD_FAILURE() << "built above max_cells";
  } catch (const UnsupportedMap& e) {
    EXPECT_NE(std::string(e.what()).find("above max_cells=" + std::to_string(free - 1)), std::string::npos) << e.what();
  }
  Params at = Params::parse("max_cells=" + std::to_string(free));
  EXPECT_NO_THROW(CompressedPathDatabase(m, at));
}

// cpd's answers against grid8's A* through the registry: random points anywhere in free cells, at
// cell centres and at cell corners (up to four links a side), the same cost and status, its path
// valid cell steps.
TEST(Cpd, AnswersEqualGrid8sOptimum) {
  const RepresentationEntry* c = find_representation("cpd");
  const RepresentationEntry* g8 = find_representation("grid8");
  ASSERT_TRUE(c && g8);
  const Heuristic h = parse_heuristic("euclidean");
  std::size_t compared = 0, found = 0;
  for (const Map& m : random_maps()) {
    Params pc, pg;
    const auto cpd_rep = c->build(m, pc);
    const auto grid_rep = g8->build(m, pg);
    const FreeSpace fs(m);
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> ux(0, m.grid.width), uy(0, m.grid.height);
    for (int i = 0; i < 300; ++i) {
      const double sx = ux(rng), sy = uy(rng), gx = ux(rng), gy = uy(rng);
      const int kind = i % 3;  // 0 anywhere, 1 cell centres, 2 cell corners
      Point s{sx, sy}, g{gx, gy};
      if (kind == 1) s = {std::floor(sx) + 0.5, std::floor(sy) + 0.5}, g = {std::floor(gx) + 0.5, std::floor(gy) + 0.5};
      if (kind == 2) s = {std::round(sx), std::round(sy)}, g = {std::round(gx), std::round(gy)};
      if (!fs.point_free(s) || !fs.point_free(g)) continue;
      Query qc, qg;
      qc.start = qg.start = s;
      qc.goal = qg.goal = g;
      const Outcome oc = testplan::plan(*cpd_rep, qc, h), og = testplan::plan(*grid_rep, qg, h);
      ASSERT_EQ(oc.status, og.status) << "query " << i << ": " << oc.message;
      if (oc.status == PlanStatus::not_covered) continue;
      ++compared;
      if (oc.status != PlanStatus::found) continue;
      ++found;
      EXPECT_NEAR(oc.cost, og.cost, 1e-9) << "query " << i;
      const Polyline& line = oc.path;
      EXPECT_NEAR(polyline_length(line), oc.cost, 1e-9);
      EXPECT_TRUE(fs.path_valid(line)) << "query " << i;
    }
  }
  EXPECT_GT(found, 100u);
  EXPECT_GT(compared, found);  // some queries across walls (no path)
}

// SPEC §15: cpd hands its path out `piece` first moves a call; joined, the pieces are the path
// table_search() gives whole (piece=0), at every kind of point (a point on a cell's side or corner
// is answered whole), with the same cost and cells walked.
TEST(Cpd, PiecesJoinedAreTheWholePath) {
  const RepresentationEntry* c = find_representation("cpd");
  ASSERT_TRUE(c);
  const Heuristic h = parse_heuristic("octile");
  std::size_t in_pieces = 0;
  for (const Map& m : random_maps()) {
    Params p0 = Params::parse("piece=0"), p1, p7 = Params::parse("piece=7");
    const auto whole = c->build(m, p0), one = c->build(m, p1), seven = c->build(m, p7);
    const FreeSpace fs(m);
    std::mt19937_64 rng(81);
    std::uniform_real_distribution<double> ux(0, m.grid.width), uy(0, m.grid.height);
    for (int i = 0; i < 200; ++i) {
      Point s{ux(rng), uy(rng)}, g{ux(rng), uy(rng)};
      if (i % 2) s = {std::floor(s.x) + 0.5, std::floor(s.y) + 0.5}, g = {std::floor(g.x) + 0.5, std::floor(g.y) + 0.5};
      if (!fs.point_free(s) || !fs.point_free(g)) continue;
      const Request r{.heuristic = &h};
      Query qw;
      qw.start = s, qw.goal = g;
      const Outcome ow = testplan::plan(*whole, qw, h);
      EXPECT_FALSE(ow.more);
      for (const Planner* rep : {one.get(), seven.get()}) {
        Query q;
        q.start = s, q.goal = g;
        if (rep->locate(q, r)) continue;
        Outcome o = rep->plan(q, r);
        ASSERT_EQ(o.status, ow.status) << "query " << i;
        if (o.status != PlanStatus::found) continue;
        std::size_t calls = 1;
        for (; o.more; ++calls) rep->next_piece(q, r, o);
        EXPECT_EQ(o.path, ow.path) << "query " << i;
        EXPECT_DOUBLE_EQ(o.cost, ow.cost) << "query " << i;
        EXPECT_EQ(o.stats.expansions, ow.stats.expansions) << "query " << i;
        if (calls > 1) ++in_pieces;
        // At cell centres (the start and goal are their cells' centres: one point a cell) one move a
        // call, the goal with the last; elsewhere the octile heuristic sends the query to the A*.
        if (rep == one.get() && i % 2 && !q.direct) EXPECT_EQ(calls, ow.path.size() - 1) << "query " << i;
      }
    }
  }
  EXPECT_GT(in_pieces, 100u);
}

// The real-time columns through the pipeline (SPEC §15, docs/results.md#real-time-columns): cpd
// answers in pieces, its first move known before its whole path; grid8 answers in one call, its
// three columns the whole query.
TEST(Cpd, FirstMoveBeforeTheWholePathGrid8sAllAtOnce) {
  std::mt19937_64 seed(81);
  const Map m = testmaps::random_grid(60, 40, 0.2, seed);
  const AgentSpace space{m, Agent{}};
  const CostModel cost{m};
  const MapContext mc{m.name, m.collection, "center"};
  const Heuristic h = parse_heuristic("octile");
  const std::vector<std::string> modes = {"none"};
  const FreeSpace fs(m);
  std::size_t long_ones = 0;
  for (const std::string text : {"cpd", "grid8"}) {
    const RepresentationEntry* e = find_representation(text);
    ASSERT_TRUE(e);
    Params p;
    const auto rep = e->build(m, p);
    rep->prepare();
    const QueryContext ctx{.map = mc, .space = space, .cost = cost, .rep_text = text, .heuristic = h, .smoothings = modes,
                           .rep = rep.get(), .caps = e->caps};
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> ux(0, m.grid.width - 1), uy(0, m.grid.height - 1);
    for (int i = 0; i < 300; ++i) {
      QueryInput in;
      in.start = {ux(rng) + 0.5, uy(rng) + 0.5};
      in.goal = {ux(rng) + 0.5, uy(rng) + 0.5};
      if (!fs.point_free(in.start) || !fs.point_free(in.goal)) continue;
      const PendingQuery pq = start_query(ctx, in);
      if (pq.done || pq.outcome.status != PlanStatus::found) continue;
      const ResultRow& row = pq.row;
      ASSERT_TRUE(row.first_move_us && row.first20_us && row.max_step_us);
      const double query = row.locate_us + row.search_us;
      if (text == "grid8") {
        EXPECT_TRUE(pq.outcome.pieces.empty()) << "one call";
        EXPECT_DOUBLE_EQ(*row.first_move_us, query);
        EXPECT_DOUBLE_EQ(*row.first20_us, query);
        EXPECT_DOUBLE_EQ(*row.max_step_us, query);
        continue;
      }
      if (polyline_length(pq.outcome.path) < 30) continue;
      ++long_ones;
      ASSERT_GT(pq.outcome.pieces.size(), 20u) << "one move a call";
      EXPECT_DOUBLE_EQ(*row.first_move_us, row.locate_us + pq.outcome.pieces[0].us) << "the first call gives the first move";
      EXPECT_LT(*row.first_move_us, *row.first20_us);
      EXPECT_LT(*row.first20_us, query) << "moves after the 20th come later";
      EXPECT_LT(*row.max_step_us, query);
    }
  }
  EXPECT_GT(long_ones, 20u);
}

}  // namespace test_cpd
