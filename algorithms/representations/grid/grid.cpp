#include "representations/grid/grid.hpp"

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
}  // namespace

GridGraph::GridGraph(const GridMap& map, bool diagonal)
    : width_(map.width), height_(map.height), diagonal_(diagonal), moves_(std::size_t(map.width) * map.height, 0) {
  for (int d = 0; d < 8; ++d) offset_[d] = std::int64_t(kDy[d]) * width_ + kDx[d];
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) refresh(map, x, y);
}

void GridGraph::refresh(const GridMap& map, int x, int y) {
  unsigned m = 0;
  if (map.passable(x, y)) {
    for (int d = 0; d < 4; ++d)
      if (map.passable(x + kDx[d], y + kDy[d])) m |= 1u << d;
    if (diagonal_)
      for (int d = 4; d < 8; ++d)  // no corner cutting: both orthogonal cells passable
        if (map.passable(x + kDx[d], y + kDy[d]) && map.passable(x + kDx[d], y) && map.passable(x, y + kDy[d]))
          m |= 1u << d;
  }
  moves_[std::size_t(y) * width_ + x] = std::uint8_t(m);
}

std::size_t GridGraph::num_edges() const {
  std::size_t e = 0;
  for (auto m : moves_) e += std::size_t(std::popcount(unsigned(m)));
  return e;
}

template <bool D>
GridRepresentation<D>::GridRepresentation(const Map& map, Params& params) : map_(&map.grid) {
  params.finish(D ? "grid8" : "grid4");
  if (map.kind != MapKind::grid) throw UnsupportedMap(std::string(D ? "grid8" : "grid4") + " needs a grid map");
  graph_ = GridGraph(map.grid, D);
  inv_width_ = 1.0 / map.grid.width;
  // Free-space components: 4-connected free cells are exactly what a valid path can join (a
  // diagonal move needs both orthogonal cells; cells meeting at a corner only form a pinch point).
  const int W = map.grid.width, H = map.grid.height;
  component_.assign(std::size_t(W) * H, -1);
  std::vector<Vertex> stack;
  std::int32_t next = 0;
  for (Vertex seed = 0; seed < Vertex(W * H); ++seed) {
    if (!map.grid.cells[seed] || component_[seed] >= 0) continue;
    component_[seed] = next;
    stack.push_back(seed);
    while (!stack.empty()) {
      const Vertex v = stack.back();
      stack.pop_back();
      const int x = int(v % unsigned(W)), y = int(v / unsigned(W));
      for (int d = 0; d < 4; ++d) {
        const int nx = x + kDx[d], ny = y + kDy[d];
        if (!map.grid.passable(nx, ny)) continue;
        const Vertex u = Vertex(ny * W + nx);
        if (component_[u] < 0) {
          component_[u] = next;
          stack.push_back(u);
        }
      }
    }
    ++next;
  }
  labels_.reset(std::size_t(next));
}

template <bool D>
bool GridRepresentation<D>::update(const Map& map, const std::vector<CellChange>& changed) {
  if (map.kind != MapKind::grid || map.grid.width != graph_.width() || map.grid.height != graph_.height()) return false;
  map_ = &map.grid;
  const int W = graph_.width();
  for (const CellChange& c : changed)
    for (int y = c.y - 1; y <= c.y + 1; ++y)
      for (int x = c.x - 1; x <= c.x + 1; ++x)
        if (map.grid.inside(x, y)) graph_.refresh(map.grid, x, y);
  // Component labels (representations/union_find.hpp): a new free cell takes its neighbours'
  // labels, united.
  for (const CellChange& c : changed) {
    const std::size_t v = std::size_t(c.y) * std::size_t(W) + std::size_t(c.x);
    if (!map.grid.cells[v]) {
      component_[v] = -1;
      continue;
    }
    std::int32_t root = -1;
    for (int d = 0; d < 4; ++d) {
      const int nx = c.x + kDx[d], ny = c.y + kDy[d];
      if (!map.grid.passable(nx, ny)) continue;
      const std::int32_t l = component_[std::size_t(ny) * std::size_t(W) + std::size_t(nx)];
      if (l < 0) continue;  // a neighbour freed in this same update, not labelled yet
      root = root < 0 ? labels_.find(l) : labels_.unite(l, root);
    }
    if (root < 0) root = labels_.add();  // isolated (so far): a new label
    component_[v] = root;
  }
  labels_.flatten();
  return true;
}

template <bool D>
std::optional<Attachment> GridRepresentation<D>::attach(Point p) const {
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
        a.links.push_back({v, distance(p, position(v))});
      }
  // At a pinch point (exactly two diagonally opposite free cells) the point joins one side only,
  // the cell it names, so no path passes through the pinch (SPEC §1).
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
bool GridRepresentation<D>::direct(const Query& q) const {
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
  s.edges = graph_.num_edges();
  s.memory_bytes = graph_.memory_bytes() + component_.capacity() * sizeof(std::int32_t) + labels_.memory_bytes();
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
