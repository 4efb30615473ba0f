#include "harness/run/traces.hpp"

#include <cctype>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace navbench {
namespace {

// Numbers as JSON: 10 significant digits for g, f and vertex positions (cell centres and portal
// midpoints are exact in them), 17 for path points (the paths.csv precision); null when not finite.
void num(std::string& s, double v, int digits = 10) {
  if (!std::isfinite(v)) {
    s += "null";
    return;
  }
  char b[32];
  std::snprintf(b, sizeof b, "%.*g", digits, v);
  s += b;
}
void point_json(std::string& s, Point p, int digits = 10) {
  s += "{\"x\":";
  num(s, p.x, digits);
  s += ",\"y\":";
  num(s, p.y, digits);
  s += '}';
}
std::string json_str(const std::string& t) {
  std::string s = "\"";
  for (char c : t) {
    if (c == '"' || c == '\\') s += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    s += c;
  }
  return s + '"';
}

// posthoc 1.4.0 views (its 2D renderer's primitives rect, circle, path, polygon; ${{ }} holds a
// JavaScript expression over the event `$` and the theme's colours): a vertex with a cell outline
// is that polygon, any other a small disc; the end event draws the path; the structure event draws
// each of its segments (segments[4i..4i+3]: x1, y1, x2, y2) as a thin line ($for over them).
constexpr const char* kViews =
    R"({"main":[)"
    R"({"$":"path","$if":"${{ $.type == 'structure' }}","$for":{"$let":"i","$to":"${{ $.segments.length / 4 }}"},)"
    R"("points":"${{ [{x: $.segments[4 * $.i], y: $.segments[4 * $.i + 1]}, {x: $.segments[4 * $.i + 2], y: $.segments[4 * $.i + 3]}] }}",)"
    R"("line-width":0.06,"fill":"${{ theme.foreground }}","alpha":0.3,"clear":false},)"
    R"({"$":"polygon","points":"${{ $.points }}","fill":"${{ $.type == 'expand' ? color.orange : ($.type == 'close' ? color.red : ($.type == 'source' ? color.green : color.blue)) }}","alpha":0.5,"$if":"${{ !!$.points }}"},)"
    R"({"$":"circle","x":"${{ $.x }}","y":"${{ $.y }}","radius":0.3,"fill":"${{ $.type == 'expand' ? color.orange : ($.type == 'close' ? color.red : ($.type == 'source' ? color.green : color.blue)) }}","$if":"${{ !$.points && $.type != 'end' && $.type != 'note' && $.type != 'structure' }}"},)"
    R"({"$":"path","points":"${{ $.path }}","line-width":0.4,"fill":"${{ color.purple }}","$if":"${{ $.type == 'end' && !!$.path }}","clear":false})"
    R"(]})";

constexpr const char* kTypes[] = {"source", "generate", "update", "expand", "close", "dropped"};
std::size_t type_index(const char* t) {
  for (std::size_t i = 0; i < 5; ++i)
    if (std::string(kTypes[i]) == t) return i;
  return 5;
}

}  // namespace

TraceWriter::TraceWriter(const std::filesystem::path& file, const Planner& rep, TraceInfo info, std::size_t cap_bytes)
    : graph_(rep.facets().graph), drawing_(rep.facets().drawing), info_(std::move(info)), cap_(cap_bytes) {
  out_ = std::fopen(file.string().c_str(), "wb");
  if (!out_) throw std::runtime_error("cannot write trace file " + file.string());
  n_ = graph_ ? graph_->vertices() : 0;
  std::string h = "{\"version\":\"1.4.0\",\"views\":";
  h += kViews;
  h += R"(,"pivot":{"x":"${{ $.x }}","y":"${{ $.y }}","scale":1},"events":[)";
  h += '\n';
  write(h);
  write_structure();
}

void TraceWriter::write_structure() {
  const std::size_t budget = cap_ / 2;
  write(R"({"type":"structure","id":"structure","segments":[)");
  buf_.clear();
  std::string one;
  if (drawing_) drawing_->visit_structure([&](const Segment& s) {
    ++structure_total_;
    if (structure_cut_) return;  // counted, not written
    one.assign(structure_drawn_ ? "," : "");
    num(one, s.a.x);
    one += ',';
    num(one, s.a.y);
    one += ',';
    num(one, s.b.x);
    one += ',';
    num(one, s.b.y);
    if (bytes_ + buf_.size() + one.size() > budget) {
      structure_cut_ = true;
      return;
    }
    buf_ += one;
    ++structure_drawn_;
    if (buf_.size() >= (std::size_t(1) << 16)) {
      write(buf_);
      buf_.clear();
    }
  });
  buf_ += "],\"drawn\":" + std::to_string(structure_drawn_) + ",\"total\":" + std::to_string(structure_total_) + "}";
  if (structure_cut_)
    buf_ += ",\n{\"type\":\"note\",\"text\":" +
            json_str("structure layer cut at " + std::to_string(budget) + " bytes (half the trace's cap): " +
                     std::to_string(structure_drawn_) + " of " + std::to_string(structure_total_) + " segments drawn") +
            "}";
  write(buf_);
  buf_.clear();
  first_ = false;
}

