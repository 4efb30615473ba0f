#include "harness/results/results.hpp"
#include "datasets/text_lines.hpp"

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

namespace {

// The one column schema: every column of every results file, in file order, with its type and
// group. "core" columns are always written; an optional group's columns appear only in runs that
// have it (radius: runs given radii; epoch: changing maps; terrain: runs over weighted maps). Headers and meta.json's "schema" are
// both made from these tables, and the Python scripts read the schema from meta.json.
struct Column {
  const char* name;
  const char* type;   // text | int | float | bool (1/0/empty)
  const char* group;  // core | radius | epoch | terrain
};
constexpr Column kResultColumns[] = {
    {"map", "text", "core"}, {"collection", "text", "core"}, {"scen_index", "int", "core"}, {"bucket", "int", "core"},
    {"representation", "text", "core"}, {"heuristic", "text", "core"}, {"smoothing", "text", "core"},
    {"convention", "text", "core"}, {"sx", "float", "core"}, {"sy", "float", "core"}, {"gx", "float", "core"},
    {"gy", "float", "core"}, {"status", "text", "core"}, {"length", "float", "core"}, {"optimal", "float", "core"},
    {"octile_optimal", "float", "core"}, {"gap", "float", "core"}, {"valid", "bool", "core"},
    {"expansions", "int", "core"}, {"path_points", "int", "core"}, {"locate_us", "float", "core"},
    {"search_us", "float", "core"}, {"smooth_us", "float", "core"}, {"raw_length", "float", "core"},
    {"raw_valid", "bool", "core"}, {"generated", "int", "core"}, {"message", "text", "core"},
    {"search", "text", "core"}, {"los_checks", "int", "core"}, {"clearance", "float", "core"}, {"turn", "float", "core"},
    {"radius", "float", "radius"}, {"epoch", "int", "epoch"},
    {"terrain", "text", "terrain"}, {"cost", "float", "terrain"}, {"raw_cost", "float", "terrain"},
    {"octile_optimal_cost", "float", "terrain"}, {"optimal_cost", "float", "terrain"}, {"cost_gap", "float", "terrain"}};
constexpr Column kBuildColumns[] = {
    {"map", "text", "core"}, {"representation", "text", "core"}, {"params", "text", "core"}, {"build_ms", "float", "core"},
    {"vertices", "int", "core"}, {"edges", "int", "core"}, {"memory_bytes", "int", "core"}, {"radius", "float", "radius"},
    {"terrain", "text", "terrain"}};
constexpr Column kPathsColumns[] = {
    {"map", "text", "core"}, {"scen_index", "int", "core"}, {"representation", "text", "core"},
    {"heuristic", "text", "core"}, {"smoothing", "text", "core"}, {"convention", "text", "core"},
    {"search", "text", "core"}, {"radius", "float", "radius"}, {"terrain", "text", "terrain"}, {"points", "text", "core"}};
constexpr Column kUpdateColumns[] = {
    {"map", "text", "core"}, {"representation", "text", "core"}, {"epoch", "int", "core"}, {"patches", "int", "core"},
    {"cells_changed", "int", "core"}, {"update_us", "float", "core"}, {"rebuild_us", "float", "core"}};

template <std::size_t N>
std::string header_of(const Column (&cols)[N], const ColumnGroups& g) {
  std::string h;
  for (const Column& c : cols) {
    const std::string group = c.group;
    if ((group == "radius" && !g.radius) || (group == "epoch" && !g.epoch) || (group == "terrain" && !g.terrain)) continue;
    h += (h.empty() ? "" : ",") + std::string(c.name);
  }
  return h;
}

template <std::size_t N>
nlohmann::json schema_of(const Column (&cols)[N]) {
  nlohmann::json out = nlohmann::json::array();
  for (const Column& c : cols) out.push_back({{"name", c.name}, {"type", c.type}, {"group", c.group}});
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

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string format_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

static std::string opt(const std::optional<double>& v) { return v ? format_number(*v) : ""; }
static std::string opt(const std::optional<bool>& v) { return v ? (*v ? "1" : "0") : ""; }

std::string format_row(const ResultRow& r, const ColumnGroups& g) {
  std::string s;
  s.reserve(256);
  auto add = [&](const std::string& f) {
    if (!s.empty()) s += ',';
    s += f;
  };
  add(csv_field(r.map));
  add(csv_field(r.collection));
  add(std::to_string(r.scen_index));
  add(std::to_string(r.bucket));
  add(csv_field(r.representation));
  add(csv_field(r.heuristic));
  add(csv_field(r.smoothing));
  add(r.convention);
  add(format_number(r.sx));
  add(format_number(r.sy));
  add(format_number(r.gx));
  add(format_number(r.gy));
  add(to_string(r.status));
  add(opt(r.length));
  add(opt(r.optimal));
  add(opt(r.octile_optimal));
  add(opt(r.gap));
  add(opt(r.valid));
  add(std::to_string(r.expansions));
  add(std::to_string(r.path_points));
  add(text::fixed(r.locate_us, 3));
  add(text::fixed(r.search_us, 3));
  add(text::fixed(r.smooth_us, 3));
  add(opt(r.raw_length));
  add(opt(r.raw_valid));
  add(std::to_string(r.generated));
  add(csv_field(r.message));
  add(r.search);
  add(std::to_string(r.los_checks));
  add(opt(r.clearance));
  add(opt(r.turn));
  if (r.radius) add(format_number(*r.radius));
  if (g.epoch) add(r.epoch ? std::to_string(*r.epoch) : std::string());
  if (g.terrain) {
    add(csv_field(r.terrain));
    add(opt(r.cost));
    add(opt(r.raw_cost));
    add(opt(r.octile_optimal_cost));
    add(opt(r.optimal_cost));
    add(opt(r.cost_gap));
  }
  return s;
}

std::string format_build_row(const BuildRow& b, const ColumnGroups& g) {
  return csv_field(b.map) + ',' + csv_field(b.representation) + ',' + csv_field(b.params) + ',' + text::fixed(b.build_ms, 3) +
         ',' + std::to_string(b.vertices) + ',' + std::to_string(b.edges) + ',' + std::to_string(b.memory_bytes) +
         (b.radius ? "," + format_number(*b.radius) : "") + (g.terrain ? "," + csv_field(b.terrain) : "");
}

std::string format_path_row(const ResultRow& r, const ColumnGroups& g) {
  if (r.path.empty() && r.items.empty()) return "";
  std::string pts;
  char buf[80];
  if (!r.items.empty()) {
    for (const PathItem& it : r.items) {  // docs/radius.md: "@cx cy" is an arc's centre
      std::snprintf(buf, sizeof buf, "%s%s%.17g %.17g", pts.empty() ? "" : ";", it.arc_centre ? "@" : "", it.p.x, it.p.y);
      pts += buf;
    }
  } else {
    for (const Point& p : r.path) {
      std::snprintf(buf, sizeof buf, "%s%.17g %.17g", pts.empty() ? "" : ";", p.x, p.y);
      pts += buf;
    }
  }
  return csv_field(r.map) + ',' + std::to_string(r.scen_index) + ',' + csv_field(r.representation) + ',' +
         csv_field(r.heuristic) + ',' + csv_field(r.smoothing) + ',' + r.convention + ',' + r.search + ',' +
         (r.radius ? format_number(*r.radius) + ',' : std::string()) + (g.terrain ? csv_field(r.terrain) + ',' : std::string()) + pts;
}

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
