// The one place a map file is read by its type (docs/maps.md): Moving AI grids (.map, and any
// other name), WKT polygon maps (.wkt), ROS map_server maps (.yaml/.yml), bare occupancy images
// (.png/.pgm), Polyanya's navigation meshes (.mesh) and polygon maps (.poly).
#pragma once
#include <string>

#include "datasets/ros_map.hpp"
#include "geometry/map.hpp"

namespace navbench {

// How the file is read, where a format leaves a choice (occupancy images: unknown cells, the
// scale mode's wmax, a bare image's thresholds).
struct MapReadOptions {
  OccupancyOptions occupancy;
};

// The map in `path`, by its extension. Throws InputError with one line on bad input.
Map load_map(const std::string& path, const MapReadOptions& opt = {});

// Whether a directory scan picks the file up: .map, .wkt, .yaml/.yml, .mesh and .poly — never a
// bare image (a ROS map's image would be read twice) nor a scenario.
bool is_scanned_map_file(const std::string& path);

// A ROS map whose YAML says `mode: scale`: its cells between the thresholds carry weights (so a
// sweep's rows get the terrain columns). False for anything else, and for a YAML that fails to read.
bool carries_own_costs(const std::string& path);

// True for the Moving AI reader's files (the terrain characters of --terrain exist only there).
bool is_movingai_path(const std::string& path);

}  // namespace navbench
