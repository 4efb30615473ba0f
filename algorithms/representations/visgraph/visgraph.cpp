#include "representations/visgraph/visgraph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "geometry/exact.hpp"

namespace navbench {

static_assert(Representation<VisGraph>);  // its declared features: make_entry checks them

using exact::orient2d;

namespace {

// The line through corner c and the point `other` is tangent at c: c's two neighbouring boundary
// points lie on one side of it, or on it.
bool tangent_at(const ConvexCorner& c, Point other) {
  if (other == c.at) return true;
  return orient2d(other, c.at, c.before) * orient2d(other, c.at, c.after) >= 0;
}

}  // namespace

// CSR arrays from directed arcs (u, v, w) over n vertices, each vertex's arcs sorted by target
// (deterministic order): placed by source (a counting sort), then each row sorted alone.
static CsrGraph csr_from_arcs(std::size_t n, const std::vector<std::pair<std::pair<Vertex, Vertex>, double>>& arcs) {
  std::vector<std::uint32_t> offsets(n + 1, 0);
  for (const auto& a : arcs) ++offsets[a.first.first + 1];
  for (std::size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  std::vector<std::pair<Vertex, double>> row(arcs.size());
  std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (const auto& a : arcs) row[fill[a.first.first]++] = {a.first.second, a.second};
  std::vector<Vertex> targets(arcs.size());
  std::vector<double> weights(arcs.size());
  for (std::size_t v = 0; v < n; ++v) {
    std::sort(row.begin() + offsets[v], row.begin() + offsets[v + 1]);
    for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) targets[k] = row[k].first, weights[k] = row[k].second;
  }
  return CsrGraph(std::move(offsets), std::move(targets), std::move(weights));
}

int VisGraph::side(const ConvexCorner& c, Point a, Point b) {
  int o = orient2d(a, b, c.before);
  if (o == 0) o = orient2d(a, b, c.after);
  return o >= 0 ? 1 : -1;
}

// The all-pairs table: default on up to 1,024 convex corners (4 MiB), where it answers faster than
// the search by the goal places an optimal path can end at (search/astar.hpp) for a larger and
// slower build (docs/measurements.md), off above: it grows with corners^2, and off when alt or skip is
// named (they ask for landmarks or the skip graph, which the table would replace).
static bool table_setting(Params& params, std::size_t corners) {
  constexpr const auto& P = VisGraph::kParams;
  return params.flag(param(P, "table"), corners <= 1024 && !params.given(param(P, "alt")) && !params.given(param(P, "skip")));
}

// Attach by per-block candidate lists of block x block cells (0: the angular sweep per query).
// Default: 2 on grid maps of up to 2^18 cells and 4,096 convex corners, where attaching from the
// lists is cheaper than the sweep and block=2 no slower than block=4 (docs/measurements.md), 0
// above: the lists grow with the corners each block sees.
static int block_setting(Params& params, const Map& map, std::size_t corners) {
  const bool small_grid = map.kind == MapKind::grid && std::int64_t(map.grid.width) * map.grid.height <= (1 << 18) &&
                          corners <= 4096;
  return params.integer(param(VisGraph::kParams, "block"), small_grid ? 2 : 0);
}

VisGraph::VisGraph(const Map& map, Params& params) : map_(&map), fs_(map) {
  if (map.weighted()) {
    build_weighted(map, params);  // weighted.cpp
    params_ = params;
    return;
  }
  // The weighted build's own keys are accepted (and ignored) here, so one --rep text serves a sweep
  // over weighted and plain maps; read only when given, so plain build rows keep their params.
  if (params.given(param(kParams, "regions"))) params.flag(param(kParams, "regions"), true);
  if (params.given(param(kParams, "max_nodes"))) params.integer(param(kParams, "max_nodes"));
  if (params.given(param(kParams, "steiner"))) params.integer(param(kParams, "steiner"));
  const bool taut = params.flag(param(kParams, "taut"), true);
  const auto& c = corners();
  const bool table = table_setting(params, c.size());
  table_mb_ = params.integer(param(kParams, "table_mb"));
  block_ = block_setting(params, map, c.size());
  // skip and alt: their defaults depend on the graph's size (finish()), so here they are only read
  // (every key is checked before the build) and a contradiction the user named fails at once.
  const bool skip_named = params.flag(param(kParams, "skip"), false);
  params.integer(param(kParams, "alt"), 0);
  params.finish("visgraph");
  if (skip_named && !taut) throw std::invalid_argument("visgraph: skip=1 needs taut=1 (levels are over taut states)");
  if (skip_named && table) throw std::invalid_argument("visgraph: skip=1 does not combine with table=1");
  shift_ = taut ? 1 : 0;
  const std::uint32_t n = std::uint32_t(c.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> joined;
  if (map.kind == MapKind::grid) {
    grid_tables(map.grid);
    // One tangent sweep per node: its pairs with the nodes after it, and with block > 0 the
    // region it sees (for the candidate lists).
    std::vector<std::vector<GridFov::Span>> spans(block_ > 0 ? n : 0);
    ScanScratch t;
    t.want_spans = block_ > 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      scan_node(i, t, block_ > 0, [i](std::uint32_t j) { return j > i; }, joined);
      if (block_ > 0) spans[i] = std::move(t.spans);  // scan_node clears it before the next sweep
    }
    if (block_ > 0) blocks_ = BlockCandidates(map.grid, c, block_, spans);
  } else {
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = i + 1; j < n; ++j)
        if (c[i].component == c[j].component && tangent_at(c[i], c[j].at) && tangent_at(c[j], c[i].at) &&
            fs_.segment_valid(c[i].at, c[j].at))
          joined.push_back({i, j});
  }
  finish(params, table, joined);
  params_ = params;
}

