// The plain data a representation and the harness exchange (no Boost): vertex ids, the links and
// attachments of a query's start and goal, the query itself, corridors, build numbers, drawing
// segments. representation.hpp states the contract over them; the harness's headers need only these.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry/point.hpp"

namespace navbench {

using Vertex = std::uint32_t;

// One query-time edge between a query point and a graph vertex.
struct Link {
  Vertex vertex;
  double cost;  // length of the segment point <-> vertex position (or of the path the rep uses)
};

// How one query point joins the graph.
struct Attachment {
  std::vector<Link> links;
  std::int64_t cell = -1;       // the representation's own handle (cell, triangle, ...) or -1
  std::int32_t component = -1;  // free-space component id, when known: different ids => no_path at once
};

// The state of one query as it moves down the pipeline (locate -> search -> polyline).
struct Query {
  Point start, goal;
  Attachment s, g;
  bool direct = false;        // start links straight to goal (cost |start - goal|)
  std::vector<Vertex> path;   // base-graph vertices of the found path, start side first (may be empty)
  // A path handed out in pieces (SPEC §15, representation.hpp's HasPieces): where the
  // representation's walk stands between two pieces, in its own terms (cpd: the cell reached, the
  // target cell, the moves' integer cost and the cells walked; subgoal: the next abstract edge).
  struct Walk {
    std::int64_t at = -1;
    std::int64_t to = -1;  // >= 0 only for a route (HasRoute) walked in place of the search

    std::uint64_t key = 0, steps = 0;
    double cost = 0;
  } walk;
};

// A portal of the corridor: the segment shared by two consecutive convex cells, its ends named as
// seen by someone walking from start to goal.
struct Portal {
  Point left, right;
};
using Corridor = std::vector<Portal>;

// Thrown by a representation's constructor for a map kind it cannot represent (e.g. grid8 on a
// polygon map): the harness skips that (map, representation) pair with a note instead of failing.
struct UnsupportedMap : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A map of a kind the representation takes, beyond a limit it declares (a table or label budget
// such as table_mb or labels_mb, an index width): skipped like UnsupportedMap, and recorded as a
// cap rather than a refused kind (the column `reason` of PREFIX.unrun.csv, docs/results.md#maps-not-run).
struct DeclaredCap : UnsupportedMap {
  using UnsupportedMap::UnsupportedMap;
};

// The answer of a representation's own search (Detour's query for recast; docs/recast.md): a path
// from the query's start to its goal, or why there is none.
struct OwnAnswer {
  enum class Status { found, no_path, error } status = Status::error;
  Polyline path;
  std::string reason;
  long nodes = 0;  // the states its search generated
};

struct BuildStats {
  std::size_t vertices = 0, edges = 0, memory_bytes = 0;
};

// A line segment of a representation's drawing (HasStructure in representation.hpp).
struct Segment {
  Point a, b;
};
// Receives a drawing one segment at a time: a drawing can be large (Aurora's grid8 moves are
// millions of segments), and its writers (the viewer's structure layer, `navbench structure`, a
// trace's structure layer) stream it instead of holding it whole.
using SegmentSink = std::function<void(const Segment&)>;

}  // namespace navbench
