// What build.cpp, query.cpp and update.cpp of the roadmap share: the samples' rtree.
#pragma once
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

}  // namespace navbench
