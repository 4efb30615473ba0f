// The cache file of the first-move table (cache.hpp). Layout (version 1, the machine's byte order,
// checked by a marker):
//   a header of 72 bytes: "NAVBCPD" and a zero byte, the version, the order (0 hilbert, 1 dfs, 2 rows), the
//   width, the height (4 bytes each), the map's hash, the order's hash, the free cells (rows), the
//   runs, the payload's checksum (8 bytes each), the byte-order marker 0x01020304 and 4 zero bytes;
//   then the rows' starts (rows + 1 numbers of 8 bytes) and the runs (4 bytes each, table.hpp's entries).
#include "representations/cpd/cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

namespace navbench::cpd {

namespace fs = std::filesystem;

namespace {

struct FileHeader {
  char magic[8];
  std::uint32_t version, order, width, height;
  std::uint64_t map_hash, order_hash, cells, runs, checksum;
  std::uint32_t byte_order, zero;
};
static_assert(sizeof(FileHeader) == 72, "the header is 72 bytes on disk");
constexpr char kMagic[8] = {'N', 'A', 'V', 'B', 'C', 'P', 'D', '\0'};
constexpr std::uint32_t kByteOrder = 0x01020304u;

// FNV-1a (Fowler, Noll, Vo) over 8-byte words: the key's hashes and the payload's checksum.
constexpr std::uint64_t kFnvBasis = 1469598103934665603ULL, kFnvPrime = 1099511628211ULL;
std::uint64_t fnv_words(std::uint64_t h, const void* data, std::size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (; bytes >= 8; bytes -= 8, p += 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kFnvPrime;
  }
  for (; bytes; --bytes, ++p) h = (h ^ *p) * kFnvPrime;
  return h;
}

std::uint64_t payload_checksum(const FirstMoveTable& t) {
  std::uint64_t h = fnv_words(kFnvBasis, t.row_begin().data(), t.row_begin().size() * sizeof(std::uint64_t));
  return fnv_words(h, t.entries().data(), t.entries().size() * sizeof(FirstMoveTable::Entry));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Why rows and runs read from a file are not a table: each row starts at rank 0, its runs start at
// increasing ranks below the row count, every move is one of the eight; "" when they are one.
std::string check_rows(const std::vector<std::uint64_t>& begin, const std::vector<FirstMoveTable::Entry>& runs) {
  const std::uint64_t n = begin.size() - 1;
  if (begin[0] != 0 || begin[n] != runs.size()) return "row starts do not cover the runs";
  for (std::uint64_t s = 0; s < n; ++s) {
    if (begin[s + 1] <= begin[s]) return "row " + std::to_string(s) + " is empty";
    if ((runs[begin[s]] >> FirstMoveTable::kMoveBits) != 0) return "row " + std::to_string(s) + " does not start at rank 0";
    for (std::uint64_t i = begin[s]; i < begin[s + 1]; ++i) {
      const std::uint32_t first = runs[i] >> FirstMoveTable::kMoveBits, move = runs[i] & ((1u << FirstMoveTable::kMoveBits) - 1);
      if (move >= 8 || first >= n || (i > begin[s] && first <= (runs[i - 1] >> FirstMoveTable::kMoveBits)))
        return "row " + std::to_string(s) + " holds a run out of order";
    }
  }
  return "";
}

}  // namespace

CacheKey cache_key(const GridMap& map, const NodeOrder& order, Order o) {
  CacheKey k;
  k.width = std::uint32_t(map.width);
  k.height = std::uint32_t(map.height);
  const std::uint64_t size[2] = {k.width, k.height};
  k.map_hash = fnv_words(fnv_words(kFnvBasis, size, sizeof size), map.cells.data(), map.cells.size());
  k.order = o;
  k.order_hash = fnv_words(kFnvBasis, order.cell_of.data(), order.cell_of.size() * sizeof(std::uint32_t));
  k.cells = order.size();
  return k;
}

fs::path cache_file(const fs::path& dir, const CacheKey& key) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(key.map_hash));
  return dir / ("cpd-v" + std::to_string(kFormatVersion) + "-" + to_string(key.order) + "-" + hash + ".bin");
}

