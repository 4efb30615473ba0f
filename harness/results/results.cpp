#include "harness/results/results.hpp"
#include "base/text.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <variant>

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
// group and how it is read from a row. Headers, meta.json's "schema", the CSV rows and the viewer's
// JSON rows are all made from these tables (the Python scripts read the schema from meta.json).
// "core" columns are always written; each optional capability contributes its group, whose columns
// appear only in files that have it (radius: runs given radii; epoch: changing maps; terrain: runs
// over weighted maps; pinch: runs under --pinch allow, SPEC §11; entry: the build rows of runs with
// a planner from outside; traced: runs with --trace, whose traced rows the statistics leave out).
//
// How a value is written: text quoted when it must be, counts as integers, numbers with 12
// significant digits, times with 3 decimals, flags as 1/0; an absent value as the empty field.
enum class Kind { text, count, number, time, flag };
// A column's value in one row: absent, a count, a number, a flag or a text.
using Cell = std::variant<std::monostate, long long, double, bool, std::string>;
const char* schema_type(Kind k) {
  switch (k) {
    case Kind::text: return "text";
    case Kind::count: return "int";
    case Kind::flag: return "bool";
    case Kind::number:
    case Kind::time: break;
  }
  return "float";
}

template <class Row>
struct Column {
  const char* name;
  Kind kind;
  const char* group;  // core | radius | epoch | pinch | terrain | entry | traced
  Cell (*read)(const Row& r);
};

template <class T>
Cell opt(const std::optional<T>& v) {
  return v ? Cell(*v) : Cell();
}
Cell count(std::size_t v) { return Cell((long long)v); }

using R = ResultRow;
constexpr Column<R> kResultColumns[] = {
    {"map", Kind::text, "core", [](const R& r) { return Cell(r.map); }},
    {"collection", Kind::text, "core", [](const R& r) { return Cell(r.collection); }},
    {"scen_index", Kind::count, "core", [](const R& r) { return Cell((long long)r.scen_index); }},
    {"bucket", Kind::count, "core", [](const R& r) { return Cell((long long)r.bucket); }},
    {"representation", Kind::text, "core", [](const R& r) { return Cell(r.representation); }},
    {"heuristic", Kind::text, "core", [](const R& r) { return Cell(r.heuristic); }},
    {"smoothing", Kind::text, "core", [](const R& r) { return Cell(r.smoothing); }},
    {"convention", Kind::text, "core", [](const R& r) { return Cell(r.convention); }},
    {"sx", Kind::number, "core", [](const R& r) { return Cell(r.sx); }},
    {"sy", Kind::number, "core", [](const R& r) { return Cell(r.sy); }},
    {"gx", Kind::number, "core", [](const R& r) { return Cell(r.gx); }},
    {"gy", Kind::number, "core", [](const R& r) { return Cell(r.gy); }},
    {"status", Kind::text, "core", [](const R& r) { return Cell(std::string(to_string(r.status))); }},
    {"length", Kind::number, "core", [](const R& r) { return opt(r.length); }},
    {"optimal", Kind::number, "core", [](const R& r) { return opt(r.optimal); }},
    {"octile_optimal", Kind::number, "core", [](const R& r) { return opt(r.octile_optimal); }},
    {"gap", Kind::number, "core", [](const R& r) { return opt(r.gap); }},
    {"valid", Kind::flag, "core", [](const R& r) { return opt(r.valid); }},
    {"expansions", Kind::count, "core", [](const R& r) { return count(r.expansions); }},
    {"path_points", Kind::count, "core", [](const R& r) { return count(r.path_points); }},
    {"locate_us", Kind::time, "core", [](const R& r) { return Cell(r.locate_us); }},
    {"search_us", Kind::time, "core", [](const R& r) { return Cell(r.search_us); }},
    {"smooth_us", Kind::time, "core", [](const R& r) { return Cell(r.smooth_us); }},
    {"raw_length", Kind::number, "core", [](const R& r) { return opt(r.raw_length); }},
    {"raw_valid", Kind::flag, "core", [](const R& r) { return opt(r.raw_valid); }},
    {"generated", Kind::count, "core", [](const R& r) { return count(r.generated); }},
    {"message", Kind::text, "core", [](const R& r) { return Cell(r.message); }},
    {"search", Kind::text, "core", [](const R& r) { return Cell(r.search); }},
    {"los_checks", Kind::count, "core", [](const R& r) { return count(r.los_checks); }},
    {"clearance", Kind::number, "core", [](const R& r) { return opt(r.clearance); }},
    {"turn", Kind::number, "core", [](const R& r) { return opt(r.turn); }},
    // SPEC §15: the real-time columns (docs/results.md#real-time-columns)
    {"first_move_us", Kind::time, "core", [](const R& r) { return opt(r.first_move_us); }},
    {"first20_us", Kind::time, "core", [](const R& r) { return opt(r.first20_us); }},
    {"max_step_us", Kind::time, "core", [](const R& r) { return opt(r.max_step_us); }},
    // radius (docs/radius.md)
    {"radius", Kind::number, "radius", [](const R& r) { return opt(r.radius); }},
    // epoch (docs/changing-maps.md)
    {"epoch", Kind::count, "epoch", [](const R& r) { return r.epoch ? Cell((long long)*r.epoch) : Cell(); }},
    // pinch (SPEC §11: runs under --pinch allow)
    {"pinch", Kind::text, "pinch", [](const R& r) { return Cell(r.pinch); }},
    // terrain (docs/terrain.md)
    {"terrain", Kind::text, "terrain", [](const R& r) { return Cell(r.terrain); }},
    {"cost", Kind::number, "terrain", [](const R& r) { return opt(r.cost); }},
    {"raw_cost", Kind::number, "terrain", [](const R& r) { return opt(r.raw_cost); }},
    {"octile_optimal_cost", Kind::number, "terrain", [](const R& r) { return opt(r.octile_optimal_cost); }},
    {"optimal_cost", Kind::number, "terrain", [](const R& r) { return opt(r.optimal_cost); }},
    {"cost_gap", Kind::number, "terrain", [](const R& r) { return opt(r.cost_gap); }},
    // traced (docs/traces.md#traced-rows): 1 where the query's search was traced, 0 elsewhere
    {"traced", Kind::flag, "traced", [](const R& r) { return Cell(r.traced); }}};

