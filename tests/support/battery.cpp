#include "support/battery.hpp"

#include <cctype>

#include "harness/registry/registry.hpp"

namespace navbench {
void PrintTo(const RepresentationEntry& e, std::ostream* os) { *os << e.name; }
}  // namespace navbench

namespace testbattery {

using navbench::RepresentationEntry;

namespace {

std::vector<RepresentationEntry> make_entries() {
  // Every listed entry the program links: the test programs link the docs' example folder
  // (docs/example/tiles, added at configure time by tests/CMakeLists.txt) beside the real ones.
  std::vector<RepresentationEntry> out = navbench::representations();
  // Registered representations with parameters that change their structure.
  // ("subgoal" itself is the all-pairs table on these small maps, levels=16 on large ones.)
  for (const char* spec : {"subgoal:levels=1", "subgoal:levels=2", "subgoal:levels=16", "subgoal:ch=1", "subgoal:labels=1", "navmesh-tiles:tile=3",
                           "navmesh-tiles:tile=5,merge=1", "navmesh:merge=1", "quadtree:merge=0", "quadtree:aspect=4",
                           "grid8:lattice=corner", "grid4:lattice=corner", "visgraph:labels=1",
                           // recast keeps no region under 64 voxels by default: on these small maps every
                           // query would be a missed path, so the batteries also run it keeping them all
                           "recast:min_region=0,max_error=0", "recast:min_region=0,partition=monotone,tile=4"}) {
    const std::string text = spec, name = text.substr(0, text.find(':')), params = text.substr(text.find(':') + 1);
    if (const RepresentationEntry* e = navbench::find_representation(name)) {
      RepresentationEntry v = *e;
      v.name = text;
      // The corner lattice (SPEC §11) declares less than its type: corner moves pass beside blocked
      // cells (not grid8-optimal), and it takes no weights and no update in place (it refuses a
      // weighted map; its update() declines, so the harness rebuilds it).
      if (text.find("lattice=corner") != std::string::npos) {
        v.caps.grid8_optimal = false;
        v.caps.weights = v.caps.weights_in_place = false;
        v.caps.update_in_place = false;
      }
      // The hub labels rest on Euclidean corner distances: refused on weighted maps.
      if (text.find("labels=1") != std::string::npos) v.caps.weights = v.caps.weights_in_place = false;
      v.build = [e, params](const navbench::Map& m, navbench::Params&) {
        navbench::Params p = navbench::Params::parse(params);
        return e->build(m, p);
      };
      out.push_back(v);
    }
  }
  // Erosion variants for a disc agent (docs/radius.md): at R = 0 they are the plain representation.
  for (const char* spec : {"navmesh:erode=none", "navmesh:erode=cell", "quadtree:erode=none"}) {
    const std::string text = spec, base = text.substr(0, text.find(':'));
    if (const RepresentationEntry* e = navbench::find_representation(base)) {
      RepresentationEntry v = *e;
      v.name = text;
      out.push_back(v);
    }
  }
  return out;
}

}  // namespace

const std::vector<RepresentationEntry>& entries() {
  static const std::vector<RepresentationEntry> all = make_entries();
  return all;
}

std::vector<RepresentationEntry> declaring(const std::string& capability,
                                           const std::function<bool(const navbench::Capabilities&)>& declares) {
  std::vector<RepresentationEntry> out;
  for (const RepresentationEntry& e : entries())
    if (declares(e.caps)) out.push_back(e);
  if (out.empty()) {
    RepresentationEntry none;
    none.name = "none_declares_" + capability;
    out.push_back(none);
  }
  return out;
}

void check_entry(const RepresentationEntry& e) {
  ASSERT_TRUE(bool(e.build)) << "no entry declares the battery's capability (" << e.name << "): the battery would run no case";
}

std::string test_name(const ::testing::TestParamInfo<RepresentationEntry>& i) {
  std::string s = i.param.name;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace testbattery
