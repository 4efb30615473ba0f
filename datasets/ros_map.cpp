#include "datasets/ros_map.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "base/text.hpp"

namespace fs = std::filesystem;

namespace navbench {
using base::fail;

namespace {

// Every YAML value quoted in a message goes through base::printable: a plain scalar can hold line
// breaks (blank lines inside it fold into '\n'), and an error is one line (found by fuzz_rosmap).
[[noreturn]] void fail_at(const std::string& file, const YAML::Node& n, const std::string& why) {
  throw base::InputError(file + ":" + std::to_string(n.Mark().line + 1) + ": " + why);
}

// A scalar field as T, or a one-line error naming the field and its line.
template <typename T>
T scalar(const std::string& file, const YAML::Node& doc, const char* key) {
  const YAML::Node n = doc[key];
  if (!n.IsScalar()) fail_at(file, n, std::string("'") + key + "' must be a single value");
  try {
    return n.as<T>();
  } catch (const YAML::Exception&) {
    fail_at(file, n, std::string("'") + key + "': cannot read '" + base::printable(n.Scalar()) + "' as a number");
  }
}

double finite_number(const std::string& file, const YAML::Node& doc, const char* key) {
  const double v = scalar<double>(file, doc, key);
  if (!std::isfinite(v)) fail_at(file, doc[key], std::string("'") + key + "' is not a finite number");
  return v;
}

// The image path as map_server resolves it (relative to the YAML's folder), checked: a string
// without control characters, naming an existing regular file, and a relative one staying inside
// the YAML's folder (a map and its image travel together).
std::string image_path(const std::string& file, const YAML::Node& doc, const base::FileSource& files) {
  if (!doc["image"]) fail(file, "no 'image' field (the map's image file)");
  const YAML::Node n = doc["image"];
  if (!n.IsScalar()) fail_at(file, n, "'image' must be a file name");
  const std::string image = n.Scalar();
  if (image.empty()) fail_at(file, n, "'image' is empty");
  for (unsigned char c : image)
    if (c < 0x20 || c == 0x7f) fail_at(file, n, "'image' holds a control character");
  if (image.find("://") != std::string::npos) fail_at(file, n, "'image' is a URL ('" + image + "'), not a file name");
  const fs::path rel(image);
  if (rel.is_relative())
    for (const auto& part : rel)
      if (part == "..") fail_at(file, n, "'image' leaves the YAML file's folder ('" + image + "'); give an absolute path");
  const fs::path full = rel.is_absolute() ? rel : fs::path(file).parent_path() / rel;
  const base::FileSource::Kind kind = files.kind(full.string());
  if (kind == base::FileSource::Kind::missing) fail_at(file, n, "image '" + full.string() + "' does not exist");
  if (kind != base::FileSource::Kind::regular) fail_at(file, n, "image '" + full.string() + "' is not a regular file");
  return full.string();
}

void origin(const std::string& file, const YAML::Node& doc, MapFrame& f) {
  if (!doc["origin"]) fail(file, "no 'origin' field ([x, y, yaw] of the lower-left pixel, metres)");
  const YAML::Node n = doc["origin"];
  if (!n.IsSequence() || (n.size() != 3 && n.size() != 2)) fail_at(file, n, "'origin' must be [x, y, yaw]");
  double v[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n.size(); ++i) {
    try {
      v[i] = n[i].as<double>();
    } catch (const YAML::Exception&) {
      fail_at(file, n, "'origin' holds '" + (n[i].IsScalar() ? base::printable(n[i].Scalar()) : std::string("?")) + "', not a number");
    }
    if (!std::isfinite(v[i])) fail_at(file, n, "'origin' holds a number that is not finite");
  }
  f.origin_x = v[0], f.origin_y = v[1], f.yaw = v[2];
}

}  // namespace

void check_thresholds(double occupied, double free, const std::string& where) {
  if (!(occupied >= 0 && occupied <= 1)) throw base::InputError(where + "occupied_thresh " + base::number(occupied) + " outside [0, 1]");
  if (!(free >= 0 && free <= 1)) throw base::InputError(where + "free_thresh " + base::number(free) + " outside [0, 1]");
  if (!(free < occupied))
    throw base::InputError(where + "free_thresh " + base::number(free) + " is not below occupied_thresh " + base::number(occupied));
}

MapFrame read_ros_yaml(const std::string& file, const base::FileSource& files) {
  const std::optional<std::string> text = files.read(file);
  if (!text) fail(file, "cannot open YAML file");
  YAML::Node doc;
  try {
    doc = YAML::Load(*text);
  } catch (const YAML::Exception& e) {
    throw base::InputError(file + ":" + std::to_string(e.mark.line + 1) + ": bad YAML: " + base::printable(e.msg));
  }
  if (!doc.IsMap()) fail(file, "not a map_server YAML file (expected fields image, resolution, origin, ...)");
  MapFrame f;
  f.image = image_path(file, doc, files);
  if (!doc["resolution"]) fail(file, "no 'resolution' field (metres per pixel)");
  f.resolution = finite_number(file, doc, "resolution");
  if (f.resolution <= 0)
    fail_at(file, doc["resolution"], "'resolution' must be positive, got " + base::printable(doc["resolution"].Scalar()));
  origin(file, doc, f);
  // map_server's defaults (ROS 1 map_server's occupied 0.65 and free 0.196; mode trinary, negate 0).
  if (doc["occupied_thresh"]) f.occupied_thresh = finite_number(file, doc, "occupied_thresh");
  if (doc["free_thresh"]) f.free_thresh = finite_number(file, doc, "free_thresh");
  try {
    check_thresholds(f.occupied_thresh, f.free_thresh, "");
  } catch (const base::InputError& e) {
    fail_at(file, doc["free_thresh"] ? doc["free_thresh"] : doc["occupied_thresh"], e.what());
  }
  if (doc["negate"]) {
    const YAML::Node n = doc["negate"];
    const std::string s = n.IsScalar() ? n.Scalar() : "";
    if (s == "0" || s == "false" || s == "False") f.negate = false;
    else if (s == "1" || s == "true" || s == "True") f.negate = true;
    else fail_at(file, n, "'negate' must be 0 or 1, got '" + base::printable(s) + "'");
  }
  if (doc["mode"]) {
    const YAML::Node n = doc["mode"];
    f.mode = n.IsScalar() ? n.Scalar() : "";
    if (f.mode != "trinary" && f.mode != "scale" && f.mode != "raw")
      fail_at(file, n, "'mode' must be trinary, scale or raw, got '" + base::printable(f.mode) + "'");
  }
  return f;
}

PixelReading read_pixel(const PixelImage& img, int x, int y, const MapFrame& f) {
  // map_io.cpp: the mean of the colour channels (and, in trinary mode, of the alpha channel as one
  // more) over the largest sample, then p = 1 - shade or, negated, shade.
  const int colours = img.colour_channels();
  const bool alpha = img.has_alpha();
  double sum = 0;
  int n = 0;
  for (int c = 0; c < colours; ++c, ++n) sum += img.at(x, y, c);
  if (colours == 1) sum *= 3, n = 3;  // a grey image's pixel is (g, g, g)
  if (alpha && f.mode == "trinary") sum += img.at(x, y, img.channels - 1), ++n;
  const double shade = sum / n / img.max;
  if (f.mode == "raw") {
    const double v = std::round((colours == 1 ? img.at(x, y, 0) : (sum / n)) * 255.0 / img.max);
    if (v > 100) return {CellReading::unknown, v / 100};
    const double p = v / 100;
    if (p > f.occupied_thresh) return {CellReading::occupied, p};
    if (p < f.free_thresh) return {CellReading::free, p};
    return {CellReading::unknown, p};
  }
  const double p = f.negate ? shade : 1.0 - shade;
  if (f.mode == "scale" && alpha && img.at(x, y, img.channels - 1) != img.max) return {CellReading::unknown, p};
  if (f.occupied_thresh < p) return {CellReading::occupied, p};
  if (p < f.free_thresh) return {CellReading::free, p};
  return {f.mode == "scale" ? CellReading::between : CellReading::unknown, p};
}

GridMap occupancy_grid(const PixelImage& img, MapFrame& f) {
  GridMap g;
  g.width = img.width;
  g.height = img.height;
  const std::size_t cells = std::size_t(g.width) * std::size_t(g.height);
  g.cells.assign(cells, 0);
  std::vector<double> w(cells, 1.0);
  f.free_cells = f.occupied_cells = f.unknown_cells = f.between_cells = 0;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      const PixelReading r = read_pixel(img, x, y, f);
      const std::size_t i = std::size_t(y) * std::size_t(g.width) + std::size_t(x);
      switch (r.reading) {
        case CellReading::free: ++f.free_cells, g.cells[i] = 1; break;
        case CellReading::occupied: ++f.occupied_cells; break;
        case CellReading::unknown: ++f.unknown_cells, g.cells[i] = f.unknown_free ? 1 : 0; break;
        case CellReading::between:
          ++f.between_cells;
          g.cells[i] = 1;
          w[i] = 1 + (f.wmax - 1) * (r.p - f.free_thresh) / (f.occupied_thresh - f.free_thresh);
          break;
      }
    }
  if (f.between_cells > 0) g.weights = std::move(w);
  return g;
}

