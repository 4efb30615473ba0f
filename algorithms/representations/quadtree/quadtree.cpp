#include "representations/quadtree/quadtree.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace navbench {

static_assert(Representation<QuadTree> && HasCorridor<QuadTree>);

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

// Union-find with path halving, for the connected components of the cell adjacency.
struct DisjointSets {
  std::vector<std::uint32_t> parent;
  explicit DisjointSets(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) { parent[find(a)] = find(b); }
};

}  // namespace

QuadTree::QuadTree(const Map& map, Params& params) {
  const double min_size = params.get_double("min", 1.0, 1e-9, 1e9);
  const bool merge = params.get_bool("merge", true);
  const double aspect = params.get_double("aspect", 2.0, 1.0, 1e9);
  params.finish("quadtree");

  if (map.kind == MapKind::grid) subdivide_grid(map.grid, min_size);
  else subdivide_polygon(map.polygons, min_size);
  leaves_ = cells_.size();
  if (merge) merge_cells(aspect);
  find_portals();
  build_graph();
}

// --- subdivision on a grid map -----------------------------------------------------------------

void QuadTree::subdivide_grid(const GridMap& g, double min_size) {
  if (g.width <= 0 || g.height <= 0) throw std::invalid_argument("quadtree: empty grid map");
  side_ = std::int32_t(std::bit_ceil(unsigned(std::max(g.width, g.height))));
  origin_ = {0, 0};
  unit_ = 1;
  // Summed-area table of free cells: the free count of any node is four reads. Outside the map
  // counts as blocked, so a node reaching past the map edge is never free.
  const std::size_t W = std::size_t(g.width) + 1;
  std::vector<std::uint32_t> sat(W * (std::size_t(g.height) + 1), 0);
  for (int y = 0; y < g.height; ++y) {
    std::uint32_t row = 0;
    for (int x = 0; x < g.width; ++x) {
      row += g.cells[std::size_t(y) * g.width + x] != 0;
      sat[(std::size_t(y) + 1) * W + x + 1] = sat[std::size_t(y) * W + x + 1] + row;
    }
  }
  auto free_count = [&](std::int32_t x0, std::int32_t y0, std::int32_t s) -> std::int64_t {
    const std::int32_t x1 = std::min(x0 + s, g.width), y1 = std::min(y0 + s, g.height);
    if (x0 >= x1 || y0 >= y1) return 0;
    return std::int64_t(sat[std::size_t(y1) * W + x1]) - sat[std::size_t(y0) * W + x1] -
           sat[std::size_t(y1) * W + x0] + sat[std::size_t(y0) * W + x0];
  };
  tree_.clear();
  cells_.clear();
  // Returns the slot value of node (x, y, s).
  auto node = [&](auto&& self, std::int32_t x, std::int32_t y, std::int32_t s) -> std::int32_t {
    const std::int64_t f = free_count(x, y, s);
    if (f == 0) return kBlocked;
    if (f == std::int64_t(s) * s) {
      cells_.push_back({x, y, x + s, y + s});
      return -std::int32_t(cells_.size()) - 1;
    }
    // Mixed: split unless the children would be smaller than the minimum size (then drop).
    const std::int32_t h = s / 2;
    if (s == 1 || h < min_size) return kBlocked;
    const std::size_t b = tree_.size();
    tree_.resize(b + 4);
    const std::int32_t c0 = self(self, x, y, h), c1 = self(self, x + h, y, h);
    const std::int32_t c2 = self(self, x, y + h, h), c3 = self(self, x + h, y + h, h);
    if (c0 == kBlocked && c1 == kBlocked && c2 == kBlocked && c3 == kBlocked) {
      tree_.resize(b);  // nothing free below: forget the node
      return kBlocked;
    }
    tree_[b] = c0, tree_[b + 1] = c1, tree_[b + 2] = c2, tree_[b + 3] = c3;
    return std::int32_t(b);
  };
  root_ = node(node, 0, 0, side_);
}

