#include "representations/grid/grid.hpp"

#include "geometry/path_cost.hpp"
#include "representations/grid/corner_lattice.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace navbench {

BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<GridGraph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<GridGraph>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<GridWeightMap, GridGraph::Edge>));
static_assert(Representation<Grid4> && Representation<Grid8>);

namespace {
constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

// The moves of cells x0 .. x1-1 of a row whose neighbours x0-1 and x1 exist (rows above and below
// may be a row of zeros): branch-free, so the compiler vectorises it.
template <bool Diagonal>
void row_moves(const std::uint8_t* __restrict up, const std::uint8_t* __restrict row, const std::uint8_t* __restrict dn,
               std::uint8_t* __restrict out, int x0, int x1) {
  for (int x = x0; x < x1; ++x) {
    const unsigned e = row[x + 1] != 0, w = row[x - 1] != 0, s = dn[x] != 0, n = up[x] != 0;
    unsigned m = e | w << 1 | s << 2 | n << 3;
    if constexpr (Diagonal)  // no corner cutting: both orthogonal cells passable
      m |= (e & s & (dn[x + 1] != 0)) << 4 | (e & n & (up[x + 1] != 0)) << 5 | (w & s & (dn[x - 1] != 0)) << 6 |
           (w & n & (up[x - 1] != 0)) << 7;
    out[x] = std::uint8_t(row[x] != 0 ? m : 0u);
  }
}
}  // namespace

GridGraph::GridGraph(const GridMap& map, bool diagonal)
    : weights_(map.weighted() ? map.weights.data() : nullptr), width_(map.width), height_(map.height),
      diagonal_(diagonal), moves_(std::size_t(map.width) * map.height, 0) {
  for (int d = 0; d < 8; ++d) offset_[d] = std::int64_t(kDy[d]) * width_ + kDx[d];
  for (int y = 0; y < height_; ++y) refresh(map, y, 0, width_);
}

void GridGraph::refresh(const GridMap& map, int y, int x0, int x1) {
  // Rows y-1 (N), y and y+1 (S) read in place; outside the map reads blocked (a row of zeros
  // above and below; the first and last columns test x).
  const std::size_t W = std::size_t(width_);
  if (zeros_.size() < W + 2) zeros_.assign(W + 2, 0);
  const std::uint8_t* row = map.cells.data() + std::size_t(y) * W;
  const std::uint8_t* up = y > 0 ? row - W : zeros_.data() + 1;
  const std::uint8_t* dn = y + 1 < height_ ? row + W : zeros_.data() + 1;
  std::uint8_t* out = moves_.data() + std::size_t(y) * W;
  auto moves = diagonal_ ? row_moves<true> : row_moves<false>;
  auto edge = [&](int x) {  // a first or last column: its outside neighbours copied next to a zero
    std::uint8_t u[3] = {0, up[x], 0}, r[3] = {0, row[x], 0}, d[3] = {0, dn[x], 0};
    if (x > 0) u[0] = up[x - 1], r[0] = row[x - 1], d[0] = dn[x - 1];
    if (x + 1 < width_) u[2] = up[x + 1], r[2] = row[x + 1], d[2] = dn[x + 1];
    std::uint8_t o[3];
    moves(u, r, d, o, 1, 2);
    out[x] = o[1];
  };
  if (x0 < x1 && x0 == 0) edge(x0++);
  if (x0 < x1 && x1 == width_) edge(--x1);
  if (x0 < x1) moves(up, row, dn, out, x0, x1);
}

std::size_t GridGraph::num_edges() const {
  std::size_t e = 0;
  for (auto m : moves_) e += std::size_t(std::popcount(unsigned(m)));
  return e;
}