void VisGraph::grid_tables(const GridMap& grid) {
  const auto& c = corners();
  fov_ = GridFov(grid, c);
  los_ = GridLos(grid);
  quad_.clear();
  {  // the attach's tangency test, by block lists and by the sweep alike
    quad_.reserve(c.size());
    for (const ConvexCorner& k : c)
      quad_.push_back({k.at.x, k.at.y, (k.before.x - k.at.x + k.after.x - k.at.x) * (k.before.y - k.at.y + k.after.y - k.at.y) > 0 ? 1 : -1});
  }
}

template <class Take>
void VisGraph::scan_node(std::uint32_t i, ScanScratch& t, bool with_sure, Take take,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined) const {
  const auto& c = corners();
  t.sure.clear();
  t.maybe.clear();
  t.spans.clear();
  // Only the directions tangent at c[i]: the quadrants beside its blocked cell.
  const int qx = c[i].before.x + c[i].after.x > 2 * c[i].at.x ? 1 : -1;
  const int qy = c[i].before.y + c[i].after.y > 2 * c[i].at.y ? 1 : -1;
  fov_.scan_tangent(c[i].at, qx, qy, t.sure, t.maybe, t.want_spans ? &t.spans : nullptr, with_sure);
  std::sort(t.sure.begin(), t.sure.end());
  t.sure.erase(std::unique(t.sure.begin(), t.sure.end()), t.sure.end());
  std::sort(t.maybe.begin(), t.maybe.end());
  t.maybe.erase(std::unique(t.maybe.begin(), t.maybe.end()), t.maybe.end());
  for (std::uint32_t j : t.sure)
    if (take(j) && tangent_at(c[i], c[j].at) && tangent_at(c[j], c[i].at)) joined.push_back({i, j});
  for (std::uint32_t j : t.maybe)
    if (take(j) && !std::binary_search(t.sure.begin(), t.sure.end(), j) && tangent_at(c[i], c[j].at) &&
        tangent_at(c[j], c[i].at) && fs_.segment_valid(c[i].at, c[j].at))
      joined.push_back({i, j});
}

