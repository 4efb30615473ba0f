#include "harness/results/results.hpp"
#include "base/text.hpp"

#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace navbench {

const char* to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::no_path: return "no_path";
    case Status::invalid_query: return "invalid_query";
    case Status::not_applicable: return "not_applicable";
    case Status::error: break;
  }
  return "error";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string format_number(double v) { return base::number(v, 12); }

namespace {

// The one column table: every column of every results file, in file order, with its type, its
// group and how it is written from a row. Headers, meta.json's "schema" and the rows are all made
// from these tables (the Python scripts read the schema from meta.json). "core" columns are always
// written; each optional capability contributes its group, whose columns appear only in files that
// have it (radius: runs given radii; epoch: changing maps; terrain: runs over weighted maps).
template <class Row>
struct Column {
  const char* name;
  const char* type;   // text | int | float | bool (1/0/empty)
  const char* group;  // core | radius | epoch | terrain
  void (*write)(std::string& out, const Row& r);
};

// How a field is written: text quoted when it must be, numbers with 12 significant digits, times
// with 3 decimals, an absent optional value as the empty field.
void quoted(std::string& s, const std::string& v) { s += csv_field(v); }
void number(std::string& s, double v) { s += format_number(v); }
void count(std::string& s, long long v) { s += std::to_string(v); }
void micros(std::string& s, double v) { s += base::fixed(v, 3); }
void number(std::string& s, const std::optional<double>& v) {
  if (v) number(s, *v);
}
void flag(std::string& s, const std::optional<bool>& v) {
  if (v) s += *v ? '1' : '0';
}

using R = ResultRow;
constexpr Column<R> kResultColumns[] = {
    {"map", "text", "core", [](std::string& s, const R& r) { quoted(s, r.map); }},
    {"collection", "text", "core", [](std::string& s, const R& r) { quoted(s, r.collection); }},
    {"scen_index", "int", "core", [](std::string& s, const R& r) { count(s, r.scen_index); }},
    {"bucket", "int", "core", [](std::string& s, const R& r) { count(s, r.bucket); }},
    {"representation", "text", "core", [](std::string& s, const R& r) { quoted(s, r.representation); }},
    {"heuristic", "text", "core", [](std::string& s, const R& r) { quoted(s, r.heuristic); }},
    {"smoothing", "text", "core", [](std::string& s, const R& r) { quoted(s, r.smoothing); }},
    {"convention", "text", "core", [](std::string& s, const R& r) { s += r.convention; }},
    {"sx", "float", "core", [](std::string& s, const R& r) { number(s, r.sx); }},
    {"sy", "float", "core", [](std::string& s, const R& r) { number(s, r.sy); }},
    {"gx", "float", "core", [](std::string& s, const R& r) { number(s, r.gx); }},
    {"gy", "float", "core", [](std::string& s, const R& r) { number(s, r.gy); }},
    {"status", "text", "core", [](std::string& s, const R& r) { s += to_string(r.status); }},
    {"length", "float", "core", [](std::string& s, const R& r) { number(s, r.length); }},
    {"optimal", "float", "core", [](std::string& s, const R& r) { number(s, r.optimal); }},
    {"octile_optimal", "float", "core", [](std::string& s, const R& r) { number(s, r.octile_optimal); }},
    {"gap", "float", "core", [](std::string& s, const R& r) { number(s, r.gap); }},
    {"valid", "bool", "core", [](std::string& s, const R& r) { flag(s, r.valid); }},
    {"expansions", "int", "core", [](std::string& s, const R& r) { count(s, (long long)r.expansions); }},
    {"path_points", "int", "core", [](std::string& s, const R& r) { count(s, (long long)r.path_points); }},
    {"locate_us", "float", "core", [](std::string& s, const R& r) { micros(s, r.locate_us); }},
    {"search_us", "float", "core", [](std::string& s, const R& r) { micros(s, r.search_us); }},
    {"smooth_us", "float", "core", [](std::string& s, const R& r) { micros(s, r.smooth_us); }},
    {"raw_length", "float", "core", [](std::string& s, const R& r) { number(s, r.raw_length); }},
    {"raw_valid", "bool", "core", [](std::string& s, const R& r) { flag(s, r.raw_valid); }},
    {"generated", "int", "core", [](std::string& s, const R& r) { count(s, (long long)r.generated); }},
    {"message", "text", "core", [](std::string& s, const R& r) { quoted(s, r.message); }},
    {"search", "text", "core", [](std::string& s, const R& r) { s += r.search; }},
    {"los_checks", "int", "core", [](std::string& s, const R& r) { count(s, (long long)r.los_checks); }},
    {"clearance", "float", "core", [](std::string& s, const R& r) { number(s, r.clearance); }},
    {"turn", "float", "core", [](std::string& s, const R& r) { number(s, r.turn); }},
    // radius (docs/radius.md)
    {"radius", "float", "radius", [](std::string& s, const R& r) { number(s, r.radius); }},
    // epoch (docs/changing-maps.md)
    {"epoch", "int", "epoch", [](std::string& s, const R& r) { if (r.epoch) count(s, *r.epoch); }},
    // terrain (docs/terrain.md)
    {"terrain", "text", "terrain", [](std::string& s, const R& r) { quoted(s, r.terrain); }},
    {"cost", "float", "terrain", [](std::string& s, const R& r) { number(s, r.cost); }},
    {"raw_cost", "float", "terrain", [](std::string& s, const R& r) { number(s, r.raw_cost); }},
    {"octile_optimal_cost", "float", "terrain", [](std::string& s, const R& r) { number(s, r.octile_optimal_cost); }},
    {"optimal_cost", "float", "terrain", [](std::string& s, const R& r) { number(s, r.optimal_cost); }},
    {"cost_gap", "float", "terrain", [](std::string& s, const R& r) { number(s, r.cost_gap); }}};

using B = BuildRow;
constexpr Column<B> kBuildColumns[] = {
    {"map", "text", "core", [](std::string& s, const B& b) { quoted(s, b.map); }},
    {"representation", "text", "core", [](std::string& s, const B& b) { quoted(s, b.representation); }},
    {"params", "text", "core", [](std::string& s, const B& b) { quoted(s, b.params); }},
    {"build_ms", "float", "core", [](std::string& s, const B& b) { micros(s, b.build_ms); }},
    {"vertices", "int", "core", [](std::string& s, const B& b) { count(s, (long long)b.vertices); }},
    {"edges", "int", "core", [](std::string& s, const B& b) { count(s, (long long)b.edges); }},
    {"memory_bytes", "int", "core", [](std::string& s, const B& b) { count(s, (long long)b.memory_bytes); }},
    {"radius", "float", "radius", [](std::string& s, const B& b) { number(s, b.radius); }},
    {"terrain", "text", "terrain", [](std::string& s, const B& b) { quoted(s, b.terrain); }}};

// The polyline as "x y;x y;..." at full precision; a path with arcs (docs/radius.md) as its items,
// "@cx cy" for an arc's centre.
void points(std::string& s, const ResultRow& r) {
  char buf[80];
  bool first = true;
  auto put = [&](const char* mark, Point p) {
    std::snprintf(buf, sizeof buf, "%s%s%.17g %.17g", first ? "" : ";", mark, p.x, p.y);
    s += buf;
    first = false;
  };
  if (!r.items.empty())
    for (const PathItem& it : r.items) put(it.arc_centre ? "@" : "", it.p);
  else
    for (const Point& p : r.path) put("", p);
}

constexpr Column<R> kPathsColumns[] = {
    {"map", "text", "core", [](std::string& s, const R& r) { quoted(s, r.map); }},
    {"scen_index", "int", "core", [](std::string& s, const R& r) { count(s, r.scen_index); }},
    {"representation", "text", "core", [](std::string& s, const R& r) { quoted(s, r.representation); }},
    {"heuristic", "text", "core", [](std::string& s, const R& r) { quoted(s, r.heuristic); }},
    {"smoothing", "text", "core", [](std::string& s, const R& r) { quoted(s, r.smoothing); }},
    {"convention", "text", "core", [](std::string& s, const R& r) { s += r.convention; }},
    {"search", "text", "core", [](std::string& s, const R& r) { s += r.search; }},
    {"radius", "float", "radius", [](std::string& s, const R& r) { number(s, r.radius); }},
    {"terrain", "text", "terrain", [](std::string& s, const R& r) { quoted(s, r.terrain); }},
    {"points", "text", "core", points}};

using U = UpdateRow;
constexpr Column<U> kUpdateColumns[] = {
    {"map", "text", "core", [](std::string& s, const U& u) { quoted(s, u.map); }},
    {"representation", "text", "core", [](std::string& s, const U& u) { quoted(s, u.representation); }},
    {"epoch", "int", "core", [](std::string& s, const U& u) { count(s, u.epoch); }},
    {"patches", "int", "core", [](std::string& s, const U& u) { count(s, u.patches); }},
    {"cells_changed", "int", "core", [](std::string& s, const U& u) { count(s, (long long)u.cells_changed); }},
    {"update_us", "float", "core", [](std::string& s, const U& u) { micros(s, u.update_us); }},
    {"rebuild_us", "float", "core", [](std::string& s, const U& u) { if (u.rebuild_us) micros(s, *u.rebuild_us); }}};

bool has(const ColumnGroups& g, const char* group) {
  const std::string_view n = group;
  return n == "core" || (n == "radius" && g.radius) || (n == "epoch" && g.epoch) || (n == "terrain" && g.terrain);
}

template <class Row, std::size_t N>
std::string header_of(const Column<Row> (&cols)[N], const ColumnGroups& g) {
  std::string h;
  for (const Column<Row>& c : cols)
    if (has(g, c.group)) h += (h.empty() ? "" : ",") + std::string(c.name);
  return h;
}

template <class Row, std::size_t N>
std::string row_of(const Column<Row> (&cols)[N], const Row& r, const ColumnGroups& g) {
  std::string s;
  s.reserve(256);
  bool first = true;
  for (const Column<Row>& c : cols) {
    if (!has(g, c.group)) continue;
    if (!first) s += ',';
    first = false;
    c.write(s, r);
  }
  return s;
}

template <class Row, std::size_t N>
nlohmann::json schema_of(const Column<Row> (&cols)[N]) {
  nlohmann::json out = nlohmann::json::array();
  for (const Column<Row>& c : cols) out.push_back({{"name", c.name}, {"type", c.type}, {"group", c.group}});
  return out;
}

}  // namespace

