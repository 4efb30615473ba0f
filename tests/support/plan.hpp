// One query through a built planner outside the pipeline (search/planner.hpp): locate, then plan,
// with no agent's check of the points (the pipeline's stage 1). The tests that hold a planner's own
// answer (its cost, its vertex path in q.path, its counters) against a reference use it.
#pragma once
#include "search/heuristic.hpp"
#include "search/planner.hpp"
#include "smoothing/smoothing.hpp"

namespace testplan {

// The planner's outcome for q (q keeps its attachments and the vertices found), a path handed out in
// pieces (SPEC §15) assembled whole; `sees` is the segment test Theta* needs, `ws` a workspace of
// the planner's (nullptr: its own).
inline navbench::Outcome plan(const navbench::Planner& p, navbench::Query& q, const navbench::Heuristic& h,
                              navbench::SearchMode search = navbench::SearchMode::astar, const navbench::VisibleFn* sees = nullptr,
                              navbench::Workspace* ws = nullptr) {
  const navbench::Request r{.search = search, .heuristic = &h, .sees = sees, .ws = ws};
  if (auto o = p.locate(q, r)) return *o;
  navbench::Outcome o = p.plan(q, r);
  while (o.more) p.next_piece(q, r, o);
  return o;
}

// The same from two points.
inline navbench::Outcome plan(const navbench::Planner& p, navbench::Point s, navbench::Point g, const navbench::Heuristic& h) {
  navbench::Query q;
  q.start = s;
  q.goal = g;
  return plan(p, q, h);
}

}  // namespace testplan
