// navmesh-tiles: navmesh (triangles or merged convex cells, portal midpoints as graph vertices) built per square
// tile of a grid map, as Recast/Detour's tiled navigation meshes are (Mononen; dtTileCache rebuilds
// only the tiles an obstacle touches). Each tile is its own CGAL constrained Delaunay triangulation
// of its free cells (navmesh.hpp, triangulate_grid_tile); tiles meet along their shared border,
// where a portal is each stretch free on both sides (two tiles need not put the same vertices on
// it, so a tile depends on its own cells only). docs/changing-maps.md update(): only the tiles holding changed
// cells are triangulated again and stitched to their neighbours; the graph is edited in place.
// The price: more, thinner triangles than one triangulation of the whole map.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/navmesh/navmesh.hpp"
#include "representations/representation.hpp"
#include "representations/union_find.hpp"

namespace navbench {

class NavMeshTiles : public BuiltGraph<CsrGraph>, public ConvexCellQueries<NavMeshTiles>, public SegmentPricing {
 public:
  // Parameters: tile=T (cells per tile side, default 16); merge=0|1 (Hertel-Mehlhorn merge of each
  // tile's triangles into convex cells, as navmesh's merge; default 0). Grid maps only.
  NavMeshTiles(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): what it does, and its parameters.
  static constexpr Capabilities kCapabilities{
      .grid_only = true, .weights = true, .corridor = true, .update_in_place = true};
  static constexpr std::array kParams{
      ParamDecl{"tile", ParamType::integer, 16, 1, 4096, "tile side in cells"},
      ParamDecl{"merge", ParamType::flag, 0, 0, 1, "merge each tile's triangles into convex cells"}};

  Point position(Vertex v) const { return portals_[v].mid; }
  // cell = the cell id (a triangle without merging).
  std::optional<Attachment> attach(Point p) const;
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  void structure(const SegmentSink& emit) const;
  // docs/changing-maps.md: the tiles holding changed cells are triangulated again; their old triangles and
  // portals go, the new ones are linked to the unchanged neighbour tiles. The result is the same
  // structure a fresh build of the new map has (same cells and portals; ids may differ).
  // Component labels unite as grid8's do: equal labels may over-approximate after a split. More
  // than half of the tiles changed: false (the caller rebuilds).
  bool update(const Map& map, const std::vector<CellChange>& changed);

  // Inspection (tests): the live cells, each as its corners (counter-clockwise), and the portals,
  // each as its two ends; in no particular order.
  std::vector<std::vector<Point>> cells() const;
  std::vector<std::array<Point, 2>> portal_segments() const;
  // The live portals with their cells (ids as cell_corners() takes them) and ends as seen from `from`.
  std::vector<PortalSides> portal_sides() const;
  std::vector<Point> cell_corners(std::int32_t c) const { return {corners_[std::size_t(c)].c.begin(), corners_[std::size_t(c)].c.end()}; }
  // The cell whose closed area holds p, chosen by FreeSpace's pinch rule, or -1.
  std::int32_t locate(Point p) const;

 private:
  // A segment's cost: its length, or on a weighted map its integral (docs/terrain.md).
  double cost(Point a, Point b) const {
    if (weighted_) return segment_cost(a, b);
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
  }
  // The fields updates and searches touch, kept small (48 bytes) for the cache: an update walks
  // the cells and portals around every changed tile. Corners and portal ends live apart.
  struct Cell {
    std::int32_t tile = -1;  // -1: a free slot
    std::int32_t label = -1;
    boost::container::small_vector<Vertex, 4> portals;
  };
  struct Corners {  // a cell's corners, counter-clockwise
    boost::container::small_vector<Point, 4> c;
    // Moves declared noexcept (Boost 1.74's small_vector moves noexcept only for POD elements, and
    // Point is not one): std::vector then moves corners as it grows instead of copying them all.
    Corners() = default;
    Corners(const Corners&) = default;
    Corners(Corners&&) noexcept = default;
    Corners& operator=(const Corners&) = default;
    Corners& operator=(Corners&&) noexcept = default;
  };
  // Both must move without throwing, or every growth of cells_ / corners_ copies them all.
  static_assert(std::is_nothrow_move_constructible_v<Cell> && std::is_nothrow_move_constructible_v<Corners>);
  struct PortalRec {
    std::int32_t from = -1, to = -1;  // from = -1: a free slot
    Point mid;
  };
  struct PortalEnds {
    Point right, left;  // as seen crossing from `from` into `to`
  };
  // A cell edge on a tile's border with a free cell inside: [lo, hi] along the border line, its
  // ends as seen from inside the cell.
  struct BorderEdge {
    double lo, hi;
    std::uint32_t cell;
    Point right, left;
  };

  int tile_of(int cx, int cy) const { return (cy / T_) * ntx_ + col_tile_[std::size_t(cx)]; }
  // The tile across tile t's border `side` (0 bottom, 1 right, 2 top, 3 left), or -1 at the map's edge.
  int across(int t, int side) const {
    const int tx = t % ntx_, ty = t / ntx_;
    switch (side) {
      case 0: return ty > 0 ? t - ntx_ : -1;
      case 1: return tx + 1 < ntx_ ? t + 1 : -1;
      case 2: return ty + 1 < nty_ ? t + ntx_ : -1;
      default: return tx > 0 ? t - 1 : -1;
    }
  }
  void remove_tile(int tile, std::vector<std::uint32_t>& dirty);
  void triangulate_tile(const GridMap& g, int tile, std::vector<std::uint32_t>& dirty);
  void link_tiles(int a, int side, std::vector<std::uint32_t>* dirty);  // a's border `side` with the tile across it
  Vertex new_portal(std::uint32_t from, std::uint32_t to, Point right, Point left);
  void set_rows(const std::vector<std::uint32_t>& dirty);
  void flatten_labels();

  int T_ = 16, W_ = 0, H_ = 0, ntx_ = 0, nty_ = 0;
  bool merge_ = false;
  bool building_ = true;  // portals get ids in order and the graph is made at the end
  std::vector<Cell> cells_;
  std::vector<Corners> corners_;  // per cell
  std::vector<std::uint32_t> free_cells_;
  std::vector<PortalRec> portals_;
  std::vector<PortalEnds> ends_;  // per portal
  std::vector<std::vector<std::uint32_t>> tile_cells_;
  std::vector<std::array<std::vector<BorderEdge>, 4>> border_;  // sides: 0 bottom, 1 right, 2 top, 3 left
  UnionFind labels_;  // per cell label -> component (labels united by updates)
  std::vector<std::uint32_t> stamp_;  // per portal: last set_rows pass that rewrote its row
  std::uint32_t pass_ = 0;
  TileTriangles scratch_;
  std::vector<std::uint8_t> seen_;  // per triangle of the tile being triangulated
  // update() scratch, kept between updates: the changed tiles, a flag per tile, the dirty cells.
  std::vector<int> tiles_;
  std::vector<std::uint8_t> touched_;
  std::vector<std::uint32_t> dirty_;
  std::vector<std::int32_t> col_tile_;  // per grid column: its tile column
};

}  // namespace navbench
