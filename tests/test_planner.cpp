// The Planner interface (search/planner.hpp) through the one pipeline (harness/run/pipeline.cpp),
// with a planner that has no graph and implements nothing about one (a straight line, or a path
// handed out a point at a time): every PlanStatus becomes the row the judge makes of it, from the
// Outcome alone; the planner's own verdict and measured times go into its rows; a path handed out in
// pieces is assembled, each piece timed by the harness; declared capabilities (point_only) decide
// before the planner is asked; a trace (observer) of a planner without a graph gets its path.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness/run/pipeline.hpp"
#include "harness/run/traces.hpp"
#include "search/heuristic.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_planner {

using namespace navbench;

namespace {

// What the test planner answers, by the query's goal x (a test's choice of outcome).
enum class Answer { straight, pieces, no_path, not_covered, error, invalid_by_own_verdict };

// A planner without a graph: the segment from start to goal, answered as the query's goal says.
class LinePlanner final : public Planner {
 public:
  void prepare() override {}
  BuildFigures figures() const override { return {{0, 0, 16}, MeasuredBuild{1.5, 2.5, 16, 1024}}; }
  std::unique_ptr<Workspace> workspace() const override { return std::make_unique<Workspace>(); }
  std::optional<Outcome> locate(Query& q, const Request&) const override {
    ++located;
    if (answer(q) != Answer::not_covered) return std::nullopt;
    Outcome o;
    o.status = PlanStatus::not_covered;
    return o;
  }
  Outcome plan(Query& q, const Request& r) const override {
    Outcome o;
    switch (answer(q)) {
      case Answer::no_path:
        o.message = "no line";
        return o;
      case Answer::error:
        o.status = PlanStatus::error;
        o.message = "the line broke";
        return o;
      case Answer::pieces:  // the start first; next_piece adds one point a call
        o.status = PlanStatus::found;
        o.path = {q.start};
        o.more = true;
        return o;
      default:
        break;
    }
    o.status = PlanStatus::found;
    o.path = {q.start, q.goal};
    o.cost = distance(q.start, q.goal);
    o.search_us = 7.0;  // measured by the planner itself
    if (answer(q) == Answer::invalid_by_own_verdict) {
      o.valid = false;
      o.message = "the planner says no";
    }
    if (r.observer) r.observer->path(o.path);
    return o;
  }
  // Pieces: the midpoint, then the goal.
  void next_piece(Query& q, const Request&, Outcome& o) const override {
    if (o.path.size() == 1) {
      o.path.push_back({(q.start.x + q.goal.x) / 2, (q.start.y + q.goal.y) / 2});
    } else {
      o.path.push_back(q.goal);
      o.more = false;
    }
  }
  mutable int located = 0;

 private:
  static Answer answer(const Query& q) { return Answer(int(q.goal.x) % 6); }
};

struct Fixture {
  Map m = testmaps::grid_from({"........", "........", "........", "........", "........", "........", "........"});
  AgentSpace space{m, Agent{}};
  CostModel cost{m};
  MapContext ctx{m.name, m.collection, "corner"};
  Heuristic h = parse_heuristic("euclidean");
  std::vector<std::string> modes = {"none", "los", "funnel"};
  LinePlanner planner;
  Capabilities caps = {.point_only = true, .pieces = true};
  std::string name = "line";  // the rows' representation (the context holds a reference)
  QueryContext context() const {
    return {.map = ctx, .space = space, .cost = cost, .rep_text = name, .heuristic = h, .smoothings = modes,
            .rep = &planner, .caps = caps, .keep_paths = true};
  }
  std::vector<ResultRow> rows(Answer a, Point start = {0.5, 0.5}) const {
    QueryInput in;
    in.start = start;
    in.goal = {double(int(a)) + 0.5, 6.5};
    return run_query(context(), in);
  }
};

}  // namespace

TEST(Planner, EveryStatusBecomesItsRowFromTheOutcomeAlone) {
  const Fixture f;
  const auto ok = f.rows(Answer::straight);
  ASSERT_EQ(ok.size(), 3u);
  EXPECT_EQ(ok[0].status, Status::ok);
  EXPECT_NEAR(*ok[0].length, 6.0, 1e-12);
  EXPECT_TRUE(*ok[0].valid);
  EXPECT_EQ(ok[0].search_us, 7.0) << "the planner's own time replaces the harness's";
  EXPECT_EQ(ok[1].status, Status::ok);  // los
  EXPECT_EQ(ok[2].status, Status::not_applicable) << "no corridor declared: funnel is not applicable";
  for (const ResultRow& r : f.rows(Answer::no_path)) {
    EXPECT_EQ(r.status, r.smoothing == "funnel" ? Status::not_applicable : Status::no_path);
    if (r.smoothing != "funnel") { EXPECT_EQ(r.message, "no line"); }
  }
  for (const ResultRow& r : f.rows(Answer::error))
    if (r.smoothing != "funnel") {
      EXPECT_EQ(r.status, Status::error);
      EXPECT_EQ(r.message, "the line broke");
    }
  for (const ResultRow& r : f.rows(Answer::not_covered))
    if (r.smoothing != "funnel") {
      EXPECT_EQ(r.status, Status::error);
      EXPECT_EQ(r.message, f.space.not_covered_message()) << "a point it does not cover: the agent's message";
    }
  const auto own = f.rows(Answer::invalid_by_own_verdict);
  EXPECT_EQ(own[0].status, Status::ok);
  EXPECT_FALSE(*own[0].raw_valid) << "the planner's own verdict beside the exact test";
  EXPECT_FALSE(*own[0].valid);
  EXPECT_EQ(own[0].message, "the planner says no");
  // A point the agent may not stand on never reaches the planner.
  const int before = f.planner.located;
  for (const ResultRow& r : f.rows(Answer::straight, {-3, 0.5}))
    if (r.smoothing != "funnel") { EXPECT_EQ(r.status, Status::invalid_query); }
  EXPECT_EQ(f.planner.located, before);
}