void VisGraph::finish(Params& params, bool table, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined) {
  const auto& c = corners();
  const std::uint32_t n = std::uint32_t(c.size());
  pairs_ = joined.size();
  // Above 1M tangent pairs (open maps with many small obstacles) the skip graph and the landmarks
  // cost more than they buy (docs/measurements.md).
  const bool dense = pairs_ > 1'000'000;
  // ENLSVG's edge levels and skip edges (skip_graph.hpp): search the skip graph only. Default on
  // wherever it applies (taut states, no distance table) up to 1M pairs: exact and 2.7-5x fewer
  // expansions. Landmarks (ALT): default 16 where neither a table (the better heuristic) nor a dense
  // graph. Read again for their defaults: the same value when named.
  const bool skip = params.flag(param(kParams, "skip"), shift_ == 1 && !table && !dense);
  const int alt = params.integer(param(kParams, "alt"), table || dense ? 0 : 16);
  std::vector<std::pair<std::pair<Vertex, Vertex>, double>> arcs;
  arcs.reserve(2 * joined.size());
  for (auto [i, j] : joined) {
    const Point P = c[i].at, Q = c[j].at;
    const double w = distance(P, Q);
    const int a = side(c[i], P, Q), b = side(c[j], P, Q);
    // Along P->Q: leave P with its obstacle on side a, arrive at Q with its obstacle on side b;
    // the reverse arc sees both on the other side.
    arcs.push_back({{state(i, a), state(j, b)}, w});
    arcs.push_back({{state(j, -b), state(i, -a)}, w});
  }
  graph_ = csr_from_arcs(std::size_t(n) << shift_, arcs);
  skip_ = TautSkipGraph();
  if (skip) {
    skip_ = TautSkipGraph(std::move(graph_), c);
    graph_ = skip_.graph();
  }
  pos_.resize(std::size_t(n) << shift_);
  for (std::size_t v = 0; v < pos_.size(); ++v) pos_[v] = c[v >> shift_].at;
  // Landmarks spread over corners (both taut states of a corner are one place).
  landmarks_ = Landmarks();
  if (alt > 0)
    landmarks_ = Landmarks(graph_, weight_map(graph_), std::size_t(alt), [s = shift_](Vertex v) { return Vertex(v >> s); });
  // All corner-to-corner distances, one place per corner (both taut states).
  table_ = DistanceTable();
  if (table) {
    std::vector<std::uint32_t> place(pos_.size());
    for (std::size_t v = 0; v < place.size(); ++v) place[v] = std::uint32_t(v >> shift_);
    try {
      table_ = DistanceTable(graph_, weight_map(graph_), std::move(place), n, std::size_t(table_mb_) << 20);
    } catch (const std::length_error& e) {
      throw UnsupportedMap(std::string("all-pairs table: ") + e.what() + " (raise table_mb)");
    }
  }
}

