// The quadtree's build (quadtree.hpp): the subdivision of a grid map, the merge of cells, the portals
// and the portal graph, the component labels. Polygon maps are subdivided in quadtree_polygon.cpp.
#include "representations/quadtree/quadtree.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "geometry/path_cost.hpp"
#include "representations/quadtree/internal.hpp"

namespace navbench {

using quadtree_detail::Keyed;
using quadtree_detail::merge_rects;
using quadtree_detail::radix_sort;

BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<QuadTreeGraph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<QuadTreeGraph>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<QuadTreeWeightMap, QuadTreeGraph::Edge>));
static_assert(Representation<QuadTree>);  // its declared features: make_entry checks them

QuadTree::QuadTree(const Map& map, Params& params) {
  const double min_size = params.real(param(kParams, "min"));
  const bool merge = params.flag(param(kParams, "merge"));
  const double aspect = params.real(param(kParams, "aspect"));
  params.finish("quadtree");
  merge_ = merge, aspect_ = aspect, min_size_ = min_size;
  if (map.weighted()) weighted_ = &map.grid;

  if (map.kind == MapKind::grid) subdivide_grid(map.grid);
  else subdivide_polygon(map.polygons, min_size);
  leaves_ = cells_.size();
  if (merge) merge_cells(aspect);
  find_portals();
  build_graph();
  if (weighted_) {  // docs/terrain.md: each cell's one weight, and the integral for a segment along a side
    graph_.cell_weight.resize(cells_.size());
    for (std::uint32_t c = 0; c < cells_.size(); ++c) graph_.cell_weight[c] = weighted_->weight(cells_[c].x0, cells_[c].y0);
    graph_.side_map = weighted_;
    graph_.side_cost = [](const void* m, Point a, Point b) { return segment_cost(*static_cast<const GridMap*>(m), a, b); };
  }
}

bool QuadTree::uniform(std::int32_t x, std::int32_t y, std::int32_t s) const {
  const double w = weighted_->weight(x, y);
  for (std::int32_t yy = y; yy < y + s; ++yy)
    for (std::int32_t xx = x; xx < x + s; ++xx)
      if (weighted_->weight(xx, yy) != w) return false;
  return true;
}

// --- subdivision on a grid map -----------------------------------------------------------------

void QuadTree::subdivide_grid(const GridMap& g) {
  if (g.width <= 0 || g.height <= 0) throw std::invalid_argument("quadtree: empty grid map");
  side_ = std::int32_t(std::bit_ceil(unsigned(std::max(g.width, g.height))));
  width_ = g.width, height_ = g.height;
  origin_ = {0, 0};
  unit_ = 1;
  // Count pyramid (the region quadtree's own "free pixel count" per node): level k holds the free
  // cells of every aligned 2^k square, so the free count of any node is one read, and a changed
  // cell updates one entry per level. Outside the map counts as blocked, so a node reaching past
  // the map edge is never free.
  free_.assign(g.cells.size(), 0);
  for (std::size_t i = 0; i < g.cells.size(); ++i) free_[i] = g.cells[i] != 0;
  const int levels = std::bit_width(unsigned(side_));  // sizes 1 .. side_
  pyr_.assign(std::size_t(levels), {});
  for (int k = 1; k < levels; ++k) {
    const std::size_t n = std::size_t(side_ >> k);
    auto& lv = pyr_[std::size_t(k)];
    lv.assign(n * n, 0);
    for (std::size_t y = 0; y < n; ++y)
      for (std::size_t x = 0; x < n; ++x) {
        std::uint32_t f = 0;
        for (int q = 0; q < 4; ++q)
          f += std::uint32_t(free_count(std::int32_t(2 * x + (q & 1)) << (k - 1), std::int32_t(2 * y + (q >> 1)) << (k - 1),
                                        std::int32_t(1) << (k - 1)));
        lv[y * n + x] = f;
      }
  }
  tree_.clear();
  free_groups_.clear();
  cells_.clear();
  pending_.clear();
  root_ = kBlocked;
  make_node(kRootSlot, 0, 0, side_);
  for (const PendingLeaf& l : pending_) {
    slot(l.slot) = -std::int32_t(cells_.size()) - 2;
    cells_.push_back(l.r);
  }
  pending_.clear();
}

