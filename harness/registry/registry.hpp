// The registry of planners: every entry the folders register (search/registration.hpp: a folder's
// registration.cpp and one line in its CMakeLists.txt), with its name, description, factories and the
// type's declaration (what it does, its parameters, its reference variant, its battery floors). It
// includes no representation's header and names none: `navbench list` prints it, the conformance
// battery (tests/test_conformance.cpp) runs on every listed entry and tests/test_registry.cpp holds
// each entry's parameter reads against its declaration.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "geometry/erosion.hpp"
#include "representations/capabilities.hpp"
#include "representations/params.hpp"
#include "search/planner.hpp"
#include "search/registration.hpp"

namespace navbench {

// The listed entries (RepresentationEntry::listed), in the order of their folders' names and, in a
// folder, of its registration.
const std::vector<RepresentationEntry>& representations();
// The names of every registered entry, the listed and the named-only ones, in the registry's order.
std::vector<std::string> registered_names();
// Any registered entry by its name, the listed and the named-only ones (a competition entry); nullptr when none.
const RepresentationEntry* find_representation(const std::string& name);
// The reference of the optimum: the entry that declares reference parameters (R::kReferenceParams),
// else the first exact entry that is not opt-in; nullptr when none.
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
// True when a planner from outside (capability outside: gppc:..., docs/outside-planners.md) is among
// them: the build rows then carry the column group `entry`.
bool any_outside_planner(const std::vector<RepresentationSpec>& reps);
// Whether a `--rep` text ("name", "a,b", "name:k=v,...") names a planner from outside (its entry
// declares outside); unknown names are not (parse_rep_option says why).
bool names_outside_planner(const std::string& text);

}  // namespace navbench
