// Competition entries in child processes (SPEC §10, docs/outside-planners.md): the repository's
// example entries answer every query (classic: the scenario's lengths; any-angle: valid at the
// corner convention and equal to the exact optimum), the verdict's rules (corner cutting, pinch
// points, wrong ends), and the misbehaving entry's crash, abort, exception, hang, runaway memory
// and garbage each cost one query while the queries after it are answered by a new child.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "base/text.hpp"
#include "datasets/generate.hpp"
#include "geometry/free_space.hpp"
#include "harness/gppc/client.hpp"
#include "harness/gppc/judge.hpp"
#include "search/workspace.hpp"
#include "harness/registry/registry.hpp"
#include "harness/results/results.hpp"
#include "harness/run/description.hpp"
#include "harness/run/oracles.hpp"
#include "search/heuristic.hpp"
#include "harness/run/pipeline.hpp"
#include "harness/run/timed_build.hpp"
#include "support/maps.hpp"
#include "support/plan.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_gppc {

using namespace navbench;
using namespace navbench::gppc;
namespace fs = std::filesystem;

namespace {

// The example entries' host programs: build/entries/, next to this test's folder build/tests/.
std::string entry(const std::string& name) {
  return (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "entries" / ("gppc-" + name)).string();
}

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("navbench_gppc_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
  EntrySpec spec(const std::string& name, Track track) const {
    return {entry(name), track, (dir / (name + ".log")).string(), (dir / name).string()};
  }
};

GridMap rooms() {
  GenerateOptions o;
  o.kind = "rooms";
  o.width = o.height = 32;
  o.room = 8;
  o.seed = 3;
  return generate_map(o);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(Gppc, ClassicExampleGivesTheScenarioLengths) {
  TempDir t;
  const GridMap g = rooms();
  const Map m = make_grid_map(g, "rooms");
  const FreeSpace fs(m);
  const Scenario sc = make_scenario(g, "rooms.map", 40, 5);
  auto e = std::make_unique<EntryProcess>(t.spec("classic-astar", Track::classic), Limits{}, g);
  EXPECT_EQ(e->build().entry_name, "example-classic-astar");
  std::vector<EntryQuery> qs;
  for (const auto& l : sc.lines) qs.push_back({l.sx, l.sy, l.gx, l.gy});
  const auto answers = e->answer(qs);
  ASSERT_EQ(answers.size(), qs.size());
  for (std::size_t i = 0; i < qs.size(); ++i) {
    SCOPED_TRACE(i);
    const Verdict v = judge(answers[i], Track::classic, fs, {qs[i].sx, qs[i].sy}, {qs[i].gx, qs[i].gy});
    ASSERT_EQ(v.kind, Verdict::Kind::ok) << v.reason;
    EXPECT_TRUE(v.valid) << v.reason;
    EXPECT_NEAR(v.length, sc.lines[i].optimal, 5e-9 + 2e-8 * v.length);  // printed with 8 decimals (SPEC §1)
    EXPECT_EQ(v.path.front(), (Point{qs[i].sx + 0.5, qs[i].sy + 0.5}));  // the center convention
    EXPECT_GE(answers[i].calls, 1u);
    EXPECT_GE(answers[i].search_us, 0.0);
  }
  EXPECT_EQ(e->restarts(), 0);
  e.reset();  // the entry's buffered output reaches the log when it ends
  EXPECT_NE(slurp(t.spec("classic-astar", Track::classic).log).find("classic example: 32 x 32 map"), std::string::npos);
}

TEST(Gppc, AnyAngleExampleIsValidAtTheCornerConventionAndOptimal) {
  TempDir t;
  const GridMap g = rooms();
  const Map m = make_grid_map(g, "rooms");
  const FreeSpace fs(m);
  auto vis = build_optimum_graph(m);
  const Scenario sc = make_scenario(g, "rooms.map", 40, 6);
  EntryProcess e(t.spec("anyangle-visibility", Track::anyangle), Limits{}, g);
  EXPECT_GT(e.build().storage_bytes, 0u);  // FILENAME.corners, written in the preprocessing child
  EXPECT_GT(e.peak_rss_bytes(), 0u);
  std::vector<EntryQuery> qs;
  for (const auto& l : sc.lines) qs.push_back({l.sx, l.sy, l.gx, l.gy});
  qs.push_back(qs[0]);
  qs.back().gx = qs[0].sx, qs.back().gy = qs[0].sy;  // start == goal
  const auto answers = e.answer(qs);
  ASSERT_EQ(answers.size(), qs.size());
  for (std::size_t i = 0; i < qs.size(); ++i) {
    SCOPED_TRACE(i);
    const Point s{qs[i].sx, qs[i].sy}, goal{qs[i].gx, qs[i].gy};
    const Verdict v = judge(answers[i], Track::anyangle, fs, s, goal);
    ASSERT_EQ(v.kind, Verdict::Kind::ok) << v.reason;
    EXPECT_TRUE(v.valid) << v.reason;
    const auto opt = exact_optimum(*vis, fs, s, goal);
    ASSERT_TRUE(opt.has_value());
    EXPECT_NEAR(v.length, *opt, 1e-9 * (1 + v.length));
  }
}

TEST(Gppc, VerdictRules) {
  // (1,1) and (2,2) blocked: a pinch point at (2,2) and convex corners around.
  const Map m = testmaps::grid_from({"....", ".@..", "..@.", "...."});
  const FreeSpace fs(m);
  auto answer = [](std::vector<Point> p) { return EntryAnswer{true, "", std::move(p), 1.0, 1}; };
  // Classic: cells; a diagonal step past a blocked cell cuts its corner.
  Verdict v = judge(answer({{0, 0}, {1, 0}, {2, 1}}), Track::classic, fs, {0, 0}, {2, 1});
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.reason.find("cuts a corner"), std::string::npos) << v.reason;
  v = judge(answer({{0, 0}, {3, 0}, {3, 3}}), Track::classic, fs, {0, 0}, {3, 3});
  EXPECT_TRUE(v.valid) << v.reason;
  EXPECT_DOUBLE_EQ(v.length, 6.0);
  v = judge(answer({{0, 0}, {3, 1}}), Track::classic, fs, {0, 0}, {3, 1});
  EXPECT_NE(v.reason.find("neither cardinal nor diagonal"), std::string::npos) << v.reason;
  v = judge(answer({{0, 0}, {0, 0}, {0, 3}}), Track::classic, fs, {0, 0}, {0, 3});  // a repeated cell is merged
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.path.size(), 2u);
  // Any-angle: through the pinch point is invalid, touching it and turning back is not.
  v = judge(answer({{1, 3}, {3, 1}}), Track::anyangle, fs, {1, 3}, {3, 1});
  EXPECT_FALSE(v.valid);
  v = judge(answer({{1, 3}, {2, 2}, {1, 2.5}}), Track::anyangle, fs, {1, 3}, {1, 2.5});
  EXPECT_TRUE(v.valid) << v.reason;
  v = judge(answer({{0, 0}, {4, 4}}), Track::anyangle, fs, {0, 0}, {4, 4});
  EXPECT_FALSE(v.valid);  // through the blocked cells
  v = judge(answer({{0, 1}, {4, 1}}), Track::anyangle, fs, {0, 0}, {4, 1});
  EXPECT_NE(v.reason.find("starts at"), std::string::npos);
  v = judge(answer({}), Track::anyangle, fs, {0, 0}, {4, 1});
  EXPECT_EQ(v.kind, Verdict::Kind::no_path);
  v = judge(answer({}), Track::anyangle, fs, {0, 0}, {0, 0});
  EXPECT_EQ(v.kind, Verdict::Kind::ok);
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.length, 0.0);
}

