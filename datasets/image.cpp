#include "datasets/image.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <optional>

#include <boost/crc.hpp>

#include <stb_image.h>

#include "datasets/movingai.hpp"  // kMaxMapSide

namespace navbench {
using base::fail;

namespace {

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

bool pgm_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// A binary PGM's header as Netpbm defines it (netpbm.sourceforge.net/doc/pgm.html): "P5", then the
// width, height and maxval as decimal numbers separated by whitespace (a '#' comment runs to the
// end of its line), then exactly one whitespace character before the raster. Checked here, before
// stb_image sees the file: stb_image takes a maxval of 0 for an 8-bit image, reads every sample
// over 255 whatever the maxval, and overflows an int on a long number.
struct PgmHeader {
  long width = 0, height = 0, maxval = 0;
  std::size_t raster = 0;  // offset of the first sample
};

PgmHeader pgm_header(const std::string& bytes, const std::string& path) {
  PgmHeader h;
  std::size_t i = 2;
  const char* names[3] = {"width", "height", "maxval"};
  long* values[3] = {&h.width, &h.height, &h.maxval};
  for (int k = 0; k < 3; ++k) {
    const std::size_t before = i;
    for (;;) {  // whitespace and comments
      while (i < bytes.size() && pgm_space(bytes[i])) ++i;
      if (i >= bytes.size() || bytes[i] != '#') break;
      while (i < bytes.size() && bytes[i] != '\n' && bytes[i] != '\r') ++i;
    }
    if (i == before) fail(path, std::string("PGM header: no whitespace before the ") + names[k]);
    if (i >= bytes.size() || bytes[i] < '0' || bytes[i] > '9')
      fail(path, std::string("PGM header: the ") + names[k] + " is not a decimal number" + (i >= bytes.size() ? " (file ends)" : ""));
    long v = 0;
    for (; i < bytes.size() && bytes[i] >= '0' && bytes[i] <= '9'; ++i) v = std::min(v * 10 + (bytes[i] - '0'), 10'000'000L);
    *values[k] = v;
  }
  if (i >= bytes.size() || !pgm_space(bytes[i])) fail(path, "PGM header: no whitespace after the maxval");
  h.raster = i + 1;
  if (h.maxval < 1 || h.maxval > 65535)
    fail(path, "PGM maxval " + std::string(h.maxval >= 10'000'000L ? "above 65535" : std::to_string(h.maxval)) +
                   " outside 1..65535 (the PGM format's range)");
  return h;
}

// The checks of a PGM before it is decoded: its header, its size against kMaxMapSide, a raster of
// exactly W x H samples.
PgmHeader check_pgm(const std::string& bytes, const std::string& path) {
  const PgmHeader h = pgm_header(bytes, path);
  const std::string size = std::to_string(h.width) + " x " + std::to_string(h.height) + " pixels";
  if (h.width <= 0 || h.height <= 0) fail(path, "image of " + size + ": no cells");
  if (h.width > kMaxMapSide || h.height > kMaxMapSide) fail(path, "image of " + size + ": a side beyond " + std::to_string(kMaxMapSide));
  if (h.maxval > 255) fail(path, "16-bit PGM (maxval > 255) is not read: save it as 8-bit PGM or 16-bit PNG");
  const std::size_t count = std::size_t(h.width) * std::size_t(h.height), have = bytes.size() - h.raster;
  if (have < count) fail(path, "truncated PGM: fewer than " + size + " after the header");
  if (have > count) fail(path, "PGM holds " + std::to_string(have - count) + " bytes after its " + size + " (one image per file)");
  return h;
}

std::uint32_t big_endian(const std::string& b, std::size_t i) {
  return std::uint32_t(std::uint8_t(b[i])) << 24 | std::uint32_t(std::uint8_t(b[i + 1])) << 16 |
         std::uint32_t(std::uint8_t(b[i + 2])) << 8 | std::uint32_t(std::uint8_t(b[i + 3]));
}

// A PNG's chunks as the PNG specification (ISO/IEC 15948, 5.3) defines them, checked before
// stb_image decodes the file (it checks no CRC): each a length below 2^31, a type of four ASCII
// letters, the data and the CRC-32 of type and data; IHDR first and 13 bytes long; IEND last.
// Also refused: image data too short to hold the header's pixels even at deflate's largest
// compression ratio, 1032:1 (RFC 1951; zlib's technical notes) — stb_image would allocate the
// whole image before it finds out.
void check_png(const std::string& bytes, const std::string& path) {
  std::size_t i = 8;
  std::uint64_t idat = 0, raw = 0;
  for (bool first = true;; first = false) {
    if (bytes.size() - i < 12) fail(path, "truncated PNG: a chunk at byte " + std::to_string(i) + " runs past the end of the file (no IEND)");
    const std::uint32_t len = big_endian(bytes, i);
    const std::string type = bytes.substr(i + 4, 4);
    for (char c : type)
      if (!std::isalpha(static_cast<unsigned char>(c))) fail(path, "PNG chunk at byte " + std::to_string(i) + ": its type is not four letters");
    if (len > 0x7fffffffu || bytes.size() - i - 12 < len)
      fail(path, "truncated PNG: chunk " + type + " at byte " + std::to_string(i) + " runs past the end of the file");
    boost::crc_32_type crc;
    crc.process_bytes(bytes.data() + i + 4, std::size_t(len) + 4);
    if (crc.checksum() != big_endian(bytes, i + 8 + len))
      fail(path, "PNG chunk " + type + " at byte " + std::to_string(i) + ": CRC mismatch (the file is damaged)");
    if (first && (type != "IHDR" || len != 13)) fail(path, "PNG does not begin with its IHDR chunk (13 bytes)");
    if (first) {  // the image's least raw size: H rows of ceil(W x channels x depth / 8) bytes
      // (sides beyond kMaxMapSide and depths beyond 16 are refused later; capped here against overflow)
      const int channels[7] = {1, 0, 3, 1, 2, 0, 4};
      const std::uint64_t w = std::min<std::uint64_t>(big_endian(bytes, i + 8), kMaxMapSide);
      const std::uint64_t h = std::min<std::uint64_t>(big_endian(bytes, i + 12), kMaxMapSide);
      const std::uint64_t depth = std::min<std::uint64_t>(std::uint8_t(bytes[i + 16]), 16);
      const std::uint8_t colour = std::uint8_t(bytes[i + 17]);
      raw = w * std::uint64_t(colour < 7 ? channels[colour] : 0) * depth / 8 * h;
    }
    if (type == "IDAT") idat += len;
    i += 12 + std::size_t(len);
    if (type == "IEND") break;
  }
  if (raw > 1032 * idat + 1032)
    fail(path, "PNG's image data (" + std::to_string(idat) + " bytes compressed) cannot hold its pixels (at least " + std::to_string(raw) +
                   " bytes)");
}

}  // namespace

bool is_image_path(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".png" || ext == ".pgm";
}

PixelImage read_image(const std::string& path, const base::FileSource& files) {
  const std::optional<std::string> bytes = files.read(path);
  if (!bytes) fail(path, "cannot open image file");
  return decode_image(*bytes, path);
}

PixelImage decode_image(const std::string& bytes, const std::string& path) {
  if (bytes.empty()) fail(path, "empty file, not a PNG or PGM image");
  if (bytes.size() > std::size_t(1) << 31) fail(path, "image file beyond 2 GiB");
  static const char png_magic[8] = {char(0x89), 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const bool png = bytes.size() >= 8 && std::memcmp(bytes.data(), png_magic, 8) == 0;
  const bool pgm = bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '5';
  if (!png && !pgm) {
    if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '2') fail(path, "ASCII PGM (P2) is not read: save the image as binary PGM (P5) or PNG");
    fail(path, "not a PNG or binary PGM (P5) image");
  }
  PgmHeader header;
  if (pgm) header = check_pgm(bytes, path);
  else check_png(bytes, path);
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int len = int(bytes.size());
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(data, len, &w, &h, &comp))
    fail(path, std::string("cannot read image header (") + stbi_failure_reason() + ")");
  if (w <= 0 || h <= 0) fail(path, "image of " + std::to_string(w) + " x " + std::to_string(h) + " pixels: no cells");
  if (w > kMaxMapSide || h > kMaxMapSide)
    fail(path, "image of " + std::to_string(w) + " x " + std::to_string(h) + " pixels: a side beyond " + std::to_string(kMaxMapSide));
  const bool sixteen = stbi_is_16_bit_from_memory(data, len) != 0;

