#include "datasets/generate_dynamic.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "datasets/generate.hpp"
#include "datasets/splitmix.hpp"
#include "base/text.hpp"

namespace navbench {
namespace {

// Patches are kept unique: a patch of the same size and cells is written once.
struct PatchBook {
  std::vector<Patch>& patches;
  std::map<std::pair<std::pair<int, int>, std::vector<std::uint8_t>>, int> index;
  int id(const Patch& p) {
    auto key = std::make_pair(std::make_pair(p.width, p.height), p.cells);
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    patches.push_back(p);
    return index[key] = int(patches.size() - 1);
  }
};

Patch cut(const GridMap& m, int x, int y, int w, int h) {
  Patch p{w, h, {}};
  p.cells.reserve(std::size_t(w) * std::size_t(h));
  for (int yy = y; yy < y + h; ++yy)
    for (int xx = x; xx < x + w; ++xx) p.cells.push_back(m.passable(xx, yy) ? 1 : 0);
  return p;
}

Patch filled(int w, int h, std::uint8_t v) { return Patch{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h), v)}; }

}  // namespace

void validate(const ChangeOptions& o) {
  if (o.kind != "doors" && o.kind != "blocks" && o.kind != "sweep")
    throw std::invalid_argument("unknown change kind '" + o.kind + "' (doors, blocks, sweep)");
  if (o.epochs < 1 || o.epochs > 100000) throw std::invalid_argument("--epochs must be in 1..100000");
  if (o.queries < 0 || o.queries > 100000) throw std::invalid_argument("--queries must be in 0..100000 (per epoch)");
  if (o.block < 1 || o.block > 1024) throw std::invalid_argument("--block must be in 1..1024");
  if (o.changes < 1 || o.changes > 100000) throw std::invalid_argument("--changes must be in 1..100000");
}

DynamicScenario make_change_scenario(const GridMap& base, const ChangeOptions& o, const std::string& name) {
  validate(o);
  DynamicScenario d;
  d.name = name;
  d.width = base.width;
  d.height = base.height;
  d.cost_names = {"octile"};
  d.octile = 0;
  d.patch_file = name + ".patch";
  PatchBook book{d.patches, {}};
  SplitMix rng{o.seed * 0x9e3779b97f4a7c15ULL + 17};
  GridMap cur;  // the map as it is after the commands so far (starts all free, docs/changing-maps.md)
  cur.width = base.width;
  cur.height = base.height;
  cur.cells.assign(base.cells.size(), 1);
  std::vector<CellChange> scratch;
  auto place = [&](long epoch, const Patch& p, int x, int y) {
    DynamicCommand c;
    c.kind = DynamicCommand::place;
    c.epoch = epoch;
    c.id = book.id(p);
    c.x = x;
    c.y = y;
    d.commands.push_back(c);
    scratch.clear();
    apply_patch(cur, p, x, y, scratch);
  };
  auto queries = [&](long epoch) {
    std::vector<std::pair<int, int>> free;
    for (int y = 0; y < cur.height; ++y)
      for (int x = 0; x < cur.width; ++x)
        if (cur.passable(x, y)) free.push_back({x, y});
    if (free.size() < 2) return;
    for (int q = 0, tries = 0; q < o.queries && tries < 50 * o.queries; ++tries) {
      auto [sx, sy] = free[rng.below(free.size())];
      auto [gx, gy] = free[rng.below(free.size())];
      if (sx == gx && sy == gy) continue;
      auto cost = octile_distance(cur, sx, sy, gx, gy);
      if (!cost) continue;  // connected pairs only (as make_scenario)
      DynamicCommand c;
      c.kind = DynamicCommand::query;
      c.epoch = epoch;
      c.sx = sx, c.sy = sy, c.gx = gx, c.gy = gy;
      c.costs = {*cost};
      c.cost_text = {base::fixed(*cost, 8)};
      d.commands.push_back(c);
      ++q;
    }
  };

  place(0, cut(base, 0, 0, base.width, base.height), 0, 0);  // patch 0: the base map
  queries(0);
  if (o.kind == "doors") {
    // Door cells: 1-cell gaps in straight walls of the base map.
    std::vector<std::pair<int, int>> doors;
    for (int y = 0; y < base.height; ++y)
      for (int x = 0; x < base.width; ++x) {
        if (!base.passable(x, y)) continue;
        const bool ew = !base.passable(x - 1, y) && !base.passable(x + 1, y) && base.passable(x, y - 1) && base.passable(x, y + 1);
        const bool ns = !base.passable(x, y - 1) && !base.passable(x, y + 1) && base.passable(x - 1, y) && base.passable(x + 1, y);
        if ((ew || ns) && x > 0 && y > 0 && x + 1 < base.width && y + 1 < base.height) doors.push_back({x, y});
      }
    if (doors.empty()) throw std::invalid_argument("doors: the map has no 1-cell gaps in straight walls (try blocks)");
    for (int e = 1; e <= o.epochs; ++e) {
      for (int k = 0; k < o.changes; ++k) {
        auto [x, y] = doors[rng.below(doors.size())];
        place(e, filled(1, 1, cur.passable(x, y) ? 0 : 1), x, y);  // toggle
      }
      queries(e);
    }
  } else if (o.kind == "blocks") {
    const int k = std::min({o.block, base.width, base.height});
    struct Placed {
      int x, y, until;
      Patch below;
    };
    std::vector<Placed> live;
    for (int e = 1; e <= o.epochs; ++e) {
      for (auto it = live.begin(); it != live.end();) {  // blocks whose time is up vanish
        if (it->until == e) {
          place(e, it->below, it->x, it->y);
          it = live.erase(it);
        } else {
          ++it;
        }
      }
      for (int c = 0; c < o.changes; ++c) {
        const int x = int(rng.below(std::uint64_t(base.width - k + 1))), y = int(rng.below(std::uint64_t(base.height - k + 1)));
        live.push_back({x, y, e + 3, cut(base, x, y, k, k)});
        place(e, filled(k, k, 0), x, y);
      }
      queries(e);
    }
  } else {  // sweep: a full-height wall with a 3-cell gap moves one step per epoch
    const int step = std::max(1, base.width / std::max(1, o.epochs));
    int prev = -1;
    for (int e = 1; e <= o.epochs; ++e) {
      const int x = ((e - 1) * step) % base.width;
      if (prev >= 0) place(e, cut(base, prev, 0, 1, base.height), prev, 0);  // restore the column it left
      Patch wall = filled(1, base.height, 0);
      const int gap = int(rng.below(std::uint64_t(std::max(1, base.height - 2))));
      for (int y = gap; y < std::min(base.height, gap + 3); ++y)
        wall.cells[std::size_t(y)] = base.passable(x, y) ? 1 : 0;
      place(e, wall, x, 0);
      prev = x;
      queries(e);
    }
  }
  return d;
}

void write_change_scenario(const std::string& dir, const std::string& name, const DynamicScenario& d) {
  std::filesystem::create_directories(dir.empty() ? "." : dir);
  const auto base = std::filesystem::path(dir.empty() ? "." : dir) / name;
  std::ofstream s(base.string() + ".scen", std::ios::binary), p(base.string() + ".patch", std::ios::binary);
  if (!s || !p) throw std::runtime_error(base.string() + ".scen/.patch: cannot write");
  write_dynamic_scenario(s, p, d);
  if (!s.flush() || !p.flush()) throw std::runtime_error(base.string() + ".scen/.patch: write failed");
}

}  // namespace navbench
