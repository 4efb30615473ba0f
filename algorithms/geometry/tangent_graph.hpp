// The exact shortest path of a disc of radius R > 0 (docs/radius.md `optimal`): the tangent graph.
//
// The disc's centre moves in the complement of the obstacles grown by R, whose boundary consists of
// the obstacle edges offset by R and arcs of radius R around convex obstacle corners. A shortest
// path there is a chain of segments tangent to those circles joined by arcs of them (Chew 1985,
// "Planning the shortest path for a disc in O(n^2 log n) time"; the tangent graph of Liu & Arimoto
// 1992, "Path planning using a tangent graph for mobile robots among polygonal and curved
// obstacles"). Vertices are tangent points on the corner circles, edges the common tangents that
// keep clearance R and the arcs between consecutive tangent points along a circle; start and goal
// join by their tangents at query time, and a Dijkstra (A*, Euclidean heuristic) gives the length,
// exact up to the rounding of a few floating-point operations per edge: arcs are measured as arcs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geometry/free_space.hpp"
#include "geometry/point.hpp"
#include "geometry/radius_validity.hpp"

namespace navbench {

// A disc path: its exact length and its docs/radius.md items (points, `@cx cy` arc centres between the
// two ends of an arc; every arc here turns by less than 180 degrees).
struct DiscPath {
  double length = 0;
  std::vector<PathItem> items;
};

enum class DiscQueryStatus { ok, no_path, invalid_query };

class TangentGraph {
 public:
  // Builds the graph for radius R > 0 (throws std::invalid_argument otherwise). Keeps references to
  // fs and rv (built on the same free space): both must outlive this.
  TangentGraph(const FreeSpace& fs, const RadiusValidity& rv, double R);

  // The shortest path of the disc from s to g, or nullopt: `invalid_query` when the disc at s or g
  // is not free (docs/radius.md), `no_path` when they are not connected; status and why say which.
  std::optional<DiscPath> shortest_path(Point s, Point g, DiscQueryStatus* status = nullptr,
                                        std::string* why = nullptr) const;

  // The graph itself, for a search outside this class (the visgraph at R > 0 runs the shared A*
  // on it): node i, its position, circle, leaving segment and leaving arc (-1: none).
  struct NodeView {
    Point p;
    std::int32_t circle;
    std::int32_t seg_to, arc_to;
    double seg_len, arc_len;
  };
  NodeView node(std::int32_t i) const {
    const Node& n = nodes_[std::size_t(i)];
    return {n.p, n.circle, n.seg_to, n.arc_to, n.seg_len, n.arc_len};
  }
  Point circle_centre(std::int32_t ci) const { return circles_[std::size_t(ci)].c; }
  // How a free query point joins the graph: the start by its tangent t to a circle, then along the
  // circle in the tangent's sense to the first node at or after t (cost |s - t| + arc); the goal
  // from the last node at or before its tangent point t in the arriving sense (cost arc + |t - g|).
  // Every segment and arc is checked for clearance R. At most one join per circle and sense.
  struct Join {
    std::int32_t node;
    double cost;
    Point t;
  };
  //
  // `circles`, when given, lists the only circles to try (ascending ids): a superset of those the
  // point can join, e.g. the circles of the convex corners the point sees (TangentRepresentation:
  // a clear tangent segment from q to the circle of corner c implies that q sees c, see there).
  // The answer is then the same as over every circle, at the cost of the listed ones only.
  std::vector<Join> join_start(Point s, const std::vector<std::int32_t>* circles = nullptr) const;
  // back_to_segment: the goal joins also from the nodes before that last one, back to (and with)
  // the last node at or before t that has a leaving segment: for a graph whose arcs jump over
  // the nodes without a leaving segment (TangentRepresentation), so that a walk along the circle
  // that would pass the skipped last node still meets a goal link.
  std::vector<Join> join_goal(Point g, const std::vector<std::int32_t>* circles = nullptr,
                              bool back_to_segment = false) const;
  // The shortest path from s to g that visits no node: the straight segment when it keeps
  // clearance R, else the best of s -> tangent -> one arc -> tangent -> g (nullopt: none).
  // `circles`: as for join_start, a superset of the circles s can join.
  std::optional<DiscPath> direct_path(Point s, Point g, const std::vector<std::int32_t>* circles = nullptr) const;
  // The circle of FreeSpace::convex_corners()[k], or -1 when that corner carries none (its cone
  // arc holds no point of clearance R).
  std::int32_t circle_of_corner(std::size_t k) const { return corner_circle_[k]; }
  // The circle's free-space component.
  std::int32_t circle_component(std::int32_t ci) const { return circles_[std::size_t(ci)].component; }

