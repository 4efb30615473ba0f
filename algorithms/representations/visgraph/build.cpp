// visgraph's build (visgraph.hpp): the convex corners, the sweep from each node, the graph and what is derived from it.
#include "representations/visgraph/visgraph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "geometry/exact.hpp"
#include "representations/visgraph/internal.hpp"

namespace navbench {

static_assert(Representation<VisGraph>);  // its declared features: make_entry checks them

using exact::orient2d;
using visgraph_detail::tangent_at;

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
bool table_setting(Params& params, std::size_t corners) {
  constexpr const auto& P = VisGraph::kParams;
  const bool labels = params.given(param(P, "labels")) && params.flag(param(P, "labels"));
  return params.flag(param(P, "table"), corners <= 1024 && !labels && !params.given(param(P, "alt")) &&
                                            !params.given(param(P, "skip")));
}

// Attach by per-block candidate lists of block x block cells (0: the angular sweep per query).
// Default: 2 on grid maps of up to 2^18 cells and 4,096 convex corners, where attaching from the
// lists is cheaper than the sweep and block=2 no slower than block=4 (docs/measurements.md), 0
// above: the lists grow with the corners each block sees.
int block_setting(Params& params, const Map& map, std::size_t corners) {
  const bool small_grid = map.kind == MapKind::grid && std::int64_t(map.grid.width) * map.grid.height <= (1 << 18) &&
                          corners <= 4096;
  return params.integer(param(VisGraph::kParams, "block"), small_grid ? 2 : 0);
}

// pinch=allow on an unweighted grid map: the free space is built with squeezing (SPEC §11).
bool VisGraph::pinch_allowed(const Map& map, Params& params) {
  const bool allow = params.choice(param(kParams, "pinch")) == 1;
  if (allow && (map.kind != MapKind::grid || map.weighted()))
    throw UnsupportedMap("visgraph: pinch=allow needs an unweighted grid map (pinch points are grid corners, SPEC 11)");
  return allow;
}

VisGraph::VisGraph(const Map& map, Params& params) : map_(&map), fs_(map, pinch_allowed(map, params)) {
  if (fs_.squeeze()) {
    build_squeeze(params);
    params_ = params;
    return;
  }
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
  // defer: read only when given (it matters only on a changing map), so the build rows of a
  // static map keep their params.
  if (params.given(param(kParams, "defer"))) defer_ = params.flag(param(kParams, "defer"));
  // points: polygon maps only (a grid map's points attach by the block lists or the sweep), read
  // there with its default; on a grid map read only when given, so one --rep text serves both.
  bool points = false;
  if (map.kind != MapKind::grid) points = params.flag(param(kParams, "points"), PointLists::cells(map.min, map.max) <= (std::size_t(1) << 18));
  else if (params.given(param(kParams, "points"))) params.flag(param(kParams, "points"), false);
  // skip and alt: their defaults depend on the graph's size (finish()), so here they are only read
  // (every key is checked before the build) and a contradiction the user named fails at once.
  const bool skip_named = params.flag(param(kParams, "skip"), false);
  const bool labels = params.flag(param(kParams, "labels"));
  // labels_mb: read with labels=1 only (or when named), so other build rows keep their params.
  if (labels || params.given(param(kParams, "labels_mb"))) labels_mb_ = params.integer(param(kParams, "labels_mb"));
  params.integer(param(kParams, "alt"), 0);
  params.finish("visgraph");
  if (skip_named && !taut) throw std::invalid_argument("visgraph: skip=1 needs taut=1 (levels are over taut states)");
  if (skip_named && table) throw std::invalid_argument("visgraph: skip=1 does not combine with table=1");
  if (labels && (skip_named || table)) throw std::invalid_argument("visgraph: labels=1 does not combine with skip=1 or table=1");
  shift_ = taut ? 1 : 0;
  const std::uint32_t n = std::uint32_t(c.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> joined;
  if (map.kind == MapKind::grid) {
    grid_tables(map.grid);
    sweep_all(&joined);
  } else {
    // The attach of the lattice's points, precomputed (point_lists.hpp).
    if (points) points_ = PointLists(fs_, map.min, map.max);
    // Polygon maps: the corners each corner sees, by triangular expansion (FreeSpace::visible_from_corner,
    // output-sensitive), then the tangency at both ends; the definition's all-pairs test only where
    // the free space has no triangulation.
    std::vector<std::uint32_t> seen;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!fs_.visible_from_corner(i, seen, true)) {
        seen.clear();
        for (std::uint32_t j = i + 1; j < n; ++j)
          if (c[i].component == c[j].component && fs_.segment_valid(c[i].at, c[j].at)) seen.push_back(j);
      }
      for (std::uint32_t j : seen)
        if (j > i && tangent_at(c[i], c[j].at) && tangent_at(c[j], c[i].at)) joined.push_back({i, j});
    }
  }
  finish(params, table, joined);
  params_ = params;
}

