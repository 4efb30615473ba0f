// navmesh / navmesh-vertices: the free space triangulated by a constrained Delaunay triangulation
// (CGAL Constrained_Delaunay_triangulation_2; Chew, "Constrained Delaunay triangulations", 1989)
// whose constraints are the obstacle boundaries, then searched as a graph in the manner of
// Recast/Detour navigation meshes (Mononen): `navmesh` searches between the midpoints of the edges
// shared by adjacent cells (triangles, or with merge=1 convex polygons from Hertel & Mehlhorn,
// "Fast triangulation of simple polygons", FCT 1983), `navmesh-vertices` along triangle edges
// between the triangle corners.
//
// CGAL is confined to triangulation*.cpp: this header exposes plain arrays only (pimpl), so code
// that includes it never compiles CGAL.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>

#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/representation.hpp"

namespace navbench {

// The constrained Delaunay triangulation of a map's free space, exported as plain arrays of the
// domain triangles (those inside free space). Triangle corners are counter-clockwise in the (x, y)
// frame (positive cross product), corner i faces the edge between corners i+1 and i+2.
class FreeSpaceTriangulation {
 public:
  // Throws std::invalid_argument for a polygon map with a degenerate ring or non-finite coordinate.
  explicit FreeSpaceTriangulation(const Map& map);
  ~FreeSpaceTriangulation();
  FreeSpaceTriangulation(FreeSpaceTriangulation&&) noexcept;
  FreeSpaceTriangulation& operator=(FreeSpaceTriangulation&&) noexcept;

  // Triangle ids run to num_triangles(); after update() some may be dead (alive() false: no
  // corners, no neighbours, component -1) until a later update reuses them.
  std::size_t num_triangles() const { return corners_.size(); }
  bool alive(std::uint32_t t) const { return corners_[t][0] != kDead; }
  static constexpr std::uint32_t kDead = ~std::uint32_t(0);
  const std::vector<Point>& points() const { return points_; }  // triangulation vertices
  const std::array<std::uint32_t, 3>& corners(std::uint32_t t) const { return corners_[t]; }
  // The domain triangle across the edge opposite corner i, or -1 (obstacle / outside the map).
  std::int32_t neighbor(std::uint32_t t, int i) const { return neighbors_[t][i]; }
  const std::vector<std::array<std::uint32_t, 3>>& all_corners() const { return corners_; }
  const std::vector<std::array<std::int32_t, 3>>& all_neighbors() const { return neighbors_; }
  // Free-space component of a triangle: triangles connected across shared edges share the id.
  std::int32_t component(std::uint32_t t) const { return component_[t]; }
  std::int32_t num_components() const { return num_components_; }
  // The domain triangle whose closed area holds p, or -1 when p is not in the free space. A point on
  // a shared edge gets one of its two triangles; a point on a triangulation vertex where free space
  // pinches gets a triangle of the side that owns it by FreeSpace's rule (geometry/free_space.hpp:
  // grid maps the sector of cell (x, y), else of cell (x, y - 1)), so paths leave it only into
  // that side. Exact (CGAL's filtered predicates).
  std::int32_t locate(Point p) const;
  // Exact sign of the orientation of (a, b, c): +1 left turn, -1 right turn, 0 collinear.
  static int orientation(Point a, Point b, Point c);
  std::size_t memory_bytes() const;

  // docs/changing-maps.md, grid maps: brings the triangulation up to date in place after the cells `changed` of
  // `g` changed (g holds the new values). The constraints are the maximal boundary runs (see
  // grid_constraints); the runs through a corner of a changed cell are traced on the old and the new
  // bitmap, and only the differing ones change: old ones are removed from the CDT (with the
  // vertices no remaining constraint needs), new ones inserted, as CGAL's CDT does it (removal and
  // insertion restore the constrained Delaunay property by flips, Chew 1989). The faces CGAL created
  // or edited are recorded; they and every region whose cells flipped are marked again, and only
  // their array rows are rewritten. Components are kept up to date from the rows that changed
  // (update_components). The free space tiled, the
  // vertices and the constraints equal a fresh build's; the triangles may differ where four or more
  // vertices are cocircular (a grid has many), and the map's four corners stay as vertices once an
  // update ran (outside the free space: no domain triangle uses them). False (nothing changed) on a
  // polygon map or a map of another size.
  bool update(const GridMap& g, const std::vector<CellChange>& changed);
  // What the last update() changed: ids whose triangle died or changed (with their corners
  // before), and ids whose triangle is new or changed (a changed id is in both lists).
  struct Delta {
    std::vector<std::uint32_t> removed;
    std::vector<std::array<std::uint32_t, 3>> removed_corners;
    std::vector<std::array<std::int32_t, 3>> removed_neighbors;  // their neighbours before
    std::vector<std::uint32_t> added;
  };
  const Delta& delta() const { return delta_; }
  // The faces around point id v, counter-clockwise: their domain triangle id or -1 (empty when v is
  // not a live vertex).
  void triangles_around(std::uint32_t v, std::vector<std::int32_t>& out) const;
  // Point ids run to points().size(); a vertex removed by update() leaves a dead id (reused later).
  bool point_alive(std::uint32_t v) const;
  // Checks for tests: CGAL's is_valid() of the CDT, and that the arrays equal the faces' numbering.
  bool valid_for_tests() const;