TraceWriter::~TraceWriter() {
  if (out_) std::fclose(out_);
}

void TraceWriter::write(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), out_);
  bytes_ += s.size();
}

Point TraceWriter::point(Vertex v) const {
  if (v == Vertex(n_)) return info_.start;
  if (v == Vertex(n_ + 1)) return info_.goal;
  return graph_ ? graph_->point(v) : Point{};
}

std::size_t TraceWriter::count(const std::string& type) const { return counts_[type_index(type.c_str())]; }

void TraceWriter::source(Vertex v, std::size_t n, double f) {
  n_ = n;
  event("source", v, v, 0.0, f);
}

void TraceWriter::table_answer(double cost, std::size_t steps) {
  table_ = true;
  cost_ = cost;
  table_steps_ = steps;
  n_ = graph_ ? graph_->vertices() : 0;
  event("source", Vertex(n_), Vertex(n_), 0.0, 0.0);
}

void TraceWriter::event(const char* type, Vertex v, Vertex p, double g, double f) {
  const std::size_t t = type_index(type);
  ++counts_[t];
  if (truncated_) {
    ++counts_[5];
    return;
  }
  buf_.clear();
  buf_ += first_ ? "" : ",\n";
  buf_ += "{\"type\":\"";
  buf_ += type;
  buf_ += "\",\"id\":" + std::to_string(v) + ",\"pId\":";
  buf_ += p == v ? "null" : std::to_string(p);
  buf_ += ",\"g\":";
  num(buf_, g);
  buf_ += ",\"h\":";
  num(buf_, f - g);
  buf_ += ",\"f\":";
  num(buf_, f);
  const Point q = point(v);
  buf_ += ",\"x\":";
  num(buf_, q.x);
  buf_ += ",\"y\":";
  num(buf_, q.y);
  if (v < Vertex(n_) && graph_ && graph_->outline(v, outline_)) {
    buf_ += ",\"points\":[";
    for (std::size_t i = 0; i < outline_.size(); ++i) {
      if (i) buf_ += ',';
      point_json(buf_, outline_[i]);
    }
    buf_ += ']';
  }
  buf_ += '}';
  // The end event and the closing object need well under 4 kB plus the path: kept out of the cap.
  if (bytes_ + buf_.size() > cap_) {
    truncated_ = true;
    ++counts_[5];
    return;
  }
  first_ = false;
  write(buf_);
}

void TraceWriter::finish(const std::string& status, const std::string& message) {
  if (finished_) return;
  finished_ = true;
  std::string s = first_ ? "" : ",\n";
  if (truncated_) {
    s += "{\"type\":\"note\",\"text\":" +
         json_str("trace cut at " + std::to_string(cap_) + " bytes: " + std::to_string(counts_[5]) +
                " later events left out (the counts in navbench.events are the search's)") +
         "},\n";
  }
  const bool found = !path_.empty();
  s += "{\"type\":\"end\",\"id\":" + std::to_string(n_ + 1) + ",\"status\":" + json_str(status);
  s += ",\"g\":";
  num(s, found ? cost_ : std::nan(""));
  s += ",\"x\":";
  num(s, info_.goal.x);
  s += ",\"y\":";
  num(s, info_.goal.y);
  if (table_)
    s += ",\"answered\":\"table\",\"note\":" +
         json_str("answered from the all-pairs table without a search (" + std::to_string(table_steps_) +
                " table steps; table=0 shows the A*)");
  else if (!searched_)
    s += ",\"answered\":\"none\",\"note\":" + json_str(message.empty() ? "no search ran" : message);
  else
    s += ",\"answered\":\"search\"";
  if (found) {
    s += ",\"path\":[";
    for (std::size_t i = 0; i < path_.size(); ++i) {
      if (i) s += ',';
      point_json(s, path_[i], 17);
    }
    s += ']';
  }
  s += "}\n],\"navbench\":{\"map\":" + json_str(info_.map) + ",\"scen_index\":" + std::to_string(info_.scen_index);
  s += ",\"representation\":" + json_str(info_.representation) + ",\"heuristic\":" + json_str(info_.heuristic);
  s += ",\"search\":" + json_str(info_.search);
  if (info_.radius) {
    s += ",\"radius\":";
    num(s, *info_.radius, 17);
  }
  s += ",\"start\":";
  point_json(s, info_.start, 17);
  s += ",\"goal\":";
  point_json(s, info_.goal, 17);
  s += ",\"vertices\":" + std::to_string(n_) + ",\"start_id\":" + std::to_string(n_) +
       ",\"goal_id\":" + std::to_string(n_ + 1);
  s += ",\"events\":{";
  for (std::size_t i = 0; i < 5; ++i) s += std::string(i ? "," : "") + "\"" + kTypes[i] + "\":" + std::to_string(counts_[i]);
  s += "},\"truncated\":";
  s += truncated_ ? "true" : "false";
  s += ",\"cap_bytes\":" + std::to_string(cap_) + ",\"dropped_events\":" + std::to_string(counts_[5]);
  s += ",\"structure\":{\"segments\":" + std::to_string(structure_total_) + ",\"drawn\":" + std::to_string(structure_drawn_) +
       ",\"truncated\":" + (structure_cut_ ? "true" : "false") + "}}}\n";
  write(s);
  std::fclose(out_);
  out_ = nullptr;
}