// Incremental update. The result of a node's tangent sweep depends only on the cells
// of its spans (the region it may see, padded by a cell) and of its walk along its grid line, and
// on the cells next to them (GridFov::scan_tangent). So a node none of whose span cells lies
// within one cell of a changed cell sees exactly what it saw: the same nodes, along segments whose
// cells and pinch points did not change, and each such node is still a node with the same corner
// shape. A node near which cells were only blocked (without block lists) sees a subset of that
// plus new corners: its pairs are tested again instead (below). Only the other nodes (and the new
// ones) are swept again; a pair between a kept node and a swept one is taken from the sweep. The
// block lists carry the kept nodes' entries over (BlockCandidates); what is derived from the whole
// graph (the skip graph, landmarks, the distance table) is computed again. The first update
// sweeps every node (the build keeps no regions: a static map pays nothing).
bool VisGraph::update(const Map& m, const std::vector<CellChange>& changed) {
  if (m.kind != MapKind::grid || &m != map_ || weighted_) return false;
  const std::vector<ConvexCorner> old = corners();
  FreeSpace fs(m);
  const std::size_t n = fs.convex_corners().size();
  Params params = params_;
  if (block_setting(params, m, n) != block_) return false;  // the block lists would start anew
  const bool table = table_setting(params, n);
  fs_ = std::move(fs);
  const auto& c = corners();
  grid_tables(m.grid);
  const int W = m.grid.width, H = m.grid.height;

  // Old node -> new node: the same grid corner with the same corner shape.
  std::vector<std::int32_t> to_new(old.size(), -1), from_new(n, -1);
  std::vector<std::uint8_t> rescan(n, 1), shrunk(n, 0);
  if (tracked_) {
    // Changed cells grown by one cell, freed ones and blocked ones apart (a cell listed but now
    // free counts as freed); per row, prefix counts over the rows that hold one. Scratch kept
    // between updates: only the rows with a change are written, and cleared again below.
    grown_.resize(std::size_t(W) * std::size_t(H), 0);
    row_hit_.resize(std::size_t(H), 0);
    freed_.resize(std::size_t(W + 1) * std::size_t(H));
    blocked_.resize(freed_.size());
    hit_rows_.clear();
    for (const CellChange& ch : changed) {
      const std::uint8_t bit = m.grid.passable(ch.x, ch.y) ? 1 : 2;
      for (int y = std::max(ch.y - 1, 0); y <= std::min(ch.y + 1, H - 1); ++y) {
        if (!row_hit_[std::size_t(y)]) row_hit_[std::size_t(y)] = 1, hit_rows_.push_back(y);
        for (int x = std::max(ch.x - 1, 0); x <= std::min(ch.x + 1, W - 1); ++x) grown_[std::size_t(y) * W + x] |= bit;
      }
    }
    for (const int y : hit_rows_) {
      std::uint32_t* pf = freed_.data() + std::size_t(y) * (W + 1);
      std::uint32_t* pb = blocked_.data() + std::size_t(y) * (W + 1);
      std::uint8_t* gr = grown_.data() + std::size_t(y) * W;
      pf[0] = pb[0] = 0;
      for (int x = 0; x < W; ++x) pf[x + 1] = pf[x] + (gr[x] & 1), pb[x + 1] = pb[x] + (gr[x] >> 1), gr[x] = 0;
    }
    const auto& row_hit = row_hit_;
    const auto& freed = freed_;
    const auto& blocked = blocked_;
    for (std::size_t i = 0; i < old.size(); ++i) {
      const std::int32_t k = fov_.node_at(int(old[i].at.x), int(old[i].at.y));
      if (k < 0 || !(c[std::size_t(k)].before == old[i].before) || !(c[std::size_t(k)].after == old[i].after)) continue;
      to_new[i] = k;
      bool hit_freed = false, hit_blocked = false;
      for (std::uint32_t e = env_off_[i]; e < env_off_[i + 1] && !hit_freed; ++e) {
        const int y = env_row0_[i] + int(e - env_off_[i]);
        const auto [x0, x1] = env_[e];
        if (x0 > x1 || !row_hit[std::size_t(y)]) continue;
        const std::size_t r = std::size_t(y) * (W + 1);
        hit_freed = freed[r + x1 + 1] != freed[r + x0];
        hit_blocked = hit_blocked || blocked[r + x1 + 1] != blocked[r + x0];
      }
      // Only blocked cells near its view (and no block lists, whose spans would go stale): the
      // node sees a subset of what it saw, plus new corners, whose own sweeps find it. Its pairs
      // are tested again instead, and its recorded rows (a superset now) stay.
      if (hit_freed || (hit_blocked && block_ > 0)) continue;
      rescan[std::size_t(k)] = 0, from_new[std::size_t(k)] = std::int32_t(i);
      shrunk[std::size_t(k)] = hit_blocked;
    }
    for (const int y : hit_rows_) row_hit_[std::size_t(y)] = 0;
  }

  std::vector<std::pair<std::uint32_t, std::uint32_t>> joined;
  std::vector<std::uint32_t> env_off(n + 1, 0);
  std::vector<std::int32_t> env_row0(n, 0);
  std::vector<std::pair<std::uint16_t, std::uint16_t>> env;
  std::vector<std::vector<GridFov::Span>> spans(block_ > 0 ? n : 0);
  ScanScratch t;
  t.want_spans = true;
  std::uint32_t swept = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    if (rescan[k]) {
      ++swept;
      scan_node(k, t, block_ > 0, [&](std::uint32_t j) { return j > k || !rescan[j]; }, joined);
      // The node's rows: per row the least and greatest column its spans cover.
      int r0 = H, r1 = -1;
      for (const GridFov::Span& sp : t.spans) r0 = std::min(r0, sp.row), r1 = std::max(r1, sp.row);
      env_row0[k] = r1 >= r0 ? r0 : 0;
      const std::size_t base = env.size();
      if (r1 >= r0) env.resize(base + std::size_t(r1 - r0 + 1), {std::uint16_t(1), std::uint16_t(0)});
      for (const GridFov::Span& sp : t.spans) {
        auto& [x0, x1] = env[base + std::size_t(sp.row - r0)];
        if (x0 > x1) x0 = std::uint16_t(sp.x0), x1 = std::uint16_t(sp.x1);
        else x0 = std::min<std::uint16_t>(x0, std::uint16_t(sp.x0)), x1 = std::max<std::uint16_t>(x1, std::uint16_t(sp.x1));
      }
      if (block_ > 0) spans[k] = std::move(t.spans);
    } else {
      const std::size_t i = std::size_t(from_new[k]);
      for (std::uint32_t e = adj_off_[i]; e < adj_off_[i + 1]; ++e) {
        const std::int32_t j = to_new[adj_[e]];
        // An unchanged view's partners are kept places (their corners lie in it); with blocked
        // cells near the view a partner may be gone, or its segment blocked now. The segment
        // lies in both views: it changed only if neither view is unchanged.
        if (j < 0 && !shrunk[k]) throw std::logic_error("visgraph update: a kept node's partner vanished");
        if (j < 0 || rescan[std::size_t(j)] || std::uint32_t(j) < k) continue;
        if (shrunk[k] && shrunk[std::size_t(j)] && !fs_.segment_valid(c[k].at, c[std::size_t(j)].at)) continue;
        joined.push_back({k, std::uint32_t(j)});
      }
      env_row0[k] = env_row0_[i];
      env.insert(env.end(), env_.begin() + env_off_[i], env_.begin() + env_off_[i + 1]);
    }
    env_off[k + 1] = std::uint32_t(env.size());
  }
  // The pairs per node, both ways (what the next update keeps).
  std::vector<std::uint32_t> adj_off(n + 1, 0), adj(2 * joined.size());
  for (auto [i, j] : joined) ++adj_off[i + 1], ++adj_off[j + 1];
  for (std::size_t i = 0; i < n; ++i) adj_off[i + 1] += adj_off[i];
  std::vector<std::uint32_t> fill(adj_off.begin(), adj_off.end() - 1);
  for (auto [i, j] : joined) adj[fill[i]++] = j, adj[fill[j]++] = i;
  adj_off_ = std::move(adj_off), adj_ = std::move(adj);
  env_off_ = std::move(env_off), env_row0_ = std::move(env_row0), env_ = std::move(env);
  if (block_ > 0) blocks_ = BlockCandidates(blocks_, m.grid, c, spans, to_new, rescan, changed);
  tracked_ = true;
  swept_ = swept;
  finish(params, table, joined);
  return true;
}

