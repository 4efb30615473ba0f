// One representation of one served map: built as `navbench run` builds it, brought up to date
// after an edit of the map as `navbench run --dynamic` does (docs/changing-maps.md#updates), and
// drawn as the segments `navbench structure` writes.
#include <bit>
#include <cstring>

#include "base/text.hpp"
#include "harness/run/timed_build.hpp"
#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

namespace {

// The build row's size columns, read again after every change of the structure.
void record_stats(BuiltRep& b) { record_sizes(b.build, *b.rep); }

// A BuiltRep holding a timed build (harness/run/timed_build.hpp).
std::shared_ptr<BuiltRep> built_rep(const RepresentationSpec& spec, TimedBuild t) {
  auto b = std::make_shared<BuiltRep>();
  b->spec = spec;
  b->rep = std::move(t.rep);
  b->unsupported = std::move(t.unsupported);
  b->build = std::move(t.row);
  return b;
}

}  // namespace

std::shared_ptr<BuiltRep> build_rep(const Map& m, const RepresentationSpec& spec) { return built_rep(spec, build_timed(m, spec)); }

std::shared_ptr<BuiltRep> build_disc_rep(const AgentSpace& space, const RepresentationSpec& spec) {
  return built_rep(spec, build_timed(space, spec));
}

UpdateOutcome update_rep(BuiltRep& b, const Map& m, const std::vector<CellChange>& changed, bool weights_changed) {
  UpdateOutcome out;
  const auto t0 = base::Clock::now();
  // As harness/run/dynamic.cpp: update in place, or free the old build (untimed) and build afresh.
  // An update that may leave another structure than a fresh build's is not used here: every
  // answer equals `navbench run` on the edited map. New weights: only representations declaring
  // weights_in_place follow them in place (the grids point their graph at the map's weights); the
  // others' updates know cells only.
  out.in_place = !b.spec.caps().update_approximate && (!weights_changed || b.spec.caps().weights_in_place) &&
                 b.rep->update(m, changed);
  out.update_us = base::us_since(t0);  // the update, or the failed attempt
  if (out.in_place) {
    b.rep->prepare();  // the search's memory, untimed
  } else {
    b.rep.reset();
    try {
      TimedBuild fresh = build_timed(m, b.spec);  // timed without its prepare, as every build
      b.rep = std::move(fresh.rep);
      out.error = fresh.unsupported;
      out.update_us += fresh.row.build_ms * 1000.0;
    } catch (const std::exception& x) {
      out.error = base::printable(x.what());
    }
  }
  b.structure.reset();
  if (b.rep) {
    if (!out.in_place) b.build.build_ms = out.update_us / 1000.0;  // the row's build time: this build's
    record_stats(b);
  }
  return out;
}

std::string structure_bytes(const Planner& rep) {
  static_assert(std::endian::native == std::endian::little, "the page reads little-endian float32");
  std::string bytes;
  const Drawing* drawing = rep.facets().drawing;
  if (drawing) drawing->visit_structure([&bytes](const Segment& s) {
    const float v[4] = {float(s.a.x), float(s.a.y), float(s.b.x), float(s.b.y)};
    bytes.append(reinterpret_cast<const char*>(v), sizeof v);
  });
  return bytes;
}

}  // namespace navbench::viewer
