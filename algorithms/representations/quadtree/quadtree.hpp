// quadtree: the quad tree navigation mesh of the classic game-AI write-up, on the region
// quadtree of Samet ("The Quadtree and Related Hierarchical Data Structures", ACM Computing Surveys
// 1984) as used for path planning by Kambhampati & Davis ("Multiresolution path planning for mobile
// robots", IEEE J. Robotics and Automation 1986). The field is padded to a power-of-two square and
// divided into quarters while a node holds both free space and obstacles; fully blocked nodes, and
// nodes that reach the minimum size while still touching an obstacle, are dropped. Adjacent cells
// that share a whole side are then collapsed into rectangles (aspect ratio <= `aspect`, so cells
// stay roughly square).
//
// The search graph is the portal graph of those convex cells: one vertex per portal (the segment two
// cells share, of positive length), placed at its midpoint; two portals of the same cell are joined
// with the distance between their midpoints. A query point joins the portals of the cell holding it,
// so every path segment lies inside one closed free cell and the raw path is valid by construction.
// The graph is modelled in place as a Boost.Graph graph on the cells' portal lists (QuadTreeGraph:
// no edge array, no adjacency_list copy).
//
// Parameters: min (smallest cell side; cells on grid maps, map units on polygon maps; default 1),
// merge (0/1, default 1), aspect (>= 1, default 2).
//
// On a weighted map (docs/terrain.md) a free node is split until it holds one weight (below `min`
// if need be), cells merge only with cells of their weight, and an edge costs its length times its
// cell's weight, so the portal graph's costs are the path-cost integral of its segments.
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/graph/graph_concepts.hpp>

#include "representations/bgl_traits.hpp"
#include "representations/built_graph.hpp"
#include "representations/representation.hpp"
#include "representations/union_find.hpp"

namespace navbench {

// A portal: the segment two cells share, on the line x = line (vertical) or y = line, spanning
// [lo, hi] in tree units; cell a lies on the low side of the line (smaller x or y), cell b on the
// high side. A removed portal has a == b == kNone.
struct QuadTreePortal {
  static constexpr std::uint32_t kNone = ~std::uint32_t(0);
  std::uint32_t a, b;
  std::int32_t line, lo, hi;
  bool vertical;
};

// An edge of the portal graph: portal u to portal v through the cell they share.
struct QuadTreeEdge {
  Vertex u = 0, v = 0;
  std::uint32_t cell = 0;
  friend bool operator==(const QuadTreeEdge&, const QuadTreeEdge&) = default;
};

// The portal graph, modelled in place as a Boost.Graph graph (IncidenceGraph + VertexListGraph, as
// boost/graph/grid_graph.hpp models a grid): portal v's out-edges are the other portals of its two
// cells, weighted by the distance between the midpoints, read from the cells' portal lists when
// the search asks. Each cell is convex, so the segment between two of its portal midpoints stays
// inside it. No edge is stored: an update (docs/changing-maps.md) edits only the portal lists of the cells it
// touches, and a build writes no edge array.
class QuadTreeGraph : public BglGraph<QuadTreeGraph, QuadTreeEdge> {
 public:
  using Edge = QuadTreeEdge;

  // The portals of cell a, then those of cell b, skipping u itself.
  class out_edge_iterator : public OutEdgeFacade<out_edge_iterator, Edge> {
   public:
    out_edge_iterator() = default;
    out_edge_iterator(Vertex u, const Vertex* p, const Vertex* pend, const Vertex* q, const Vertex* qend,
                      std::uint32_t a = 0, std::uint32_t b = 0)
        : u_(u), p_(p), pend_(pend), q_(q), qend_(qend), cell_(a), cell_b_(b) {
      skip();
    }

   private:
    friend class boost::iterator_core_access;
    void skip() {  // past u, and from the first list into the second; at the end p_ is the second's end
      for (;;) {
        if (p_ == pend_) {
          if (q_ == qend_) {
            p_ = qend_;  // (the first list's end when the second is empty)
            return;
          }
          p_ = q_, pend_ = qend_, q_ = qend_, cell_ = cell_b_;
        } else if (*p_ == u_) {
          ++p_;
        } else {
          return;
        }
      }
    }
    Edge dereference() const { return {u_, *p_, cell_}; }
    void increment() {
      ++p_;
      skip();
    }
    bool equal(const out_edge_iterator& o) const { return p_ == o.p_; }
    Vertex u_ = 0;
    const Vertex *p_ = nullptr, *pend_ = nullptr, *q_ = nullptr, *qend_ = nullptr;
    std::uint32_t cell_ = 0, cell_b_ = 0;  // the cell of the list being read, and of the second list
  };

