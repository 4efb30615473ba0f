// What build.cpp, query.cpp and update.cpp of the roadmap share: the samples' rtree, the update's boxes.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include "representations/prm/prm.hpp"

namespace navbench {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using RoadmapPoint = bg::model::point<double, 2, bg::cs::cartesian>;
using RoadmapBox = bg::model::box<RoadmapPoint>;

// The samples in a Boost.Geometry rtree (R*-tree, bulk loaded), for the k nearest and the radius.
struct Roadmap::Index {
  using Value = std::pair<RoadmapPoint, Vertex>;
  bgi::rtree<Value, bgi::rstar<16>> tree;
};

// The candidate edges' bounding boxes in an rtree: which to test again when cells change (update.cpp).
// Here, not in update.cpp: the constructors and destructor (build.cpp) destroy update_, which needs
// the type complete; a unity batch hid that, build.cpp compiled alone (Debug, coverage) did not.
struct Roadmap::UpdateState {
  using Value = std::pair<RoadmapBox, std::uint32_t>;
  bgi::rtree<Value, bgi::rstar<16>> boxes;
  double total_work = 0;             // the build's segment tests: sum over candidates of |dx| + |dy| + 1
  std::vector<std::uint32_t> seen;   // per candidate: the last update that listed it (stamp)
  std::uint32_t stamp = 0;
};

}  // namespace navbench
