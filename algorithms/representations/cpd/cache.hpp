// The first-move table in a file (cpd's `cache=DIR`, docs/cpd.md#the-cache-file): a table is built
// once per map content, node order and format, then read back by every later build, by any process.
// The file is named by its key and written atomically (a temporary file in the same folder,
// fsync'd, renamed over the name), so a reader in another sweep worker sees a whole file or none.
// A file that does not hold the key's table (another map, order or format version; truncated;
// corrupt) is never used: the reader says why in one line and the build makes the table afresh.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "representations/cpd/table.hpp"

namespace navbench::cpd {

// Bumped whenever the file layout, the node orders or the encoding of a row change.
inline constexpr std::uint32_t kFormatVersion = 1;

// What a file must match: the map's content, the node order (by name and by the order itself)
// and the free cells; the format version is checked beside it.
struct CacheKey {
  std::uint32_t width = 0, height = 0;
  std::uint64_t map_hash = 0;    // of the width, height and the cells (free or blocked)
  Order order = Order::hilbert;
  std::uint64_t order_hash = 0;  // of the ranks' cells: the order the rows are encoded over
  std::uint64_t cells = 0;       // free cells: the table's rows
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
};
CacheKey cache_key(const GridMap& map, const NodeOrder& order, Order o);

// DIR/cpd-v<version>-<order>-<map hash, 16 hex digits>.bin
std::filesystem::path cache_file(const std::filesystem::path& dir, const CacheKey& key);

// The table in `file` when it holds key's table whole; otherwise nullopt, with `why` one line
// saying why not ("missing" when there is no such file).
std::optional<FirstMoveTable> read_cache(const std::filesystem::path& file, const CacheKey& key, std::string& why);

// Writes the table to `file` atomically. Throws std::runtime_error (one line) when it cannot.
void write_cache(const std::filesystem::path& file, const CacheKey& key, const FirstMoveTable& table);

}  // namespace navbench::cpd
