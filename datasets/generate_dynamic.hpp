// Seeded change scenarios (docs/changing-maps.md) for any grid map: the map as patch 0, then one update per
// epoch and queries between them whose octile costs come from the independent exact octile search
// of generate.hpp (so they can check the project's own search).
#pragma once
#include <cstdint>
#include <string>

#include "datasets/dynamic.hpp"
#include "geometry/map.hpp"

namespace navbench {

struct ChangeOptions {
  std::string kind = "blocks";  // doors | blocks | sweep
  int epochs = 20;              // updates after the base map
  int queries = 10;             // queries per map state (epoch 0 included)
  int block = 4;                // blocks: side k of the k x k blocks
  int changes = 4;              // blocks: blocks appearing per epoch (each vanishes 3 epochs later);
                                // doors: doors toggled per epoch
  std::uint64_t seed = 1;
};

// Throws std::invalid_argument (one line) for an unknown kind or an option out of range.
void validate(const ChangeOptions& o);

// doors: 1-cell gaps in straight walls (a free cell blocked on both sides along one axis and free
// on both sides along the other) open and close at random; blocks: k x k blocks of obstacles
// appear on free cells and vanish again (restoring the map below them); sweep: a full-height wall
// with a gap of three cells moves across the map from left to right, restoring what it covered.
// `name` is the scenario's base name (the patch file is NAME.patch).
DynamicScenario make_change_scenario(const GridMap& base, const ChangeOptions& o, const std::string& name);

// Writes DIR/NAME.scen and DIR/NAME.patch (creating DIR); std::runtime_error when it cannot.
void write_change_scenario(const std::string& dir, const std::string& name, const DynamicScenario& d);

}  // namespace navbench