std::optional<FirstMoveTable> read_cache(const fs::path& file, const CacheKey& key, std::string& why) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return why = "missing", std::nullopt;
  const std::uintmax_t bytes = fs::file_size(file, ec);
  File f(std::fopen(file.c_str(), "rb"));
  if (ec || !f) return why = "cannot be read", std::nullopt;
  FileHeader h;
  if (bytes < sizeof h || std::fread(&h, sizeof h, 1, f.get()) != 1)
    return why = "truncated (" + std::to_string(bytes) + " bytes, less than its header)", std::nullopt;
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return why = "not a cpd table", std::nullopt;
  if (h.byte_order != kByteOrder) return why = "written on a machine of another byte order", std::nullopt;
  if (h.version != kFormatVersion)
    return why = "format version " + std::to_string(h.version) + ", this navbench reads version " + std::to_string(kFormatVersion),
           std::nullopt;
  if (h.width != key.width || h.height != key.height || h.map_hash != key.map_hash || h.cells != key.cells)
    return why = "another map's table", std::nullopt;
  if (h.order != std::uint32_t(key.order) || h.order_hash != key.order_hash)
    return why = "encoded over another node order", std::nullopt;
  // The sizes are checked against the file's before anything is allocated: a damaged count never
  // asks for more memory than the file holds.
  if (h.runs > bytes) return why = "corrupt (" + std::to_string(h.runs) + " runs in " + std::to_string(bytes) + " bytes)", std::nullopt;
  const std::uintmax_t expect = sizeof h + (h.cells + 1) * sizeof(std::uint64_t) + h.runs * sizeof(FirstMoveTable::Entry);
  if (bytes != expect)
    return why = "truncated or padded (" + std::to_string(bytes) + " bytes, its header says " + std::to_string(expect) + ")",
           std::nullopt;
  std::vector<std::uint64_t> begin(h.cells + 1);
  std::vector<FirstMoveTable::Entry> runs(h.runs);
  if (std::fread(begin.data(), sizeof(std::uint64_t), begin.size(), f.get()) != begin.size() ||
      std::fread(runs.data(), sizeof(FirstMoveTable::Entry), runs.size(), f.get()) != runs.size())
    return why = "cannot be read whole", std::nullopt;
  FirstMoveTable t(std::move(begin), std::move(runs));
  if (payload_checksum(t) != h.checksum) return why = "corrupt (checksum differs)", std::nullopt;
  if (const std::string bad = check_rows(t.row_begin(), t.entries()); !bad.empty()) return why = "corrupt (" + bad + ")", std::nullopt;
  return t;
}

void write_cache(const fs::path& file, const CacheKey& key, const FirstMoveTable& table) {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kFormatVersion;
  h.order = std::uint32_t(key.order);
  h.width = key.width;
  h.height = key.height;
  h.map_hash = key.map_hash;
  h.order_hash = key.order_hash;
  h.cells = key.cells;
  h.runs = table.runs();
  h.checksum = payload_checksum(table);
  h.byte_order = kByteOrder;
  // A temporary name no other writer uses: the process and a counter (base::write_atomic's pid
  // alone is not enough, as a sweep's workers are threads of one process and may build the same
  // map's table at once), in the file's folder so that the rename replaces the name at once.
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  {
    File f(std::fopen(tmp.c_str(), "wb"));
    if (!f) throw std::runtime_error(tmp.string() + ": cannot write");
    const auto& begin = table.row_begin();
    const auto& runs = table.entries();
    const bool ok = std::fwrite(&h, sizeof h, 1, f.get()) == 1 &&
                    std::fwrite(begin.data(), sizeof(std::uint64_t), begin.size(), f.get()) == begin.size() &&
                    std::fwrite(runs.data(), sizeof(FirstMoveTable::Entry), runs.size(), f.get()) == runs.size() &&
                    std::fflush(f.get()) == 0 && ::fsync(fileno(f.get())) == 0;
    if (!ok) {
      f.reset();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error(tmp.string() + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(file.string() + ": cannot be put in place");
  }
}

}  // namespace navbench::cpd
