#include "harness/results.hpp"

#include <cstdio>
#include <stdexcept>

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

const char* const kResultHeader =
    "map,collection,scen_index,bucket,representation,heuristic,smoothing,convention,sx,sy,gx,gy,status,length,"
    "optimal,octile_optimal,gap,valid,expansions,path_points,locate_us,search_us,smooth_us,raw_length,raw_valid,"
    "generated,message";
const char* const kBuildHeader = "map,representation,params,build_ms,vertices,edges,memory_bytes";
const char* const kPathsHeader = "map,scen_index,representation,heuristic,smoothing,convention,points";

std::string result_header(bool radius) { return std::string(kResultHeader) + (radius ? ",radius" : ""); }
std::string build_header(bool radius) { return std::string(kBuildHeader) + (radius ? ",radius" : ""); }
std::string paths_header(bool radius) {
  return radius ? "map,scen_index,representation,heuristic,smoothing,convention,radius,points" : kPathsHeader;
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

static std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

static std::string opt(const std::optional<double>& v) { return v ? format_number(*v) : ""; }
static std::string opt(const std::optional<bool>& v) { return v ? (*v ? "1" : "0") : ""; }

std::string format_row(const ResultRow& r) {
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
  add(fixed3(r.locate_us));
  add(fixed3(r.search_us));
  add(fixed3(r.smooth_us));
  add(opt(r.raw_length));
  add(opt(r.raw_valid));
  add(std::to_string(r.generated));
  add(csv_field(r.message));
  if (r.radius) add(format_number(*r.radius));
  return s;
}

std::string format_build_row(const BuildRow& b) {
  return csv_field(b.map) + ',' + csv_field(b.representation) + ',' + csv_field(b.params) + ',' + fixed3(b.build_ms) +
         ',' + std::to_string(b.vertices) + ',' + std::to_string(b.edges) + ',' + std::to_string(b.memory_bytes) +
         (b.radius ? "," + format_number(*b.radius) : "");
}

std::string format_path_row(const ResultRow& r) {
  if (r.path.empty() && r.items.empty()) return "";
  std::string pts;
  char buf[80];
  if (!r.items.empty()) {
    for (const PathItem& it : r.items) {  // SPEC §6: "@cx cy" is an arc's centre
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
         csv_field(r.heuristic) + ',' + csv_field(r.smoothing) + ',' + r.convention + ',' +
         (r.radius ? format_number(*r.radius) + ',' : std::string()) + pts;
}

ResultWriter::ResultWriter(const std::string& prefix, bool paths, bool epoch, bool radius)
    : with_paths_(paths), with_epoch_(epoch) {
  auto open = [](std::ofstream& f, const std::string& path, const std::string& header) {
    f.open(path, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error(path + ": cannot write");
    f << header << '\n';
  };
  open(csv_, prefix + ".csv", result_header(radius) + (epoch ? ",epoch" : ""));
  open(build_, prefix + ".build.csv", build_header(radius));
  if (paths) open(paths_, prefix + ".paths.csv", paths_header(radius));
}

void ResultWriter::write(const ResultRow& r) {
  csv_ << format_row(r);
  if (with_epoch_) csv_ << ',' << (r.epoch ? std::to_string(*r.epoch) : std::string());
  csv_ << '\n';
  if (with_paths_)
    if (auto p = format_path_row(r); !p.empty()) paths_ << p << '\n';
}

void ResultWriter::write(const BuildRow& b) { build_ << format_build_row(b) << '\n'; }

void ResultWriter::flush() {
  csv_.flush();
  build_.flush();
  if (with_paths_) paths_.flush();
  if (!csv_ || !build_ || (with_paths_ && !paths_)) throw std::runtime_error("writing results failed (disk full?)");
}

}  // namespace navbench
