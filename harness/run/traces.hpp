// Search traces (SPEC §12, docs/traces.md): one file per traced query in the search-trace format
// of the posthoc visualiser (ShortestPathLab; JSON, version 1.4.0), written by an observer of the
// shared searches (search/observer.hpp) as the events come, so memory stays bounded whatever the
// search's size; a file that would pass its size cap is cut there, with a note.
#pragma once
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "geometry/point.hpp"
#include "harness/results/results.hpp"
#include "harness/run/description.hpp"
#include "search/planner.hpp"
#include "search/observer.hpp"

namespace navbench {

// The default cap of one trace file (--trace-cap MB): 64 MiB.
inline constexpr std::size_t kDefaultTraceCapBytes = std::size_t(64) << 20;

// What a trace file says about its query, besides the events (its "navbench" object).
struct TraceInfo {
  std::string map, representation, heuristic, search;
  long scen_index = 0;
  Point start, goal;
  std::optional<double> radius;
};

// The observer that writes one trace file. Events go to the file as they come; the file is
// complete after finish().
class TraceWriter final : public SearchObserver {
 public:
  // Opens `file` (throws std::runtime_error when it cannot) and writes the header: version, views
  // (posthoc's 2D renderer: a vertex as a disc or its cell's outline, the end event's path, the
  // structure's segments), pivot; then the structure layer (write_structure). The planner's facets
  // give the vertices' points (GraphView) and the structure (Drawing); a planner without them
  // (an entry) gives an empty structure layer.
  TraceWriter(const std::filesystem::path& file, const Planner& rep, TraceInfo info,
              std::size_t cap_bytes = kDefaultTraceCapBytes);
  ~TraceWriter() override;
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void source(Vertex v, std::size_t n, double f) override;
  void generate(Vertex v, Vertex p, double g, double f) override { event("generate", v, p, g, f); }
  void update(Vertex v, Vertex p, double g, double f) override { event("update", v, p, g, f); }
  void expand(Vertex v, Vertex p, double g, double f) override { event("expand", v, p, g, f); }
  void close(Vertex v, Vertex p, double g, double f) override { event("close", v, p, g, f); }
  void end(double cost) override { cost_ = cost; searched_ = true; }
  void table_answer(double cost, std::size_t steps) override;

  void path(const Polyline& p) override { path_ = p; }
  // Ends the file: a note when it was cut, the end event (status, cost, path), the "navbench"
  // object (query, counts of every event type, whether cut), and closes it. `status`: the row's.
  void finish(const std::string& status, const std::string& message);
  std::size_t bytes() const { return bytes_; }
  bool truncated() const { return truncated_; }
  std::size_t count(const std::string& type) const;
  // The structure layer's segments: the representation's, and those written (fewer when cut).
  std::size_t structure_segments() const { return structure_total_; }
  std::size_t structure_drawn() const { return structure_drawn_; }

 private:
  // The first event, "structure": the planner's drawing (its facet Drawing)
  // as a flat list of segment ends, streamed; it takes at most half the cap (the search's events
  // keep the rest) and, cut there, is followed by a note saying how much it left out.
  void write_structure();
  void event(const char* type, Vertex v, Vertex p, double g, double f);
  Point point(Vertex v) const;
  void write(const std::string& s);  // counted against the cap by the caller