std::vector<std::uint32_t> VisGraph::visible_tangent_nodes(Point p) const {
  std::vector<std::uint32_t> out;
  visible_tangent_nodes(p, out);
  return out;
}

void VisGraph::visible_tangent_nodes(Point p, std::vector<std::uint32_t>& out) const {
  const auto& c = corners();
  out.clear();
  if (map_->kind == MapKind::grid && !blocks_.empty()) {
    // The block's candidates: tangency by signs first (cheap), then the exact segment test.
    blocks_.for_each(p, los_.is_pinch(p), [&](std::uint32_t j, bool seen) {
      if (tangent_quad(p, j) && (seen || visible(p, j))) out.push_back(j);
    });
  } else if (map_->kind == MapKind::grid) {
    // Per-thread scratch; a node is taken once (the sweep may report it twice), stamps reset by a
    // generation counter that only grows within a thread.
    struct Scratch {
      std::vector<std::uint32_t> sure, maybe, stamp;
      std::uint32_t gen = 0;
    };
    thread_local Scratch t;
    t.sure.clear();
    t.maybe.clear();
    fov_.scan(p, t.sure, t.maybe);
    if (t.stamp.size() < c.size()) t.stamp.resize(c.size(), 0);
    if (++t.gen == 0) {
      std::fill(t.stamp.begin(), t.stamp.end(), 0);
      t.gen = 1;
    }
    // The sign test where the grid tables are built (not on weighted maps' builds).
    const bool quads = quad_.size() == c.size();
    auto tangent = [&](std::uint32_t j) { return quads ? tangent_quad(p, j) : tangent_at(c[j], p); };
    for (std::uint32_t j : t.sure)
      if (t.stamp[j] != t.gen) {
        t.stamp[j] = t.gen;
        if (tangent(j)) out.push_back(j);
      }
    for (std::uint32_t j : t.maybe)
      if (t.stamp[j] != t.gen) {
        t.stamp[j] = t.gen;
        if (tangent(j) && visible(p, j)) out.push_back(j);
      }
  } else {
    const std::int32_t comp = fs_.component(p);
    for (std::uint32_t j = 0; j < c.size(); ++j)
      if (c[j].component == comp && tangent_at(c[j], p) && fs_.segment_valid(p, c[j].at)) out.push_back(j);
  }
}

