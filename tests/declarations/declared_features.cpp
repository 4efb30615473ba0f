// Compiled, never run, by tests/CMakeLists.txt (ctest -R Declaration): make_entry's per-model check
// (search/make_entry.hpp) against a representation whose declaration is right
// (NAVBENCH_DECLARATION unset: it must compile) or wrong in one way (it must fail to compile, with
// the check's own message, so the test cannot pass for another reason):
//   1  declares update_in_place, but update() has a typo in its signature (the changes by
//      non-const reference: not the HasUpdate signature), the defect that used to turn in-place
//      updates into rebuilds silently;
//   2  provides corridor() without declaring it;
//   3  reads a parameter it does not declare (a typo in the key: "link" for "links");
//   4  declares may_miss (it may miss a path that exists) without miss_reason(), the reason a
//      missed path's row carries;
//   5  declares update_deferred (an update may leave work owed to the queries) without
//      derive_owed(), with which a caller does that work at once (Planner::settle_owed()).
#include "search/make_entry.hpp"

#include "docs/example/tiles/tiles.hpp"

namespace navbench::declaration_test {

#ifndef NAVBENCH_DECLARATION
#define NAVBENCH_DECLARATION 0
#endif

// The docs' tile graph with an update() and, in case 2, a corridor().
class Updating : public example::Tiles {
 public:
  using Tiles::Tiles;
  static constexpr Capabilities kCapabilities{.grid_only = true, .point_vertices = true, .update_in_place = true,
                                              .update_deferred = NAVBENCH_DECLARATION >= 5, .segment_edges = true,
                                              .may_miss = NAVBENCH_DECLARATION == 4};
#if NAVBENCH_DECLARATION == 1
  bool update(const Map&, std::vector<CellChange>&) { return false; }  // the typo: a non-const reference
#else
  bool update(const Map&, const std::vector<CellChange>&) { return false; }
#endif
#if NAVBENCH_DECLARATION == 6
  void derive_owed() {}  // declared and provided: case 0's twin with owed work
#endif
#if NAVBENCH_DECLARATION == 2
  std::optional<Corridor> corridor(const Query&) const { return std::nullopt; }  // provided, not declared
#endif
#if NAVBENCH_DECLARATION == 3
  static int links(Params& p) { return p.integer(param(kParams, "link")); }  // declared is "links"
#else
  static int links(Params& p) { return p.integer(param(kParams, "links")); }
#endif
};

inline RepresentationEntry entry() { return make_entry<Updating>("updating", "the declaration test's representation"); }

}  // namespace navbench::declaration_test

int main() { return navbench::declaration_test::entry().caps.update_in_place ? 0 : 1; }
