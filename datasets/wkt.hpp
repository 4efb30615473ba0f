// Polygon maps in WKT (docs/maps.md): one POLYGON or MULTIPOLYGON per line, read with Boost.Geometry's
// read_wkt. The first line is the walkable area (one polygon, may have holes); every further line
// adds obstacles (each polygon of a MULTIPOLYGON is one obstacle). Blank lines and lines starting
// with '#' are skipped. Malformed input throws InputError("file:line: reason").
#pragma once
#include <istream>
#include <ostream>
#include <string>

#include "base/error.hpp"
#include "geometry/map.hpp"

namespace navbench {

PolygonMap read_wkt_map(std::istream& in, const std::string& name_for_errors);
// name = file name without .wkt, collection = folder name, kind = polygon, min/max = bounding box
// of the walkable area.
Map load_wkt_map(const std::string& path);
// The Map of a polygon map read from `path` (a .wkt, a Polyanya .mesh or .poly): its name,
// collection, path and the bounding box of its walkable area.
Map polygon_map_of_file(const std::string& path, PolygonMap pm);
// Writes the map back in the same form (full double precision), readable by read_wkt_map.
void write_wkt_map(std::ostream& out, const PolygonMap& m);

}  // namespace navbench
