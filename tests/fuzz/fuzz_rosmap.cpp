// libFuzzer target: a ROS map_server map (datasets/ros_map.hpp) from files in memory. The input is
// the YAML text, a NUL byte, then the image's bytes, held as both fuzz/map.pgm and fuzz/map.png
// (an `image:` naming either finds it). The map is read as `navbench run --map fuzz/map.yaml`
// reads it, with unknown cells blocked and (when there are any) again free; the contract: a consistent map and frame,
// or InputError naming the file.
#include <cstdint>
#include <string>

#include "datasets/ros_map.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

namespace {

void check_map(const Map& m, const OccupancyOptions& o) {
  require(m.kind == MapKind::grid && m.frame.has_value(), "a ROS map is a grid with its frame");
  const GridMap& g = m.grid;
  fuzz::check_grid(g);
  const MapFrame& f = *m.frame;
  require(f.resolution > 0 && std::isfinite(f.resolution), "resolution positive");
  require(std::isfinite(f.origin_x) && std::isfinite(f.origin_y) && std::isfinite(f.yaw), "origin finite");
  require(f.free_thresh >= 0 && f.occupied_thresh <= 1 && f.free_thresh < f.occupied_thresh, "0 <= free < occupied <= 1");
  require(f.mode == "trinary" || f.mode == "scale" || f.mode == "raw", "a known mode");
  require(f.free_cells + f.occupied_cells + f.unknown_cells + f.between_cells == long(g.cells.size()), "every cell read once");
  require(f.between_cells == 0 || f.mode == "scale", "cells between the thresholds only in scale mode");
  long passable = 0;
  for (auto c : g.cells) passable += c;
  require(passable == f.free_cells + f.between_cells + (o.unknown_free ? f.unknown_cells : 0), "free, between (and unknown) cells passable");
  require(g.weighted() == (f.between_cells > 0), "weights exactly when cells lie between the thresholds");
  for (double w : g.weights) require(w <= o.wmax * (1 + 1e-12), "weights up to wmax");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [yaml, image] = fuzz::two_files(fuzz::text(data, size));
  base::MemoryFiles files;
  files.files["fuzz/map.yaml"] = yaml;
  files.files["fuzz/map.pgm"] = image;
  files.files["fuzz/map.png"] = image;
  for (bool unknown_free : {false, true}) {
    OccupancyOptions o;
    o.unknown_free = unknown_free;
    try {
      const Map m = load_ros_map("fuzz/map.yaml", o, files);
      check_map(m, o);
      if (m.frame->unknown_cells == 0) return 0;  // read again only where unknown cells make a difference
    } catch (const base::InputError& e) {
      const std::string w = e.what();
      fuzz::require(!unknown_free, "a map read once is read again");
      fuzz::require(w.find("fuzz/map.") != std::string::npos && w.find('\n') == std::string::npos, "one line naming the YAML or its image");
      return 0;
    }
  }
  return 0;
}