  std::FILE* out_ = nullptr;
  const GraphView* graph_;   // null: the planner has no graph
  const Drawing* drawing_;   // null: nothing to draw
  TraceInfo info_;
  std::size_t cap_, bytes_ = 0, n_ = 0;
  bool truncated_ = false, first_ = true, searched_ = false, table_ = false, finished_ = false;
  bool structure_cut_ = false;
  std::size_t structure_total_ = 0, structure_drawn_ = 0;
  double cost_ = 0;
  std::size_t table_steps_ = 0;
  std::size_t counts_[6] = {};  // source, generate, update, expand, close, dropped
  Polyline path_;
  std::vector<Point> outline_;
  std::string buf_;
};

// The viewer's record of one search (docs/traces.md#in-navbenchs-viewer): the expanded vertices in
// order, each with its parent's point and whether that parent is a shortcut, and the frontier at
// the end; up to `max_expanded` expansions (the rest counted, not kept). A shortcut is Theta*'s
// parent change: the vertex was reached (generated or updated) while `u` was being expanded, but
// its parent is not `u` (Theta*: u's parent, seen along a straight segment; Lazy Theta*: the parent
// it assumed then and kept when expanded). A*'s parents are never shortcuts.
class TraceRecorder final : public SearchObserver {
 public:
  TraceRecorder(const Planner& rep, Point start, Point goal, std::size_t max_expanded = 200000);
  void source(Vertex v, std::size_t n, double) override {
    n_ = n;
    current_ = v;
    answered_ = "search";
  }
  void generate(Vertex v, Vertex p, double, double) override {
    reached(v, p);
    ++generated_;
  }
  void update(Vertex v, Vertex p, double, double) override { reached(v, p); }
  void expand(Vertex v, Vertex p, double g, double f) override;
  void close(Vertex, Vertex, double, double) override {}
  void end(double) override {}
  void table_answer(double, std::size_t steps) override { answered_ = "table"; table_steps_ = steps; }
  // {"answered": "search" | "table" | "none", "expanded": [x, y, parent x, parent y, ...] in
  //  expansion order, "f": [f, ...], "shortcut": [0 | 1, ...], "frontier": [x, y, ...],
  //  "expansions", "generated", "truncated"}
  nlohmann::json to_json() const;

 private:
  static constexpr std::uint8_t kOpen = 1, kExpanded = 2;
  struct Reached {
    std::uint8_t state = 0;
    Vertex via = 0, parent = 0;  // the vertex being expanded when v was last reached, and v's parent then
  };
  void reached(Vertex v, Vertex p) { state_[v] = {kOpen, current_, p}; }
  Point point(Vertex v) const;
  const GraphView* graph_;  // null: the planner has no graph
  Point start_, goal_;
  std::size_t max_, n_ = 0, expansions_ = 0, generated_ = 0, table_steps_ = 0;
  std::string answered_ = "none";
  Vertex current_ = 0;  // the vertex being expanded
  std::vector<float> expanded_, f_;
  std::vector<std::uint8_t> shortcut_;
  std::unordered_map<Vertex, Reached> state_;
};

// Where a run's traces go: traces/ beside PREFIX.csv, and the index of them,
// traces/<PREFIX's name>.traces.csv (map,scen_index,representation,heuristic,search,radius,status,
// file,bytes,truncated,expand,generate).
std::filesystem::path trace_dir(const std::string& prefix);
std::filesystem::path trace_index(const std::string& prefix);
// A trace's file name: map, query and configuration, with characters outside [A-Za-z0-9._=-] as '_'.
std::string trace_file_name(const TraceInfo& info);
// The indices of the traced queries among m: `n` spread as --limit spreads them (floor(i*m/n)).
std::vector<std::size_t> traced_queries(std::size_t m, std::size_t n);
std::string trace_index_header();

// The traces of one unit (map x representation): which queries, where, and the index lines.
class UnitTraces {
 public:
  // Makes traces/ beside opt.trace_prefix and starts its index when opt.trace > 0.
  UnitTraces(const UnitOptions& opt, std::size_t queries);
  bool traced(std::size_t position) const;
  // Finishes t with the row's status and lists the file in the index (thread-safe).
  void finish(TraceWriter& t, const TraceInfo& info, const std::filesystem::path& file, const ResultRow& row);
  std::filesystem::path dir;
  std::size_t cap = kDefaultTraceCapBytes;

 private:
  std::vector<std::size_t> chosen_;
  std::filesystem::path index_;
  std::mutex mu_;
};

}  // namespace navbench
