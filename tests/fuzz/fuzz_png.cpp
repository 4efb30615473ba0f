// libFuzzer target: a PNG (datasets/image.hpp) as `navbench run --map FILE.png` reads it. Each
// input is read as given (its chunks' CRCs must check) and again with every CRC recomputed, so
// that a mutation inside a chunk also reaches stb_image's decoder. The contract: an image whose
// samples stay within its maximum (255, or 65535 at 16 bits) and a consistent grid, or InputError
// naming the file.
#include <cstdint>
#include <string>

#include <boost/crc.hpp>

#include "datasets/ros_map.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

namespace {

std::uint32_t big_endian(const std::string& b, std::size_t i) {
  return std::uint32_t(std::uint8_t(b[i])) << 24 | std::uint32_t(std::uint8_t(b[i + 1])) << 16 | std::uint32_t(std::uint8_t(b[i + 2])) << 8 |
         std::uint32_t(std::uint8_t(b[i + 3]));
}

// The bytes with the CRC of every whole chunk after the signature set to the CRC of its type and data.
std::string with_crcs_fixed(std::string b) {
  for (std::size_t i = 8; b.size() >= i + 12;) {
    const std::uint64_t len = big_endian(b, i);
    if (b.size() - i - 12 < len) break;
    boost::crc_32_type crc;
    crc.process_bytes(b.data() + i + 4, std::size_t(len) + 4);
    const std::uint32_t c = crc.checksum();
    for (int k = 0; k < 4; ++k) b[i + 8 + len + std::size_t(k)] = char(c >> (24 - 8 * k));
    i += 12 + std::size_t(len);
  }
  return b;
}

void read(const std::string& bytes) {
  try {
    const PixelImage img = decode_image(bytes, "fuzz.png");
    require(img.width >= 1 && img.height >= 1 && img.channels >= 1 && img.channels <= 4, "an image has pixels and 1..4 channels");
    require(img.samples.size() == std::size_t(img.width) * std::size_t(img.height) * std::size_t(img.channels), "one sample per channel and pixel");
    // (the reader takes a PGM too, whatever the name: its maximum is its maxval, 1..255)
    require(img.max == 255 || img.max == 65535 || (bytes.starts_with("P5") && img.max >= 1 && img.max < 255), "8 or 16 bits");
    for (auto v : img.samples) require(v <= img.max, "samples within the maximum");
    for (const char* mode : {"trinary", "scale", "raw"}) {
      MapFrame f;
      f.mode = mode;
      const GridMap g = occupancy_grid(img, f);
      fuzz::check_grid(g);
      require(f.free_cells + f.occupied_cells + f.unknown_cells + f.between_cells == long(g.cells.size()), "every pixel read once");
    }
  } catch (const base::InputError& e) {
    fuzz::one_line(e.what(), "fuzz.png");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes = fuzz::text(data, size);
  read(bytes);
  if (const std::string fixed = with_crcs_fixed(bytes); fixed != bytes) read(fixed);
  return 0;
}