std::filesystem::path trace_dir(const std::string& prefix) {
  const std::filesystem::path p(prefix);
  return (p.has_parent_path() ? p.parent_path() : std::filesystem::path(".")) / "traces";
}

std::filesystem::path trace_index(const std::string& prefix) {
  return trace_dir(prefix) / (std::filesystem::path(prefix).filename().string() + ".traces.csv");
}

std::string trace_file_name(const TraceInfo& info) {
  std::string s = info.map + "." + std::to_string(info.scen_index) + "." + info.representation + "." + info.search +
                  "." + info.heuristic;
  if (info.radius) {
    char b[32];
    std::snprintf(b, sizeof b, ".R%g", *info.radius);
    s += b;
  }
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '=' || c == '-')) c = '_';
  return s + ".trace.json";
}

std::vector<std::size_t> traced_queries(std::size_t m, std::size_t n) {
  std::vector<std::size_t> out;
  if (n >= m) {
    for (std::size_t i = 0; i < m; ++i) out.push_back(i);
    return out;
  }
  for (std::size_t i = 0; i < n; ++i) out.push_back(i * m / n);
  return out;
}

std::string trace_index_header() {
  return "map,scen_index,representation,heuristic,search,radius,status,file,bytes,truncated,expand,generate";
}

UnitTraces::UnitTraces(const UnitOptions& opt, std::size_t queries) {
  if (opt.trace == 0) return;
  chosen_ = traced_queries(queries, opt.trace);
  if (opt.trace_cap) cap = opt.trace_cap;
  dir = trace_dir(opt.trace_prefix);
  index_ = trace_index(opt.trace_prefix);
  std::filesystem::create_directories(dir);
  if (!std::filesystem::exists(index_)) std::ofstream(index_) << trace_index_header() << '\n';
}

bool UnitTraces::traced(std::size_t position) const {
  return std::binary_search(chosen_.begin(), chosen_.end(), position);
}

void UnitTraces::finish(TraceWriter& t, const TraceInfo& info, const std::filesystem::path& file, const ResultRow& row) {
  t.finish(to_string(row.status), row.message);
  std::string line = csv_field(info.map) + "," + std::to_string(info.scen_index) + "," + csv_field(info.representation) +
                     "," + csv_field(info.heuristic) + "," + info.search + "," +
                     (info.radius ? format_number(*info.radius) : std::string()) + "," + to_string(row.status) + "," +
                     csv_field(file.filename().string()) + "," + std::to_string(t.bytes()) + "," +
                     (t.truncated() ? "1" : "0") + "," + std::to_string(t.count("expand")) + "," +
                     std::to_string(t.count("generate")) + "\n";
  std::lock_guard lock(mu_);
  std::ofstream(index_, std::ios::app) << line;
}

}  // namespace navbench

namespace navbench {

TraceRecorder::TraceRecorder(const Planner& rep, Point start, Point goal, std::size_t max_expanded)
    : graph_(rep.facets().graph), start_(start), goal_(goal), max_(max_expanded), n_(graph_ ? graph_->vertices() : 0) {}

Point TraceRecorder::point(Vertex v) const {
  if (v == Vertex(n_)) return start_;
  if (v == Vertex(n_ + 1)) return goal_;
  return graph_ ? graph_->point(v) : Point{};
}

void TraceRecorder::expand(Vertex v, Vertex p, double, double f) {
  ++expansions_;
  Reached& r = state_[v];
  const bool shortcut = r.state == kOpen && p != v && p == r.parent && p != r.via;
  r.state = kExpanded;
  current_ = v;
  if (expansions_ > max_) return;
  const Point a = point(v), b = point(p);
  expanded_.insert(expanded_.end(), {float(a.x), float(a.y), float(b.x), float(b.y)});
  f_.push_back(float(f));
  shortcut_.push_back(shortcut ? 1 : 0);
}

nlohmann::json TraceRecorder::to_json() const {
  std::vector<float> frontier;
  for (const auto& [v, s] : state_)
    if (s.state == kOpen) {
      const Point a = point(v);
      frontier.insert(frontier.end(), {float(a.x), float(a.y)});
    }
  return {{"answered", answered_}, {"expanded", expanded_}, {"f", f_}, {"shortcut", shortcut_}, {"frontier", frontier},
          {"expansions", expansions_}, {"generated", generated_}, {"table_steps", table_steps_},
          {"truncated", expansions_ > max_}};
}

}  // namespace navbench
