// The one shared smoothing stage (docs/architecture.md#one-query): it runs after the search
// on the raw polyline of ANY representation.
//   none   — the raw path unchanged.
//   los    — string pulling with the exact validity test ("if A sees C, B is useless": the classic
//            A*-on-a-navmesh / Theta*-style post-smoothing). Works on any polyline, never lengthens
//            it, never turns a valid path invalid (it only shortcuts between existing points through
//            segments the exact test accepts).
//   funnel — the funnel algorithm (Lee & Preparata 1984; the string pulling of navmesh paths known
//            from M. Mononen's "simple stupid funnel", Recast/Detour), here in its linear deque
//            form, over the corridor of convex cells the path crosses: the shortest path inside
//            that corridor. Needs a corridor; without one: not_applicable.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "geometry/map.hpp"
#include "geometry/point.hpp"
#include "geometry/radius_validity.hpp"
#include "representations/representation.hpp"

namespace navbench {

enum class SmoothingStatus { ok, not_applicable };

struct SmoothingResult {
  SmoothingStatus status = SmoothingStatus::ok;
  Polyline path;
};

// visible(a, b): the exact validity test of one segment (FreeSpace::segment_valid).
// A non-owning callable reference (two words: object pointer + call thunk; one indirect call per
// test, which is noise next to the test's own grid walk / rtree query). The callable must outlive
// the VisibleFn — passing a lambda straight into smooth(...) is fine, storing a VisibleFn built from
// a temporary is not.
class VisibleFn {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, VisibleFn> &&
             !std::is_function_v<std::remove_reference_t<F>> &&
             std::is_invocable_r_v<bool, std::remove_reference_t<F>&, Point, Point>)
  VisibleFn(F&& f) noexcept  // NOLINT(google-explicit-constructor): meant to bind lambdas implicitly
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, Point a, Point b) -> bool {
          return (*static_cast<std::add_pointer_t<std::remove_reference_t<F>>>(o))(a, b);
        }) {}

  bool operator()(Point a, Point b) const { return call_(obj_, a, b); }

 private:
  void* obj_;
  bool (*call_)(void*, Point, Point);
};

enum class Smoothing { none, los, funnel };

struct SmootherInfo {
  std::string name, description;
  // Smooths through the corridor of convex cells the search's path crosses (funnel): only a search
  // that gives one feeds it (the shared A* on a representation declaring `corridor`); for every
  // other search or representation its rows are not_applicable by construction.
  bool needs_corridor = false;
};

// none, los, funnel — in this order (`navbench list` prints them).
const std::vector<SmootherInfo>& smoothers();

// Name -> mode. Throws std::invalid_argument("unknown smoothing 'x' (none, los, funnel)").
Smoothing parse_smoothing(const std::string& name);

// raw.front() is the start, raw.back() the goal. An empty or one-point raw path is returned as is.
// `corridor` is the ordered list of portals crossed from start to goal (nullopt: the representation
// has none, and funnel answers not_applicable).
// `weighted`: a weighted map (docs/terrain.md): los then keeps only shortcuts that do not raise the
// path's cost; funnel straightens for length as always.
SmoothingResult smooth(Smoothing mode, const Polyline& raw, const std::optional<Corridor>& corridor,
                       VisibleFn visible, const GridMap* weighted = nullptr);
SmoothingResult smooth(const std::string& name, const Polyline& raw, const std::optional<Corridor>& corridor,
                       VisibleFn visible, const GridMap* weighted = nullptr);

// The two algorithms on their own.
// los: greedy string pulling to a fixpoint (see smoothing.cpp for the search strategy).
Polyline los_smooth(const Polyline& raw, VisibleFn visible);
// los on a weighted map: a shortcut no dearer than the piece it replaces (geometry/path_cost.hpp).
Polyline los_smooth_costed(const Polyline& raw, VisibleFn visible, const GridMap& weighted);
// funnel: the shortest path from start to goal through the portals, start first, goal last.
// Portal sides are re-derived from the corridor's own geometry (the previous portal, or the start,
// lies before a portal; the next one, or the goal, after it), so either handedness convention of
// Portal{left,right} works, even mixed; the given labels are kept only for a portal on one line
// with both neighbours (a degenerate corridor).
Polyline funnel_path(Point start, Point goal, const Corridor& corridor);
// funnel for a disc of radius R > 0 (docs/radius.md, funnel_radius.cpp): the portal ends as circles of
// radius R, tangent segments joined by arcs; start first, goal last, arcs as `@` items.
std::vector<PathItem> funnel_path_radius(Point start, Point goal, const Corridor& corridor, double R);

}  // namespace navbench