// Found by fuzzing (tests/fuzz/corpus/gppc/finding-*): what a misbehaving entry's finite but huge
// coordinates make of the verdict.
TEST(Gppc, VerdictOnHugeCoordinates) {
  const Map m = testmaps::grid_from({"....", ".@..", "..@.", "...."});
  const FreeSpace fs(m);
  auto answer = [](std::vector<Point> p) { return EntryAnswer{true, "", std::move(p), 1.0, 1}; };
  // Points 1e308 and -1e308: the length overflows to +inf, which the pipeline reads as "no path".
  for (Track t : {Track::classic, Track::anyangle}) {
    const Verdict v = judge(answer({{0, 0}, {1e308, 0}, {-1e308, 0}, {0, 3}}), t, fs, {0, 0}, {0, 3});
    EXPECT_EQ(v.kind, Verdict::Kind::error);
    EXPECT_NE(v.reason.find("length is not a finite number"), std::string::npos) << v.reason;
  }
  // A whole cell beyond int's range: outside the map (it was converted to int first, undefined).
  const Verdict v = judge(answer({{0, 0}, {1e300, 0}, {0, 3}}), Track::classic, fs, {0, 0}, {0, 3});
  EXPECT_EQ(v.kind, Verdict::Kind::ok);
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.reason.find("is outside the map"), std::string::npos) << v.reason;
}

