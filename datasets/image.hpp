// Raster images as map files (docs/maps.md, SPEC §13): a PNG or a binary PGM (P5), decoded by
// stb_image (Debian libstb-dev), never by a parser of our own. Malformed input throws
// InputError("file: reason").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/files.hpp"

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
// RGB(A)) or a binary PGM (P5, 8 bits; max = its maxval). Refused with one line: any other format
// (ASCII PGM, PPM, JPEG, BMP ...), a 16-bit PGM (this stb_image reads its samples in the wrong byte
// order), a 0 x 0 image, a side beyond kMaxMapSide, a truncated file; what the formats forbid: a
// PGM maxval outside 1..65535, a PGM sample above its maxval, bytes after a PGM's raster, a PNG
// chunk whose CRC does not check, a PNG not opening with IHDR or without IEND, PNG image data
// too short for its pixels at deflate's largest ratio (1032:1).
PixelImage read_image(const std::string& path, const base::FileSource& files = base::disk_files());
// The same from the file's bytes (`path` names it in messages).
PixelImage decode_image(const std::string& bytes, const std::string& path);

// True when the file name ends in .png or .pgm (any case): an image given to --map.
bool is_image_path(const std::string& path);

}  // namespace navbench