namespace {

Map occupancy_map(const std::string& path, MapFrame f, const OccupancyOptions& opt, const base::FileSource& files) {
  if (!(opt.wmax >= 1) || !std::isfinite(opt.wmax)) fail(path, "wmax must be a number >= 1");
  f.unknown_free = opt.unknown_free;
  f.wmax = opt.wmax;
  const PixelImage img = read_image(f.image, files);
  Map m = make_grid_map(occupancy_grid(img, f), fs::path(path).stem().string(), fs::path(path).parent_path().filename().string());
  m.path = path;
  if (m.grid.weighted()) {  // the column `terrain` (docs/terrain.md): where the weights came from
    char buf[64];
    std::snprintf(buf, sizeof buf, " scale wmax=%g", f.wmax);
    m.terrain = fs::path(path).filename().string() + buf;
  }
  m.frame = std::move(f);
  return m;
}

}  // namespace

Map load_ros_map(const std::string& yaml_path, const OccupancyOptions& opt, const base::FileSource& files) {
  return occupancy_map(yaml_path, read_ros_yaml(yaml_path, files), opt, files);
}

Map load_image_map(const std::string& image_path, const OccupancyOptions& opt) {
  check_thresholds(opt.occupied_thresh, opt.free_thresh, image_path + ": ");
  MapFrame f;
  f.image = image_path;
  f.occupied_thresh = opt.occupied_thresh;
  f.free_thresh = opt.free_thresh;
  return occupancy_map(image_path, f, opt, base::disk_files());
}

}  // namespace navbench
