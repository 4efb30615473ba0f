// The registry of representations: name, description, factory, and the type's declaration (what it
// does, its parameters). A new representation is one folder under algorithms/representations/ plus
// one line in registry.cpp; `navbench list` prints the registry, the conformance battery
// (tests/test_conformance.cpp) runs on every entry and tests/test_registry.cpp holds each entry's
// parameter reads against its declaration.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "representations/capabilities.hpp"
#include "geometry/erosion.hpp"
#include "representations/params.hpp"
#include "search/planner.hpp"

namespace navbench {

// One registered representation: its name, what it is, its factories and what it can do.
struct RepresentationEntry {
  std::string name;
  std::string description;
  // Builds from a map; throws std::invalid_argument on unknown/bad parameters, UnsupportedMap on
  // a map it cannot represent.
  std::function<std::unique_ptr<Planner>(const Map&, Params&)> build;
  // Capabilities::radius == tangent_graph: builds the exact structure for a disc of radius R > 1e-9.
  std::function<std::unique_ptr<Planner>(const Map&, double)> build_disc;
  Capabilities caps;                      // declared on the type (R::kCapabilities), checked by make_entry
  std::span<const ParamDecl> params;      // declared on the type (R::kParams): --rep keys, `navbench list`
  std::span<const ParamClash> clashes;    // given values that do not combine (R::kClashes)
  // Parameters of the variant that serves as the optimum's reference (caps.exact): the cheapest exact one.
  std::string reference_params;
};

const std::vector<RepresentationEntry>& representations();
const RepresentationEntry* find_representation(const std::string& name);
// The first entry that is exact (caps.exact): the reference of the optimum; nullptr when none.
const RepresentationEntry* reference_representation();

// How a shrunk-map representation meets an agent of radius R > 1e-9 (`--rep NAME:erode=...`,
// docs/radius.md) is an Erosion (geometry/erosion.hpp): centre (default), cell or none.
// The harness's own parameter of every shrunk-map entry (caps.radius == shrunk_map), declared as
// the representations declare theirs; a choice whose index is the Erosion value.
inline constexpr ParamDecl kErodeParam{"erode", ParamType::choice, 0, 0, 2,
                                       "at R > 0: build on the cells whose centre keeps R, the cells clear as a whole, or the map itself",
                                       nullptr, "centre,cell,none"};

// One `--rep` value, parsed and checked once: "name" or "name:k=v,...".
struct RepresentationSpec {
  std::string text;                              // as given: the `representation` column
  const RepresentationEntry* entry = nullptr;    // never null once parsed
  std::string params;                            // the representation's own "k=v,..." (erode taken out) or ""
  std::optional<Erosion> erode;                    // erode=... when given: a typed field, not text
  // A sweep entry's own searches ({"name": N, "searches": [...]}, docs/command-line.md#sweep-config):
  // they replace the run's for this representation; empty: the run's.
  std::vector<SearchMode> searches;
  const std::string& name() const { return entry->name; }
  const Capabilities& caps() const { return entry->caps; }
  Erosion erosion() const { return erode.value_or(Erosion::centre); }
  // The build CSV's `params` (docs/results.md): the keys the build read, sorted, defaults included;
  // for a shrunk-map build at R > 0 (shrunk) led by erode=..., the way the build met the radius.
  std::string build_params(const Params& read, bool shrunk) const;
};
// `--rep` values (docs/command-line.md): "a,b,c" or "name:k=v,k=v". Unknown names, keys, values
// outside the declared type or range and declared clashes throw std::invalid_argument, checked
// against the entry's declaration (no build).
std::vector<RepresentationSpec> parse_rep_option(const std::string& value);
// True when a planner from outside (gppc:..., docs/outside-planners.md) is among them: the build
// rows then carry the column group `entry`.
bool any_outside_planner(const std::vector<RepresentationSpec>& reps);

}  // namespace navbench