 private:
  struct Cgal;
  struct Update;  // update()'s steps (triangulation_update.cpp)
  std::unique_ptr<Cgal> cgal_;
  std::vector<Point> points_;
  std::vector<std::array<std::uint32_t, 3>> corners_;
  std::vector<std::array<std::int32_t, 3>> neighbors_;
  std::vector<std::int32_t> component_;
  std::int32_t num_components_ = 0;
  std::vector<std::uint32_t> component_size_;  // triangles per component id (0: an id no longer used)
  std::vector<std::int32_t> free_ids_;         // ids of size 0, for new components
  std::vector<std::uint32_t> seen_, walk_of_;  // update_components' marks per triangle (a stamp), and walks
  std::vector<std::uint32_t> pos_, queue_;     // update_components' scratch
  std::uint32_t stamp_ = 0;
  Delta delta_;
  void flood_components();
  // After update() rewrote the rows of delta_: the components, from the changed triangles alone
  // while those stay connected to each other (triangulation_update.cpp); else flooded again.
  void update_components();
  // Its first step: whether the unchanged triangles next to each blob of removed rows (seen_ ==
  // in_r) are joined to one another now (walks marked met); false when they are not, or the walks
  // went past a quarter of the triangles.
  bool blobs_stay_joined(std::uint32_t in_r, std::uint32_t met);
};

// One tile of navmesh-tiles: the constrained Delaunay triangulation (CGAL, as above) of the free
// cells of the rectangle [x0, x1) x [y0, y1) of a grid map, cells outside it counting as blocked,
// so the rectangle's border is a constraint wherever a free cell touches it. Domain triangles with
// corners counter-clockwise; neighbors[t][i] is the triangle across the edge opposite corner i, or -1
// (obstacle or the rectangle's border).
struct TileTriangles {
  std::vector<Point> points;                             // the tile's triangulation vertices
  std::vector<std::array<std::uint32_t, 3>> corners;     // indices into points
  std::vector<std::array<std::int32_t, 3>> neighbors;
};
void triangulate_grid_tile(const GridMap& g, int x0, int y0, int x1, int y1, TileTriangles& out);

// Hertel & Mehlhorn, "Fast triangulation of simple polygons" (FCT 1983): triangles (corner ids into
// pts, counter-clockwise; neighbors as above) merged into convex cells by dropping every diagonal
// whose removal keeps both end angles <= 180 degrees, longest diagonals first. At most four times the
// minimum number of convex pieces. cell_of[t]: the cell of triangle t; cell c's corners, counter-
// clockwise, are verts[begin[c]] .. verts[begin[c + 1] - 1].
struct ConvexCells {
  std::vector<std::int32_t> cell_of;
  std::vector<std::uint32_t> begin, verts;
};
ConvexCells merge_convex(const std::vector<std::array<std::uint32_t, 3>>& corners,
                         const std::vector<std::array<std::int32_t, 3>>& neighbors, const std::vector<Point>& pts);

// A portal as seen crossing from cell `from` into cell `to`: `right` and `left` are its ends.
struct PortalSides {
  std::int32_t from, to;
  Point right, left;
};

// The corridor of a path of portal vertices (navmesh, navmesh-tiles): the portals crossed from the
// start's cell to the goal's, with `portal_of(v)` the PortalSides of path vertex v (v < num_portals).
// The path visits cells c0 = start's cell, c1, ..., goal's cell, where c_k is the cell holding the
// segment between portals k and k+1 (preferring the current cell when both sides hold it, as on a
// straight line through collinear midpoints); a portal between two different cells is crossed.
template <class PortalOf>
std::optional<Corridor> corridor_through_portals(const Query& q, std::size_t num_portals, PortalOf&& portal_of) {
  if (q.s.cell < 0 || q.g.cell < 0) return std::nullopt;
  if (q.path.empty()) {
    if (q.s.cell == q.g.cell) return Corridor{};
    return std::nullopt;  // no path found
  }
  for (Vertex v : q.path)
    if (v >= num_portals) throw std::logic_error("navmesh corridor: path vertex out of range");
  Corridor out;
  std::int32_t cur = std::int32_t(q.s.cell);
  for (std::size_t k = 0; k < q.path.size(); ++k) {
    const PortalSides p = portal_of(q.path[k]);
    std::int32_t next;
    if (k + 1 < q.path.size()) {
      const PortalSides n = portal_of(q.path[k + 1]);
      auto holds = [&](std::int32_t c) { return (c == p.from || c == p.to) && (c == n.from || c == n.to); };
      if (holds(cur)) next = cur;
      else if (holds(p.from)) next = p.from;
      else if (holds(p.to)) next = p.to;
      else throw std::logic_error("navmesh corridor: consecutive path portals share no cell");
    } else {
      next = std::int32_t(q.g.cell);
    }
    if (next == cur) continue;
    if (p.from == cur && p.to == next) out.push_back({p.left, p.right});
    else if (p.to == cur && p.from == next) out.push_back({p.right, p.left});
    else throw std::logic_error("navmesh corridor: path leaves a cell through a portal it does not have");
    cur = next;
  }
  return out;
}

// navmesh: the cells (triangles; with merge=1 convex polygons) are the rooms, the edges they
// share are the doors. Graph vertices are the doors (portals) at their midpoints, linked when they
// border the same cell (cost: distance between the midpoints), as Detour searches its polygons.
// A query point joins the portals of its cell; start and goal in one cell link directly.
class NavMesh : public BuiltGraph<CsrGraph>, public StoredPositions, public ConvexCellQueries<NavMesh>, public SegmentPricing {
 public:
  // Parameters: merge=0|1 (Hertel-Mehlhorn merge of triangles into convex polygons; default 0).
  NavMesh(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): what it does, and its parameters.
  static constexpr Capabilities kCapabilities{
      .weights = true, .corridor = true, .update_in_place = true, .update_approximate = true};
  static constexpr std::array kParams{
      ParamDecl{"merge", ParamType::flag, 0, 0, 1, "merge triangles into convex cells (Hertel-Mehlhorn)"}};