TEST(Planner, APathInPiecesIsAssembledEachPieceTimed) {
  const Fixture f;
  QueryInput in;
  in.start = {0.5, 0.5};
  in.goal = {1.5, 6.5};  // Answer::pieces
  PendingQuery p = start_query(f.context(), in);
  ASSERT_FALSE(p.done);
  EXPECT_FALSE(p.outcome.more);
  ASSERT_EQ(p.outcome.path.size(), 3u);
  ASSERT_EQ(p.outcome.pieces.size(), 3u) << "plan() and two next_piece() calls";
  EXPECT_EQ(p.outcome.pieces[0].points, 1u);
  EXPECT_EQ(p.outcome.pieces[1].points, 2u);
  EXPECT_EQ(p.outcome.pieces[2].points, 3u);
  double sum = 0;
  for (const PathPiece& piece : p.outcome.pieces) {
    EXPECT_GE(piece.us, 0.0);
    sum += piece.us;
  }
  EXPECT_DOUBLE_EQ(sum, p.row.search_us) << "a path in pieces: search_us is the sum of its calls";
  const auto rows = finish_query(f.context(), std::move(p));
  EXPECT_EQ(rows[0].status, Status::ok);
  EXPECT_NEAR(*rows[0].length, std::hypot(1.0, 6.0), 1e-12);
  EXPECT_EQ(rows[0].path_points, 3u);
}

namespace {

// A path east in unit moves, handed out one point a call (plan(): the start; each next_piece(): one
// more move), to the goal's x.
class StepPlanner final : public Planner {
 public:
  void prepare() override {}
  BuildFigures figures() const override { return {}; }
  std::unique_ptr<Workspace> workspace() const override { return std::make_unique<Workspace>(); }
  std::optional<Outcome> locate(Query&, const Request&) const override { return std::nullopt; }
  Outcome plan(Query& q, const Request&) const override {
    Outcome o;
    o.status = PlanStatus::found;
    o.path = {q.start};
    o.more = true;
    return o;
  }
  void next_piece(Query& q, const Request&, Outcome& o) const override {
    o.path.push_back({o.path.back().x + 1, q.start.y});
    o.more = o.path.back().x < q.goal.x;
  }
};

// The rows' real-time columns against the pieces' times, as SPEC §15 defines them: the first call
// is locate and plan(), each next_piece() one more.
struct Expected {
  double first_move, first20, max_step;
};
Expected expected(const PendingQuery& p, std::size_t first20_piece) {
  double elapsed = p.row.locate_us, max_step = 0;
  Expected e{};
  const auto& pieces = p.outcome.pieces;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    elapsed += pieces[i].us;
    max_step = std::max(max_step, pieces[i].us + (i == 0 ? p.row.locate_us : 0.0));
    if (i == 1) e.first_move = elapsed;  // the piece that gave the path its second point
    if (i == first20_piece) e.first20 = elapsed;
  }
  e.max_step = max_step;
  return e;
}

}  // namespace