std::int64_t QuadTree::free_count(std::int32_t x, std::int32_t y, std::int32_t s) const {
  if (s == 1)  // cells past the map edge (in the padding) are blocked
    return (x < width_ && y < height_) ? free_[std::size_t(y) * std::size_t(width_) + std::size_t(x)] : 0;
  const int k = std::countr_zero(unsigned(s));
  const std::size_t n = std::size_t(side_ >> k);
  return pyr_[std::size_t(k)][std::size_t(y >> k) * n + std::size_t(x >> k)];
}

std::int32_t QuadTree::alloc_group() {
  if (!free_groups_.empty()) {
    const std::int32_t b = free_groups_.back();
    free_groups_.pop_back();
    return b;
  }
  const std::size_t b = tree_.size();
  tree_.resize(b + 4, kBlocked);
  return std::int32_t(b);
}

// The node rule of the build: free -> a leaf, no free cell -> dropped, mixed -> split unless the
// children would be smaller than the minimum size (then dropped); a split node with nothing free
// below is dropped too.
void QuadTree::make_node(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s) {
  const std::int64_t f = free_count(x, y, s);
  slot(i) = kBlocked;
  if (f == 0) return;
  // A free node is a leaf, unless its cells weigh differently (weighted maps: split down to one
  // weight, below the minimum size if need be, so that no free space is dropped).
  const bool mixed_weights = f == std::int64_t(s) * s && weighted_ && !uniform(x, y, s);
  if (f == std::int64_t(s) * s && !mixed_weights) {
    pending_.push_back({{x, y, x + s, y + s}, i});
    slot(i) = kPending;
    return;
  }
  const std::int32_t h = s / 2;
  if (s == 1 || (h < min_size_ && !mixed_weights)) return;
  const std::int32_t b = alloc_group();
  make_node(b, x, y, h);
  make_node(b + 1, x + h, y, h);
  make_node(b + 2, x, y + h, h);
  make_node(b + 3, x + h, y + h, h);
  if (tree_[std::size_t(b)] == kBlocked && tree_[std::size_t(b) + 1] == kBlocked &&
      tree_[std::size_t(b) + 2] == kBlocked && tree_[std::size_t(b) + 3] == kBlocked) {
    free_groups_.push_back(b);  // nothing free below: forget the node
    return;
  }
  slot(i) = b;
}

// --- merging -------------------------------------------------------------------------------------

// Collapses runs of cells that share a whole side into rectangles, alternating horizontal and
// vertical passes until nothing merges. A pass sorts the cells by (row span, x) so that cells with
// the same y-extent lie in order along the row; a run is extended while the merged rectangle keeps
// max(w, h) <= aspect * min(w, h). Tree leaves are then redirected to the merged cells.
void QuadTree::merge_cells(double aspect) {
  std::vector<std::uint32_t> leaf_cell;
  merge_rects(cells_, leaf_cell, aspect, std::bit_width(unsigned(side_)), [this](const Rect& a, const Rect& b) {
    return !weighted_ || weighted_->weight(a.x0, a.y0) == weighted_->weight(b.x0, b.y0);
  });
  // Leaf ids in the tree become cell ids.
  auto fix = [&](std::int32_t& slot) {
    if (slot <= -2) slot = -std::int32_t(leaf_cell[std::size_t(-slot - 2)]) - 2;
  };
  fix(root_);
  for (auto& s : tree_) fix(s);
}

// --- neighbours ----------------------------------------------------------------------------------