// Grid maps and a half-integral p: the obstacle's side of p->Q is the sign of the cross product
// with the diagonal into Q's blocked cell (the line is tangent at Q, so both neighbours lie on
// one side, or one on the line), exact in doubles; otherwise the exact predicates (side()).
bool VisGraph::half_grid(Point p) const {
  return map_->kind == MapKind::grid && p.x * 2 == std::floor(p.x * 2) && p.y * 2 == std::floor(p.y * 2) &&
         std::abs(p.x) <= (1 << 20) && std::abs(p.y) <= (1 << 20);
}
int VisGraph::arrival_side(const ConvexCorner& k, Point p, bool half_grid) {
  if (!half_grid) return side(k, p, k.at);
  const double dx = k.at.x - p.x, dy = k.at.y - p.y;
  const double qx = k.before.x + k.after.x - 2 * k.at.x, qy = k.before.y + k.after.y - 2 * k.at.y;
  return dx * qy - dy * qx >= 0 ? 1 : -1;
}

std::vector<Link> VisGraph::seeds(Point p) const {
  const auto& c = corners();
  std::vector<Link> out;
  const bool grid = half_grid(p);
  const std::vector<std::uint32_t> nodes = visible_tangent_nodes(p);
  out.reserve(nodes.size() + 1);
  for (std::uint32_t j : nodes) {
    const ConvexCorner& k = c[j];
    const Point Q = k.at;
    const double dx = Q.x - p.x, dy = Q.y - p.y;
    const double d = std::sqrt(dx * dx + dy * dy);
    if (p == Q) {
      out.push_back({state(j, +1), d});
      out.push_back({state(j, -1), d});
    } else {
      out.push_back({state(j, arrival_side(k, p, grid)), d});
    }
  }
  return out;
}