template <bool D>
GridRepresentation<D>::GridRepresentation(const Map& map, Params& params) : map_(&map.grid) {
  corner_ = params.choice(param(kParams, "lattice")) == 1;
  squeeze_ = params.choice(param(kParams, "pinch")) == 1;
  params.finish(D ? "grid8" : "grid4");
  if (map.kind != MapKind::grid) throw UnsupportedMap(std::string(D ? "grid8" : "grid4") + " needs a grid map");
  if (corner_) {  // grid/corner_lattice.hpp: no cell components (squeezing joins cells at a point)
    if (map.weighted()) throw UnsupportedMap("lattice=corner needs an unweighted map");
    graph_ = GridGraph(map.grid.width + 1, map.grid.height + 1, corner_moves(map.grid, D, squeeze_));
    inv_width_ = 1.0 / (map.grid.width + 1);
    half_ = 0.0;
    return;
  }
  graph_ = GridGraph(map.grid, D);
  inv_width_ = 1.0 / map.grid.width;
  // Free-space components: 4-connected free cells are exactly what a valid path can join (a
  // diagonal move needs both orthogonal cells; cells meeting at a corner only form a pinch point).
  // Labelled by runs (the two-pass scanline labelling of Rosenfeld & Pfaltz, "Sequential operations
  // in digital picture processing", JACM 1966, with union-find over runs): each row's runs of free
  // cells unite with the runs of the row above that share a column; components are numbered in
  // row-major order of their first cell.
  const int W = map.grid.width, H = map.grid.height;
  std::vector<Run> runs;
  UnionFind sets;
  std::size_t above = 0;  // the first run of the row above
  for (int y = 0; y < H; ++y) {
    const std::uint8_t* row = map.grid.cells.data() + std::size_t(y) * std::size_t(W);
    const std::size_t first = runs.size();
    for (int x = 0; x < W;) {
      if (!row[x]) {
        ++x;
        continue;
      }
      const int x0 = x;
      while (x < W && row[x]) ++x;
      runs.push_back({y, x0, x, 1});
      sets.add();
    }
    for (std::size_t a = above, b = first; a < first && b < runs.size();) {  // both lists sorted by x
      if (runs[a].x0 < runs[b].x1 && runs[b].x0 < runs[a].x1) sets.unite(std::int32_t(a), std::int32_t(b));
      if (runs[a].x1 < runs[b].x1) ++a;
      else ++b;
    }
    above = first;
  }
  component_.assign(std::size_t(W) * std::size_t(H), -1);
  std::vector<std::int32_t> id(runs.size(), -1);
  std::int32_t next = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::int32_t& c = id[std::size_t(sets.find(std::int32_t(r)))];
    if (c < 0) c = next++;
    std::fill_n(component_.begin() + std::ptrdiff_t(std::size_t(runs[r].y) * std::size_t(W) + std::size_t(runs[r].x0)),
                runs[r].x1 - runs[r].x0, c);
  }
  labels_.reset(std::size_t(next));
}

template <bool D>
bool GridRepresentation<D>::update(const Map& map, const std::vector<CellChange>& changed) {
  if (corner_ || map.kind != MapKind::grid || map.grid.width != graph_.width() || map.grid.height != graph_.height())
    return false;
  map_ = &map.grid;
  graph_.set_weights(map.grid);
  const int W = graph_.width(), H = graph_.height();
  // Runs of changed cells along a row with one new value (patches change cells row by row).
  runs_.clear();
  const std::uint8_t* cells = map.grid.cells.data();
  for (std::size_t i = 0; i < changed.size();) {
    const int y = changed[i].y, x0 = changed[i].x;
    const std::uint8_t v = cells[std::size_t(y) * std::size_t(W) + std::size_t(x0)] != 0;  // a cell may be listed twice: the map's value
    int x1 = x0 + 1;
    for (++i; i < changed.size() && changed[i].y == y && changed[i].x == x1 &&
              (cells[std::size_t(y) * std::size_t(W) + std::size_t(x1)] != 0) == v;
         ++i)
      ++x1;
    runs_.push_back({y, x0, x1, v});
  }
  // The moves of the changed cells' 3x3 neighbourhoods, each cell once: a run stales rows y-1..y+1
  // over the run widened by one; the spans are bucketed by row (counting sort), sorted within a
  // row and merged, so overlapping neighbourhoods are not recomputed.
  row_start_.assign(std::size_t(H) + 1, 0);
  for (const Run& r : runs_)
    for (int y = std::max(0, r.y - 1); y <= std::min(H - 1, r.y + 1); ++y) ++row_start_[std::size_t(y) + 1];
  for (int y = 0; y < H; ++y) row_start_[std::size_t(y) + 1] += row_start_[std::size_t(y)];
  spans_.resize(row_start_[std::size_t(H)]);
  for (const Run& r : runs_)
    for (int y = std::max(0, r.y - 1); y <= std::min(H - 1, r.y + 1); ++y)
      spans_[row_start_[std::size_t(y)]++] = {y, std::max(0, r.x0 - 1), std::min(W, r.x1 + 1), 0};
  for (std::size_t i = 0; i < spans_.size();) {  // row_start_[y] is now row y's end
    const auto end = spans_.begin() + std::ptrdiff_t(row_start_[std::size_t(spans_[i].y)]);
    std::sort(spans_.begin() + std::ptrdiff_t(i), end, [](const Run& a, const Run& b) { return a.x0 < b.x0; });
    while (spans_.begin() + std::ptrdiff_t(i) != end) {
      Run s = spans_[i];
      for (++i; spans_.begin() + std::ptrdiff_t(i) != end && spans_[i].x0 <= s.x1; ++i) s.x1 = std::max(s.x1, spans_[i].x1);
      graph_.refresh(map.grid, s.y, s.x0, s.x1);
    }
  }
  // Component labels (representations/union_find.hpp): a new blocked cell has none (all of them
  // first, so no run below reads a label of a cell blocked now); a run of new free cells takes its
  // neighbours' labels, united.
  std::int32_t* comp = component_.data();
  for (const Run& r : runs_)
    if (!r.free) std::fill_n(comp + std::size_t(r.y) * std::size_t(W) + std::size_t(r.x0), r.x1 - r.x0, -1);
  for (const Run& r : runs_) {
    if (!r.free) continue;
    std::int32_t* at = comp + std::size_t(r.y) * std::size_t(W);
    std::int32_t root = -1, last = -1;
    auto join = [&](std::int32_t l) {  // l < 0: blocked, or freed in this update and not labelled yet
      if (l < 0 || l == last) return;
      last = l;
      root = root < 0 ? labels_.find(l) : labels_.unite(l, root);
    };
    if (r.x0 > 0) join(at[r.x0 - 1]);
    if (r.x1 < W) join(at[r.x1]);
    if (r.y > 0)
      for (int x = r.x0; x < r.x1; ++x) join(at[x - W]);
    if (r.y + 1 < H)
      for (int x = r.x0; x < r.x1; ++x) join(at[x + W]);
    if (root < 0) root = labels_.add();  // isolated (so far): a new label
    std::fill(at + r.x0, at + r.x1, root);
  }
  labels_.flatten();
  return true;
}