// Neighbour finding by a sweep along each grid line: every cell contributes its two vertical sides
// (and, in a second round, its two horizontal sides), sorted by (line, side of the line, start).
// On one line the sides of cells to its left are disjoint intervals, and so are those of cells to
// its right; a two-pointer merge of the two sorted lists yields every overlap of positive length,
// i.e. every portal, in O(n) after the linear-time sort. Cells meeting only at a corner never
// overlap with positive length, so pinch points (docs/maps.md) do not connect.
void QuadTree::find_portals() {
  const int b = std::bit_width(unsigned(side_));
  graph_.portals.clear();
  std::vector<Keyed> items, tmp;
  for (const bool vertical : {true, false}) {
    items.clear();
    items.reserve(2 * cells_.size());
    for (std::uint32_t c = 0; c < cells_.size(); ++c) {
      const Rect& r = cells_[c];
      const std::uint64_t lo = vertical ? r.y0 : r.x0;
      const std::int32_t hi = vertical ? r.y1 : r.x1;
      const std::uint64_t low_side = vertical ? r.x1 : r.y1;   // the cell lies below this line
      const std::uint64_t high_side = vertical ? r.x0 : r.y0;  // the cell lies above this line
      items.push_back({(low_side << (b + 1)) | lo, c, hi});
      items.push_back({(high_side << (b + 1)) | (1ull << b) | lo, c, hi});
    }
    radix_sort(items, tmp, 2 * b + 1);
    const std::uint64_t line_mask = ~((1ull << (b + 1)) - 1);
    for (std::size_t i = 0; i < items.size();) {
      const std::uint64_t line = items[i].key & line_mask;
      std::size_t mid = i, end = i;
      while (end < items.size() && (items[end].key & line_mask) == line) ++end;
      while (mid < end && !((items[mid].key >> b) & 1)) ++mid;
      const std::uint64_t lo_mask = (1ull << b) - 1;
      for (std::size_t p = i, q = mid; p < mid && q < end;) {
        const std::int32_t plo = std::int32_t(items[p].key & lo_mask), qlo = std::int32_t(items[q].key & lo_mask);
        const std::int32_t lo = std::max(plo, qlo), hi = std::min(items[p].hi, items[q].hi);
        if (hi > lo)
          graph_.portals.push_back({items[p].cell, items[q].cell, std::int32_t(line >> (b + 1)), lo, hi, vertical});
        if (items[p].hi < items[q].hi) ++p;
        else if (items[q].hi < items[p].hi) ++q;
        else ++p, ++q;
      }
      i = end;
    }
  }
}

// --- the portal graph ----------------------------------------------------------------------------

void QuadTree::build_graph() {
  const std::size_t nc = cells_.size(), np = graph_.portals.size();
  if (np >= std::size_t(QuadTreeGraph::null_vertex())) throw std::invalid_argument("quadtree: too many portals");
  // Portals of each cell (the graph's edges are read from these lists: quadtree.hpp).
  graph_.cell_portals.assign(nc, {});
  for (Vertex v = 0; v < np; ++v) {
    graph_.cell_portals[graph_.portals[v].a].push_back(v);
    graph_.cell_portals[graph_.portals[v].b].push_back(v);
  }
  graph_.mid.resize(np);
  for (Vertex v = 0; v < np; ++v) graph_.mid[v] = midpoint(graph_.portals[v]);
  label_components();
}

// Components of the cell adjacency: queries across components are no_path at once.
void QuadTree::label_components() {
  const std::size_t nc = cells_.size();
  UnionFind sets(nc);
  for (const PortalRec& p : graph_.portals) sets.unite(std::int32_t(p.a), std::int32_t(p.b));  // in sweep order: neighbours
  comp_.assign(nc, -1);
  std::int32_t next = 0;
  for (std::uint32_t c = 0; c < nc; ++c) {
    if (dead(c)) continue;
    const auto r = std::uint32_t(sets.find(std::int32_t(c)));
    if (comp_[r] < 0) comp_[r] = next++;
    comp_[c] = comp_[r];
  }
  labels_.reset(std::size_t(next));
}

}  // namespace navbench