using B = BuildRow;
constexpr Column<B> kBuildColumns[] = {
    {"map", Kind::text, "core", [](const B& b) { return Cell(b.map); }},
    {"representation", Kind::text, "core", [](const B& b) { return Cell(b.representation); }},
    {"params", Kind::text, "core", [](const B& b) { return Cell(b.params); }},
    {"build_ms", Kind::time, "core", [](const B& b) { return Cell(b.build_ms); }},
    {"vertices", Kind::count, "core", [](const B& b) { return count(b.vertices); }},
    {"edges", Kind::count, "core", [](const B& b) { return count(b.edges); }},
    {"memory_bytes", Kind::count, "core", [](const B& b) { return count(b.memory_bytes); }},
    {"radius", Kind::number, "radius", [](const B& b) { return opt(b.radius); }},
    {"pinch", Kind::text, "pinch", [](const B& b) { return Cell(b.pinch); }},
    {"terrain", Kind::text, "terrain", [](const B& b) { return Cell(b.terrain); }},
    // entry (docs/outside-planners.md#4-what-is-measured-and-how): only a planner from outside fills them
    {"preprocess_ms", Kind::time, "entry", [](const B& b) { return opt(b.preprocess_ms); }},
    {"prepare_ms", Kind::time, "entry", [](const B& b) { return opt(b.prepare_ms); }},
    {"stored_bytes", Kind::count, "entry", [](const B& b) { return b.stored_bytes ? Cell((long long)*b.stored_bytes) : Cell(); }},
    {"peak_rss_bytes", Kind::count, "entry", [](const B& b) { return b.peak_rss_bytes ? Cell((long long)*b.peak_rss_bytes) : Cell(); }}};

// The polyline as "x y;x y;..." at full precision; a path with arcs (docs/radius.md) as its items,
// "@cx cy" for an arc's centre.
Cell points(const ResultRow& r) {
  std::string s;
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
  return s;
}

