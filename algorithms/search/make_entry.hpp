// The registration of a representation type (its folder's registration.cpp, search/registration.hpp):
// make_entry<R> binds the type R to the one shared A* through its graph planner
// (search/graph_planner.hpp), so only the registration files compile the search for their types.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "search/graph_planner.hpp"
#include "search/registration.hpp"

namespace navbench {

// A representation declares what it does once, on its type (static constexpr Capabilities
// kCapabilities); parameters (kParams) and clashes (kClashes) when it has any.
template <class R>
concept DeclaresCapabilities = requires {
  { R::kCapabilities } -> std::convertible_to<Capabilities>;
};

template <class R>
constexpr std::span<const ParamDecl> declared_params() {
  if constexpr (requires { R::kParams; }) return R::kParams;
  else return {};
}
template <class R>
constexpr std::span<const ParamClash> declared_clashes() {
  if constexpr (requires { R::kClashes; }) return R::kClashes;
  else return {};
}
// The batteries' floors (kFloors, capabilities.hpp's Floor), the reference variant's parameters
// (kReferenceParams) and a costly build (kOptIn), when the type declares them.
template <class R>
constexpr std::span<const Floor> declared_floors() {
  if constexpr (requires { R::kFloors; }) return R::kFloors;
  else return {};
}
template <class R>
std::string declared_reference() {
  if constexpr (requires { R::kReferenceParams; }) return R::kReferenceParams;
  else return {};
}
template <class R>
constexpr bool declared_opt_in() {
  if constexpr (requires { R::kOptIn; }) return R::kOptIn;
  else return false;
}

// The per-model check (Boost.Graph's concept checks are the model: grid_graph.hpp declares its
// models, test/grid_graph_cc.cpp asserts each): what R declares is what R provides. A feature the
// harness finds by a member's signature must be declared exactly when the member is there, so a
// typo in update()'s signature is a compile error here, not a silent rebuild; the promises that no
// signature shows are held to each other. Disc is the exact disc structure (void: none).
template <class R, class Disc>
constexpr bool declaration_holds() {
  constexpr Capabilities c = R::kCapabilities;
  static_assert(c.corridor == HasCorridor<R>,
                "declared corridor and corridor(const Query&) -> std::optional<Corridor> differ");
  static_assert(c.update_in_place == HasUpdate<R>,
                "declared update_in_place and update(const Map&, const std::vector<CellChange>&) -> bool differ");
  static_assert(c.table_search == HasTableSearch<R>,
                "declared table_search and table_search(Query&, std::size_t&) -> std::optional<double> differ");
  static_assert(c.own_search == HasOwnSearch<R>,
                "declared own_search and own_search(Point, Point) -> OwnAnswer differ");
  static_assert(c.pieces == HasPieces<R>,
                "declared pieces and first_piece(Query&, Polyline&), next_piece(Query&, Polyline&) -> bool differ");
  static_assert(c.may_miss == HasMissReason<R>,
                "declared may_miss and miss_reason(const Query&) -> std::string differ");
  static_assert(!c.update_approximate || c.update_in_place, "declared update_approximate without update_in_place");
  static_assert(!c.update_deferred || c.update_in_place, "declared update_deferred without update_in_place");
  static_assert(c.update_deferred == HasOwedWork<R>, "declared update_deferred and derive_owed() differ");
  static_assert(!c.weights_in_place || (c.weights && c.update_in_place),
                "declared weights_in_place without weights and update_in_place");
  static_assert(!c.segment_edges || c.point_vertices, "declared segment_edges without point_vertices");
  static_assert(!c.grid8_optimal || c.grid_only, "declared grid8_optimal without grid_only");
  static_assert((c.radius == RadiusSupport::tangent_graph) == !std::is_void_v<Disc>,
                "declared radius = tangent_graph and a disc structure given to make_entry differ");
  static_assert(declared_floors<R>().empty() || c.may_miss, "declared floors without may_miss (every path must be found)");
  static_assert(!requires { R::kReferenceParams; } || c.exact, "declared reference parameters without exact");
  return true;
}

// The registry entry of one representation type: its declaration, checked, and its factories. Disc,
// when given, meets a radius with the exact structure Disc(map, R) (declared radius = tangent_graph).
template <Representation R, class Disc = void>
  requires std::constructible_from<R, const Map&, Params&> && DeclaresCapabilities<R>
RepresentationEntry make_entry(std::string name, std::string description) {
  static_assert(declaration_holds<R, Disc>());
  RepresentationEntry e{std::move(name), std::move(description),
                        [](const Map& m, Params& p) { return make_planner<R>(m, p); },
                        nullptr, R::kCapabilities, declared_params<R>(), declared_clashes<R>(), declared_reference<R>(),
                        declared_floors<R>(), declared_opt_in<R>()};
  if constexpr (!std::is_void_v<Disc>) {
    static_assert(Representation<Disc> && std::constructible_from<Disc, const Map&, double>);
    e.build_disc = [](const Map& m, double r) { return make_planner<Disc>(m, r); };
  }
  return e;
}

}  // namespace navbench
