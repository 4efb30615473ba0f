// The registry line of a representation (registry.cpp): make_entry<R> binds the type R to the one
// shared A* through search/adapter.hpp, so only the files that register representations compile
// the search for every representation type.
#pragma once
#include <memory>
#include <string>
#include <utility>

#include "harness/registry/registry.hpp"
#include "search/adapter.hpp"

namespace navbench {

// The registry line of one representation: what the type shows (corridor, update) is read off it,
// what it promises (grid-only, optimal, radius support) is declared by the caller.
template <Representation R>
  requires std::constructible_from<R, const Map&, Params&>
RepresentationEntry make_entry(std::string name, std::string description, Capabilities caps = {}) {
  caps.corridor = HasCorridor<R>;
  caps.update_in_place = HasUpdate<R>;
  caps.update_approximate = HasApproximateUpdate<R>;
  caps.segment_edges = HasSegmentEdges<R>;
  RepresentationEntry e{std::move(name), std::move(description),
                        [](const Map& m, Params& p) -> std::unique_ptr<AnyRepresentation> { return std::make_unique<Adapter<R>>(m, p); },
                        nullptr, caps, ""};
  return e;
}

// The same entry meeting a radius with the exact structure D, built as D(map, R).
template <Representation D>
  requires std::constructible_from<D, const Map&, double>
RepresentationEntry with_disc(RepresentationEntry e) {
  e.caps.radius = RadiusSupport::tangent_graph;
  e.build_disc = [](const Map& m, double R) -> std::unique_ptr<AnyRepresentation> { return std::make_unique<Adapter<D>>(m, R); };
  return e;
}

}  // namespace navbench
