// The self-description of a run (as OMPL's benchmark logs): host, CPU, compiler, flags, git
// commit, date, seed, config, and the column schema of its files.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace navbench {

nlohmann::json run_metadata(const std::vector<std::string>& argv, std::uint64_t seed, const nlohmann::json& config);

// The project's version (CMakeLists.txt's project(VERSION), also CITATION.cff's) and the commit of
// the checkout navbench was built from, as `navbench --version` prints them and meta.json records
// them ("version", "git_commit", "git_dirty"): commit empty when the checkout is no git work tree.
struct SourceVersion {
  std::string version;
  std::string commit;
  bool dirty = false;
};
SourceVersion source_version();
// "navbench 0.1.0 (commit 17d5920dc987..., uncommitted changes)" — the line of `navbench --version`.
std::string version_line();

// j as JSON text (indent < 0: one line), every byte that is not UTF-8 in its strings replaced by
// U+FFFD: the files navbench writes hold paths, and a path is whatever bytes the file system
// holds (a folder named in Latin-1), where plain json::dump throws and the run would end.
std::string json_text(const nlohmann::json& j, int indent = -1);

struct Map;
// The maps of a run read from occupancy images (ROS map_server, PNG/PGM; docs/maps.md), by name:
// resolution, origin, yaw, mode, thresholds and cell counts as read. Empty when there are none.
nlohmann::json map_frames_json(const std::vector<const Map*>& maps);

struct RunConfig;
// PREFIX.meta.json of a `navbench run` (its folder made when missing); `maps` (map_frames_json),
// when not empty, goes in as "map_frames".
void write_run_metadata(const RunConfig& cfg, const nlohmann::json* maps = nullptr);

}  // namespace navbench
