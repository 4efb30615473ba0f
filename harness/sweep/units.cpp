#include "harness/sweep/units.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "base/files.hpp"
#include "base/text.hpp"
#include "harness/results/results.hpp"
#include "harness/run/traces.hpp"

namespace fs = std::filesystem;

namespace navbench {
namespace {

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '=') ? c : '_';
  return out;
}

// The id part of a unit's radius: "__r0.4" ("" for a sweep without radii).
std::string radius_tag(const std::optional<double>& radius) { return radius ? "__r" + format_number(*radius) : std::string(); }

// Body of a CSV without its header line.
std::string body(const std::string& text) {
  auto nl = text.find('\n');
  return nl == std::string::npos ? "" : text.substr(nl + 1);
}

}  // namespace

std::string weights_tag(const MapWeights& w) {
  if (w.terrain) return "__t" + w.terrain->text;
  if (!w.costs.empty()) return "__c" + fs::path(w.costs).stem().string();
  return "";
}

std::string static_unit_id(const std::string& collection, const std::string& map, const std::string& convention,
                           const std::string& rep_text, const std::optional<double>& radius, const std::string& weights) {
  return sanitize(collection + "__" + map + weights + "__" + convention + "__" + rep_text + radius_tag(radius));
}

std::vector<std::string> dynamic_unit_ids(const std::vector<std::string>& scens, const std::vector<std::string>& conventions,
                                          const std::vector<RepresentationSpec>& reps) {
  std::vector<std::string> ids;
  for (const auto& d : scens)
    for (const auto& conv : conventions)
      for (const auto& r : reps) ids.push_back(sanitize("dynamic__" + fs::path(d).stem().string() + "__" + conv + "__" + r.text));
  return ids;
}

std::string optimum_id(const std::string& collection, const std::string& map, const std::string& convention,
                       const std::optional<double>& radius, const std::string& weights) {
  return sanitize(collection + "__" + map + weights + "__" + convention + radius_tag(radius));
}

std::string exact_text(double v) { return base::number(v, 17); }

std::string config_hash(const std::string& canonical) { return base::fnv1a_hex(canonical); }

std::pair<long, long> parse_shard(const std::string& s) {
  const auto slash = s.find('/');
  long k = 0, n = 0;
  try {
    if (slash == std::string::npos) throw 0;
    std::size_t a = 0, b = 0;
    k = std::stol(s.substr(0, slash), &a);
    n = std::stol(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1) throw 0;
  } catch (...) {
    throw std::invalid_argument("--shard needs K/N, got '" + s + "'");
  }
  if (n < 1 || k < 1 || k > n) throw std::invalid_argument("--shard K/N needs 1 <= K <= N, got '" + s + "'");
  return {k, n};
}

namespace {

// A results file written by appending unit bodies to a temporary file, fsync'd and renamed into
// place at the end: merging a sweep of tens of millions of rows holds one unit in memory, not all.
class MergedFile {
 public:
  MergedFile(fs::path path, const std::string& header) : path_(std::move(path)), tmp_(path_.string() + ".tmp" + std::to_string(::getpid())) {
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) throw std::runtime_error(tmp_.string() + ": cannot write");
    put(header + "\n");
  }
  ~MergedFile() {
    if (f_) {
      std::fclose(f_);
      fs::remove(tmp_);
    }
  }
  void append_body_of(const fs::path& unit_file) { put(body(base::read_file(unit_file))); }
  void commit() {
    const bool ok = std::fflush(f_) == 0 && ::fsync(fileno(f_)) == 0;
    std::fclose(f_);
    f_ = nullptr;
    if (!ok) throw std::runtime_error(tmp_.string() + ": write failed (disk full?)");
    fs::rename(tmp_, path_);
  }

 private:
  void put(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), f_) != text.size()) throw std::runtime_error(tmp_.string() + ": write failed (disk full?)");
  }
  fs::path path_, tmp_;
  FILE* f_ = nullptr;
};

}  // namespace

