// libFuzzer target: a binary PGM (datasets/image.hpp) as `navbench run --map FILE.pgm` reads it:
// decoded, then made a grid by the trinary rule. The contract: an 8-bit grey image whose samples
// stay within its maxval (1..255) and a consistent grid, or InputError naming the file.
#include <cstdint>
#include <string>

#include "datasets/ros_map.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes = fuzz::text(data, size);
  try {
    const PixelImage img = decode_image(bytes, "fuzz.pgm");
    const bool pgm = bytes.starts_with("P5");
    require(img.width >= 1 && img.height >= 1 && img.channels >= 1 && img.channels <= 4, "an image has pixels and 1..4 channels");
    require(img.samples.size() == std::size_t(img.width) * std::size_t(img.height) * std::size_t(img.channels), "one sample per channel and pixel");
    require(!pgm || (img.channels == 1 && img.max >= 1 && img.max <= 255), "a PGM is 8-bit grey with its maxval");
    for (auto v : img.samples) require(v <= img.max, "samples within the maxval");
    MapFrame f;
    const GridMap g = occupancy_grid(img, f);
    fuzz::check_grid(g);
    require(f.free_cells + f.occupied_cells + f.unknown_cells == long(g.cells.size()), "every pixel read once");
  } catch (const base::InputError& e) {
    fuzz::one_line(e.what(), "fuzz.pgm");
  }
  return 0;
}