// A column of the results rows, by name (a name that is none of theirs does not compile).
consteval Column<R> result_column(std::string_view name) {
  for (const Column<R>& c : kResultColumns)
    if (name == c.name) return c;
  throw "not a column of the results rows";
}

// The paths rows: the results rows' columns that identify a query's row, and its points.
constexpr Column<R> kPathsColumns[] = {result_column("map"),       result_column("scen_index"), result_column("representation"),
                                       result_column("heuristic"), result_column("smoothing"),  result_column("convention"),
                                       result_column("search"),    result_column("radius"),     result_column("terrain"),
                                       {"points", Kind::text, "core", points}};

using U = UpdateRow;
constexpr Column<U> kUpdateColumns[] = {
    {"map", Kind::text, "core", [](const U& u) { return Cell(u.map); }},
    {"representation", Kind::text, "core", [](const U& u) { return Cell(u.representation); }},
    {"epoch", Kind::count, "core", [](const U& u) { return Cell((long long)u.epoch); }},
    {"patches", Kind::count, "core", [](const U& u) { return Cell((long long)u.patches); }},
    {"cells_changed", Kind::count, "core", [](const U& u) { return count(u.cells_changed); }},
    {"update_us", Kind::time, "core", [](const U& u) { return Cell(u.update_us); }},
    {"rebuild_us", Kind::time, "core", [](const U& u) { return opt(u.rebuild_us); }}};

using N = UnrunRow;
constexpr Column<N> kUnrunColumns[] = {
    {"map", Kind::text, "core", [](const N& u) { return Cell(u.map); }},
    {"collection", Kind::text, "core", [](const N& u) { return Cell(u.collection); }},
    {"representation", Kind::text, "core", [](const N& u) { return Cell(u.representation); }},
    {"convention", Kind::text, "core", [](const N& u) { return Cell(u.convention); }},
    {"reason", Kind::text, "core", [](const N& u) { return Cell(u.reason); }},
    {"message", Kind::text, "core", [](const N& u) { return Cell(u.message); }},
    {"radius", Kind::number, "radius", [](const N& u) { return opt(u.radius); }},
    {"terrain", Kind::text, "terrain", [](const N& u) { return Cell(u.terrain); }}};

// One value as its column's kind writes it.
void write(std::string& s, Kind k, const Cell& c) {
  if (std::holds_alternative<std::monostate>(c)) return;
  switch (k) {
    case Kind::text: s += csv_field(base::printable(std::get<std::string>(c))); return;  // messages quote what entries said (json_of)
    case Kind::count: s += std::to_string(std::get<long long>(c)); return;
    case Kind::number: s += format_number(std::get<double>(c)); return;
    case Kind::time: s += base::fixed(std::get<double>(c), 3); return;
    case Kind::flag: s += std::get<bool>(c) ? '1' : '0'; return;
  }
}

// One value in JSON: an absent one is null; text as the CSV writes it (base::printable: json::dump
// throws on bytes that are not UTF-8).
nlohmann::json json_of(const Cell& c) {
  return std::visit([](const auto& v) -> nlohmann::json {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, std::monostate>) return nullptr;
    else if constexpr (std::is_same_v<V, std::string>) return base::printable(v);
    else return v;
  }, c);
}

bool has(const ColumnGroups& g, const char* group) {
  const std::string_view n = group;
  return n == "core" || (n == "radius" && g.radius) || (n == "epoch" && g.epoch) || (n == "terrain" && g.terrain) ||
         (n == "pinch" && g.pinch) || (n == "entry" && g.entry) || (n == "traced" && g.traced);
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
    write(s, c.kind, c.read(r));
  }
  return s;
}

template <class Row, std::size_t N>
nlohmann::json json_of(const Column<Row> (&cols)[N], const Row& r) {
  nlohmann::json out = nlohmann::json::object();
  for (const Column<Row>& c : cols) out[c.name] = json_of(c.read(r));
  return out;
}

