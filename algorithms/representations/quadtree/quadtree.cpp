#include "representations/quadtree/quadtree.hpp"

#include "geometry/path_cost.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numeric>
#include <climits>
#include <stdexcept>

namespace navbench {

BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<QuadTreeGraph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<QuadTreeGraph>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<QuadTreeWeightMap, QuadTreeGraph::Edge>));
static_assert(Representation<QuadTree>);  // its declared features: make_entry checks them

namespace {

// An item to sort: a packed key and the cell it came from (plus the far end of an edge).
struct Keyed {
  std::uint64_t key;
  std::uint32_t cell;
  std::int32_t hi;
};

// LSD radix sort on the low `bits` bits of the key, 11 bits a pass: linear time, which keeps the
// merge and neighbour sweeps near-linear in the number of cells (no comparison sort).
void radix_sort(std::vector<Keyed>& v, std::vector<Keyed>& tmp, int bits) {
  constexpr int kDigit = 11;
  constexpr std::uint64_t kMask = (1u << kDigit) - 1;
  tmp.resize(v.size());
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::array<std::uint32_t, (1u << kDigit) + 1> count{};
    for (const Keyed& e : v) ++count[((e.key >> shift) & kMask) + 1];
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    for (const Keyed& e : v) tmp[count[(e.key >> shift) & kMask]++] = e;
    v.swap(tmp);
  }
}

}  // namespace

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