  // cell = the cell id (the triangle id without merging); component = its component.
  std::optional<Attachment> attach(Point p) const;
  // The portals crossed from start's cell to goal's cell, `left`/`right` as seen walking from start
  // to goal in the (x, y) frame with the usual orientation (x right, y up; a positive cross product
  // is a left turn): for a portal crossed out of a cell, (cell interior point, right, left) turn
  // left. Empty when start and goal share a cell; nullopt when there is no path in q.
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  // docs/changing-maps.md, grid maps: the triangulation is updated in place (FreeSpaceTriangulation::update);
  // without merging, only the portals of the triangles it removed or made change, and the graph
  // rows around them (CsrGraph's in-place edits); with merge=1 the cells are merged again and the
  // graph laid out again from the updated triangles (the CDT work is what is saved). The triangles
  // may differ from a fresh build's where vertices are cocircular (same free space, same
  // reachability): approximate. False (rebuild) on polygon maps, on a map of another size, and when
  // a quarter of the map or more changed.
  bool update(const Map& map, const std::vector<CellChange>& changed);
  // The cells' outlines (triangles, or merged convex polygons), for path pictures.
  void structure(const SegmentSink& emit) const {
    const auto& pts = tri_.points();
    for (std::uint32_t c = 0; c + 1 < cell_begin_.size(); ++c) {
      if (!cell_alive(c)) continue;
      for (std::uint32_t i = cell_begin_[c]; i < cell_begin_[c + 1]; ++i) {
        const std::uint32_t j = i + 1 < cell_begin_[c + 1] ? i + 1 : cell_begin_[c];
        emit({pts[cell_verts_[i]], pts[cell_verts_[j]]});
      }
    }
  }

  // Inspection (tests, plots).
  const FreeSpaceTriangulation& triangulation() const { return tri_; }
  // Cell ids run to num_cells(); without merging a cell is its triangle, dead with it (cell_alive).
  std::size_t num_cells() const { return cell_begin_.size() - 1; }
  bool cell_alive(std::uint32_t c) const { return merge_ || tri_.alive(c); }
  std::int32_t cell_component(std::uint32_t c) const { return merge_ ? cell_component_[c] : tri_.component(c); }
  // The live portals of cell c (graph vertices).
  std::vector<Vertex> cell_portals(std::uint32_t c) const {
    return {cell_portals_.begin() + cell_portal_begin_[c], cell_portals_.begin() + cell_portal_end_[c]};
  }
  std::int32_t cell_of_triangle(std::uint32_t t) const { return cell_of_[t]; }
  // Corners of a cell, counter-clockwise, as indices into triangulation().points().
  std::vector<std::uint32_t> cell_polygon(std::uint32_t c) const {
    return {cell_verts_.begin() + cell_begin_[c], cell_verts_.begin() + cell_begin_[c + 1]};
  }
  struct PortalInfo {
    std::int32_t from, to;        // the two cells
    std::uint32_t right, left;    // corner ids as seen crossing from `from` into `to`
  };
  const PortalInfo& portal(Vertex v) const { return portals_[v]; }  // from < 0: a removed portal

