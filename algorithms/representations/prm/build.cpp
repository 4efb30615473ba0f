// The roadmap's build: seeded free samples, their neighbours from the rtree, the valid candidate
// edges (SPEC §1's exact test on each segment), the graph and its components.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "geometry/free_space.hpp"
#include "representations/prm/internal.hpp"
#include "representations/union_find.hpp"

namespace navbench {

namespace {

// A uniform double in [0, 1) from 53 bits of the engine: the same on every standard library.
double unit(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

}  // namespace

Roadmap::~Roadmap() = default;
Roadmap::Roadmap(Roadmap&&) noexcept = default;
Roadmap& Roadmap::operator=(Roadmap&&) noexcept = default;

Roadmap::Roadmap(const Map& m, const Settings& s) : settings_(s), free_(std::make_unique<FreeSpace>(m)) {
  price_on(m);
  draw(m);
  connect();
  layout();
}

Prm::Prm(const Map& m, Params& params)
    : Roadmap(m, Settings{std::size_t(params.integer(param(kParams, "samples"))),
                          std::uint64_t(params.integer(param(kParams, "seed"))),
                          std::size_t(params.integer(param(kParams, "k"))), 0}) {
  params.finish("prm");
}

PrmStar::PrmStar(const Map& m, Params& params)
    : Roadmap(m, Settings{std::size_t(params.integer(param(kParams, "samples"))),
                          std::uint64_t(params.integer(param(kParams, "seed"))), 0,
                          params.real(param(kParams, "gamma"))}) {
  params.finish("prm-star");
}

// Uniform over the free space: on a grid a free cell drawn uniformly, then a point uniform in its
// square (the cells are equal squares, so no draw is rejected); on a polygon map points uniform in
// the bounding box, kept where free (at most 1,000 draws a sample). PRM*'s radius from the free
// area A (grid: the free cells; polygons: the box's area times the share of draws kept):
// gamma* = 2 (1 + 1/d)^(1/d) (A / zeta_d)^(1/d) with d = 2, zeta_2 = pi (Karaman & Frazzoli 2011).
void Roadmap::draw(const Map& m) {
  std::mt19937_64 rng(settings_.seed);
  const std::size_t n = settings_.samples;
  double area = 0;
  if (m.kind == MapKind::grid) {
    std::vector<std::uint32_t> cells;
    for (int y = 0; y < m.grid.height; ++y)
      for (int x = 0; x < m.grid.width; ++x)
        if (m.grid.passable(x, y)) cells.push_back(std::uint32_t(y) * std::uint32_t(m.grid.width) + std::uint32_t(x));
    area = double(cells.size());
    for (std::size_t i = 0; i < n && !cells.empty(); ++i) {
      const std::uint32_t c = cells[std::size_t(unit(rng) * double(cells.size()))];
      const double x = c % std::uint32_t(m.grid.width), y = c / std::uint32_t(m.grid.width);
      pos_.push_back({x + unit(rng), y + unit(rng)});
    }
  } else {
    const double w = m.max.x - m.min.x, h = m.max.y - m.min.y;
    std::size_t draws = 0;
    for (; pos_.size() < n && draws < 1000 * n; ++draws) {
      const Point p{m.min.x + unit(rng) * w, m.min.y + unit(rng) * h};
      if (free_->point_free(p)) pos_.push_back(p);
    }
    area = draws ? w * h * double(pos_.size()) / double(draws) : 0;
  }
  const double count = double(pos_.size());
  if (settings_.gamma_scale > 0 && count > 1)
    radius_ = settings_.gamma_scale * std::sqrt(6 * area / std::numbers::pi) * std::sqrt(std::log(count) / count);
  index_ = std::make_unique<Index>();
  std::vector<Index::Value> values;
  values.reserve(pos_.size());
  for (std::size_t v = 0; v < pos_.size(); ++v) values.push_back({RoadmapPoint(pos_[v].x, pos_[v].y), Vertex(v)});
  index_->tree = decltype(index_->tree)(values.begin(), values.end());  // packed (bulk loading)
}

// Every sample's neighbours as candidate pairs (a < b, each once), each valid when its segment is.
void Roadmap::connect() {
  std::vector<std::pair<Vertex, Vertex>> pairs;
  for (std::size_t v = 0; v < pos_.size(); ++v)
    for (Vertex u : neighbours(pos_[v], std::int64_t(v))) pairs.emplace_back(std::min(Vertex(v), u), std::max(Vertex(v), u));
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  candidates_.clear();
  candidates_.reserve(pairs.size());
  for (const auto& [a, b] : pairs) candidates_.push_back({a, b, free_->segment_valid(pos_[a], pos_[b])});
}

void Roadmap::layout() {
  std::vector<CsrGraph::WeightedEdge> edges;
  UnionFind uf(pos_.size());
  for (const Candidate& c : candidates_)
    if (c.valid) {
      edges.push_back({c.a, c.b, segment_cost(pos_[c.a], pos_[c.b])});
      uf.unite(std::int32_t(c.a), std::int32_t(c.b));
    }
  graph_ = CsrGraph(pos_.size(), std::move(edges));
  uf.flatten();
  component_.resize(pos_.size());
  for (std::size_t v = 0; v < pos_.size(); ++v) component_[v] = uf.root(std::int32_t(v));
}

BuildStats Roadmap::stats() const {
  BuildStats s;
  s.vertices = graph_.num_vertices();
  s.edges = graph_.num_edges();
  // The graph, the samples (twice: positions and the rtree's values; its inner nodes are not
  // counted), the candidate edges and the component labels.
  s.memory_bytes = graph_.memory_bytes() + pos_.capacity() * sizeof(Point) + index_->tree.size() * sizeof(Index::Value) +
                   candidates_.capacity() * sizeof(Candidate) + component_.capacity() * sizeof(std::int32_t);
  return s;
}

}  // namespace navbench
