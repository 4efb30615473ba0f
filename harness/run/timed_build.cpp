#include "harness/run/timed_build.hpp"

#include <sstream>
#include <stdexcept>

#include "base/timing.hpp"
#include "search/outside_planner.hpp"

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
    b.failed = dynamic_cast<const BuildFailed*>(&u) != nullptr;
    b.capped = dynamic_cast<const DeclaredCap*>(&u) != nullptr;
    return b;
  }
  b.row.build_ms = base::ms_since(t0);
  b.rep->prepare();  // search memory, untimed (search/any_representation.hpp)
  b.row.map = m.name;
  b.row.representation = spec.text;
  b.row.params = spec.build_params(params, shrunk);  // erode=... first on a shrunk map's build
  record_sizes(b.row, *b.rep);
  // The representation's own squeeze rule (SPEC §11; written only under --pinch allow).
  b.row.pinch = b.row.params.find("pinch=allow") != std::string::npos ? "allow" : "forbid";
  return b;
}

}  // namespace

void record_sizes(BuildRow& b, const AnyRepresentation& rep) {
  const BuildStats st = rep.stats();
  b.vertices = st.vertices;
  b.edges = st.edges;
  b.memory_bytes = st.memory_bytes;
  record_outside(b, rep);
}

void record_outside(BuildRow& b, const AnyRepresentation& rep) {
  if (const auto o = rep.outside_build()) {
    b.preprocess_ms = o->preprocess_ms;
    b.prepare_ms = o->prepare_ms;
    b.stored_bytes = o->stored_bytes;
    b.peak_rss_bytes = o->peak_rss_bytes;
  }
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
  if (e.caps.radius == RadiusSupport::own_erosion) {
    // Its own erosion (recast: Recast's walkableRadius) on the map itself, told R by its parameter.
    constexpr ParamDecl radius{"radius", ParamType::real, 0, 0, 1e6, "the agent radius"};
    if (params.given(radius)) throw std::invalid_argument(spec.text + ": radius= and --radius both given; --radius sets it");
    std::ostringstream r;
    r.precision(17);
    r << space.R();
    params = Params::parse(spec.params + (spec.params.empty() ? "" : ",") + "radius=" + r.str());
    TimedBuild b = timed(space.map(), spec, params, false, [&] { return e.build(space.map(), params); });
    b.row.radius = space.agent().column();
    return b;
  }
  TimedBuild b = timed(space.map(), spec, params, !exact_disc, [&] {
    return exact_disc ? e.build_disc(space.map(), space.R()) : e.build(space.build_map(spec.erosion()), params);
  });
  b.row.radius = space.agent().column();
  return b;
}

}  // namespace navbench