void VisGraph::grid_tables(const GridMap& grid, const std::vector<ConvexCorner>* old, const std::vector<CellChange>* changed) {
  const auto& c = corners();
  if (old && changed) fov_.update(grid, *old, c, *changed);  // an update: only what the changed cells touch
  else fov_ = GridFov(grid, c);
  los_ = GridLos(grid);
  quad_.clear();
  {  // the attach's tangency test, by block lists and by the sweep alike
    quad_.reserve(c.size());
    for (const ConvexCorner& k : c)
      quad_.push_back({k.at.x, k.at.y, (k.before.x - k.at.x + k.after.x - k.at.x) * (k.before.y - k.at.y + k.after.y - k.at.y) > 0 ? 1 : -1});
  }
}

void VisGraph::finish(Params& params, bool table, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& joined,
                      const std::vector<std::int32_t>* old_of_new) {
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
  // Hub labels (labels=1) answer without a search, like the table: no skip graph; their landmarks
  // (16 by default) are over the corners the labels cover and bound the query's links
  // (labels_search), not the A*'s.
  const bool labels = params.flag(param(kParams, "labels"));
  const bool skip = params.flag(param(kParams, "skip"), shift_ == 1 && !table && !labels && !dense);
  const int alt = params.integer(param(kParams, "alt"), labels ? 16 : table || dense ? 0 : 16);
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
  pos_.resize(std::size_t(n) << shift_);
  for (std::size_t v = 0; v < pos_.size(); ++v) pos_[v] = c[v >> shift_].at;
  // The skip graph and its landmarks: derived in a build; an update leaves them owed (derive_owed(),
  // the rule in table_search(); docs/changing-maps.md): ENLSVG's edge levels are a peeling over the
  // whole graph, which a change anywhere may move (an edge's level follows from those of its taut
  // continuations, transitively), so no local repair is attempted.
  skip_ = TautSkipGraph();
  landmarks_ = Landmarks();
  // (defer=0: the update derives them too.)
  if (skip) skip_owed_.owe(skip_price(graph_));
  else skip_owed_ = OwedWork();
  owed_alt_ = labels ? 0 : alt;
  if (skip && (!old_of_new || !defer_)) derive_skip();
  // Landmarks spread over corners (both taut states of a corner are one place); with skip=1 over
  // the skip graph (derive_owed()).
  if (alt > 0 && !labels && !skip)
    landmarks_ = Landmarks(graph_, weight_map(graph_), std::size_t(alt), [s = shift_](Vertex v) { return Vertex(v >> s); });
  // Hub labels over the tangent graph with one vertex per corner (the joined pairs): every path of it
  // is a real path, and a query's optimal path, which wraps every corner it bends at, is one of its
  // paths from a start link's corner to a goal link's, so the least c_a + d(a, b) + c_b is the optimum.
  // Their landmarks: over the same graph, whose distances are symmetric (a metric), so both of
  // HubLabels::tighten's bounds hold.
  // labels=1 after an update with defer=1: the labels and their landmarks owed (labels_owed()), at
  // the price of the last labels' making (HubLabels::settled(), in settled vertices as the owed
  // searches' expansions are counted; still owed: the price they were owed at).
  const std::uint64_t labels_price = labels_owed_.owed() ? labels_owed_.price() : labels_.settled();
  labels_ = HubLabels();
  label_landmarks_ = Landmarks();
  labels_owed_ = OwedWork();
  owed_corners_ = CsrGraph();
  CsrGraph corners_graph;  // one vertex per corner, the joined pairs (labels and table)
  if (labels || table) {
    std::vector<CsrGraph::WeightedEdge> edges;
    edges.reserve(joined.size());
    for (auto [i, j] : joined) edges.push_back({i, j, distance(c[i].at, c[j].at)});
    corners_graph = CsrGraph(n, std::move(edges));
  }
  owed_label_alt_ = alt;
  if (labels) {
    owed_corners_ = std::move(corners_graph);  // (labels=1 takes no table)
    labels_owed_.owe(labels_price);
    if (!old_of_new || !defer_) derive_labels();
  }
  // All corner-to-corner distances, one place per corner (both taut states), over the corner graph:
  // its distances between corners are the taut graph's between places (both the geodesic
  // distance: every path of the corner graph is a real path, and a shortest one wraps every corner
  // it bends at, so the taut graph holds it), and its rows can be repaired on a changing map
  // (DistanceTable::update): an update passes old_of_new, the old id of each corner (-1: new).
  if (!table) table_ = DistanceTable();
  if (table) {
    std::vector<std::uint32_t> place(pos_.size());
    for (std::size_t v = 0; v < place.size(); ++v) place[v] = std::uint32_t(v >> shift_);
    try {
      if (old_of_new && !table_.empty()) table_.update(corners_graph, std::move(place), *old_of_new, std::size_t(table_mb_) << 20);
      else table_ = DistanceTable(corners_graph, std::move(place), std::size_t(table_mb_) << 20);
    } catch (const std::length_error& e) {
      throw DeclaredCap(std::string("all-pairs table: ") + e.what() + " (raise table_mb)");
    }
  }
}

