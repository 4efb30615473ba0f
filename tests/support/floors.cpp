#include "support/floors.hpp"

#include <gtest/gtest-spi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

#include "search/workspace.hpp"
#include "smoothing/smoothing.hpp"

namespace testbattery {

using navbench::RepresentationEntry;
using navbench::ResultRow;
using navbench::Status;

namespace {

const Floor* stated(const RepresentationEntry& e, const Floors& floors, const std::string& map) {
  for (const Floor& f : floors)
    if (f.entry == e.name && f.map == map) return &f;
  for (const Floor& f : floors)
    if (f.entry == e.name && f.map == "*") return &f;
  return nullptr;
}

}  // namespace

std::string skip_reason(const RepresentationEntry& e, const Floors& floors, const std::string& map) {
  const Floor* f = stated(e, floors, map);
  if (f && !f->skip.empty()) {
    EXPECT_TRUE(e.caps.may_miss) << e.name << ": a case is skipped only for an entry that may miss a path";
    return e.name + (map == "*" ? "" : " on " + map) + " skipped: " + f->skip;
  }
  return "";
}

PathCount::PathCount(const RepresentationEntry& e, const Floors& floors, std::string map) : e_(e), map_(std::move(map)) {
  if (const Floor* f = stated(e, floors, map_)) {
    EXPECT_TRUE(e.caps.may_miss) << e.name << ": a floor is stated only for an entry that may miss a path";
    EXPECT_TRUE(f->skip.empty()) << e.name << " on " << map_ << ": a map skipped for an entry is not counted";
    EXPECT_GT(f->least, 0u) << e.name << " on " << map_ << ": a floor of 0 passes a case with no path found; skip it by name";
    every_ = false;
    least_ = f->least;
  }
}

PathCount::~PathCount() {
  const std::size_t floor = every_ ? found_ + missed_ : least_;
  // How a floor is measured (docs/testing.md#floors): each count printed, with the floor it is held to.
  if (const char* v = std::getenv("NAVBENCH_FLOOR_COUNTS"); v && *v && std::string(v) != "0")
    std::printf("floor count: %s on %s: %zu of %zu paths (floor %zu)\n", e_.name.c_str(), map_.c_str(), found_,
                found_ + missed_, floor);
  EXPECT_GE(found_, floor) << e_.name << " found " << found_ << " of the " << found_ + missed_ << " paths on " << map_
                           << ", fewer than its floor " << floor << " (a miss: " << first_miss_ << ")";
}

bool PathCount::found(const ResultRow& r) {
  if (r.status == Status::ok) return found(true, "");
  if (r.status == Status::no_path && e_.caps.may_miss) {
    EXPECT_FALSE(r.message.empty()) << "a missed path's row says why";
    return found(false, r.message);
  }
  ADD_FAILURE() << e_.name << ": a query with a path answered " << to_string(r.status) << " (" << r.message << ")";
  return false;
}

bool PathCount::found(bool ok, const std::string& what) {
  if (ok) {
    ++found_;
    return true;
  }
  if (!e_.caps.may_miss) ADD_FAILURE() << e_.name << " missed a path, and it does not declare may_miss (" << what << ")";
  if (missed_++ == 0) first_miss_ = what;
  return false;
}

namespace {

// grid8 behind the interface, with every query point unreached.
class FindsNothing : public navbench::AnyRepresentation {
 public:
  explicit FindsNothing(std::unique_ptr<AnyRepresentation> r) : r_(std::move(r)) {}
  bool locate(navbench::Query&) const override { return false; }
  std::string miss_reason(const navbench::Query&) const override { return "the stub reaches no point"; }
  double search(navbench::Query& q, const navbench::Heuristic& h, navbench::SearchStats& s, navbench::SearchObserver* o) override {
    return r_->search(q, h, s, o);
  }
  double search(navbench::Query& q, const navbench::Heuristic& h, navbench::SearchStats& s, navbench::SearchWorkspace& ws,
                navbench::SearchObserver* o) const override {
    return std::as_const(*r_).search(q, h, s, ws, o);
  }
  double search_any_angle(navbench::Query& q, const navbench::Heuristic& h, navbench::SearchMode m, navbench::VisibleFn v,
                          navbench::SearchStats& s, navbench::Polyline& p, navbench::SearchObserver* o) override {
    return r_->search_any_angle(q, h, m, std::move(v), s, p, o);
  }
  double search_any_angle(navbench::Query& q, const navbench::Heuristic& h, navbench::SearchMode m, navbench::VisibleFn v,
                          navbench::SearchStats& s, navbench::Polyline& p, navbench::SearchWorkspace& ws,
                          navbench::SearchObserver* o) const override {
    return std::as_const(*r_).search_any_angle(q, h, m, std::move(v), s, p, ws, o);
  }
  std::size_t graph_vertices() const override { return r_->graph_vertices(); }
  navbench::Point vertex_point(navbench::Vertex v) const override { return r_->vertex_point(v); }
  bool vertex_outline(navbench::Vertex v, std::vector<navbench::Point>& out) const override { return r_->vertex_outline(v, out); }
  std::unique_ptr<navbench::SearchWorkspace> new_workspace() const override { return r_->new_workspace(); }
  navbench::Polyline polyline(const navbench::Query& q) const override { return r_->polyline(q); }
  std::optional<navbench::Corridor> corridor(const navbench::Query& q) const override { return r_->corridor(q); }
  navbench::BuildStats stats() const override { return r_->stats(); }
  std::size_t workspace_bytes() const override { return r_->workspace_bytes(); }
  void prepare() override { r_->prepare(); }
  bool update(const navbench::Map& m, const std::vector<navbench::CellChange>& c) override { return r_->update(m, c); }
  bool update_is_approximate() const override { return r_->update_is_approximate(); }
  void visit_structure(const navbench::SegmentSink& emit) const override { r_->visit_structure(emit); }
  std::vector<navbench::PathItem> disc_items(const navbench::Query& q) const override { return r_->disc_items(q); }
  navbench::OwnAnswer own_search(navbench::Point, navbench::Point) const override {
    return {navbench::OwnAnswer::Status::no_path, {}, "the stub reaches no point", 0};
  }

