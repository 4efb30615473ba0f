// Which convex corners a point of a grid map may see: a bounded angular sweep, row by row, in the
// manner of shadow casting (Bergström's recursive shadowcasting, roguebasin 2001) and of Anya's
// row intervals (Harabor, Grastien, Öz & Aksakalli, "Optimal Any-Angle Pathfinding In Practice",
// JAIR 2016). Each half-plane (rows below the point, rows above it) keeps a set of angular
// intervals of rays, bounded by rays through grid corners and compared with the exact orientation
// predicate only. Row by row, the maximal runs of blocked cells inside each interval are found with
// jump tables (next blocked / next free cell of a row), their corners that are graph nodes become
// candidates, and the open set of rays through each run's interior (its shadow) is cut out.
// Cost: proportional to the rows and runs of the visible region, not to the number of nodes.
//
// A candidate whose ray lies strictly inside a surviving interval when it is reached is proven
// visible (no blocked interior and no pinch point lies on it: a pinch ray always bounds a shadow);
// a candidate on an interval's boundary (grazing, or a pinch point) is `maybe` and must be checked
// with the exact segment test. Every visible node is one of the two (tested against brute force).
#pragma once
#include <cstdint>
#include <vector>

#include "geometry/free_space.hpp"
#include "geometry/map.hpp"

namespace navbench {

// A cell row and a column range [x0, x1] of it (clamped to the map).
struct GridFovSpan {
  int row, x0, x1;
  bool sure = false;  // every point of these cells sees s (else: the cells may see s)
  bool first = false; // a half's first row, whose starting line is s's own grid line
  bool walk = false;  // scan_tangent's walk along s's grid line read these cells (not a region span)
};

class GridFov {
 public:
  GridFov() = default;
  // nodes: the convex corners (integer coordinates) of the grid.
  GridFov(const GridMap& grid, const std::vector<ConvexCorner>& nodes);
  // A changing map (visgraph's update): the same tables as GridFov(grid, nodes) from those of the
  // grid before `changed` (the same size) with old_nodes: the rows and pinch points next to a
  // changed cell made again, the nodes' marks moved (grid_fov.cpp).
  void update(const GridMap& grid, const std::vector<ConvexCorner>& old_nodes, const std::vector<ConvexCorner>& nodes,
              const std::vector<CellChange>& changed);
  bool operator==(const GridFov&) const = default;  // the tables (tests)

  // Appends to `sure` the nodes proven visible from the free point s and to `maybe` the other
  // nodes that may be visible (duplicates possible). Thread-safe (no shared scratch).
  void scan(Point s, std::vector<std::uint32_t>& sure, std::vector<std::uint32_t>& maybe) const;
  // The same, limited to the two closed quadrants (qx, -qy) and (-qx, qy) around s (qx, qy = +-1):
  // the only directions in which a line through a corner whose blocked cell lies in quadrant
  // (qx, qy) is tangent there. Used to build the graph in half the sweep.
  //
  // spans, when given, receives the region form: spans covering every free point of the two
  // closed quadrants that sees s (a superset: each band's angular pieces, padded by a cell; a
  // point on a line between two rows that a ray crosses is covered in both, a point on the line
  // where a half starts only in that half's first row), for the per-block candidate lists of
  // visgraph. Also `sure` spans: cells whose every point sees s (their angular extent lies
  // strictly inside a ray interval unobstructed up to their row, and the row's cells between
  // where those rays enter it and the cell are free, so no blocked interior and no pinch point
  // lies between). And `walk` spans: the cells beside s's horizontal grid line that the walk
  // along it read. The result (the nodes reported, and which are sure) depends only on the
  // cells in a span or next to one (what VisGraph::update relies on); the sweep may read cells
  // beyond (a blocked run's far end), which do not change it. with_sure = false leaves the `sure` spans out (they cost
  // a pass over the band's cells).
  //
  // within, when given, limits the sweep to those directions (Directions below): the nodes it
  // reports in them are the whole sweep's (and more may be reported outside them: the caller
  // keeps those of `within` alone), its spans cover the points there that see s.
  struct Directions;
  void scan_tangent(Point s, int qx, int qy, std::vector<std::uint32_t>& sure, std::vector<std::uint32_t>& maybe,
                    std::vector<GridFovSpan>* spans = nullptr, bool with_sure = true, const Directions* within = nullptr) const;
  using Span = GridFovSpan;
  // Spans covering every free point that sees the free point s, in both half-planes (the region
  // form of scan_tangent over all directions, each half's whole piece: a superset, padded by a
  // cell). visgraph on weighted maps, whose vertices are not all nodes of this sweep, takes its
  // candidate pairs and links from them (from its vertices, cell centres and any other point;
  // checked against brute-force visibility in tests/test_visgraph_weighted.cpp).
  void region(Point s, std::vector<Span>& spans) const;

