// grid4 and grid8 (grid.hpp): the move bitmap and the component labels, built from the map.
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
  for (int d = 0; d < 8; ++d) offset_[d] = std::int64_t(kGridStepY[d]) * width_ + kGridStepX[d];
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

template class GridRepresentation<false>;
template class GridRepresentation<true>;

}  // namespace navbench