TEST(Planner, RealTimeColumnsFollowThePiecesOfAPath) {
  const Map m = testmaps::grid_from({std::string(32, '.'), std::string(32, '.')});
  const AgentSpace space{m, Agent{}};
  const CostModel cost{m};
  const MapContext mc{m.name, m.collection, "center"};
  const Heuristic h = parse_heuristic("euclidean");
  const std::vector<std::string> modes = {"none"};
  const StepPlanner planner;
  const std::string name = "steps";
  const QueryContext c{.map = mc, .space = space, .cost = cost, .rep_text = name, .heuristic = h, .smoothings = modes,
                       .rep = &planner, .caps = {.pieces = true}};
  QueryInput in;
  in.start = {0.5, 0.5};
  in.goal = {25.5, 0.5};  // 25 moves, 26 calls
  PendingQuery p = start_query(c, in);
  ASSERT_EQ(p.outcome.pieces.size(), 26u);
  // The 20th move (21 points, 20 long) comes with the 21st call (piece 20).
  const Expected e = expected(p, 20);
  ASSERT_TRUE(p.row.first_move_us && p.row.first20_us && p.row.max_step_us);
  EXPECT_DOUBLE_EQ(*p.row.first_move_us, e.first_move) << "until the second point: the first move";
  EXPECT_DOUBLE_EQ(*p.row.first20_us, e.first20) << "until the path is 20 long";
  EXPECT_DOUBLE_EQ(*p.row.max_step_us, e.max_step) << "the longest call";
  EXPECT_LT(*p.row.first20_us, p.row.locate_us + p.row.search_us) << "five calls come after the 20th move";
  const auto rows = finish_query(c, std::move(p));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].first20_us, e.first20) << "the rows carry them";

  // A path shorter than 20: first20_us is the whole answer.
  in.goal = {6.5, 0.5};
  PendingQuery shorter = start_query(c, in);
  ASSERT_EQ(shorter.outcome.pieces.size(), 7u);
  EXPECT_DOUBLE_EQ(*shorter.row.first20_us, expected(shorter, 6).first20);
  EXPECT_DOUBLE_EQ(*shorter.row.first20_us, shorter.row.locate_us + shorter.row.search_us);

  // Pieces from a planner that does not declare them are a logic error, never rows.
  QueryContext undeclared = c;
  undeclared.caps = {};
  EXPECT_THROW(start_query(undeclared, in), std::logic_error);
}

TEST(Planner, RealTimeColumnsOfAWholeAnswerAreTheQuery) {
  const Fixture f;
  for (const ResultRow& r : f.rows(Answer::straight)) {
    if (r.smoothing == "funnel") continue;  // not_applicable: no corridor, nothing asked
    // One call: locate and plan(), the planner's own 7 µs.
    ASSERT_TRUE(r.first_move_us && r.first20_us && r.max_step_us);
    EXPECT_DOUBLE_EQ(*r.first_move_us, r.locate_us + 7.0);
    EXPECT_DOUBLE_EQ(*r.first20_us, r.locate_us + 7.0);
    EXPECT_DOUBLE_EQ(*r.max_step_us, r.locate_us + 7.0);
  }
  // No path: no first move, the call still timed.
  for (const ResultRow& r : f.rows(Answer::no_path)) {
    if (r.smoothing == "funnel") continue;
    EXPECT_FALSE(r.first_move_us);
    EXPECT_FALSE(r.first20_us);
    ASSERT_TRUE(r.max_step_us);
    EXPECT_DOUBLE_EQ(*r.max_step_us, r.locate_us + r.search_us);
  }
}

TEST(Planner, APointOnlyPlannerIsNotAskedForADisc) {
  Fixture f;
  const AgentSpace disc(f.m, Agent::with_radius(0.3));
  QueryContext c = f.context();
  const QueryContext at_r{.map = c.map, .space = disc, .cost = c.cost, .rep_text = c.rep_text, .heuristic = c.heuristic,
                          .smoothings = c.smoothings, .rep = c.rep, .caps = c.caps, .keep_paths = true};
  QueryInput in;
  in.start = {1.5, 1.5};
  in.goal = {0.5 + 0, 5.5};  // Answer::straight
  const int before = f.planner.located;
  for (const ResultRow& r : run_query(at_r, in)) {
    EXPECT_EQ(r.status, Status::not_applicable);
    if (r.smoothing != "funnel") { EXPECT_EQ(r.message, "line plans for a point agent (no radius)"); }
  }
  EXPECT_EQ(f.planner.located, before);
  in.start = {0.1, 0.1};  // not clear by R: invalid for the agent, whatever the planner
  for (const ResultRow& r : run_query(at_r, in))
    if (r.smoothing != "funnel") { EXPECT_EQ(r.status, Status::invalid_query); }
}

TEST(Planner, ATraceOfAPlannerWithoutAGraphHoldsItsPath) {
  const Fixture f;
  EXPECT_EQ(f.planner.facets().graph, nullptr);
  EXPECT_EQ(f.planner.facets().drawing, nullptr);
  EXPECT_TRUE(structure(f.planner).empty());
  const std::filesystem::path file = std::filesystem::temp_directory_path() / ("navbench-test-planner-" + std::to_string(::getpid()) + ".json");
  {
    TraceWriter t(file, f.planner, {"m", "line", "euclidean", "astar", 0, {0.5, 0.5}, {0.5, 6.5}, std::nullopt});
    QueryContext c = f.context();
    c.trace = &t;
    QueryInput in;
    in.start = {0.5, 0.5};
    in.goal = {0.5, 6.5};
    const auto rows = run_query(c, in);
    t.finish(to_string(rows[0].status), rows[0].message);
    EXPECT_EQ(t.structure_segments(), 0u);
  }
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(file);
  EXPECT_NE(text.find("\"path\""), std::string::npos) << text.substr(0, 400);
}

}  // namespace test_planner