std::optional<Attachment> VisGraph::attach_role(Point p, int role) const {
  if (weighted_) return attach_weighted(p);  // one vertex per corner: the same links for either role
  if (!fs_.point_free(p)) return std::nullopt;
  Attachment a;
  a.component = fs_.component(p);
  const auto& c = corners();
  if (!skip_.empty()) {
    // The states reached from p over the marked arcs. A goal's search runs from the goal too: a
    // path reaching state v from the goal, read backwards, leaves state v ^ 1 towards the goal.
    // Without a role both readings are given (each a real path, so the optimum stays exact).
    // Only skip vertices' states link: any other state has no arc in the searched graph, so it
    // serves only as a state both ends reach, which direct_cost() covers (meet()).
    thread_local std::vector<Link> reach;  // per-thread scratch: no allocation per query
    skip_.local(c, p, seeds(p), reach);
    a.links.reserve(reach.size() * (role == 0 ? 2 : 1));
    for (const Link& l : reach) {
      if (!skip_.skip_state(l.vertex)) continue;
      if (role >= 0) a.links.push_back(l);
      if (role <= 0) a.links.push_back({l.vertex ^ 1, l.cost});
    }
    return a;
  }
  thread_local std::vector<std::uint32_t> nodes;  // per-thread scratch: no allocation per query
  visible_tangent_nodes(p, nodes);
  a.links.reserve(nodes.size() * (shift_ && role == 0 ? 2 : 1) + 1);
  const bool grid = half_grid(p);
  for (std::uint32_t j : nodes) {
    const Point Q = c[j].at;
    const double d = std::sqrt((p.x - Q.x) * (p.x - Q.x) + (p.y - Q.y) * (p.y - Q.y));  // hypot is slow
    if (!shift_) {
      a.links.push_back({Vertex(j), d});
    } else if (role == 0 || p == Q) {
      a.links.push_back({state(j, +1), d});
      a.links.push_back({state(j, -1), d});
    } else if (role > 0) {
      a.links.push_back({state(j, arrival_side(c[j], p, grid)), d});  // the state a path from p arrives in
    } else {
      // The state that leaves towards p: side(c, Q, p), the arrival side reversed (a corner's two
      // neighbours never both lie on the line, so reversing the line flips the side).
      a.links.push_back({state(j, -arrival_side(c[j], p, grid)), d});
    }
  }
  return a;
}

std::optional<Attachment> VisGraph::attach(Point p) const { return attach_role(p, 0); }

bool VisGraph::direct(const Query& q) const {
  if (q.s.component >= 0 && q.g.component >= 0 && q.s.component != q.g.component) return false;
  if (segment_clear(q.start, q.goal)) return true;
  return !skip_.empty() && std::isfinite(meet(q).first);
}

double VisGraph::direct_cost(const Query& q) const {
  if (weighted_) return integral(q.start, q.goal);  // direct(): the segment is valid
  // A clear segment is the shortest of all paths; else (skip=1) the best meeting state.
  if (skip_.empty() || segment_clear(q.start, q.goal)) return distance(q.start, q.goal);
  return meet(q).first;
}

std::pair<double, Vertex> VisGraph::meet(const Query& q) const {
  const auto& c = corners();
  const std::vector<Link> ss = skip_.kept(q.start) ? std::vector<Link>{} : seeds(q.start);
  const std::vector<Link> sg = skip_.kept(q.goal) ? std::vector<Link>{} : seeds(q.goal);
  return skip_.meet(c, q.start, ss, q.goal, sg);
}

std::vector<Vertex> VisGraph::end_path(Point p, const std::vector<Link>& links, Vertex v, bool goal_side) const {
  double cost = std::numeric_limits<double>::infinity();
  for (const Link& l : links)
    if (l.vertex == v) cost = std::min(cost, l.cost);
  const std::vector<Link> from = skip_.kept(p) ? std::vector<Link>{} : seeds(p);  // kept: no new search
  // The search from p reached v itself (start) or v ^ 1 (goal); without a role, either one.
  for (const Vertex target : {goal_side ? v ^ 1 : v, goal_side ? v : v ^ 1}) {
    double d = 0;
    std::vector<Vertex> path = skip_.local_path(corners(), p, from, target, d);
    if (!path.empty() && d <= cost) return path;
  }
  return {};
}