  double radius() const { return R_; }
  std::size_t circle_count() const { return circles_.size(); }  // useful corner circles
  std::size_t vertex_count() const { return nodes_.size(); }    // tangent points x wrap sense
  std::size_t edge_count() const;                               // segments and arcs

 private:
  // A circle of radius R around a convex corner, restricted to the corner's normal cone: the
  // directions v with v . (after - at) <= 0 and v . (before - at) <= 0, where the offset edges end
  // and the circle is the boundary of the grown obstacle. Keys measure angles counter-clockwise
  // from the cone's first direction.
  struct Circle {
    Point c;
    Point start;        // unit direction where the cone begins (counter-clockwise order)
    Point ua, ub;       // unit directions of the two edges leaving the corner (after, before)
    double width = 0;   // the cone's angle, < pi
    std::int32_t component = -1;
    bool arc_clear = false;  // the whole cone arc keeps clearance R: no sub-arc needs a check
    std::vector<std::int32_t> order[2];  // node ids by position along the wrap: [0] cw, [1] ccw
  };
  // A tangent point with a wrap sense: the path passes it going round the circle counter-clockwise
  // (sign +1) or clockwise (-1). Each node has at most one segment and one arc leaving it.
  struct Node {
    Point p;
    std::int32_t circle = -1;
    std::int8_t sign = 0;
    double key = 0;
    std::int32_t seg_to = -1, arc_to = -1;
    double seg_len = 0, arc_len = 0;
  };

  // Unit vector v lies in ci's cone (up to rounding); its key; both (false when outside).
  static bool in_cone(const Circle& ci, Point v);
  static double cone_key(const Circle& ci, Point v);
  static bool cone_key(const Circle& ci, Point v, double& key);
  // Grid maps: a sampled bound on the clearance proves that segment a-b comes closer than R to an
  // obstacle (false: unknown, the exact test decides).
  bool surely_blocked(Point a, Point b) const;
  // The arc of circle ci from a to b (points on it) keeps clearance R.
  bool arc_ok(const Circle& ci, Point a, Point b) const;
  std::int32_t add_node(std::vector<Node>& nodes, std::int32_t circle, Point p, int sign, double key) const;
  // shortest_path's query nodes and re-linked arcs (tangent_graph.cpp).
  struct QueryNodes;
  void make_query_nodes(Point s, Point g, std::int32_t comp, QueryNodes& qs) const;
  void relink_arcs(QueryNodes& qs) const;
  // Tangents from a free point to circle ci: each (tangent point, key, sign when arriving from q).
  struct PointTangent {
    Point t;
    double key;
    int sign;
    double len;
  };
  int point_tangents(Point q, std::int32_t ci, PointTangent out[2]) const;
  // Calls f(circle, tangent) for every tangent from q to a circle of q's component (tangent_graph.cpp).
  // circles: nullptr for every circle, else only the listed ones.
  template <class F>
  void for_each_tangent(Point q, const std::vector<std::int32_t>* circles, F&& f) const;

  const FreeSpace* fs_;
  const RadiusValidity* rv_;
  double R_;
  std::vector<Circle> circles_;
  std::vector<std::int32_t> corner_circle_;  // per convex corner of fs: its circle or -1
  std::vector<Node> nodes_;
  std::size_t segment_count_ = 0;
};

}  // namespace navbench
