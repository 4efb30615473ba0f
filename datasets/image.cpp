#include "datasets/image.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include <stb_image.h>

#include "datasets/movingai.hpp"  // kMaxMapSide

namespace navbench {
using base::fail;

namespace {

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open image file");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(path, "cannot read image file");
  return bytes;
}

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

}  // namespace

bool is_image_path(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".png" || ext == ".pgm";
}

PixelImage read_image(const std::string& path) {
  const std::vector<unsigned char> bytes = read_bytes(path);
  if (bytes.empty()) fail(path, "empty file, not a PNG or PGM image");
  if (bytes.size() > std::size_t(1) << 31) fail(path, "image file beyond 2 GiB");
  static const unsigned char png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const bool png = bytes.size() >= 8 && std::memcmp(bytes.data(), png_magic, 8) == 0;
  const bool pgm = bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '5';
  if (!png && !pgm) {
    if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '2') fail(path, "ASCII PGM (P2) is not read: save the image as binary PGM (P5) or PNG");
    fail(path, "not a PNG or binary PGM (P5) image");
  }
  const int len = int(bytes.size());
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &comp))
    fail(path, std::string("cannot read image header (") + stbi_failure_reason() + ")");
  if (w <= 0 || h <= 0) fail(path, "image of " + std::to_string(w) + " x " + std::to_string(h) + " pixels: no cells");
  if (w > kMaxMapSide || h > kMaxMapSide)
    fail(path, "image of " + std::to_string(w) + " x " + std::to_string(h) + " pixels: a side beyond " + std::to_string(kMaxMapSide));
  const bool sixteen = stbi_is_16_bit_from_memory(bytes.data(), len) != 0;
  if (pgm && sixteen) fail(path, "16-bit PGM (maxval > 255) is not read: save it as 8-bit PGM or 16-bit PNG");

  PixelImage img;
  int x = 0, y = 0, n = 0;
  if (sixteen) {
    std::unique_ptr<stbi_us, StbFree> data(stbi_load_16_from_memory(bytes.data(), len, &x, &y, &n, 0));
    if (!data) fail(path, std::string("cannot decode image (") + stbi_failure_reason() + ")");
    img.max = 65535;
    img.samples.assign(data.get(), data.get() + std::size_t(x) * std::size_t(y) * std::size_t(n));
  } else {
    std::unique_ptr<stbi_uc, StbFree> data(stbi_load_from_memory(bytes.data(), len, &x, &y, &n, 0));
    if (!data) fail(path, std::string("cannot decode image (") + stbi_failure_reason() + ")");
    const std::size_t count = std::size_t(x) * std::size_t(y) * std::size_t(n);
    // stb_image's PGM reader does not notice a file that ends before its pixels do (it leaves the
    // rest of its buffer as it was): a complete P5 file ends with exactly its W x H samples.
    if (pgm && (bytes.size() < count + 7 || std::memcmp(bytes.data() + bytes.size() - count, data.get(), count) != 0))
      fail(path, "truncated PGM: fewer than " + std::to_string(x) + " x " + std::to_string(y) + " pixels after the header");
    img.samples.assign(data.get(), data.get() + count);
  }
  img.width = x;
  img.height = y;
  img.channels = n;
  return img;
}

}  // namespace navbench