 private:
  // The portal on edge i of triangle t (the edge facing corner i), crossed from cell `from` into
  // `to`: seen from inside t, corners i, i+1, i+2 turn left, so corner i+1 is on the right.
  PortalInfo edge_portal(std::uint32_t t, int i, std::int32_t from, std::int32_t to) const {
    return {from, to, tri_.corners(t)[(i + 1) % 3], tri_.corners(t)[(i + 2) % 3]};
  }
  Point portal_mid(const PortalInfo& p) const {
    const auto& pts = tri_.points();
    return {(pts[p.right].x + pts[p.left].x) / 2, (pts[p.right].y + pts[p.left].y) / 2};
  }
  void derive_cells();  // cells from the triangles (with merge=1 Hertel-Mehlhorn)
  void build_graph();

  bool merge_ = false;  // declared before tri_: read from the parameters before the build
  FreeSpaceTriangulation tri_;
  std::vector<std::int32_t> cell_of_;           // triangle -> cell
  std::vector<std::uint32_t> cell_begin_;       // cell -> [begin, end) in cell_verts_
  std::vector<std::uint32_t> cell_verts_;       // CCW corner ids of every cell
  std::vector<std::int32_t> cell_component_;     // merge=1 only (else the triangle's)
  // cell -> [begin, end) in cell_portals_; without merging three slots per cell (begin = 3c)
  std::vector<std::uint32_t> cell_portal_begin_, cell_portal_end_;
  std::vector<Vertex> cell_portals_;
  std::vector<PortalInfo> portals_;  // pos_[v] (inherited): portal v's midpoint
  std::vector<Vertex> scratch_;  // update(): portals to filter / made
  std::vector<std::uint8_t> fresh_;  // update(): per portal, made by this update
};

// navmesh-vertices: the triangle corners are the vertices, linked along the triangle edges
// (obstacle edges included: walking along a wall is valid). Where free space pinches at a corner
// (two blocked cells touching diagonally) each free side is a separate fan of triangles; only the
// side that owns the point (docs/maps.md, FreeSpace's rule) gets a vertex there, so no path crosses the
// pinch or touches it from the other side. A query point links to the corners of its triangle.
class NavMeshVertices : public BuiltGraph<CsrGraph>, public StoredPositions, public ConvexCellQueries<NavMeshVertices>,
                        public SegmentPricing {
 public:
  NavMeshVertices(const Map& map, Params& params);
  // The declaration: an edge is a triangle side between two corners (segment edges); no parameters.
  static constexpr Capabilities kCapabilities{.point_vertices = true, .weights = true, .update_in_place = true,
                                              .update_approximate = true, .segment_edges = true};

  std::optional<Attachment> attach(Point p) const;  // cell = triangle id
  BuildStats stats() const;
  // docs/changing-maps.md, grid maps: the triangulation is updated in place (FreeSpaceTriangulation::update);
  // the corners of the triangles it removed or made get their fans, pinch owner and graph rows
  // again, the rest of the graph is edited in place. Approximate as NavMesh::update. False
  // (rebuild) on polygon maps, on a map of another size, and when a quarter of the map or more changed.
  bool update(const Map& map, const std::vector<CellChange>& changed);

  const FreeSpaceTriangulation& triangulation() const { return tri_; }
  // The graph vertex of corner i of triangle t; CsrGraph::null_vertex() on the non-owning side of a
  // pinch point.
  Vertex corner_vertex(std::uint32_t t, int i) const { return corner_vertex_[t][i]; }

 private:
  FreeSpaceTriangulation tri_;
  std::vector<std::array<Vertex, 3>> corner_vertex_;
  std::vector<Vertex> vertex_of_point_;  // triangulation point -> its graph vertex (or null)
  std::vector<std::uint32_t> point_of_vertex_;
  std::vector<std::uint8_t> in_p_;  // update scratch, per point, all zero between updates
  void refan_point(std::uint32_t a, std::vector<std::int32_t>& around, std::vector<Vertex>& lost);  // update()
};

}  // namespace navbench
