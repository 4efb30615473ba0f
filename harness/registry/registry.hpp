// The registry of representations: name, description, factory. A new representation is one folder
// under algorithms/representations/ plus one line in registry.cpp; `navbench list` prints the
// registry and the conformance battery (tests/test_conformance.cpp) runs on every entry.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "representations/capabilities.hpp"
#include "representations/params.hpp"
#include "search/any_representation.hpp"

namespace navbench {

// One registered representation: its name, what it is, its factories and what it can do.
struct RepresentationEntry {
  std::string name;
  std::string description;
  // Builds from a map; throws std::invalid_argument on unknown/bad parameters, UnsupportedMap on
  // a map it cannot represent.
  std::function<std::unique_ptr<AnyRepresentation>(const Map&, Params&)> build;
  // Capabilities::radius == tangent_graph: builds the exact structure for a disc of radius R > 1e-9.
  std::function<std::unique_ptr<AnyRepresentation>(const Map&, double)> build_disc;
  Capabilities caps;
  // Parameters of the variant that serves as the optimum's reference (caps.exact): the cheapest exact one.
  std::string reference_params;
};

const std::vector<RepresentationEntry>& representations();
const RepresentationEntry* find_representation(const std::string& name);
// The first entry that is exact (caps.exact): the reference of the optimum; nullptr when none.
const RepresentationEntry* reference_representation();

// How a shrunk-map representation meets an agent of radius R > 1e-9 (`--rep NAME:erode=...`,
// docs/radius.md): centre (default) builds on the cells whose centre keeps clearance R, cell on
// the cells clear as a whole (Recast's conservative rounding, without snapping query points: a
// query point in a dropped cell is an error row, the price of that way), none on the map itself
// (the search ignores R; only the smoother and the validity test know it, TRA*-style).
enum class Erode { centre, cell, none };
const char* to_string(Erode e);

// One `--rep` value, parsed and checked once: "name" or "name:k=v,...".
struct RepresentationSpec {
  std::string text;                              // as given: the `representation` column
  const RepresentationEntry* entry = nullptr;    // never null once parsed
  std::string params;                            // the representation's own "k=v,..." (erode taken out) or ""
  std::optional<Erode> erode;                    // erode=... when given
  const std::string& name() const { return entry->name; }
  const Capabilities& caps() const { return entry->caps; }
  Erode erosion() const { return erode.value_or(Erode::centre); }
};
// `--rep` values (docs/command-line.md): "a,b,c" or "name:k=v,k=v". Unknown names, keys and
// values throw std::invalid_argument (checked by building on a one-cell map).
std::vector<RepresentationSpec> parse_rep_option(const std::string& value);

}  // namespace navbench