  PixelImage img;
  int x = 0, y = 0, n = 0;
  if (sixteen) {
    std::unique_ptr<stbi_us, StbFree> out(stbi_load_16_from_memory(data, len, &x, &y, &n, 0));
    if (!out) fail(path, std::string("cannot decode image (") + stbi_failure_reason() + ")");
    img.max = 65535;
    img.samples.assign(out.get(), out.get() + std::size_t(x) * std::size_t(y) * std::size_t(n));
  } else {
    std::unique_ptr<stbi_uc, StbFree> out(stbi_load_from_memory(data, len, &x, &y, &n, 0));
    if (!out) fail(path, std::string("cannot decode image (") + stbi_failure_reason() + ")");
    const std::size_t count = std::size_t(x) * std::size_t(y) * std::size_t(n);
    img.samples.assign(out.get(), out.get() + count);
  }
  if (pgm) {  // samples over the maxval (Netpbm: each is 0 through maxval)
    if (x != header.width || y != header.height || n != 1) fail(path, "PGM header read differently by stb_image");
    img.max = int(header.maxval);
    for (std::size_t k = 0; k < img.samples.size(); ++k)
      if (img.samples[k] > img.max)
        fail(path, "PGM sample " + std::to_string(img.samples[k]) + " at pixel (" + std::to_string(k % std::size_t(x)) + ", " +
                       std::to_string(k / std::size_t(x)) + ") above the maxval " + std::to_string(img.max));
  }
  img.width = x;
  img.height = y;
  img.channels = n;
  return img;
}

}  // namespace navbench