Polyline VisGraph::polyline(const Query& q) const {
  Polyline out{q.start};
  auto add = [&](Vertex v) {
    if (!(position(v) == out.back())) out.push_back(position(v));
  };
  if (!skip_.empty() && q.path.empty() && !(q.start == q.goal) && !segment_clear(q.start, q.goal)) {
    // The direct link through a meeting state v: the start's local path to v, the goal's to v ^ 1
    // read backwards.
    const auto [cost, v] = meet(q);
    if (std::isfinite(cost)) {
      double d = 0;
      for (Vertex x : skip_.local_path(corners(), q.start, {}, v, d)) add(x);
      const std::vector<Vertex> back = skip_.local_path(corners(), q.goal, {}, v ^ 1, d);
      for (auto it = back.rbegin(); it != back.rend(); ++it) add(*it);
    }
  }
  if (!skip_.empty() && !q.path.empty()) {
    // start's local path, the skip arcs' chains, the goal's local path read backwards.
    for (Vertex v : end_path(q.start, q.s.links, q.path.front(), false)) add(v);
    std::vector<Vertex> inner;
    for (std::size_t i = 0; i + 1 < q.path.size(); ++i) {
      inner.clear();
      skip_.chain(q.path[i], q.path[i + 1], inner);
      for (Vertex v : inner) add(v);
      add(q.path[i + 1]);
    }
    const std::vector<Vertex> back = end_path(q.goal, q.g.links, q.path.back(), true);
    for (auto it = back.rbegin(); it != back.rend(); ++it) add(*it);
    if (out.size() > 1 && out.back() == q.goal) out.pop_back();
    out.push_back(q.goal);
    return out;
  }
  for (Vertex v : q.path)
    if (!(position(v) == out.back())) out.push_back(position(v));
  if (out.size() > 1 && out.back() == q.goal) out.pop_back();
  out.push_back(q.goal);
  return out;
}

// The query from the all-pairs table without a search (DistanceTable::answer, which gives the
// argument): a shortest path that is not the straight segment leaves the start for a corner it sees
// (tangent there), follows a shortest corner-to-corner path and reaches the goal from a corner the
// goal sees. Costs at most |S| x |G| table reads and the chains' lengths instead of the A*'s heap
// operations and one table read per generated vertex.
std::optional<double> VisGraph::table_search(Query& q, std::size_t& steps) const {
  if (weighted_ || table_.empty() || !skip_.empty()) return std::nullopt;
  if (q.direct) return q.path.clear(), distance(q.start, q.goal);  // a clear segment is the shortest path
  const auto& c = corners();
  return table_.answer(
      q, steps, [&](Vertex v) { return distance(position(v), q.goal); },
      [&](std::uint32_t a, std::uint32_t b) { return distance(c[a].at, c[b].at); },
      [&](std::uint32_t p) { return Vertex(p << shift_); });
}

BuildStats VisGraph::stats() const {
  BuildStats s;
  s.vertices = num_vertices(graph_);
  s.edges = graph_.num_edges();
  s.memory_bytes = graph_.memory_bytes() + fov_.memory_bytes() + corners().size() * sizeof(ConvexCorner) +
                   pos_.capacity() * sizeof(Point) + landmarks_.memory_bytes() + table_.memory_bytes() +
                   blocks_.memory_bytes() + quad_.capacity() * sizeof(NodeQuad) + los_.memory_bytes() + skip_.memory_bytes() +
                   (adj_off_.capacity() + adj_.capacity() + env_off_.capacity() + env_row0_.capacity() + env_.capacity()) * 4 +
                   grown_.capacity() + row_hit_.capacity() + (hit_rows_.capacity() + freed_.capacity() + blocked_.capacity()) * 4 +
                   (vcomp_.capacity() + vat_.capacity() + line_off_.capacity() + line_.capacity()) * 4 + wpad_.capacity() * sizeof(double);
  return s;
}

}  // namespace navbench