  friend std::pair<out_edge_iterator, out_edge_iterator> out_edges(Vertex u, const QuadTreeGraph& g) {
    const QuadTreePortal& p = g.portals[u];
    if (p.a == QuadTreePortal::kNone) return {};
    const auto &la = g.cell_portals[p.a], &lb = g.cell_portals[p.b];
    const Vertex* e = lb.data() + lb.size();
    return {out_edge_iterator(u, la.data(), la.data() + la.size(), lb.data(), e, p.a, p.b), out_edge_iterator(u, e, e, e, e)};
  }
  friend Vertex source(const Edge& e, const QuadTreeGraph&) { return e.u; }
  friend Vertex target(const Edge& e, const QuadTreeGraph&) { return e.v; }
  friend std::size_t out_degree(Vertex u, const QuadTreeGraph& g) {
    const QuadTreePortal& p = g.portals[u];
    return p.a == QuadTreePortal::kNone ? 0 : g.cell_portals[p.a].size() + g.cell_portals[p.b].size() - 2;
  }
  friend std::size_t num_vertices(const QuadTreeGraph& g) { return g.portals.size(); }

  std::size_t num_live_vertices() const { return portals.size() - free_ids.size(); }
  std::size_t num_edges() const {  // directed: a cell of k portals holds k (k - 1)
    std::size_t n = 0;
    for (const auto& l : cell_portals) n += l.size() * (l.size() - (l.empty() ? 0 : 1));
    return n;
  }
  std::size_t memory_bytes() const {
    std::size_t lists = cell_portals.capacity() * sizeof(cell_portals[0]);
    for (const auto& l : cell_portals)
      if (l.capacity() > kInline) lists += l.capacity() * sizeof(Vertex);  // spilled to the heap
    return portals.capacity() * sizeof(QuadTreePortal) + mid.capacity() * sizeof(Point) + lists +
           free_ids.capacity() * sizeof(Vertex);
  }

  std::vector<QuadTreePortal> portals;            // per vertex
  std::vector<Point> mid;                         // per vertex: the portal's midpoint (map units)
  // Per cell: its portals. Most cells have few, held inline: the search and the update read a
  // cell's list in the same cache line as its header (no pointer to chase).
  static constexpr std::size_t kInline = 6;
  using PortalList = boost::container::small_vector<Vertex, kInline>;
  std::vector<PortalList> cell_portals;
  std::vector<Vertex> free_ids;                   // removed portals' ids, reused first
  // A weighted map (docs/terrain.md): each cell's weight (cells are split until each has one), and
  // the cost of a segment along a cell side (both portals on one line: the cheaper side counts).
  std::vector<double> cell_weight;                 // empty: unweighted
  double (*side_cost)(const void*, Point, Point) = nullptr;
  const void* side_map = nullptr;
};

// Edge weights of the portal graph: the distance between the two midpoints; on a weighted map times
// the weight of the cell they cross (the segment's inside lies in that one convex cell), or, for
// two portals on one line (the segment runs along the cell's side), the path-cost integral.
struct QuadTreeWeightMap : EdgeWeightMap<QuadTreeEdge> {
  const QuadTreeGraph* g = nullptr;
  friend double get(const QuadTreeWeightMap& m, const QuadTreeGraph::Edge& e) {
    const Point a = m.g->mid[e.u], b = m.g->mid[e.v];
    const double dx = a.x - b.x, dy = a.y - b.y;
    const double len = std::sqrt(dx * dx + dy * dy);  // exact operands: no need for hypot's care
    if (m.g->cell_weight.empty()) return len;
    const QuadTreePortal &pu = m.g->portals[e.u], &pv = m.g->portals[e.v];
    if (pu.vertical == pv.vertical && pu.line == pv.line) return m.g->side_cost(m.g->side_map, a, b);
    return len * m.g->cell_weight[e.cell];
  }
};
inline QuadTreeWeightMap weight_map(const QuadTreeGraph& g) { return {{}, &g}; }

class QuadTree : public BuiltGraph<QuadTreeGraph>, public ConvexCellQueries<QuadTree> {
 public:
  // A free cell: the closed rectangle [min.x, max.x] x [min.y, max.y] in map units.
  struct Box {
    Point min, max;
  };

  QuadTree(const Map& map, Params& params);
  // The declaration (docs/adding-a-representation.md): what it does, and its parameters.
  static constexpr Capabilities kCapabilities{
      .weights = true, .corridor = true, .update_in_place = true, .update_approximate = true};
  static constexpr std::array kParams{
      ParamDecl{"min", ParamType::real, 1.0, 1e-9, 1e9, "smallest cell side (map units)"},
      ParamDecl{"merge", ParamType::flag, 1, 0, 1, "merge free cells into larger rectangles"},
      ParamDecl{"aspect", ParamType::real, 2.0, 1.0, 1e9, "largest side ratio of a merged cell"}};