// --- merging -------------------------------------------------------------------------------------

// Collapses runs of cells that share a whole side into rectangles, alternating horizontal and
// vertical passes until nothing merges. A pass sorts the cells by (row span, x) so that cells with
// the same y-extent lie in order along the row; a run is extended while the merged rectangle keeps
// max(w, h) <= aspect * min(w, h). Tree leaves are then redirected to the merged cells.
void QuadTree::merge_cells(double aspect) {
  const int b = std::bit_width(unsigned(side_));
  std::vector<std::uint32_t> leaf_cell(cells_.size());
  std::iota(leaf_cell.begin(), leaf_cell.end(), 0u);
  std::vector<Keyed> items, tmp;
  std::vector<std::uint32_t> remap;
  std::vector<Rect> merged;
  auto ok = [aspect](std::int64_t w, std::int64_t h) {
    return double(std::max(w, h)) <= aspect * double(std::min(w, h));
  };
  for (int idle = 0, pass = 0; idle < 2; ++pass) {
    const bool horizontal = pass % 2 == 0;
    items.resize(cells_.size());
    for (std::uint32_t c = 0; c < cells_.size(); ++c) {
      const Rect& r = cells_[c];
      const std::uint64_t lo = horizontal ? r.y0 : r.x0, hi = horizontal ? r.y1 : r.x1;
      const std::uint64_t at = horizontal ? r.x0 : r.y0;
      items[c] = {(lo << (2 * b)) | (hi << b) | at, c, 0};
    }
    radix_sort(items, tmp, 3 * b);
    remap.assign(cells_.size(), 0);
    merged.clear();
    bool changed = false;
    for (std::size_t i = 0; i < items.size();) {
      Rect cur = cells_[items[i].cell];
      remap[items[i].cell] = std::uint32_t(merged.size());
      std::size_t j = i + 1;
      for (; j < items.size(); ++j) {
        const Rect& n = cells_[items[j].cell];
        if (horizontal) {
          if (n.y0 != cur.y0 || n.y1 != cur.y1 || n.x0 != cur.x1 || !ok(n.x1 - cur.x0, cur.y1 - cur.y0)) break;
          cur.x1 = n.x1;
        } else {
          if (n.x0 != cur.x0 || n.x1 != cur.x1 || n.y0 != cur.y1 || !ok(cur.x1 - cur.x0, n.y1 - cur.y0)) break;
          cur.y1 = n.y1;
        }
        remap[items[j].cell] = std::uint32_t(merged.size());
        changed = true;
      }
      merged.push_back(cur);
      i = j;
    }
    cells_.swap(merged);
    for (auto& c : leaf_cell) c = remap[c];
    idle = changed ? 0 : idle + 1;
  }
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
// overlap with positive length, so pinch points (SPEC §1) do not connect.
void QuadTree::find_portals() {
  const int b = std::bit_width(unsigned(side_));
  portals_.clear();
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
          portals_.push_back({items[p].cell, items[q].cell, std::int32_t(line >> (b + 1)), lo, hi, vertical});
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
  const std::size_t nc = cells_.size(), np = portals_.size();
  if (np >= std::size_t(QuadTreeGraph::null_vertex())) throw std::invalid_argument("quadtree: too many portals");
  // Components of the cell adjacency: queries across components are no_path at once.
  DisjointSets sets(nc);
  for (const PortalRec& p : portals_) sets.unite(p.a, p.b);
  comp_.assign(nc, -1);
  std::int32_t next = 0;
  for (std::uint32_t c = 0; c < nc; ++c) {
    const std::uint32_t r = sets.find(c);
    if (comp_[r] < 0) comp_[r] = next++;
    comp_[c] = comp_[r];
  }
  // Portals of each cell (CSR).
  cell_first_.assign(nc + 1, 0);
  for (const PortalRec& p : portals_) ++cell_first_[p.a + 1], ++cell_first_[p.b + 1];
  for (std::size_t c = 0; c < nc; ++c) cell_first_[c + 1] += cell_first_[c];
  cell_portals_.resize(cell_first_[nc]);
  {
    std::vector<std::uint32_t> fill(cell_first_.begin(), cell_first_.end() - 1);
    for (Vertex v = 0; v < np; ++v) {
      cell_portals_[fill[portals_[v].a]++] = v;
      cell_portals_[fill[portals_[v].b]++] = v;
    }
  }
  mid_.resize(np);
  for (Vertex v = 0; v < np; ++v) {
    const PortalRec& p = portals_[v];
    const double m = 0.5 * (double(p.lo) + double(p.hi));
    mid_[v] = p.vertical ? world(p.line, m) : world(m, p.line);
  }
  // Each portal links to every other portal of its two cells (both cells are convex, so the
  // segment between two portal midpoints of one cell stays inside it); cost = midpoint distance.
  auto degree = [&](std::uint32_t c) { return cell_first_[c + 1] - cell_first_[c]; };
  std::vector<std::uint32_t> offsets(np + 1, 0);
  for (Vertex v = 0; v < np; ++v)
    offsets[v + 1] = offsets[v] + degree(portals_[v].a) + degree(portals_[v].b) - 2;
  std::vector<Vertex> targets(offsets[np]);
  std::vector<double> weights(offsets[np]);
  for (Vertex v = 0; v < np; ++v) {
    std::uint32_t k = offsets[v];
    for (const std::uint32_t c : {portals_[v].a, portals_[v].b})
      for (std::uint32_t i = cell_first_[c]; i < cell_first_[c + 1]; ++i) {
        const Vertex w = cell_portals_[i];
        if (w == v) continue;
        targets[k] = w;
        const double dx = mid_[v].x - mid_[w].x, dy = mid_[v].y - mid_[w].y;
        weights[k] = std::sqrt(dx * dx + dy * dy);  // exact operands: no need for hypot's care
        ++k;
      }
  }
  graph_ = CsrGraph(std::move(offsets), std::move(targets), std::move(weights));
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
  a.component = comp_[*c];
  a.links.reserve(cell_first_[*c + 1] - cell_first_[*c]);
  for (std::uint32_t i = cell_first_[*c]; i < cell_first_[*c + 1]; ++i) {
    const Vertex w = cell_portals_[i];
    a.links.push_back({w, distance(p, mid_[w])});
  }
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
    const PortalRec& p = portals_[q.path[i]];
    std::uint32_t next;
    if (i + 1 < q.path.size()) {
      const PortalRec& n = portals_[q.path[i + 1]];
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
  for (std::uint32_t i = cell_first_[c]; i < cell_first_[c + 1]; ++i) {
    const PortalRec& p = portals_[cell_portals_[i]];
    out.push_back(p.a == c ? p.b : p.a);
  }
  return out;
}

std::pair<Point, Point> QuadTree::portal_segment(Vertex v) const {
  const PortalRec& p = portals_[v];
  if (p.vertical) return {world(p.line, p.lo), world(p.line, p.hi)};
  return {world(p.lo, p.line), world(p.hi, p.line)};
}

BuildStats QuadTree::stats() const {
  BuildStats s;
  s.vertices = portals_.size();
  s.edges = graph_.num_edges();
  s.memory_bytes = graph_.memory_bytes() + tree_.capacity() * sizeof(std::int32_t) +
                   cells_.capacity() * sizeof(Rect) + comp_.capacity() * sizeof(std::int32_t) +
                   portals_.capacity() * sizeof(PortalRec) + mid_.capacity() * sizeof(Point) +
                   cell_first_.capacity() * sizeof(std::uint32_t) + cell_portals_.capacity() * sizeof(Vertex);
  return s;
}

}  // namespace navbench
