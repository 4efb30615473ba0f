// How a folder registers its planners (docs/adding-a-representation.md#3-the-declaration-and-the-registration,
// docs/adding-a-planner.md).
//
// A folder that registers holds a file registration.cpp with one Registration object at namespace
// scope, named after the folder, whose function adds the folder's entries:
//
//   namespace {
//   void add(navbench::Registrar& r) { r.add(navbench::make_entry<Tiles>("tiles", "...")); }
//   const navbench::Registration tiles("tiles", add);
//   }
//
// and its CMakeLists.txt one line, `navbench_register(tiles navbench_rep_tiles)`: the file becomes an
// object library that every program linking the planners links as objects (never dropped, as a
// static library's unreferenced member would be), and the object's construction, before main(),
// records the folder. The registry (harness/registry/registry.cpp) asks every recorded folder for
// its entries, in the order of the folders' names; it includes no representation's header, and no
// list names the folders. No Boost here: the entry's factories make Planners (search/planner.hpp).
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "geometry/map.hpp"
#include "representations/capabilities.hpp"
#include "representations/params.hpp"
#include "search/planner.hpp"

namespace navbench {

// One registered planner: its name, what it is, its factories and what it declares.
struct RepresentationEntry {
  std::string name;
  std::string description;
  // Builds from a map; throws std::invalid_argument on unknown/bad parameters, UnsupportedMap on
  // a map it cannot represent (BuildFailed: a build that died on a map it supports).
  std::function<std::unique_ptr<Planner>(const Map&, Params&)> build;
  // Capabilities::radius == tangent_graph: builds the exact structure for a disc of radius R > 1e-9.
  std::function<std::unique_ptr<Planner>(const Map&, double)> build_disc;
  Capabilities caps;                      // declared on the type (R::kCapabilities), checked by make_entry
  std::span<const ParamDecl> params;      // declared on the type (R::kParams): --rep keys, `navbench list`
  std::span<const ParamClash> clashes;    // given values that do not combine (R::kClashes)
  // Parameters of the variant that serves as the optimum's reference (caps.exact): the cheapest exact
  // one, declared on the type (R::kReferenceParams).
  std::string reference_params;
  std::span<const Floor> floors;          // the batteries' floors, declared on the type (R::kFloors)
  // A costly build (R::kOptIn): a sweep's "every" leaves it out (docs/command-line.md#sweep-config).
  bool opt_in = false;
  // A planner named only with parameters it cannot do without (a competition entry: path= and track=):
  // not listed by `navbench list`, nor built by the batteries or a sweep's "every"; found by name.
  bool listed = true;
  // Its own check of a `--rep NAME:...` text beyond the declared keys and ranges (an entry's program
  // is asked on a one-cell map), which returns the rows' name (`gppc:NAME`, never the program's
  // path); null: the declared check, and the text as given names the rows.
  std::function<std::string(const std::string& params)> own_check;
};

// What a folder's registration adds its entries to.
class Registrar {
 public:
  void add(RepresentationEntry e) { entries_.push_back(std::move(e)); }
  std::vector<RepresentationEntry>& entries() { return entries_; }

 private:
  std::vector<RepresentationEntry> entries_;
};

// One folder's registration (see above): records (folder, add) when constructed, before main().
class Registration {
 public:
  using Add = void (*)(Registrar&);
  Registration(const char* folder, Add add);
};

// Every recorded registration as (folder, add), sorted by folder: the registry's source.
std::vector<std::pair<std::string, Registration::Add>> registrations();

}  // namespace navbench