  // --- the Representation contract ---
  Point position(Vertex v) const { return graph_.mid[v]; }
  std::optional<Attachment> attach(Point p) const;
  double direct_cost(const Query& q) const;  // the segment's length, or on a weighted map its cost
  std::optional<Corridor> corridor(const Query& q) const;
  BuildStats stats() const;
  // docs/changing-maps.md, grid maps: the free counts of the changed cells' ancestors are updated in a count
  // pyramid, only the subtrees whose free/mixed/blocked state changed are subdivided again, and
  // the merged cells that lost a leaf are taken apart and merged again together with the new
  // leaves; portals (the graph's edges) change only around those cells. The leaves equal a fresh
  // build's; the merged cells may differ (merging is a greedy sweep over the whole map) but tile
  // the same free space. Component labels as grid8's update: new cells unite their neighbours'
  // labels, a split keeps one label (different labels still prove there is no path).
  // False (rebuild) on polygon maps and when a quarter of the map or more changed.
  bool update(const Map& map, const std::vector<CellChange>& changed);
  // The cells' outlines, for path pictures.
  void structure(const SegmentSink& emit) const {
    for (std::uint32_t c = 0; c < cells_.size(); ++c) {
      if (dead(c)) continue;
      const Box b = cell_box(c);
      const Point p[4] = {b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}};
      for (int i = 0; i < 4; ++i) emit({p[i], p[(i + 1) % 4]});
    }
  }

  // --- inspection (tests, benchmarks, reports) ---
  std::size_t quadtree_leaves() const { return leaves_; }  // free leaves of the subdivision
  std::size_t cell_count() const { return cells_.size() - free_cells_.size(); }  // cells after merging
  // Ids run to cell_id_bound(); a removed cell (after an update) has an empty box.
  std::size_t cell_id_bound() const { return cells_.size(); }
  bool dead(std::uint32_t c) const { return cells_[c].x0 == cells_[c].x1; }
  // The free leaves of the subdivision as boxes, in a fixed order (tests: equal to a fresh build's).
  std::vector<Box> leaf_boxes() const;
  Box cell_box(std::uint32_t c) const;
  // The free cell holding p (descends the tree: O(depth)). On a boundary, the first free cell in
  // the directions (1,1), (1,-1), (-1,-1), (-1,1) from p: at a grid pinch point, its owner.
  std::optional<std::uint32_t> cell_at(Point p) const;
  // Cells sharing a boundary segment of positive length with c.
  std::vector<std::uint32_t> neighbours(std::uint32_t c) const;
  // Component label of cell c: different labels => no path. After updates the labels may
  // over-approximate (a split leaves one label; see update()).
  std::int32_t component(std::uint32_t c) const { return labels_.root(comp_[c]); }
  // Portal v (a live graph vertex): the two cells it joins and its segment (ends ordered by increasing x, then y).
  std::pair<std::uint32_t, std::uint32_t> portal_cells(Vertex v) const { return {graph_.portals[v].a, graph_.portals[v].b}; }
  std::pair<Point, Point> portal_segment(Vertex v) const;

 private:
  // Integer geometry: the root square is [0, side]^2 in units of unit_ map units from origin_.
  struct Rect {
    std::int32_t x0, y0, x1, y1;
  };
  using PortalRec = QuadTreePortal;
  // Tree slots: >= 0 an inner node whose 4 children are slots tree_[i..i+3] (order: low x low y,
  // high x low y, low x high y, high x high y); kBlocked; <= -2 a free leaf, id -(value + 2).
  static constexpr std::int32_t kBlocked = -1;
  static constexpr std::int32_t kPending = INT32_MIN;  // a new free leaf before its cell id is known
  static constexpr std::int64_t kRootSlot = -1;  // slot index of root_ (others index tree_)
  // A free leaf made by make_node, waiting for its cell id (written to its slot after merging).
  struct PendingLeaf {
    Rect r;
    std::int64_t slot;
  };