// The price of deriving the skip graph and its landmarks from the taut-state graph g, in arcs an
// A* expansion reads (the units of searched()): four per arc of g. Measured (callgrind): the
// derivation takes 0.54 to 0.61 G instructions on the Aurora maps' taut graphs (620k to 728k arcs:
// about 740 an arc with the peeling by angular ranges, plus ~100 for the landmarks), an owed
// query's A* about 226 an arc it reads (2.76 k an expansion at 12.2 arcs a vertex): 3.7 to 4.4.
std::uint64_t VisGraph::skip_price(const CsrGraph& g) { return 4 * std::uint64_t(g.num_edges()); }

// Everything an update left owed, each as a fresh build has it (tests/test_dynamic.cpp).
void VisGraph::derive_owed() {
  derive_lists();
  derive_skip();
  derive_labels();
}

// labels=1: the hub labels over the corners' graph (owed_corners_), and their landmarks over the
// same graph: what a build makes in finish() and an update with defer=1 leaves owed.
void VisGraph::derive_labels() {
  if (!labels_owed_.owed()) return;
  if (owed_label_alt_ > 0)
    label_landmarks_ = Landmarks(owed_corners_, weight_map(owed_corners_), std::size_t(owed_label_alt_), std::identity{}, true);
  labels_ = HubLabels(owed_corners_, HubLabels::kSamples, std::size_t(labels_mb_) << 20);
  owed_corners_ = CsrGraph();
  labels_owed_.settle();
}

// The skip graph from the taut-state graph (graph_), then the landmarks over it: what a build
// derives in finish() and an update leaves owed. A fresh build's: the same graph_ (csr_from_arcs
// orders every row by target, whatever order the pairs came in) gives the same levels, skip arcs
// and landmarks (each a deterministic function of the graph).
void VisGraph::derive_skip() {
  if (!skip_owed_.owed()) return;
  skip_ = TautSkipGraph(std::move(graph_), corners());
  graph_ = skip_.graph();
  landmarks_ = Landmarks();
  if (owed_alt_ > 0)
    landmarks_ = Landmarks(graph_, weight_map(graph_), std::size_t(owed_alt_), [s = shift_](Vertex v) { return Vertex(v >> s); });
  skip_owed_.settle();
}

