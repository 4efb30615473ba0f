// One representation of one served map: built as `navbench run` builds it, brought up to date
// after an edit of the map as `navbench run --dynamic` does (docs/changing-maps.md#updates), and
// drawn as the segments `navbench structure` writes.
#include <bit>
#include <cstring>

#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

namespace {

// The build row's size columns, read again after every change of the structure.
void record_stats(BuiltRep& b) {
  const BuildStats st = b.rep->stats();
  b.build.vertices = st.vertices;
  b.build.edges = st.edges;
  b.build.memory_bytes = st.memory_bytes;
}

}  // namespace

std::shared_ptr<BuiltRep> build_rep(const Map& m, const RepresentationSpec& spec) {
  auto b = std::make_shared<BuiltRep>();
  b->spec = spec;
  Params params = Params::parse(spec.params);
  const auto t0 = Clock::now();
  try {
    b->rep = spec.entry->build(m, params);
  } catch (const UnsupportedMap& u) {
    b->unsupported = u.what();
    return b;
  }
  // The build row as `navbench run` writes it (run_unit).
  b->build.build_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  b->rep->prepare();  // the search's memory, untimed (search/any_representation.hpp)
  b->build.map = m.name;
  b->build.representation = spec.text;
  b->build.params = params.canonical();
  record_stats(*b);
  return b;
}

std::shared_ptr<BuiltRep> build_disc_rep(PreparedMap& pm, const RepresentationSpec& spec) {
  auto b = std::make_shared<BuiltRep>();
  b->spec = spec;
  Params params = Params::parse(spec.params);
  const auto t0 = Clock::now();
  try {
    b->rep = build_for_agent(pm, spec, params);  // as `navbench run --radius R` (run_unit)
  } catch (const UnsupportedMap& u) {
    b->unsupported = u.what();
    return b;
  }
  b->build.build_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  b->rep->prepare();
  b->build.map = pm.map.name;
  b->build.representation = spec.text;
  b->build.params = spec.build_params(params, true);
  b->build.radius = pm.R();
  record_stats(*b);
  return b;
}


UpdateOutcome update_rep(BuiltRep& b, const Map& m, const std::vector<CellChange>& changed, bool weights_changed) {
  UpdateOutcome out;
  auto t0 = Clock::now();
  // As harness/run/dynamic.cpp: update in place, or free the old build (untimed) and build afresh.
  // An update that may leave another structure than a fresh build's is not used here: every
  // answer equals `navbench run` on the edited map. New weights: only representations declaring
  // weights_in_place follow them in place (the grids point their graph at the map's weights); the
  // others' updates know cells only.
  out.in_place = !b.rep->update_is_approximate() && (!weights_changed || b.spec.caps().weights_in_place) &&
                 b.rep->update(m, changed);
  if (!out.in_place) {
    out.update_us = us_since(t0);
    b.rep.reset();
    t0 = Clock::now();
    try {
      Params params = Params::parse(b.spec.params);
      b.rep = b.spec.entry->build(m, params);
    } catch (const std::exception& x) {
      out.error = x.what();
    }
  }
  out.update_us += us_since(t0);
  if (b.rep) b.rep->prepare();
  b.structure.reset();
  if (b.rep) {
    if (!out.in_place) b.build.build_ms = out.update_us / 1000.0;  // the row's build time: this build's
    record_stats(b);
  }
  return out;
}

std::string structure_bytes(AnyRepresentation& rep) {
  static_assert(std::endian::native == std::endian::little, "the page reads little-endian float32");
  const auto segs = rep.structure();
  std::string bytes(segs.size() * 4 * sizeof(float), '\0');
  char* out = bytes.data();
  for (const auto& s : segs) {
    const float v[4] = {float(s.a.x), float(s.a.y), float(s.b.x), float(s.b.y)};
    std::memcpy(out, v, sizeof v);
    out += sizeof v;
  }
  return bytes;
}

}  // namespace navbench::viewer
