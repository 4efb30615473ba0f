#include "harness/run/metadata.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "geometry/map.hpp"
#include "harness/results/results.hpp"
#include "harness/run/description.hpp"

#ifndef NAVBENCH_BUILD_FLAGS
#define NAVBENCH_BUILD_FLAGS ""
#endif
#ifndef NAVBENCH_SOURCE_DIR
#define NAVBENCH_SOURCE_DIR "."
#endif
#ifndef NAVBENCH_VERSION
#define NAVBENCH_VERSION "unknown"
#endif

namespace navbench {
namespace {

std::string shell(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}


}  // namespace

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

SourceVersion source_version() {
  const std::string src = NAVBENCH_SOURCE_DIR;
  SourceVersion v;
  v.version = NAVBENCH_VERSION;
  v.commit = shell("git -C '" + src + "' rev-parse HEAD 2>/dev/null");
  v.dirty = !v.commit.empty() &&
            !shell("git -C '" + src + "' status --porcelain --untracked-files=no 2>/dev/null").empty();
  return v;
}

std::string version_line() {
  const SourceVersion v = source_version();
  std::string out = "navbench " + v.version + " (";
  out += v.commit.empty() ? std::string("commit unknown: ") + NAVBENCH_SOURCE_DIR + " is no git checkout"
                          : "commit " + v.commit + (v.dirty ? ", uncommitted changes" : "");
  return out + ")";
}

nlohmann::json run_metadata(const std::vector<std::string>& argv, std::uint64_t seed, const nlohmann::json& config) {
  nlohmann::json j;
  std::string cmd;
  for (auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
  j["command_line"] = cmd;
  const SourceVersion v = source_version();
  j["version"] = v.version;
  j["git_commit"] = v.commit;
  j["git_dirty"] = v.dirty;
  j["compiler"] = std::string("g++ ") + __VERSION__;
  j["flags"] = NAVBENCH_BUILD_FLAGS;
  j["cpu"] = cpu_model();
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  j["host"] = host;
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  j["date"] = date;
  j["seed"] = seed;
  j["config"] = config;
  j["schema"] = column_schema();  // the columns of the files this run writes (results/results.cpp)
  return j;
}

nlohmann::json map_frames_json(const std::vector<const Map*>& maps) {
  nlohmann::json out = nlohmann::json::object();
  for (const Map* m : maps) {
    if (!m->frame) continue;
    const MapFrame& f = *m->frame;
    nlohmann::json j = {{"path", m->path}, {"image", f.image}, {"width", m->grid.width}, {"height", m->grid.height},
                        {"mode", f.mode}, {"negate", f.negate}, {"occupied_thresh", f.occupied_thresh},
                        {"free_thresh", f.free_thresh}, {"unknown", f.unknown_free ? "free" : "blocked"},
                        {"cells", {{"free", f.free_cells}, {"occupied", f.occupied_cells}, {"unknown", f.unknown_cells},
                                   {"between", f.between_cells}}}};
    if (f.resolution > 0) {  // a ROS map: cell (x, y) at metres (x r + ox, (H - 1 - y) r + oy)
      j["resolution"] = f.resolution;
      j["origin"] = {f.origin_x, f.origin_y, f.yaw};
    }
    if (f.mode == "scale") j["wmax"] = f.wmax;
    out[m->collection + "/" + m->name] = j;
  }
  return out;
}

void write_run_metadata(const RunConfig& cfg, const nlohmann::json* maps) {
  if (auto dir = std::filesystem::path(cfg.out).parent_path(); !dir.empty()) std::filesystem::create_directories(dir);
  std::ofstream meta(cfg.out + ".meta.json", std::ios::trunc);
  if (!meta) throw std::runtime_error(cfg.out + ".meta.json: cannot write");
  nlohmann::json j = run_metadata(cfg.argv, cfg.select.seed, config_json(cfg));
  if (maps && !maps->empty()) j["map_frames"] = *maps;
  meta << json_text(j, 2) << '\n';
}

}  // namespace navbench