std::string result_header(const ColumnGroups& g) { return header_of(kResultColumns, g); }
std::string build_header(const ColumnGroups& g) { return header_of(kBuildColumns, g); }
std::string paths_header(const ColumnGroups& g) { return header_of(kPathsColumns, g); }
std::string updates_header() { return header_of(kUpdateColumns, {}); }

nlohmann::json column_schema() {
  return {{"results", schema_of(kResultColumns)},
          {"build", schema_of(kBuildColumns)},
          {"paths", schema_of(kPathsColumns)},
          {"updates", schema_of(kUpdateColumns)}};
}

std::string format_row(const ResultRow& r, const ColumnGroups& g) { return row_of(kResultColumns, r, g); }
std::string format_build_row(const BuildRow& b, const ColumnGroups& g) { return row_of(kBuildColumns, b, g); }
std::string format_path_row(const ResultRow& r, const ColumnGroups& g) {
  if (r.path.empty() && r.items.empty()) return "";
  return row_of(kPathsColumns, r, g);
}
std::string format_update_row(const UpdateRow& u) { return row_of(kUpdateColumns, u, {}); }

ResultWriter::ResultWriter(const std::string& prefix, bool paths, const ColumnGroups& groups)
    : groups_(groups), with_paths_(paths) {
  auto open = [](std::ofstream& f, const std::string& path, const std::string& header) {
    f.open(path, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error(path + ": cannot write");
    f << header << '\n';
  };
  open(csv_, prefix + ".csv", result_header(groups));
  open(build_, prefix + ".build.csv", build_header({.radius = groups.radius, .terrain = groups.terrain}));
  if (paths) open(paths_, prefix + ".paths.csv", paths_header({.radius = groups.radius, .terrain = groups.terrain}));
}

void ResultWriter::write(const ResultRow& r) {
  csv_ << format_row(r, groups_) << '\n';
  if (with_paths_)
    if (auto p = format_path_row(r, groups_); !p.empty()) paths_ << p << '\n';
}

void ResultWriter::write(const BuildRow& b) { build_ << format_build_row(b, groups_) << '\n'; }

void ResultWriter::flush() {
  csv_.flush();
  build_.flush();
  if (with_paths_) paths_.flush();
  if (!csv_ || !build_ || (with_paths_ && !paths_)) throw std::runtime_error("writing results failed (disk full?)");
}

}  // namespace navbench