  // A closed set of directions from a grid corner s: the union of the cones from s of closed
  // rectangles of the grid (add_cone), as closed angular intervals per half-plane (rays with
  // y >= s.y, then y <= s.y, each in its half's frame: the horizontal rays belong to both), merged
  // (close_cones). Compared with the exact orientation predicate, as the sweep's rays are.
  void add_cone(Point s, int x0, int y0, int x1, int y1, Directions& d) const;
  void close_cones(Point s, Directions& d) const;
  // Whether the direction from s to the point p != s lies in d.
  bool holds(Point s, Point p, const Directions& d) const;

  // The node at grid corner (x, y), or -1.
  std::int32_t node_at(int x, int y) const {
    if (x < 0 || y < 0 || x > W || y > H) return -1;
    return node_at_[std::size_t(y) * std::size_t(W + 1) + std::size_t(x)];
  }

  std::size_t memory_bytes() const {
    return next_.capacity() * 2 + is_node_.capacity() * 8 + node_at_.capacity() * 4 + rank_.capacity() * 4 +
           pinch_.capacity();
  }

 private:
  struct Ray {
    double x, y;  // a grid corner in the scan's frame, or unused for horizontal rays
    double k;     // dx/dy of the ray (to place it on a row quickly; never used for decisions)
    int h;        // 0: through (x, y); +1: the horizontal ray towards +x; -1: towards -x
  };
  struct Piece {
    Ray lo, hi;  // closed angular interval, lo before hi (counter-clockwise from +x)
  };

 public:
  struct Directions {
    std::vector<Piece> half[2];  // y >= s.y (frame (x, y)), y <= s.y (frame (x, -y))
    bool empty() const { return half[0].empty() && half[1].empty(); }
    void clear() { half[0].clear(), half[1].clear(); }
  };

 private:
  struct Frame;
  // side: 0 the whole half-plane, +1 / -1 only its quarter towards +x / -x.
  // spans: when given, also receives each band's swept column range, and with_sure its sure spans.
  // within: when given, the sweep starts from those intervals (of this half's frame) instead of
  // the whole half or quarter, cut to it.
  void scan_half(Point s, int f, bool all_maybe, int side, std::vector<std::uint32_t>& sure,
                 std::vector<std::uint32_t>& maybe, std::vector<Span>* spans = nullptr, bool with_sure = false,
                 const std::vector<Piece>* within = nullptr) const;

  int W = 0, H = 0, PW = 0;
  // Padded rows y = -1..H, columns x = -1..W (the padding is blocked): index (y+1)*PW + (x+1).
  // Entries hold x + 1 (0 .. W+2), so 16 bits cover every accepted map side (docs/maps.md: <= 32768).
  // Per cell its next blocked and next free cell side by side (next_[2 i], next_[2 i + 1]): a band
  // reads both around one column, so one cache line serves both.
  std::vector<std::uint16_t> next_;
  std::vector<std::uint64_t> is_node_;  // (W+1)*(H+1) corners, one bit each: a cache-friendly filter
  std::vector<std::int32_t> node_at_;   // (W+1)*(H+1) corners: node id or -1
  // When the node ids increase with the corner index (the corners as FreeSpace lists them, row by
  // row), a node's id is the count of nodes before it: rank_[word] + the bits below it in its
  // word, read from the bit filter's cache line instead of node_at_'s (a miss per lookup on a
  // large map).
  std::vector<std::uint32_t> rank_;
  bool ranked_ = false;
  std::vector<std::uint8_t> pinch_;     // (W+1)*(H+1) corners: 1 at a pinch point
};

}  // namespace navbench
