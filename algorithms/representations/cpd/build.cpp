// cpd's build (cpd.hpp): grid8's moves, the node order, and the first-move table, read from the
// cache folder when a file there holds it, else built (and written there).
#include "representations/cpd/cpd.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "representations/cpd/cache.hpp"

namespace navbench {

static_assert(Representation<CompressedPathDatabase>);

namespace {

// 1234567 -> "1,234,567": the build's note and its refusal read like the tables of the docs.
std::string grouped(std::size_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

std::string megabytes(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / 1e6);
  return buf;
}

// grid8 on the map: cpd's cells, moves, attachment and direct link. A polygon or weighted map is
// refused first, in cpd's name.
Grid8 grid8_of(const Map& map) {
  if (map.kind != MapKind::grid) throw UnsupportedMap("cpd needs a grid map");
  if (map.weighted()) throw UnsupportedMap("cpd needs an unweighted grid map (its table holds octile costs)");
  Params none;
  return Grid8(map, none);
}

}  // namespace

CompressedPathDatabase::Settings CompressedPathDatabase::read(Params& params) {
  Settings s;
  s.threads = unsigned(params.integer(param(kParams, "threads")));
  s.order = cpd::Order(params.choice(param(kParams, "order")));
  s.max_cells = std::size_t(params.integer(param(kParams, "max_cells")));
  // cache: read only when named, so that a build without it records no such key in its params.
  if (params.given(param(kParams, "cache"))) s.cache = params.text(param(kParams, "cache"));
  s.piece = std::size_t(params.integer(param(kParams, "piece")));
  params.finish("cpd");
  if (!s.cache.empty() && !std::filesystem::is_directory(s.cache))
    throw std::invalid_argument("cpd: cache=" + s.cache + " is not an existing folder");
  return s;
}

CompressedPathDatabase::CompressedPathDatabase(const Map& map, Params& params) : CompressedPathDatabase(map, read(params)) {}

CompressedPathDatabase::CompressedPathDatabase(const Map& map, const Settings& s) : grid_(grid8_of(map)), piece_(s.piece) {
  // The size cap comes first, before any memory is taken: the build's work grows with the square
  // of the free cells (one Dijkstra over the map per free cell), and so does the table.
  const std::size_t free = std::size_t(std::count(map.grid.cells.begin(), map.grid.cells.end(), std::uint8_t(1)));
  if (free > s.max_cells)
    throw DeclaredCap("cpd: " + grouped(free) + " free cells, above max_cells=" + grouped(s.max_cells) +
                      " (one Dijkstra per free cell; raise max_cells)");
  make_table(map, s);
}

void CompressedPathDatabase::make_table(const Map& map, const Settings& s) {
  order_ = cpd::make_order(map.grid, graph(), s.order);
  std::string where;  // the note's end: where the table came from
  std::filesystem::path file;
  if (!s.cache.empty()) {
    const cpd::CacheKey key = cpd::cache_key(map.grid, order_, s.order);
    file = cpd::cache_file(s.cache, key);
    std::string why;
    if (std::optional<cpd::FirstMoveTable> t = cpd::read_cache(file, key, why)) {
      table_ = std::move(*t);
      from_cache_ = true;
      where = "read from " + file.string();
    } else if (why != "missing") {
      // A file of this name that does not hold this table is ignored, and replaced below.
      std::cerr << "navbench: cpd: ignoring " << file.string() << ": " << why << "; building the table\n";
    }
  }
  if (!from_cache_) {
    table_ = cpd::FirstMoveTable(graph(), order_, s.threads);
    where = "built on " + std::to_string(s.threads) + (s.threads == 1 ? " thread" : " threads");
    if (!file.empty()) {
      try {
        cpd::write_cache(file, cpd::cache_key(map.grid, order_, s.order), table_);
        where += ", written to " + file.string();
      } catch (const std::runtime_error& e) {  // the table stands; only the next build misses it
        where += ", not cached: " + std::string(e.what());
      }
    }
  }
  // One line per build: the table's size against the uncompressed table's (docs/cpd.md).
  const std::size_t n = order_.size();
  char share[32];
  std::snprintf(share, sizeof share, "%.3g %%", n ? 100.0 * double(table_.memory_bytes()) / double(uncompressed_bytes()) : 0.0);
  std::cerr << "navbench: cpd on " << (map.name.empty() ? std::string("the map") : map.name) << ": " << grouped(n)
            << " free cells, " << grouped(table_.runs()) << " runs (" << megabytes(table_.memory_bytes()) << ", " << share
            << " of the uncompressed " << megabytes(uncompressed_bytes()) << "), " << where << '\n';
}

BuildStats CompressedPathDatabase::stats() const {
  BuildStats s = grid_.stats();  // the free cells and grid8's moves
  s.memory_bytes += table_.memory_bytes() + order_.memory_bytes();
  return s;
}

}  // namespace navbench