  void subdivide_grid(const GridMap& g);  // the minimum node size is min_size_
  void subdivide_polygon(const PolygonMap& pm, double min_size);
  void merge_cells(double aspect);
  void find_portals();
  void build_graph();
  Point world(double x, double y) const { return {origin_.x + x * unit_, origin_.y + y * unit_}; }
  Point midpoint(const PortalRec& p) const {  // the portal's midpoint in map units (its graph vertex)
    const double m = 0.5 * (double(p.lo) + double(p.hi));
    return p.vertical ? world(p.line, m) : world(m, p.line);
  }
  std::int64_t locate_slot(double u, double v, bool high_x, bool high_y, bool* tie_x, bool* tie_y) const;
  // Grid maps: free cells of the aligned node (x, y, s) from the count pyramid.
  std::int64_t free_count(std::int32_t x, std::int32_t y, std::int32_t s) const;
  std::int32_t& slot(std::int64_t i) { return i == kRootSlot ? root_ : tree_[std::size_t(i)]; }
  std::int32_t slot(std::int64_t i) const { return i == kRootSlot ? root_ : tree_[std::size_t(i)]; }
  std::int32_t alloc_group();
  // Subdivides node (x, y, s) from scratch into slot i (grid maps); free leaves go to pending_.
  void make_node(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s);
  // Update helpers (update.cpp): update()'s steps in order, then what they call.
  std::size_t update_pyramid(const GridMap& g, const std::vector<CellChange>& changed);
  void begin_update();
  std::size_t walk_dirty();
  void take_apart_removed(std::size_t new_leaves);
  void drop_removed_cells();
  void make_new_cells();
  void link_new_cells();
  void label_new_cells();
  void walk(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s);
  void release(std::int32_t v, std::int64_t s);
  // upd_.dirty: the nodes holding a changed cell, a bit per node per level (level k: nodes of side
  // 2^k), set by update() as it sums the pyramid. A dirty node's parent is dirty; the walk clears
  // every bit set. take_dirty clears node (x, y, s)'s bit and says whether it was set.
  bool take_dirty(std::int32_t x, std::int32_t y, std::int32_t s) {
    const int k = std::countr_zero(unsigned(s));
    const std::size_t i = std::size_t(y >> k) * std::size_t(side_ >> k) + std::size_t(x >> k);
    std::uint64_t& w = upd_.dirty[std::size_t(k)][i >> 6];
    const std::uint64_t b = std::uint64_t(1) << (i & 63);
    const bool was = w & b;
    w &= ~b;
    return was;
  }
  void clear_dirty_below(std::int32_t x, std::int32_t y, std::int32_t s);
  // Calls f(slot index, slot value, node) for every leaf or blocked slot whose node meets r.
  template <class F>
  void visit_leaves(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s, const Rect& r, F&& f) const;
  Vertex add_portal(const PortalRec& p);
  void paint(const Rect& r, std::int32_t id);  // upd_.owner of the grid cells on r's border ring
  void label_components();

  bool merge_ = true;
  double aspect_ = 2, min_size_ = 1;
  const GridMap* weighted_ = nullptr;              // a weighted grid map (docs/terrain.md), else null
  bool uniform(std::int32_t x, std::int32_t y, std::int32_t s) const;  // node (x, y, s) has one weight
  std::vector<std::uint8_t> free_;                // grid maps: our copy of the cells (1 free)
  std::vector<std::vector<std::uint32_t>> pyr_;    // grid maps: level k = free count of 2^k nodes
  std::vector<std::int32_t> free_groups_;          // released groups of 4 tree slots
  std::vector<PendingLeaf> pending_;
  std::vector<std::uint32_t> free_cells_;          // ids of removed cells
  // What only update() keeps (update.cpp), empty until the first update: a map that never
  // changes pays nothing. Scratch is kept between updates (no allocation per update).
  struct UpdateState {
    // The cell of each grid cell on a cell's border ring (the only grid cells an update reads:
    // those next to another cell). Elsewhere, and where a removed cell was, an id may be stale: a
    // reader checks that the id's box holds the grid cell.
    std::vector<std::int32_t> owner;
    std::vector<std::uint32_t> removed;             // cells that lost a leaf
    std::vector<std::uint8_t> cell_mark;            // per cell id: 1 removed, 3 new
    std::size_t released_leaves = 0;
    std::vector<std::uint64_t> gone_area;           // per removed cell: area of its released leaves
    std::vector<std::vector<std::uint64_t>> dirty;  // see take_dirty; all clear between updates
    std::vector<std::uint32_t> leaf_cell, fresh;    // per pending leaf: its merged rectangle; per rectangle: its cell
    std::vector<Rect> rects;                        // the pending leaves merged
  };
  UpdateState upd_;

  Point origin_{0, 0};
  double unit_ = 1;
  std::int32_t side_ = 1;          // root side in units (a power of two)
  std::int32_t width_ = 0, height_ = 0;  // grid maps: the map's size
  std::int32_t root_ = kBlocked;   // root slot
  std::vector<std::int32_t> tree_;
  std::size_t leaves_ = 0;
  std::vector<Rect> cells_;
  std::vector<std::int32_t> comp_;             // per cell: component label
  UnionFind labels_;                           // label -> its component (labels united by updates)
  // graph_ (inherited): the portals, their midpoints, each cell's portal list.
};

}  // namespace navbench
