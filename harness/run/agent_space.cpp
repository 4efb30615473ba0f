#include "harness/run/agent_space.hpp"

#include "geometry/erosion.hpp"

namespace navbench {

AgentSpace::AgentSpace(const Map& m, const Agent& agent, bool squeeze) : agent_(agent), free_(m, squeeze) {
  if (!agent_.disc()) return;
  const double R = agent_.R();
  rv_ = std::make_unique<RadiusValidity>(free_);
  if (m.kind == MapKind::grid) {  // built here, once: sweep units share this space across threads
    eroded_ = std::make_unique<Map>(m);
    eroded_->grid = erode_grid(m.grid, *rv_->clearance(), R, Erosion::centre);
    eroded_cell_ = std::make_unique<Map>(m);
    eroded_cell_->grid = erode_grid(m.grid, *rv_->clearance(), R, Erosion::cell);
  } else {  // polygon maps: the free space shrunk by R (centre: holds every clear point; cell: inside)
    eroded_ = std::make_unique<Map>(erode_polygon_map(m, R, Erosion::centre));
    eroded_cell_ = std::make_unique<Map>(erode_polygon_map(m, R, Erosion::cell));
  }
}

AgentSpace::~AgentSpace() = default;

std::string AgentSpace::invalid_query_message(Point start, Point goal) const {
  const Map& m = map();
  auto outside = [&](Point p) { return !(p.x >= m.min.x && p.y >= m.min.y && p.x <= m.max.x && p.y <= m.max.y); };
  if (outside(start)) return "start outside the map";
  if (outside(goal)) return "goal outside the map";
  if (!disc()) return free_.point_free(start) ? "goal not free" : "start not free";
  return point_ok(start) ? "goal lacks clearance R" : "start lacks clearance R";
}

const Map& AgentSpace::build_map(Erosion erode) const {
  if (!eroded_ || erode == Erosion::none) return map();
  return erode == Erosion::cell ? *eroded_cell_ : *eroded_;
}

}  // namespace navbench
