// grid4 and grid8's queries (grid.hpp): attaching a point, the direct segment, costs, statistics.
#include "representations/grid/grid.hpp"

#include "geometry/path_cost.hpp"
#include "representations/grid/corner_lattice.hpp"

#include <algorithm>
#include <cmath>

namespace navbench {

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
void GridRepresentation<D>::structure(const SegmentSink& emit) const {
  for (Vertex v = 0; v < Vertex(num_vertices(graph_)); ++v)
    for (auto [it, end] = out_edges(v, graph_); it != end; ++it) {
      const Vertex u = target(*it, graph_);
      if (u > v) emit({position(v), position(u)});
    }
}

template std::optional<Attachment> GridRepresentation<false>::attach(Point) const;
template std::optional<Attachment> GridRepresentation<true>::attach(Point) const;
template double GridRepresentation<false>::segment_cost(Point, Point) const;
template double GridRepresentation<true>::segment_cost(Point, Point) const;
template bool GridRepresentation<false>::direct(const Query&) const;
template bool GridRepresentation<true>::direct(const Query&) const;
template BuildStats GridRepresentation<false>::stats() const;
template BuildStats GridRepresentation<true>::stats() const;
template void GridRepresentation<false>::structure(const SegmentSink&) const;
template void GridRepresentation<true>::structure(const SegmentSink&) const;

}  // namespace navbench