 private:
  std::unique_ptr<AnyRepresentation> r_;
};

}  // namespace

RepresentationEntry finds_nothing() {
  const RepresentationEntry* grid8 = navbench::find_representation("grid8");
  RepresentationEntry e = *grid8;
  e.name = "finds-nothing";
  e.caps.may_miss = true;
  e.caps.weights = e.caps.update_in_place = e.caps.segment_edges = e.caps.point_vertices = true;
  e.caps.own_search = true;
  e.build = [grid8](const navbench::Map& m, navbench::Params& p) -> std::unique_ptr<navbench::AnyRepresentation> {
    return std::make_unique<FindsNothing>(grid8->build(m, p));
  };
  return e;
}

bool Captured::has(const std::string& text) const {
  for (const std::string& f : failures)
    if (f.find(text) != std::string::npos) return true;
  return false;
}

Captured capture(const std::function<void()>& f) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS,
                                                         &results);
    f();
  }
  Captured out;
  for (int i = 0; i < results.size(); ++i) {
    const ::testing::TestPartResult& r = results.GetTestPartResult(i);
    if (r.skipped()) out.skipped = true;
    else if (r.failed()) out.failures.push_back(r.message());
  }
  return out;
}

Captured fails_on_nothing(const std::function<void(const RepresentationEntry&)>& battery) {
  const RepresentationEntry stub = finds_nothing();
  Captured c = capture([&] { battery(stub); });
  EXPECT_TRUE(c.has("fewer than its floor")) << "the battery passed an entry that finds no path";
  EXPECT_TRUE(c.has("finds-nothing found 0 of the")) << "no path counted";
  EXPECT_FALSE(c.skipped) << "the battery skipped an entry that finds no path";
  return c;
}

}  // namespace testbattery