template <bool D>
std::optional<Attachment> GridRepresentation<D>::attach(Point p) const {
  if (corner_) return corner_attach(*map_, squeeze_, p);
  const int W = graph_.width(), H = graph_.height();
  if (!(p.x >= 0 && p.y >= 0 && p.x <= W && p.y <= H)) return std::nullopt;
  // Cells whose closed square holds p: one inside a cell, two on an edge, four at a corner.
  const int x1 = int(std::floor(p.x)), y1 = int(std::floor(p.y));
  const int x0 = (p.x == x1) ? x1 - 1 : x1, y0 = (p.y == y1) ? y1 - 1 : y1;
  Attachment a;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (map_->passable(x, y)) {
        const Vertex v = Vertex(y * W + x);
        a.links.push_back({v, distance(p, position(v)) * map_->weight(x, y)});  // inside the cell: its weight
      }
  // At a pinch point (exactly two diagonally opposite free cells) the point joins one side only,
  // the cell it names, so no path passes through the pinch (docs/maps.md).
  if (a.links.size() == 2 && x0 != x1 && y0 != y1) {
    const bool diagonal_pair = (map_->passable(x0, y0) && map_->passable(x1, y1)) ||
                               (map_->passable(x1, y0) && map_->passable(x0, y1));
    if (diagonal_pair) {
      const Vertex own = Vertex(y1 * W + x1);
      if (map_->passable(x1, y1)) std::erase_if(a.links, [&](const Link& l) { return l.vertex != own; });
      else a.links.pop_back();
    }
  }
  if (a.links.empty()) return std::nullopt;
  a.cell = a.links.front().vertex;
  a.component = component_of(a.links.front().vertex);
  return a;
}

template <bool D>
double GridRepresentation<D>::segment_cost(Point a, Point b) const {
  return map_->weighted() ? navbench::segment_cost(*map_, a, b) : distance(a, b);
}

template <bool D>
bool GridRepresentation<D>::direct(const Query& q) const {
  if (corner_) return false;  // the corner lattice's paths run on its moves only (the literature's A*)
  // A segment inside one closed free cell is always valid.
  for (const Link& a : q.s.links)
    for (const Link& b : q.g.links)
      if (a.vertex == b.vertex) return true;
  return false;
}

template <bool D>
BuildStats GridRepresentation<D>::stats() const {
  BuildStats s;
  s.vertices = std::size_t(std::count(map_->cells.begin(), map_->cells.end(), 1));
  if (corner_) {  // the corners with a move
    s.vertices = 0;
    for (Vertex v = 0; v < Vertex(num_vertices(graph_)); ++v) s.vertices += graph_.moves(v) != 0;
  }
  s.edges = graph_.num_edges();
  s.memory_bytes = graph_.memory_bytes() + component_.capacity() * sizeof(std::int32_t) + labels_.memory_bytes() +
                   (runs_.capacity() + spans_.capacity()) * sizeof(Run) + row_start_.capacity() * sizeof(std::size_t);
  return s;
}

template <bool D>
std::vector<Segment> GridRepresentation<D>::structure() const {
  std::vector<Segment> out;
  for (Vertex v = 0; v < Vertex(num_vertices(graph_)); ++v)
    for (auto [it, end] = out_edges(v, graph_); it != end; ++it) {
      const Vertex u = target(*it, graph_);
      if (u > v) out.push_back({position(v), position(u)});
    }
  return out;
}

template class GridRepresentation<false>;
template class GridRepresentation<true>;

}  // namespace navbench