TEST(Gppc, MisbehavingEntryCostsOneQueryEach) {
  TempDir t;
  // Open below row 3; the pinch point (2,2) between free cells (1,1) and (2,2).
  GridMap g = testmaps::grid_from({"............", "............", ".@..........", "..@.........", "............",
                                   "............", "............", "............", "............", "............",
                                   "............", "............"}).grid;
  std::swap(g.cells[std::size_t(2) * 12 + 1], g.cells[std::size_t(1) * 12 + 2]);  // blocked: (2,1) and (1,2)
  std::swap(g.cells[std::size_t(3) * 12 + 2], g.cells[std::size_t(2) * 12 + 2]);
  const Map m = make_grid_map(g, "pinch");
  const FreeSpace fs(m);
  Limits lim;
  lim.query_ms = 1500;
  lim.memory_mb = 48;  // reached within the time limit even on a loaded machine (the first 64 MB block)
  EntryProcess e(t.spec("misbehaving", Track::anyangle), lim, g);
  // Behaviour k (entries/misbehaving/misbehaving.cpp) on the query from (k, 6); a good query after each.
  std::vector<EntryQuery> qs = {{0, 0, 4, 4}};  // straight through the pinch point
  for (int k = 1; k <= 11; ++k) {
    qs.push_back({double(k), 6, double(k), 9});
    qs.push_back({0, 6, 0, 9});
  }
  const auto answers = e.answer(qs);
  ASSERT_EQ(answers.size(), qs.size());
  std::vector<Verdict> v;
  for (std::size_t i = 0; i < qs.size(); ++i) v.push_back(judge(answers[i], Track::anyangle, fs, {qs[i].sx, qs[i].sy}, {qs[i].gx, qs[i].gy}));
  EXPECT_EQ(v[0].kind, Verdict::Kind::ok);
  EXPECT_FALSE(v[0].valid) << "a straight segment through a pinch point";
  for (int k = 1; k <= 11; ++k) {
    SCOPED_TRACE(k);
    const Verdict& good = v[std::size_t(2 * k)];
    EXPECT_TRUE(good.kind == Verdict::Kind::ok && good.valid) << "the query after the misbehaviour: " << good.reason;
  }
  auto error_with = [&](int k, const std::string& text) {
    const Verdict& x = v[std::size_t(2 * k - 1)];
    EXPECT_EQ(x.kind, Verdict::Kind::error) << k;
    EXPECT_NE(x.reason.find(text), std::string::npos) << k << ": " << x.reason;
  };
  auto invalid_with = [&](int k, const std::string& text) {
    const Verdict& x = v[std::size_t(2 * k - 1)];
    EXPECT_EQ(x.kind, Verdict::Kind::ok) << k;
    EXPECT_FALSE(x.valid) << k;
    EXPECT_NE(x.reason.find(text), std::string::npos) << k << ": " << x.reason;
  };
  error_with(1, "entry");  // killed by SIGSEGV, or the sanitizer's exit status
  error_with(2, "entry");
  error_with(3, "GetPath threw: the entry gave up");
  error_with(4, "time limit of 1500 ms exceeded");
  error_with(5, "memory limit of 48 MB exceeded");
  error_with(6, "not a finite number");
  invalid_with(7, "outside the map");
  invalid_with(8, "not at the start");
  error_with(9, "more than");
  error_with(10, "never finished");
  invalid_with(11, "not at the goal");
  EXPECT_EQ(e.restarts(), 5);  // crash, abort, exception, hang, memory
  const std::string log = slurp(t.spec("misbehaving", Track::anyangle).log);
  EXPECT_NE(log.find("misbehaving entry: query from x = 10"), std::string::npos);
}