double QuadTree::direct_cost(const Query& q) const {
  return weighted_ ? segment_cost(*weighted_, q.start, q.goal) : distance(q.start, q.goal);
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

namespace {

// One merge (see merge_cells) of `cells`; leaf_cell maps each input index to its merged cell.
// same(a, b): rectangles a and b may become one cell (weighted maps: they weigh the same).
template <class Rect, class Same>
void merge_rects(std::vector<Rect>& cells, std::vector<std::uint32_t>& leaf_cell, double aspect, int b, Same&& same) {
  leaf_cell.resize(cells.size());
  std::iota(leaf_cell.begin(), leaf_cell.end(), 0u);
  std::vector<Keyed> items, tmp;
  std::vector<std::uint32_t> remap;
  std::vector<Rect> merged;
  auto ok = [aspect](std::int64_t w, std::int64_t h) {
    return double(std::max(w, h)) <= aspect * double(std::min(w, h));
  };
  for (int idle = 0, pass = 0; idle < 2; ++pass) {
    const bool horizontal = pass % 2 == 0;
    items.resize(cells.size());
    for (std::uint32_t c = 0; c < cells.size(); ++c) {
      const Rect& r = cells[c];
      const std::uint64_t lo = horizontal ? r.y0 : r.x0, hi = horizontal ? r.y1 : r.x1;
      const std::uint64_t at = horizontal ? r.x0 : r.y0;
      items[c] = {(lo << (2 * b)) | (hi << b) | at, c, 0};
    }
    // keys are distinct (cells are disjoint): any sort gives the order of the build
    if (items.size() < 2048) std::sort(items.begin(), items.end(), [](const Keyed& p, const Keyed& q) { return p.key < q.key; });
    else radix_sort(items, tmp, 3 * b);
    remap.assign(cells.size(), 0);
    merged.clear();
    bool changed = false;
    for (std::size_t i = 0; i < items.size();) {
      Rect cur = cells[items[i].cell];
      remap[items[i].cell] = std::uint32_t(merged.size());
      std::size_t j = i + 1;
      for (; j < items.size(); ++j) {
        const Rect& n = cells[items[j].cell];
        if (horizontal) {
          if (n.y0 != cur.y0 || n.y1 != cur.y1 || n.x0 != cur.x1 || !ok(n.x1 - cur.x0, cur.y1 - cur.y0) || !same(cur, n)) break;
          cur.x1 = n.x1;
        } else {
          if (n.x0 != cur.x0 || n.x1 != cur.x1 || n.y0 != cur.y1 || !ok(cur.x1 - cur.x0, n.y1 - cur.y0) || !same(cur, n)) break;
          cur.y1 = n.y1;
        }
        remap[items[j].cell] = std::uint32_t(merged.size());
        changed = true;
      }
      merged.push_back(cur);
      i = j;
    }
    cells.swap(merged);
    for (auto& c : leaf_cell) c = remap[c];
    idle = changed ? 0 : idle + 1;
  }
}

}  // namespace

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

// --- queries -------------------------------------------------------------------------------------

std::int64_t QuadTree::locate_slot(double u, double v, bool high_x, bool high_y, bool* tie_x, bool* tie_y) const {
  std::int32_t slot = root_, x = 0, y = 0, s = side_;
  while (slot >= 0) {
    s /= 2;
    const double mx = x + s, my = y + s;
    if (u == mx) *tie_x = true;
    if (v == my) *tie_y = true;
    const bool hx = u > mx || (u == mx && high_x), hy = v > my || (v == my && high_y);
    if (hx) x += s;
    if (hy) y += s;
    slot = tree_[std::size_t(slot) + (hx ? 1 : 0) + (hy ? 2 : 0)];
  }
  return slot;
}

std::optional<std::uint32_t> QuadTree::cell_at(Point p) const {
  const double u = (p.x - origin_.x) / unit_, v = (p.y - origin_.y) / unit_;
  if (!(u >= 0 && v >= 0 && u <= side_ && v <= side_)) return std::nullopt;  // also rejects NaN
  // On a line between nodes the point belongs to the closed cells on both sides: try the other
  // side (or the other quadrants at a corner) only when the first choice is not free. The order
  // of the quadrants, directions (1,1), (1,-1), (-1,-1), (-1,1), gives a pinch point to the sector
  // that owns it in FreeSpace (free_space.hpp): on grids cell (x, y), else cell (x, y - 1).
  // A tie on an axis shows up only on a descent that reaches that level, so a quadrant skipped
  // for want of a tie is tried again once a later descent has found it.
  bool tx = false, ty = false;
  constexpr bool kHighX[4] = {true, true, false, false}, kHighY[4] = {true, false, false, true};
  bool tried[4] = {};
  for (int round = 0; round < 2; ++round)
    for (int k = 0; k < 4; ++k) {
      if (tried[k] || (!kHighX[k] && !tx) || (!kHighY[k] && !ty)) continue;  // no tie: same cell
      tried[k] = true;
      const std::int64_t slot = locate_slot(u, v, kHighX[k], kHighY[k], &tx, &ty);
      if (slot <= -2) return std::uint32_t(-slot - 2);
    }
  return std::nullopt;
}

std::optional<Attachment> QuadTree::attach(Point p) const {
  const auto c = cell_at(p);
  if (!c) return std::nullopt;
  Attachment a;
  a.cell = *c;
  a.component = component(*c);
  a.links.reserve(graph_.cell_portals[*c].size());
  for (const Vertex w : graph_.cell_portals[*c])
    a.links.push_back({w, weighted_ ? segment_cost(*weighted_, p, graph_.mid[w]) : distance(p, graph_.mid[w])});
  return a;
}

// The cells along the path: the start cell, then for each consecutive pair of portals the one cell
// holding both (a pair of cells shares at most one portal, so it is unique), then the goal cell.
// Portal i is crossed from cell i-1 into cell i; a portal touched and left back into the same cell
// is not crossed and is skipped. Left/right: `left` is the end on the counter-clockwise side of the
// walking direction d, i.e. cross(d, left - right) > 0 (CGAL::left_turn in x-right, y-up axes).
std::optional<Corridor> QuadTree::corridor(const Query& q) const {
  if (q.s.cell < 0 || q.g.cell < 0) return std::nullopt;
  Corridor out;
  if (q.path.empty()) return out;
  std::uint32_t prev = std::uint32_t(q.s.cell);
  for (std::size_t i = 0; i < q.path.size(); ++i) {
    const PortalRec& p = graph_.portals[q.path[i]];
    std::uint32_t next;
    if (i + 1 < q.path.size()) {
      const PortalRec& n = graph_.portals[q.path[i + 1]];
      next = (p.a == n.a || p.a == n.b) ? p.a : p.b;
    } else {
      next = std::uint32_t(q.g.cell);
    }
    if ((prev != p.a && prev != p.b) || (next != p.a && next != p.b)) return std::nullopt;  // not a path
    if (next != prev) {
      const bool forward = prev == p.a;  // walking from the low side of the line to the high side
      const Point lo = p.vertical ? world(p.line, p.lo) : world(p.lo, p.line);
      const Point hi = p.vertical ? world(p.line, p.hi) : world(p.hi, p.line);
      // Vertical line, walking +x: +y is on the left. Horizontal line, walking +y: -x is on the left.
      const bool hi_is_left = p.vertical == forward;
      out.push_back(hi_is_left ? Portal{hi, lo} : Portal{lo, hi});
    }
    prev = next;
  }
  return out;
}

QuadTree::Box QuadTree::cell_box(std::uint32_t c) const {
  const Rect& r = cells_[c];
  return {world(r.x0, r.y0), world(r.x1, r.y1)};
}

std::vector<std::uint32_t> QuadTree::neighbours(std::uint32_t c) const {
  std::vector<std::uint32_t> out;
  for (const Vertex v : graph_.cell_portals[c]) {
    const PortalRec& p = graph_.portals[v];
    out.push_back(p.a == c ? p.b : p.a);
  }
  return out;
}

std::pair<Point, Point> QuadTree::portal_segment(Vertex v) const {
  const PortalRec& p = graph_.portals[v];
  if (p.vertical) return {world(p.line, p.lo), world(p.line, p.hi)};
  return {world(p.lo, p.line), world(p.hi, p.line)};
}

BuildStats QuadTree::stats() const {
  BuildStats s;
  s.vertices = graph_.num_live_vertices();
  s.edges = graph_.num_edges();
  std::size_t pyramid = free_.capacity();
  for (const auto& l : pyr_) pyramid += l.capacity() * sizeof(std::uint32_t);
  pyramid += owner_.capacity() * sizeof(std::int32_t);
  for (const auto& l : dirty_) pyramid += l.capacity() * sizeof(std::uint64_t);
  s.memory_bytes = graph_.memory_bytes() + tree_.capacity() * sizeof(std::int32_t) +
                   cells_.capacity() * sizeof(Rect) + comp_.capacity() * sizeof(std::int32_t) + labels_.memory_bytes() + pyramid;
  return s;
}

// --- updates (docs/changing-maps.md) ------------------------------------------------------------------------

std::vector<QuadTree::Box> QuadTree::leaf_boxes() const {
  std::vector<Box> out;
  visit_leaves(kRootSlot, 0, 0, side_, Rect{0, 0, side_, side_}, [&](std::int64_t, std::int32_t v, const Rect& n) {
    if (v <= -2) out.push_back({world(n.x0, n.y0), world(n.x1, n.y1)});
  });
  return out;
}

template <class F>
void QuadTree::visit_leaves(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s, const Rect& r, F&& f) const {
  // Down to the smallest node holding all of r first, then every leaf below it meeting r.
  for (std::int32_t v = slot(i); v >= 0; v = slot(i)) {
    const std::int32_t h = s / 2;
    const int qx = r.x0 >= x + h ? 1 : r.x1 <= x + h ? 0 : -1, qy = r.y0 >= y + h ? 1 : r.y1 <= y + h ? 0 : -1;
    if (qx < 0 || qy < 0) break;
    i = v + qx + 2 * qy, x += qx * h, y += qy * h, s = h;
  }
  struct Item {
    std::int64_t i;
    std::int32_t x, y, s;
  };
  Item stack[4 * 32];
  int top = 0;
  stack[top++] = {i, x, y, s};
  while (top > 0) {
    const Item n = stack[--top];
    const std::int32_t v = slot(n.i);
    if (v < 0) {
      f(n.i, v, Rect{n.x, n.y, n.x + n.s, n.y + n.s});
      continue;
    }
    const std::int32_t h = n.s / 2;
    for (int q = 3; q >= 0; --q) {  // pushed in reverse: children visited in order 0..3
      const std::int32_t cx = n.x + (q & 1 ? h : 0), cy = n.y + (q & 2 ? h : 0);
      if (cx < r.x1 && cx + h > r.x0 && cy < r.y1 && cy + h > r.y0) stack[top++] = {v + q, cx, cy, h};
    }
  }
}

// An old subtree of side s goes: its groups are freed, the cells of its leaves are marked
// removed, with the area of their leaves that went (a cell whose leaves all went needs no search).
void QuadTree::release(std::int32_t v, std::int64_t s) {
  if (v == kBlocked) return;
  if (v <= -2) {
    ++released_leaves_;
    const auto c = std::uint32_t(-std::int64_t(v) - 2);
    if (!cell_mark_[c]) {
      cell_mark_[c] = 1;
      removed_.push_back(c);
      gone_area_[c] = 0;
    }
    gone_area_[c] += std::uint64_t(s * s);
    return;
  }
  for (int q = 0; q < 4; ++q) release(tree_[std::size_t(v) + q], s / 2);
  free_groups_.push_back(v);
}

void QuadTree::clear_dirty_below(std::int32_t x, std::int32_t y, std::int32_t s) {
  const std::int32_t h = s / 2;
  if (h == 0) return;
  for (int q = 0; q < 4; ++q) {
    const std::int32_t cx = x + (q & 1 ? h : 0), cy = y + (q & 2 ? h : 0);
    if (take_dirty(cx, cy, h)) clear_dirty_below(cx, cy, h);
  }
}

// Node (x, y, s) holds a changed cell (its dirty bit, taken by the caller). A node that was split
// and still is keeps its clean children; any other node is subdivided again from scratch.
void QuadTree::walk(std::int64_t i, std::int32_t x, std::int32_t y, std::int32_t s) {
  const std::int32_t old = slot(i);
  const std::int64_t f = free_count(x, y, s);
  const bool split = f > 0 && f < std::int64_t(s) * s && s > 1 && s / 2 >= min_size_;
  if (old >= 0 && split) {
    const std::int32_t h = s / 2;
    for (int q = 0; q < 4; ++q) {
      const std::int32_t cx = x + (q & 1 ? h : 0), cy = y + (q & 2 ? h : 0);
      if (take_dirty(cx, cy, h)) walk(old + q, cx, cy, h);
    }
    const std::size_t g = std::size_t(old);
    if (tree_[g] == kBlocked && tree_[g + 1] == kBlocked && tree_[g + 2] == kBlocked && tree_[g + 3] == kBlocked) {
      free_groups_.push_back(old);  // nothing free below: forget the node (the build's rule)
      slot(i) = kBlocked;
    }
    return;
  }
  release(old, s);
  make_node(i, x, y, s);
  clear_dirty_below(x, y, s);
}

void QuadTree::paint(const Rect& r, std::int32_t id) {
  // (a cell lies inside the map: its leaves are free)
  auto at = [&](std::int32_t x, std::int32_t y) { return std::size_t(y) * std::size_t(width_) + std::size_t(x); };
  std::fill_n(owner_.begin() + std::ptrdiff_t(at(r.x0, r.y0)), r.x1 - r.x0, id);
  if (r.y1 - 1 > r.y0) std::fill_n(owner_.begin() + std::ptrdiff_t(at(r.x0, r.y1 - 1)), r.x1 - r.x0, id);
  for (std::int32_t y = r.y0 + 1; y < r.y1 - 1; ++y) owner_[at(r.x0, y)] = owner_[at(r.x1 - 1, y)] = id;
}

Vertex QuadTree::add_portal(const PortalRec& p) {
  Vertex v;
  if (!graph_.free_ids.empty()) {
    v = graph_.free_ids.back();
    graph_.free_ids.pop_back();
  } else {
    v = Vertex(graph_.portals.size());
    if (v == QuadTreeGraph::null_vertex()) throw std::invalid_argument("quadtree: too many portals");
    graph_.portals.emplace_back();
    graph_.mid.emplace_back();
  }
  graph_.portals[v] = p;
  graph_.mid[v] = midpoint(p);
  graph_.cell_portals[p.a].push_back(v);
  graph_.cell_portals[p.b].push_back(v);
  return v;
}

bool QuadTree::update(const Map& map, const std::vector<CellChange>& changed) {
  if (pyr_.empty() || map.kind != MapKind::grid || map.grid.width != width_ || map.grid.height != height_) return false;
  // A large change (the base map placed on the empty one) is cheaper to build afresh.
  if (changed.size() * 4 > std::size_t(width_) * std::size_t(height_)) return false;
  // 1. Our copy of the cells and the count pyramid; every node holding a cell that really changed
  // is marked dirty. A patch changes cells in runs, so the deltas of consecutive cells under one
  // node are summed first: a level's entry is written (and marked) when the run leaves its node
  // (mostly level 1 only).
  const std::size_t levels = pyr_.size();
  if (dirty_.empty()) {
    dirty_.resize(levels);
    for (std::size_t k = 0; k < levels; ++k) dirty_[k].assign((std::size_t(side_ >> k) * std::size_t(side_ >> k) + 63) / 64, 0);
  }
  std::size_t touched = 0;
  std::array<std::size_t, 32> node;  // per level: the node whose delta is being summed
  std::array<std::int64_t, 32> sum{};
  node.fill(SIZE_MAX);
  // Raw pointers and sizes in locals: the byte writes to free_ may alias anything, so members and
  // vector data would be read again after each.
  std::array<std::uint32_t*, 32> pyr;
  std::array<std::uint64_t*, 32> dirty;
  for (std::size_t k = 0; k < levels; ++k) pyr[k] = pyr_[k].data(), dirty[k] = dirty_[k].data();
  std::uint8_t* const fr = free_.data();
  const std::uint8_t* const cells = map.grid.cells.data();
  const std::size_t width = std::size_t(width_), side = std::size_t(side_);
  auto flush = [&](std::size_t k) {  // writes level k's sum and hands it on to the parent's
    pyr[k][node[k]] += std::uint32_t(sum[k]);
    if (k + 1 < levels) sum[k + 1] += sum[k];
    sum[k] = 0;
  };
  auto mark = [&](std::size_t k, std::size_t i) { dirty[k][i >> 6] |= std::uint64_t(1) << (i & 63); };  // a dirty bit
  for (const CellChange& c : changed) {
    const std::size_t x = std::size_t(c.x), y = std::size_t(c.y), at = y * width + x;
    const std::uint8_t now = cells[at] != 0;  // the map's value: a cell may be listed twice
    if (fr[at] == now) continue;
    fr[at] = now;
    for (std::size_t k = 1; k < levels; ++k) {  // bottom up; the node's ancestors stay when it stays
      const std::size_t i = (y >> k) * (side >> k) + (x >> k);
      if (i == node[k]) break;
      if (node[k] != SIZE_MAX) flush(k);
      node[k] = i;
      mark(k, i);
    }
    sum[1] += now ? 1 : -1;
    mark(0, y * side + x);
    ++touched;
  }
  for (std::size_t k = 1; k < levels; ++k)
    if (node[k] != SIZE_MAX) flush(k);
  if (touched == 0) return true;
  if (owner_.empty()) {  // the first update: the owner of every grid cell
    owner_.assign(std::size_t(width_) * std::size_t(height_), -1);
    for (std::uint32_t c = 0; c < cells_.size(); ++c)
      if (!dead(c)) paint(cells_[c], std::int32_t(c));
  }
  cell_mark_.assign(cells_.size(), 0);  // 1 removed, 3 new
  removed_.clear();
  released_leaves_ = 0;
  pending_.clear();

  // 2. The tree: new leaves go to pending_, the cells of dropped leaves to removed_.
  if (gone_area_.size() < cells_.size()) gone_area_.resize(cells_.size());
  take_dirty(0, 0, side_);
  walk(kRootSlot, 0, 0, side_);
  const std::size_t new_leaves = pending_.size();
  leaves_ = leaves_ + new_leaves - released_leaves_;
  released_leaves_ = 0;

  // 3. A merged cell that lost a leaf is taken apart: its other leaves are merged again.
  for (const std::uint32_t d : removed_) {
    const Rect& r = cells_[d];
    if (gone_area_[d] == std::uint64_t(r.x1 - r.x0) * std::uint64_t(r.y1 - r.y0)) continue;  // no leaf left
    const std::int32_t id = -std::int32_t(d) - 2;
    visit_leaves(kRootSlot, 0, 0, side_, cells_[d], [&](std::int64_t i, std::int32_t v, const Rect& n) {
      if (v == id) pending_.push_back({n, i});
    });
  }
  for (std::size_t k = new_leaves; k < pending_.size(); ++k) slot(pending_[k].slot) = kPending;

  // 4. The removed cells' portals go (from their other cells' lists too).
  constexpr std::uint32_t kDeadPortal = QuadTreePortal::kNone;
  for (const std::uint32_t d : removed_) {
    for (const Vertex v : graph_.cell_portals[d]) {
      PortalRec& p = graph_.portals[v];
      if (p.a == kDeadPortal) continue;  // both cells removed: already gone
      const std::uint32_t other = p.a == d ? p.b : p.a;
      if (cell_mark_[other] != 1) {
        auto& l = graph_.cell_portals[other];
        *std::find(l.begin(), l.end(), v) = l.back();  // order within a list is free
        l.pop_back();
      }
      p.a = p.b = kDeadPortal;
      graph_.free_ids.push_back(v);
    }
    graph_.cell_portals[d].clear();  // its ring keeps its id in owner_: step 6 checks an owner's box
    cells_[d] = Rect{0, 0, 0, 0};
    free_cells_.push_back(d);
  }

  // 5. Merge the pending leaves (the build's merge, on this set only) into new cells.
  std::vector<Rect>& rects = rects_;
  rects.resize(pending_.size());
  for (std::size_t k = 0; k < pending_.size(); ++k) rects[k] = pending_[k].r;
  std::vector<std::uint32_t>& leaf_cell = leaf_cell_;
  leaf_cell.resize(rects.size());
  std::iota(leaf_cell.begin(), leaf_cell.end(), 0u);
  if (merge_) merge_rects(rects, leaf_cell, aspect_, std::bit_width(unsigned(side_)), [](const Rect&, const Rect&) { return true; });
  std::vector<std::uint32_t>& fresh = fresh_;
  fresh.resize(rects.size());
  for (std::size_t k = 0; k < rects.size(); ++k) {
    std::uint32_t c;
    if (!free_cells_.empty()) {
      c = free_cells_.back();
      free_cells_.pop_back();
    } else {
      c = std::uint32_t(cells_.size());
      cells_.emplace_back();
      graph_.cell_portals.emplace_back();
      cell_mark_.push_back(0);
    }
    cells_[c] = rects[k];
    cell_mark_[c] = 3;
    fresh[k] = c;
  }
  for (std::size_t k = 0; k < pending_.size(); ++k) slot(pending_[k].slot) = -std::int32_t(fresh[leaf_cell[k]]) - 2;
  for (const std::uint32_t c : fresh) paint(cells_[c], std::int32_t(c));

  // 6. Portals of the new cells: the owners of the grid cells just outside each side (a cell
  // meets a straight strip in one run, so the scan jumps from a neighbour to its far side: one read
  // per neighbour and per uncovered grid cell). A portal between two new
  // cells is made from the lower id.
  for (const std::uint32_t c : fresh) {
    const Rect r = cells_[c];
    for (int side = 0; side < 4; ++side) {
      const bool vertical = side < 2, high = side % 2 == 0;  // 0 +x, 1 -x, 2 +y, 3 -y
      const std::int32_t line = vertical ? (high ? r.x1 : r.x0) : (high ? r.y1 : r.y0);
      const std::int32_t out = high ? line : line - 1;  // the row or column just outside
      if (out < 0 || out >= (vertical ? width_ : height_)) continue;
      const std::int32_t from = vertical ? r.y0 : r.x0, to = vertical ? r.y1 : r.x1;
      for (std::int32_t k = from; k < to;) {
        const std::int32_t n = vertical ? owner_[std::size_t(k) * std::size_t(width_) + std::size_t(out)]
                                        : owner_[std::size_t(out) * std::size_t(width_) + std::size_t(k)];
        if (n < 0) {
          ++k;
          continue;
        }
        const auto u = std::uint32_t(n);
        const Rect& o = cells_[u];
        const std::int32_t ox = vertical ? out : k, oy = vertical ? k : out;
        if (ox < o.x0 || ox >= o.x1 || oy < o.y0 || oy >= o.y1) {  // a removed cell's stale id: not covered
          ++k;
          continue;
        }
        k = vertical ? o.y1 : o.x1;  // the strip is u's up to u's far side
        if (cell_mark_[u] == 3 && u < c) continue;  // made from u's side
        const std::int32_t lo = vertical ? std::max(r.y0, o.y0) : std::max(r.x0, o.x0);
        const std::int32_t hi = vertical ? std::min(r.y1, o.y1) : std::min(r.x1, o.x1);
        if (hi <= lo) continue;
        add_portal({high ? c : u, high ? u : c, line, lo, hi, vertical});
      }
    }
  }

  // 7. Component labels (representations/union_find.hpp): a new cell takes its neighbours' labels, united.
  if (comp_.size() < cells_.size()) comp_.resize(cells_.size(), -1);
  for (const std::uint32_t c : fresh) comp_[c] = -1;
  for (const std::uint32_t c : fresh) {
    std::int32_t root = -1;
    for (const Vertex v : graph_.cell_portals[c]) {
      const std::uint32_t n = graph_.portals[v].a == c ? graph_.portals[v].b : graph_.portals[v].a;
      if (comp_[n] < 0) continue;  // a new cell not labelled yet: it unites with c when its turn comes
      root = root < 0 ? labels_.find(comp_[n]) : labels_.unite(comp_[n], root);
    }
    if (root < 0) root = labels_.add();
    comp_[c] = root;
  }
  labels_.flatten();
  removed_.clear();
  pending_.clear();
  return true;
}

}  // namespace navbench
