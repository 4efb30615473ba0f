// ROS map_server maps and bare occupancy images as grid maps (docs/maps.md, SPEC §13).
//
// A map_server map is a YAML file (image, resolution, origin, negate, occupied_thresh, free_thresh,
// mode) beside its image. It is read as Nav2's map_server reads it (nav2_map_server/src/map_io.cpp,
// loadMapYaml and loadMapFromFile): a pixel's shade is the mean of its colour channels over their
// maximum (in trinary mode an alpha channel joins the mean as one more channel), its occupancy
// p = 1 - shade, or shade with `negate`; then
//   trinary: p > occupied_thresh occupied, p < free_thresh free, otherwise unknown;
//   scale:   a pixel that is not fully opaque unknown, else as trinary, except that the cells
//            between the thresholds are passable at weight 1 + (wmax - 1)(p - free)/(occ - free)
//            (a cost layer, docs/terrain.md);
//   raw:     v = round(shade * 255) is the occupancy in percent (0..100; above 100 unknown), and
//            p = v / 100 is classified as in trinary mode.
// Occupied cells are blocked; unknown ones too unless OccupancyOptions::unknown_free. Cells are
// pixels with row 0 the image's top row, as in Moving AI files (map_server flips rows into its
// OccupancyGrid, whose row 0 is the bottom: the same cells in the same places).
// Bad input throws InputError("file: reason" or "file:line: reason").
#pragma once
#include <string>

#include "datasets/image.hpp"
#include "geometry/map.hpp"

namespace navbench {

// How occupancy images are read (command line: --unknown, --wmax, --occupied-thresh, --free-thresh).
struct OccupancyOptions {
  bool unknown_free = false;
  double wmax = 5;
  // Thresholds of a bare image (a YAML file gives its own); map_server's defaults.
  double occupied_thresh = 0.65, free_thresh = 0.196;
};

// The YAML file's fields, checked (image resolved against the YAML's folder). `files`: where the
// YAML and its image are read (the disk; the fuzz target's files in memory).
MapFrame read_ros_yaml(const std::string& yaml_path, const base::FileSource& files = base::disk_files());

// How one pixel reads under `f`'s rule.
enum class CellReading { free, occupied, unknown, between };
struct PixelReading {
  CellReading reading;
  double p;  // the occupancy the rule compared (raw: v / 100)
};
PixelReading read_pixel(const PixelImage& img, int x, int y, const MapFrame& f);

// The grid of an image under `f`'s rule (fills f's cell counts); weights only in scale mode when
// some cell lies between the thresholds.
GridMap occupancy_grid(const PixelImage& img, MapFrame& f);

// A ROS map (.yaml): name = the YAML's file name without extension, collection = its folder.
Map load_ros_map(const std::string& yaml_path, const OccupancyOptions& opt = {},
                 const base::FileSource& files = base::disk_files());
// A bare PNG or PGM: trinary, not negated, opt's thresholds.
Map load_image_map(const std::string& image_path, const OccupancyOptions& opt = {});

// Checks options and thresholds: each in [0, 1], free below occupied, wmax >= 1 (InputError
// prefixed by `where`).
void check_thresholds(double occupied, double free, const std::string& where);

}  // namespace navbench
