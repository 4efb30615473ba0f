#include "harness/run/timed_build.hpp"

#include <stdexcept>

#include "base/timing.hpp"

namespace navbench {
namespace {

// The build itself and its row: `make` builds (and throws UnsupportedMap where it cannot).
template <class Make>
TimedBuild timed(const Map& m, const RepresentationSpec& spec, Params& params, bool shrunk, Make&& make) {
  TimedBuild b;
  const auto t0 = base::Clock::now();
  try {
    b.rep = make();
  } catch (const UnsupportedMap& u) {
    b.unsupported = u.what();
    return b;
  }
  b.row.build_ms = base::ms_since(t0);
  b.rep->prepare();  // search memory, untimed (search/any_representation.hpp)
  b.row.map = m.name;
  b.row.representation = spec.text;
  b.row.params = spec.build_params(params, shrunk);  // erode=... first on a shrunk map's build
  record_sizes(b.row, *b.rep);
  return b;
}

}  // namespace

void record_sizes(BuildRow& b, const AnyRepresentation& rep) {
  const BuildStats st = rep.stats();
  b.vertices = st.vertices;
  b.edges = st.edges;
  b.memory_bytes = st.memory_bytes;
}

TimedBuild build_timed(const Map& m, const RepresentationSpec& spec) {
  Params params = Params::parse(spec.params);
  return timed(m, spec, params, false, [&] { return spec.entry->build(m, params); });
}

TimedBuild build_timed(const AgentSpace& space, const RepresentationSpec& spec) {
  const RepresentationEntry& e = *spec.entry;
  Params params = Params::parse(spec.params);
  if (!space.disc()) {
    TimedBuild b = timed(space.map(), spec, params, false, [&] { return e.build(space.map(), params); });
    b.row.radius = space.agent().column();
    return b;
  }
  // A build per (map, representation, R): the exact disc structure where the entry has one, else
  // a build on the map shrunk by R (geometry/erosion.hpp) or, with erode=none, on the map itself.
  const bool exact_disc = e.caps.radius == RadiusSupport::tangent_graph;
  if (exact_disc && (!params.empty() || spec.erode))
    throw std::invalid_argument(spec.name() + " at R > 0 (the tangent graph) takes no parameters, got '" + spec.text + "'");
  TimedBuild b = timed(space.map(), spec, params, !exact_disc, [&] {
    return exact_disc ? e.build_disc(space.map(), space.R()) : e.build(space.build_map(spec.erosion()), params);
  });
  b.row.radius = space.agent().column();
  return b;
}

}  // namespace navbench