void write_merged(const fs::path& out, const std::vector<fs::path>& unit_dirs, const std::vector<std::string>& ids,
                  bool paths, const ColumnGroups& groups, const std::vector<std::string>& skipped) {
  const bool dynamic = groups.epoch;
  fs::create_directories(out);
  std::vector<fs::path> dirs;  // the folder holding each unit, all found before anything is written
  for (const auto& id : ids) {
    fs::path dir;
    for (const auto& d : unit_dirs)
      if (fs::exists(d / (id + ".csv"))) {
        dir = d;
        break;
      }
    if (dir.empty()) throw std::runtime_error("unit " + id + " has no results");
    dirs.push_back(dir);
  }
  // results.csv is renamed into place last: its presence marks the merged set complete.
  MergedFile csv(out / "results.csv", result_header(groups));
  MergedFile build(out / "results.build.csv",
                   build_header({.radius = groups.radius, .terrain = groups.terrain, .pinch = groups.pinch, .entry = groups.entry}));
  std::optional<MergedFile> pth, upd;
  if (paths) pth.emplace(out / "results.paths.csv", paths_header({.radius = groups.radius, .terrain = groups.terrain}));
  if (dynamic) upd.emplace(out / "results.updates.csv", updates_header());
  MergedFile unrun(out / "results.unrun.csv", unrun_header(groups));
  // Search traces (docs/traces.md): each unit's index into traces/results.traces.csv, its files
  // linked (or copied) into traces/.
  std::optional<MergedFile> trc;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const fs::path index = trace_index((dirs[i] / ids[i]).string());
    if (!fs::exists(index)) continue;
    if (!trc) {
      fs::create_directories(trace_dir((out / "results").string()));
      trc.emplace(trace_index((out / "results").string()), trace_index_header());
    }
    trc->append_body_of(index);
  }
  if (trc) {
    const fs::path to = trace_dir((out / "results").string());
    std::vector<fs::path> seen;
    for (const auto& d : dirs) {
      const fs::path from = trace_dir((d / "x").string());
      if (!fs::exists(from) || fs::equivalent(from, to) || std::find(seen.begin(), seen.end(), from) != seen.end()) continue;
      seen.push_back(from);
      for (const auto& e : fs::directory_iterator(from)) {
        const std::string name = e.path().filename().string();
        if (!name.ends_with(".trace.json")) continue;
        fs::remove(to / name);
        std::error_code ec;
        fs::create_hard_link(e.path(), to / name, ec);
        if (ec) fs::copy_file(e.path(), to / name);
      }
    }
    trc->commit();
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const fs::path unit = dirs[i] / ids[i];
    csv.append_body_of(unit.string() + ".csv");
    if (fs::exists(unit.string() + ".build.csv")) build.append_body_of(unit.string() + ".build.csv");
    if (pth && fs::exists(unit.string() + ".paths.csv")) pth->append_body_of(unit.string() + ".paths.csv");
    if (upd && fs::exists(unit.string() + ".updates.csv")) upd->append_body_of(unit.string() + ".updates.csv");
    if (fs::exists(unit.string() + ".unrun.csv")) unrun.append_body_of(unit.string() + ".unrun.csv");
  }
  for (const auto& id : skipped)  // the first shard holding its record (every shard writes the same)
    for (const auto& d : unit_dirs)
      if (fs::exists(d / (id + ".unrun.csv"))) {
        unrun.append_body_of(d / (id + ".unrun.csv"));
        break;
      }
  if (upd) upd->commit();
  unrun.commit();
  build.commit();
  if (pth) pth->commit();
  csv.commit();
}

Progress::Progress() : tty(::isatty(STDERR_FILENO) != 0) {}

void Progress::unit_done(const std::string& id, std::size_t nrows, double seconds) {
  std::lock_guard<std::mutex> lock(m);
  ++done;
  rows += nrows;
  if (quiet) return;
  const double el = base::s_since(t0);
  const double eta = done ? el / double(done) * double(total - done) : 0;
  char buf[256];
  if (tty) {
    const int width = 30, fill = int(double(width) * double(done) / double(std::max<std::size_t>(total, 1)));
    std::snprintf(buf, sizeof buf, "\r[%-*s] %zu/%zu units, %zu rows, %.0fs elapsed, ETA %.0fs   ", width,
                  std::string(std::size_t(fill), '#').c_str(), done, total, rows, el, eta);
    std::cerr << buf << (done == total ? "\n" : "") << std::flush;
  } else {
    std::snprintf(buf, sizeof buf, "navbench: [%zu/%zu] %s: %zu rows in %.1fs (ETA %.0fs)\n", done, total, id.c_str(),
                  nrows, seconds, eta);
    std::cerr << buf;
  }
}

}  // namespace navbench