// An entry's exception text is whatever bytes it threw; the results files and the viewer's JSON
// must still hold it: every byte that is not text written \xNN, valid UTF-8 kept (base::printable).
TEST(Gppc, AnEntrysMessageOfAnyBytesIsWrittenAsText) {
  EXPECT_EQ(base::printable("plain, text"), "plain, text");
  EXPECT_EQ(base::printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x97\xba"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x97\xba");  // 2, 3, 4 bytes
  EXPECT_EQ(base::printable(std::string("a\nb\tc\x00" "d\x7f", 8)), "a\\x0ab\\x09c\\x00d\\x7f");
  EXPECT_EQ(base::printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(base::printable("\x80"), "\\x80");               // a continuation byte alone
  EXPECT_EQ(base::printable("\xc0\x80"), "\\xc0\\x80");      // overlong
  EXPECT_EQ(base::printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(base::printable("\xe2\x82"), "\\xe2\\x82");      // cut short
  EXPECT_EQ(base::printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  ResultRow r;
  r.map = "m";
  r.representation = "gppc:x";
  r.status = Status::error;
  r.message = "GetPath threw: \xff\x01 then\nmore \xc3\xa9";
  const std::string line = format_row(r);
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_NE(line.find("GetPath threw: \\xff\\x01 then\\x0amore \xc3\xa9"), std::string::npos) << line;
  std::string text;
  EXPECT_NO_THROW(text = result_row_json(r).dump());
  EXPECT_NE(text.find("\\\\xff"), std::string::npos) << text;
}

TEST(Gppc, DeclaredTrackIsChecked) {
  TempDir t;
  const GridMap g = rooms();
  EntrySpec s = t.spec("anyangle-visibility", Track::classic);
  try {
    EntryProcess e(s, Limits{}, g);
    FAIL() << "a classic declaration of an any-angle entry";
  } catch (const std::invalid_argument& err) {
    EXPECT_NE(std::string(err.what()).find("built for the anyangle track"), std::string::npos) << err.what();
  }
  s.path = t.dir / "missing";
  EXPECT_THROW(EntryProcess(s, Limits{}, g), std::invalid_argument);
}

TEST(Gppc, RegistryRowsThroughThePipeline) {
  TempDir t;
  const Map m = testmaps::grid_from(std::vector<std::string>(12, std::string(12, '.')));
  const auto specs = parse_rep_option("gppc:path=" + entry("misbehaving") + ",track=anyangle,query_ms=500,log=" +
                                      (t.dir / "entry.log").string());
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].text, "gppc:gppc-misbehaving");  // the name, never the path
  Params p = Params::parse(specs[0].params);
  auto rep = specs[0].entry->build(m, p);
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "corner"};
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const std::vector<std::string> modes = {"none", "funnel"};
  auto row = [&](Point s, Point g, SearchMode mode = SearchMode::astar) {
    QueryInput in;
    in.start = s;
    in.goal = g;
    auto rows = run_query({.map = ctx, .space = space, .cost = cost, .rep_text = specs[0].text, .heuristic = h,
                           .smoothings = modes, .rep = rep.get(), .search = mode, .caps = specs[0].caps(),
                           .keep_paths = true}, in);
    EXPECT_EQ(rows.size(), 2u);
    if (rows[0].status == Status::ok) { EXPECT_EQ(rows[1].status, Status::not_applicable); }  // no corridor
    return rows[0];
  };
  ResultRow r = row({1, 3}, {1, 8});  // a crash
  EXPECT_EQ(r.status, Status::error);
  EXPECT_NE(r.message.find("entry"), std::string::npos) << r.message;
  r = row({0, 3}, {5, 8});  // a good straight path from a new child
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_TRUE(*r.valid);
  EXPECT_NEAR(*r.length, std::hypot(5.0, 5.0), 1e-12);
  EXPECT_EQ(r.locate_us, 0.0);
  EXPECT_GT(r.search_us, 0.0);  // GetPath's time, taken in the child
  r = row({7, 3}, {7, 8});  // a point outside the map
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_FALSE(*r.valid);
  EXPECT_FALSE(*r.raw_valid);
  EXPECT_NE(r.message.find("outside the map"), std::string::npos) << r.message;
  r = row({0.5, 3.5}, {5.5, 8.5});  // not at the corner convention
  EXPECT_EQ(r.status, Status::error);
  EXPECT_NE(r.message.find("--convention corner"), std::string::npos) << r.message;
  r = row({0, 3}, {5, 8}, SearchMode::theta);  // navbench's own searches do not apply
  EXPECT_EQ(r.status, Status::not_applicable);
  EXPECT_THROW(parse_rep_option("gppc:path=" + entry("misbehaving") + ",track=classic"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("gppc:path=" + entry("misbehaving")), std::invalid_argument);
  // Checked against the declaration (harness/gppc/planner.cpp) before any work.
  EXPECT_THROW(parse_rep_option("gppc:path=" + entry("misbehaving") + ",track=grid"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("gppc:path=" + entry("misbehaving") + ",track=anyangle,query_ms=0"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("gppc:path=" + entry("misbehaving") + ",track=anyangle,radius=1"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("gppc:track=classic"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("gppc:path=" + (t.dir / "missing").string() + ",track=classic"), std::invalid_argument);
  EXPECT_THROW(parse_rep_option("gppc"), std::invalid_argument);
}

// SPEC §15: an entry's GetPath calls are each timed on its own in its process and become the
// pieces of its path, its real-time columns made from them by the pipeline's one rule: the example
// entry answers in one call (all three columns its query), the misbehaving entry's behaviour 12 a
// point a call (2 ms in the call of the first move, 20 ms in the last).
TEST(Gppc, EachGetPathCallIsTimedOnItsOwn) {
  TempDir t;
  const Map m = testmaps::grid_from(std::vector<std::string>(32, std::string(32, '.')));
  const Heuristic h = parse_heuristic("euclidean");
  const MapContext ctx{m.name, m.collection, "corner"};
  const AgentSpace space(m, Agent{});
  const CostModel cost(m);
  const std::vector<std::string> modes = {"none"};
  const auto specs = parse_rep_option("gppc:path=" + entry("misbehaving") + ",track=anyangle,log=" + (t.dir / "entry.log").string());
  Params p = Params::parse(specs[0].params);
  auto rep = specs[0].entry->build(m, p);
  const QueryContext c{.map = ctx, .space = space, .cost = cost, .rep_text = specs[0].text, .heuristic = h,
                       .smoothings = modes, .rep = rep.get(), .caps = specs[0].caps()};
  QueryInput in;
  in.start = {12, 2};
  in.goal = {12, 28};  // 26 long: the start, 25 points a unit apart, the goal
  const PendingQuery pq = start_query(c, in);
  ASSERT_EQ(pq.outcome.status, PlanStatus::found) << pq.outcome.message;
  const auto& pieces = pq.outcome.pieces;
  ASSERT_EQ(pieces.size(), 27u) << "one piece a GetPath call";
  EXPECT_EQ(pieces[0].points, 1u);
  EXPECT_EQ(pieces[1].points, 2u);
  EXPECT_EQ(pieces[26].points, 27u);
  const ResultRow& r = pq.row;
  ASSERT_TRUE(r.first_move_us && r.first20_us && r.max_step_us);
  EXPECT_EQ(r.locate_us, 0.0);
  double sum = 0, first20 = 0, longest = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    sum += pieces[i].us;
    longest = std::max(longest, pieces[i].us);
    if (i == 20) first20 = sum;  // 21 points: 20 long
  }
  EXPECT_DOUBLE_EQ(r.search_us, sum) << "the calls summed, as before";
  EXPECT_DOUBLE_EQ(*r.first_move_us, pieces[0].us + pieces[1].us) << "the second call gives the first move";
  EXPECT_DOUBLE_EQ(*r.first20_us, first20);
  EXPECT_DOUBLE_EQ(*r.max_step_us, longest);
  EXPECT_GE(*r.first_move_us, 2000.0) << "the 2 ms of the first move's call";
  EXPECT_GE(*r.max_step_us, 20000.0) << "the 20 ms call, on its own";
  EXPECT_LE(*r.first20_us, r.search_us - 20000.0) << "the last call comes after the first 20 moves";

  // The example entry answers each query in one call: its columns are its query time.
  const GridMap g = rooms();
  const Map rm = make_grid_map(g, "rooms");
  const AgentSpace rspace(rm, Agent{});
  const CostModel rcost(rm);
  const MapContext rctx{rm.name, rm.collection, "center"};
  const auto example = parse_rep_option("gppc:path=" + entry("classic-astar") + ",track=classic,log=" + (t.dir / "astar.log").string());
  Params pe = Params::parse(example[0].params);
  auto erep = example[0].entry->build(rm, pe);
  const QueryContext ec{.map = rctx, .space = rspace, .cost = rcost, .rep_text = example[0].text, .heuristic = h,
                        .smoothings = modes, .rep = erep.get(), .caps = example[0].caps()};
  std::size_t answered = 0;
  for (const auto& l : make_scenario(g, "rooms.map", 20, 5).lines) {
    QueryInput q;
    q.start = {l.sx + 0.5, l.sy + 0.5};
    q.goal = {l.gx + 0.5, l.gy + 0.5};
    for (const ResultRow& row : run_query(ec, q)) {
      if (row.status != Status::ok) continue;
      ++answered;
      ASSERT_TRUE(row.first_move_us && row.first20_us && row.max_step_us);
      EXPECT_DOUBLE_EQ(*row.first_move_us, row.search_us);
      EXPECT_DOUBLE_EQ(*row.first20_us, row.search_us);
      EXPECT_DOUBLE_EQ(*row.max_step_us, row.search_us);
    }
  }
  EXPECT_GT(answered, 10u);
}

// Where the entry's preprocessing dies the build is a BuildFailed (not a map it does not support):
// the run then gives every query of the map an error row with the reason (tests/cli/gppc_runs.sh).
TEST(Gppc, PreprocessingThatDiesIsABuildFailure) {
  TempDir t;
  const std::string rep = "gppc:path=" + entry("misbehaving") + ",track=anyangle,prepare_ms=1000,log=" + (t.dir / "entry.log").string();
  const auto specs = parse_rep_option(rep);
  ASSERT_EQ(specs.size(), 1u);
  // misbehaving.cpp: PreprocessMap crashes 3 wide and never returns 7 wide; PrepareForSearch throws 5 wide.
  const std::vector<std::pair<int, std::string>> cases = {
      {3, "gppc entry failed in PreprocessMap: entry"},
      {7, "gppc entry failed in PreprocessMap: time limit of 1000 ms exceeded"},
      {5, "gppc entry failed in PrepareForSearch: entry"}};
  for (const auto& [width, reason] : cases) {
    SCOPED_TRACE(width);
    const Map m = testmaps::grid_from(std::vector<std::string>(3, std::string(std::size_t(width), '.')));
    const TimedBuild b = build_timed(m, specs[0]);
    EXPECT_FALSE(b.rep);
    EXPECT_TRUE(b.failed);
    EXPECT_EQ(b.unsupported.rfind(reason, 0), 0u) << b.unsupported;
  }
  const TimedBuild good = build_timed(testmaps::grid_from(std::vector<std::string>(3, std::string(4, '.'))), specs[0]);
  EXPECT_TRUE(good.rep);
  EXPECT_FALSE(good.failed);
}

// store=DIR keeps PreprocessMap's files, as the competition's separate -pre and -run steps do: a
// second build of the same program on the same map reuses them and reports the first run's
// preprocessing figures; a damaged stamp or an edited map is preprocessed again.
TEST(Gppc, StoreKeepsThePreprocessingForTheNextRun) {
  TempDir t;
  const fs::path store = t.dir / "store";
  const auto specs = parse_rep_option("gppc:path=" + entry("anyangle-visibility") + ",track=anyangle,name=vis,store=" +
                                      store.string() + ",log=" + (t.dir / "entry.log").string());
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_TRUE(fs::is_directory(store));  // made by the --rep check, before any build
  const GridMap g = rooms();
  const Map m = make_grid_map(g, "rooms");
  auto build = [&](const Map& map) {
    Params p = Params::parse(specs[0].params);
    return specs[0].entry->build(map, p);
  };
  const FreeSpace fs(m);
  auto vis = build_optimum_graph(m);
  const Heuristic h = parse_heuristic("euclidean");
  const Scenario sc = make_scenario(g, "rooms.map", 10, 7);
  auto answers_optimally = [&](const Planner& rep) {
    for (const auto& l : sc.lines) {
      const Outcome o = testplan::plan(rep, {l.sx, l.sy}, {l.gx, l.gy}, h);
      ASSERT_EQ(o.status, PlanStatus::found) << o.message;
      const double len = o.cost;
      const Point s{l.sx, l.sy}, g{l.gx, l.gy};
      Query q;
      q.start = s, q.goal = g;
      const auto opt = exact_optimum(*vis, fs, q.start, q.goal);
      ASSERT_TRUE(opt.has_value());
      EXPECT_NEAR(len, *opt, 1e-9 * (1 + len));
    }
  };
  auto first = build(m);
  const auto b1 = first->figures().measured;
  ASSERT_TRUE(b1);
  EXPECT_GT(b1->stored_bytes, 0u);
  answers_optimally(*first);
  first.reset();  // the folder stays after the run
  std::vector<fs::path> folders(fs::directory_iterator(store), fs::directory_iterator{});
  ASSERT_EQ(folders.size(), 1u);
  const fs::path folder = folders[0];
  EXPECT_EQ(folder.filename().string().rfind("vis-rooms-", 0), 0u) << folder;
  EXPECT_TRUE(fs::exists(folder / "rooms.corners"));
  std::ofstream(folder / "marker") << "left by the test";
  // Reused: the folder as it was, the first run's figures, the same answers.
  auto second = build(m);
  const auto b2 = second->figures().measured;
  ASSERT_TRUE(b2);
  EXPECT_EQ(b2->preprocess_ms, b1->preprocess_ms);
  EXPECT_EQ(b2->stored_bytes, b1->stored_bytes);
  EXPECT_TRUE(fs::exists(folder / "marker"));
  answers_optimally(*second);
  second.reset();
  // A damaged stamp: the folder is emptied and the map preprocessed again.
  std::ofstream(folder / "navbench-preprocessed.txt") << "navbench gppc store 1\nprogram elsewhere\n";
  auto third = build(m);
  EXPECT_FALSE(fs::exists(folder / "marker"));
  EXPECT_TRUE(fs::exists(folder / "rooms.corners"));
  answers_optimally(*third);
  third.reset();
  // Kept files that PrepareForSearch cannot use (the example throws without its file): the build
  // fails with the reason, the folder goes, and the next build preprocesses again.
  fs::remove(folder / "rooms.corners");
  const TimedBuild failed = build_timed(m, specs[0]);
  EXPECT_TRUE(failed.failed);
  EXPECT_NE(failed.unsupported.find("failed in PrepareForSearch"), std::string::npos) << failed.unsupported;
  EXPECT_NE(failed.unsupported.find("the next run preprocesses again"), std::string::npos) << failed.unsupported;
  EXPECT_FALSE(fs::exists(folder));
  auto fourth = build(m);
  EXPECT_TRUE(fs::exists(folder / "rooms.corners"));
  answers_optimally(*fourth);
  fourth.reset();
  // The same name with other cells: a folder of its own.
  GridMap edited = g;
  const auto free_cell = std::find(edited.cells.begin(), edited.cells.end(), 1);
  ASSERT_NE(free_cell, edited.cells.end());
  *free_cell = 0;
  build(make_grid_map(edited, "rooms")).reset();
  EXPECT_EQ(std::distance(fs::directory_iterator(store), fs::directory_iterator{}), 2);
  // A store that is not a folder fails the --rep check.
  std::ofstream(t.dir / "file") << "x";
  EXPECT_THROW(parse_rep_option("gppc:path=" + entry("anyangle-visibility") + ",track=anyangle,store=" + (t.dir / "file").string()),
               std::invalid_argument);
}

}  // namespace test_gppc