template <class Row, std::size_t N>
nlohmann::json schema_of(const Column<Row> (&cols)[N]) {
  nlohmann::json out = nlohmann::json::array();
  for (const Column<Row>& c : cols) out.push_back({{"name", c.name}, {"type", schema_type(c.kind)}, {"group", c.group}});
  return out;
}

}  // namespace

std::string result_header(const ColumnGroups& g) { return header_of(kResultColumns, g); }
std::string build_header(const ColumnGroups& g) { return header_of(kBuildColumns, g); }
std::string paths_header(const ColumnGroups& g) { return header_of(kPathsColumns, g); }
std::string updates_header() { return header_of(kUpdateColumns, {}); }
std::string unrun_header(const ColumnGroups& g) { return header_of(kUnrunColumns, {.radius = g.radius, .terrain = g.terrain}); }

nlohmann::json column_schema() {
  return {{"results", schema_of(kResultColumns)},
          {"build", schema_of(kBuildColumns)},
          {"paths", schema_of(kPathsColumns)},
          {"updates", schema_of(kUpdateColumns)},
          {"unrun", schema_of(kUnrunColumns)}};
}

std::string format_row(const ResultRow& r, const ColumnGroups& g) { return row_of(kResultColumns, r, g); }
std::string format_build_row(const BuildRow& b, const ColumnGroups& g) { return row_of(kBuildColumns, b, g); }
std::string format_path_row(const ResultRow& r, const ColumnGroups& g) {
  if (r.path.empty() && r.items.empty()) return "";
  return row_of(kPathsColumns, r, g);
}
std::string format_update_row(const UpdateRow& u) { return row_of(kUpdateColumns, u, {}); }
std::string format_unrun_row(const UnrunRow& u, const ColumnGroups& g) {
  return row_of(kUnrunColumns, u, {.radius = g.radius, .terrain = g.terrain});
}

nlohmann::json result_row_json(const ResultRow& r) { return json_of(kResultColumns, r); }
nlohmann::json build_row_json(const BuildRow& b) { return json_of(kBuildColumns, b); }

ResultWriter::ResultWriter(const std::string& prefix, bool paths, const ColumnGroups& groups)
    : groups_(groups), with_paths_(paths) {
  auto open = [](std::ofstream& f, const std::string& path, const std::string& header) {
    f.open(path, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error(path + ": cannot write");
    f << header << '\n';
  };
  open(csv_, prefix + ".csv", result_header(groups));
  open(build_, prefix + ".build.csv",
       build_header({.radius = groups.radius, .terrain = groups.terrain, .pinch = groups.pinch, .entry = groups.entry}));
  if (paths) open(paths_, prefix + ".paths.csv", paths_header({.radius = groups.radius, .terrain = groups.terrain}));
  open(unrun_, prefix + ".unrun.csv", unrun_header(groups));
}

void ResultWriter::write(const ResultRow& r) {
  csv_ << format_row(r, groups_) << '\n';
  if (with_paths_)
    if (auto p = format_path_row(r, groups_); !p.empty()) paths_ << p << '\n';
}

void ResultWriter::write(const BuildRow& b) { build_ << format_build_row(b, groups_) << '\n'; }

void ResultWriter::write(const UnrunRow& u) { unrun_ << format_unrun_row(u, groups_) << '\n'; }

void ResultWriter::flush() {
  csv_.flush();
  build_.flush();
  unrun_.flush();
  if (with_paths_) paths_.flush();
  if (!csv_ || !build_ || !unrun_ || (with_paths_ && !paths_)) throw std::runtime_error("writing results failed (disk full?)");
}

std::vector<std::string> result_files(const std::string& prefix) {
  std::vector<std::string> out = {prefix + ".csv", prefix + ".build.csv", prefix + ".paths.csv", prefix + ".meta.json", prefix + ".updates.csv",
                                  prefix + ".unrun.csv"};
  if (const auto dir = std::filesystem::path(prefix).parent_path(); !dir.empty() && !std::filesystem::exists(dir)) out.push_back(dir.string());
  return out;
}

void remove_files(const std::vector<std::string>& files) {
  for (const auto& f : files) {
    std::error_code ec;
    std::filesystem::remove(f, ec);
  }
}

}  // namespace navbench
