// `navbench merge SHARD_DIR... --out DIR`: the shard folders of one sweep config into one result
// set, refused when a unit is in none of them (the missing units are listed).
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/files.hpp"
#include "datasets/movingai.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/run.hpp"
#include "harness/sweep/config.hpp"
#include "harness/sweep/sweep.hpp"
#include "harness/sweep/units.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace navbench {
namespace {

// Every unit id of a sweep config as stored in sweep.json (its map list already resolved).
// The static units its skip_maps leave out go to `skipped` (their records, ID.unrun.csv, are merged).
void config_unit_ids(const json& config, std::vector<std::string>& static_ids, std::vector<std::string>& dyn_ids,
                     std::vector<std::string>& skipped) {
  std::vector<std::vector<std::string>> skip;
  const std::vector<RepresentationSpec> reps = expand_reps(config["representations"], &skip);
  const auto conventions = config.contains("conventions") ? config["conventions"].get<std::vector<std::string>>()
                                                          : std::vector<std::string>{"center"};
  const auto radii = config.contains("radii") ? config["radii"].get<std::vector<double>>() : std::vector<double>{};
  const auto maps = config.contains("maps") ? config["maps"].get<std::vector<std::string>>() : std::vector<std::string>{};
  const auto tags = config.contains("map_weights") ? config["map_weights"].get<std::vector<std::string>>()
                                                   : std::vector<std::string>(maps.size());
  for (std::size_t i = 0; i < maps.size(); ++i) {
    const fs::path p(maps[i]);
    // The map's name as its reader gives it (datasets/load_map.hpp): .map and .wkt stripped, and
    // the extension of the other formats (.yaml, .mesh, .poly, images).
    std::string name = p.filename().string();
    for (const char* ext : {".map", ".wkt"})
      if (name.size() > 4 && name.ends_with(ext)) name.resize(name.size() - 4);
    if (name == p.filename().string() && !is_movingai_path(p.string())) name = p.stem().string();
    for (const auto& conv : conventions)
      for (const Agent& agent : agent_passes(agents_of(radii)))
        for (std::size_t ri = 0; ri < reps.size(); ++ri)  // the entry's skip_maps, as the sweep planned
          (runs_on(skip[ri], name) ? static_ids : skipped)
              .push_back(static_unit_id(p.parent_path().filename().string(), name, conv, reps[ri].text, agent.column(), tags.at(i)));
  }
  dyn_ids = dynamic_unit_ids(config.contains("dynamic") ? config["dynamic"].get<std::vector<std::string>>() : std::vector<std::string>{},
                             conventions, reps);
}

}  // namespace

int merge_command(const MergeArgs& o, const std::vector<std::string>& argv) {
  const std::vector<fs::path> dirs(o.dirs.begin(), o.dirs.end());
  const std::string& out = o.out;
  std::string hash;
  json config;
  std::vector<fs::path> unit_dirs;
  for (const auto& d : dirs) {
    if (!fs::exists(d / "sweep.json")) throw base::InputError(d.string() + ": not a sweep folder (no sweep.json)");
    json j = json::parse(base::read_file(d / "sweep.json"));
    if (hash.empty()) {
      hash = j.value("config_hash", "");
      config = j["config"];
    } else if (j.value("config_hash", "") != hash) {
      throw base::InputError(d.string() + ": its sweep config differs from " + dirs.front().string() + "; refusing to mix");
    }
    unit_dirs.push_back(d / "units");
  }
  // The unit list is the config's; every unit must be found in one of the shards.
  std::vector<std::string> ids, dyn_ids, skipped;
  config_unit_ids(config, ids, dyn_ids, skipped);
  std::vector<std::string> missing;
  for (const auto* list : {&ids, &dyn_ids})
    for (const auto& id : *list) {
      bool found = false;
      for (const auto& d : unit_dirs) found |= fs::exists(d / (id + ".csv"));
      if (!found) missing.push_back(id);
    }
  if (!missing.empty()) {
    std::string names;
    for (std::size_t i = 0; i < missing.size() && i < 20; ++i) names += (i ? ", " : "") + missing[i];
    if (missing.size() > 20) names += ", ... (" + std::to_string(missing.size() - 20) + " more)";
    throw base::InputError(std::to_string(missing.size()) + " of " + std::to_string(ids.size() + dyn_ids.size()) +
                     " units are in none of the shards: " + names);
  }
  fs::create_directories(out);
  const bool paths = config.contains("paths") && config["paths"].get<bool>();
  // The optional columns, as the sweep wrote them: radii given, a map entry with weights, traces.
  ColumnGroups groups{.radius = config.contains("radii"), .pinch = config.value("pinch", "forbid") == "allow",
                      .entry = any_outside_planner(expand_reps(config["representations"])),
                      .traced = config.value("trace", 0) > 0};
  if (config.contains("map_entries") && config["map_entries"].is_array())  // the entries as written (config.cpp)
    for (const auto& e : config["map_entries"])
      groups.terrain |= e.is_object() && (e.contains("terrain") || e.contains("costs"));
  if (!ids.empty()) write_merged(out, unit_dirs, ids, paths, groups, skipped);
  if (!dyn_ids.empty()) write_merged(fs::path(out) / "dynamic", unit_dirs, dyn_ids, paths, {.epoch = true, .entry = groups.entry});
  json meta = run_metadata(argv, config.value("seed", std::uint64_t(1)), config);
  meta["config_hash"] = hash;
  meta["merged_from"] = [&] {
    std::vector<std::string> v;
    for (auto& d : dirs) v.push_back(d.string());
    return v;
  }();
  base::write_atomic(fs::path(out) / "results.meta.json", json_text(meta, 2) + "\n");
  base::write_atomic(fs::path(out) / "sweep.json", json_text(json{{"config_hash", hash}, {"config", config}}, 2) + "\n");
  std::cerr << "navbench: merged " << ids.size() + dyn_ids.size() << " units into " << out << '\n';
  return 0;
}

}  // namespace navbench
