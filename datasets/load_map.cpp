#include "datasets/load_map.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "datasets/movingai.hpp"
#include "datasets/polyanya.hpp"
#include "datasets/wkt.hpp"

namespace navbench {
namespace {

std::string extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return e;
}

}  // namespace

Map load_map(const std::string& path, const MapReadOptions& opt) {
  const std::string e = extension(path);
  if (e == ".wkt") return load_wkt_map(path);
  if (e == ".yaml" || e == ".yml") return load_ros_map(path, opt.occupancy);
  if (e == ".png" || e == ".pgm") return load_image_map(path, opt.occupancy);
  if (e == ".mesh") return load_polyanya_mesh(path);
  if (e == ".poly") return load_polyanya_poly(path);
  return load_movingai_map(path);
}

bool is_scanned_map_file(const std::string& path) {
  const std::string e = extension(path);
  return e == ".map" || e == ".wkt" || e == ".yaml" || e == ".yml" || e == ".mesh" || e == ".poly";
}

bool carries_own_costs(const std::string& path) {
  const std::string e = extension(path);
  if (e != ".yaml" && e != ".yml") return false;
  try {
    return read_ros_yaml(path).mode == "scale";
  } catch (const base::InputError&) {
    return false;
  }
}

bool is_movingai_path(const std::string& path) {
  const std::string e = extension(path);
  return e != ".wkt" && e != ".yaml" && e != ".yml" && e != ".png" && e != ".pgm" && e != ".mesh" && e != ".poly";
}

}  // namespace navbench