// The price of making the block lists for `corners` convex corners, in query sweeps (the units a
// query pays while they are owed: one per point it attaches by the angular sweep): ten per
// corner. Making them is a tangent sweep per node with its spans and sure spans, then every
// node's entries with their cell masks and hull tests (BlockCandidates). Measured (callgrind) on
// arena2's states, against a query point's sweep (visible_tangent_nodes, 160 k instructions on
// average over the scenario's owed queries): 696 M instructions per making over its 93 updates
// (524 corners on average), 8.3 sweeps a corner; 632 M over its first 27 (about 230 corners), 12.
std::uint64_t VisGraph::lists_price(std::size_t corners) { return 10 * std::uint64_t(corners); }

// The block lists from every node's tangent sweep, as a build makes them (the constructor): what
// an update with defer=1 leaves owed (lists_owed()). The same lists as a fresh build's: the same
// corners, sweep tables and spans (tests/test_dynamic.cpp).
void VisGraph::derive_lists() {
  if (!lists_owed_.owed()) return;
  sweep_all(nullptr);  // no pairs: the graph is up to date
  lists_owed_.settle();
}

// One tangent sweep per node (grid maps): with `joined`, its pairs with the nodes after it; with
// block > 0 the region it sees, from which the candidate lists are made (a build, and
// derive_lists()).
void VisGraph::sweep_all(std::vector<std::pair<std::uint32_t, std::uint32_t>>* joined) {
  const auto& c = corners();
  const std::uint32_t n = std::uint32_t(c.size());
  std::vector<std::vector<GridFov::Span>> spans(block_ > 0 ? n : 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> none;
  ScanScratch t;
  t.want_spans = block_ > 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    scan_node(i, t, block_ > 0, [i, joined](std::uint32_t j) { return joined && j > i; }, joined ? *joined : none);
    if (block_ > 0) spans[i] = std::move(t.spans);  // scan_node clears it before the next sweep
  }
  if (block_ > 0) blocks_ = BlockCandidates(map_->grid, c, block_, spans);
}

// pinch=allow (visgraph.hpp): SqueezeOptimum's nodes and edges as the searched graph, one vertex
// per node; the rule-forbid machinery (taut states, skip graph, table, block lists) is not built,
// so it must not be named (kClashes; the defaults are read as off so the build row says so).
void VisGraph::build_squeeze(Params& params) {
  params.flag(param(kParams, "taut"), false);
  params.flag(param(kParams, "table"), false);
  params.integer(param(kParams, "table_mb"));
  if (params.given(param(kParams, "labels_mb"))) params.integer(param(kParams, "labels_mb"));
  params.flag(param(kParams, "labels"));
  params.integer(param(kParams, "block"), 0);
  if (params.given(param(kParams, "points"))) params.flag(param(kParams, "points"), false);
  if (params.given(param(kParams, "defer"))) params.flag(param(kParams, "defer"));  // rebuilt on a change
  params.flag(param(kParams, "skip"), false);
  const int alt = params.integer(param(kParams, "alt"), 16);
  params.finish("visgraph");
  shift_ = 0;
  sq_ = std::make_unique<SqueezeOptimum>(fs_);
  const auto& at = sq_->points();
  std::vector<std::pair<std::pair<Vertex, Vertex>, double>> arcs;
  for (std::size_t i = 0; i < at.size(); ++i)
    for (const auto& [j, w] : sq_->adjacency()[i]) arcs.push_back({{Vertex(i), Vertex(j)}, w});
  pairs_ = arcs.size() / 2;
  graph_ = csr_from_arcs(at.size(), arcs);
  pos_ = at;
  landmarks_ = Landmarks();
  if (alt > 0) landmarks_ = Landmarks(graph_, weight_map(graph_), std::size_t(alt), [](Vertex v) { return v; });
}

}  // namespace navbench
