// Raster images as map files (docs/maps.md, SPEC §13): a PNG or a binary PGM (P5), decoded by
// stb_image (Debian libstb-dev), never by a parser of our own. Malformed input throws
// InputError("file: reason").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace navbench {

// The samples of an image as its file holds them: `channels` per pixel (1 grey, 2 grey + alpha,
// 3 RGB, 4 RGBA), each 0..max (255, or 65535 for a 16-bit PNG), row-major from the top row.
struct PixelImage {
  int width = 0, height = 0, channels = 1;
  int max = 255;
  std::vector<std::uint16_t> samples;

  bool has_alpha() const { return channels == 2 || channels == 4; }
  int colour_channels() const { return channels <= 2 ? 1 : 3; }
  // Sample c of pixel (x, y).
  std::uint16_t at(int x, int y, int c) const {
    return samples[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * std::size_t(channels) + std::size_t(c)];
  }
};

// Reads a PNG (1 to 16 bits, grey, grey + alpha, RGB, RGBA or palette; palette images come out as
// RGB(A)) or a binary PGM (P5, 8 bits). Refused with one line: any other format (ASCII PGM,
// PPM, JPEG, BMP ...), a 16-bit PGM (this stb_image reads its samples in the wrong byte order),
// a 0 x 0 image, a side beyond kMaxMapSide, a truncated file.
PixelImage read_image(const std::string& path);

// True when the file name ends in .png or .pgm (any case): an image given to --map.
bool is_image_path(const std::string& path);

}  // namespace navbench
