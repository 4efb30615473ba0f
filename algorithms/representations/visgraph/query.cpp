// visgraph's queries (visgraph.hpp): the corners a point sees, attaching it, the direct segment,
// the table's answer without a search, the path's polyline, statistics.
#include "representations/visgraph/visgraph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "geometry/exact.hpp"
#include "representations/visgraph/internal.hpp"

namespace navbench {

using exact::orient2d;
using visgraph_detail::tangent_at;

std::vector<std::uint32_t> VisGraph::visible_tangent_nodes(Point p) const {
  std::vector<std::uint32_t> out;
  visible_tangent_nodes(p, out);
  return out;
}

void VisGraph::visible_tangent_nodes(Point p, std::vector<std::uint32_t>& out) const {
  const auto& c = corners();
  out.clear();
  if (sq_) {  // pinch=allow: no sweep tables; the convex corners by the exact test with squeezing
    for (std::uint32_t j = 0; j < c.size(); ++j)
      if (tangent_at(c[j], p) && fs_.segment_valid(p, c[j].at)) out.push_back(j);
  } else if (map_->kind == MapKind::grid && !blocks_.empty()) {
    // The block's candidates: tangency by signs first (cheap), then the exact segment test.
    blocks_.for_each(p, los_.is_pinch(p), [&](std::uint32_t j, bool seen) {
      if (tangent_quad(p, j) && (seen || visible(p, j))) out.push_back(j);
    });
  } else if (map_->kind == MapKind::grid) {
    lists_owed_.pay(1);  // a sweep while the block lists are owed (lists_owed())
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
  } else if (const auto l = points_.find(p)) {
    out.assign(l->begin(), l->end());  // polygon maps, a lattice point or centre: its precomputed list
  } else if (fs_.visible_corners(p, out)) {
    // Polygon maps: the corners p sees (triangular expansion), then tangency.
    out.erase(std::remove_if(out.begin(), out.end(), [&](std::uint32_t j) { return !tangent_at(c[j], p); }), out.end());
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

// pinch=allow: every node p sees, the line tangent at a convex corner (any line at a pinch point),
// by the exact segment test with squeezing.
std::optional<Attachment> VisGraph::attach_squeeze(Point p) const {
  if (!fs_.point_free(p)) return std::nullopt;
  Attachment a;
  a.component = fs_.component(p);
  const auto& at = sq_->points();
  for (std::size_t j = 0; j < at.size(); ++j)
    if (sq_->taut(j, p) && fs_.segment_valid(p, at[j])) a.links.push_back({Vertex(j), distance(p, at[j])});
  return a;
}

std::optional<Attachment> VisGraph::attach_role(Point p, int role) const {
  if (sq_) return attach_squeeze(p);  // one vertex per node: the same links for either role
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
  // The block lists owed after an update (defer=1, lists_owed()): the rule of ski rental
  // (owed.hpp). This query's points attached by the sweep; once the sweeps since the lists became
  // owed number more than making them costs, this query makes them, in its own search time (its
  // links stay: the lists give the same links as the sweep).
  // The hub labels owed (labels=1, defer=1, labels_owed()): the same rule; this query makes them
  // once the owed searches' expansions pass their price, and is answered from them (labels that
  // no longer fit labels_mb are not made: the A* goes on answering, exactly).
  auto& self = const_cast<VisGraph&>(*this);  // one thread answers a changing map (owed.hpp)
  self.lists_owed_.make_if_due([&] { self.derive_lists(); });
  self.labels_owed_.make_if_due([&] { self.derive_labels(); });
  if (skip_owed_.owed()) {
    // The skip graph owed after an update (skip=1, defer=1, docs/changing-maps.md): the rule of
    // ski rental (owed.hpp), as subgoal's owed contraction: pay as you go (the shared A* searches
    // the taut-state graph, exact but without the skip arcs and landmarks, its expansions reported
    // to searched()) until what the queries since the update have paid exceeds the price of buying
    // (skip_price(): what the derivation costs, in arcs an expansion reads, as searched() counts
    // the queries), then buy: this query derives the skip graph and landmarks, in the thread that
    // answers and in its own search time, makes its links and direct link again (the skip graph's:
    // the states reached over the marked arcs, and the meeting states) and hands over to the shared
    // A* on the skip graph. Queries and derivation together cost at most twice the better of
    // "derive at once" and "never derive" in these units.
    if (!skip_owed_.due()) return std::nullopt;
    self.derive_skip();
    const std::optional<Attachment> s = attach_start(q.start), g = attach_goal(q.goal);
    if (s) q.s = *s;
    if (g) q.g = *g;
    if (s && g) q.direct = direct(q);
    return std::nullopt;
  }
  if (!weighted_ && !labels_.empty()) return labels_search(q, steps);
  if (weighted_ || table_.empty() || !skip_.empty()) return std::nullopt;
  if (q.direct) return q.path.clear(), distance(q.start, q.goal);  // a clear segment is the shortest path
  const auto& c = corners();
  return table_.answer(
      q, steps, [&](Vertex v) { return distance(position(v), q.goal); },
      [&](std::uint32_t a, std::uint32_t b) { return distance(c[a].at, c[b].at); },
      [&](std::uint32_t p) { return Vertex(p << shift_); });
}

// An owed search's expansions reported by the shared A*: each reads its vertex's arcs, on average
// the taut graph's arcs per vertex (the units of skip_price(), build.cpp).
void VisGraph::searched(std::size_t expansions) const {
  labels_owed_.pay(expansions);  // labels=1: in settled vertices, as their price
  if (!skip_owed_.owed() || num_vertices(graph_) == 0) return;
  skip_owed_.pay(std::uint64_t(double(expansions) * double(graph_.num_edges()) / double(num_vertices(graph_))));
}

// The query from the hub labels (hub_labels.hpp), without a search: the optimum is the straight
// segment when clear, else min over start links a, goal links b of c_a + d(a, b) + c_b (as
// table_search() argues), d by the labels; the corners between are read back from the labels'
// next-corner entries and priced in doubles along the path (the order the A* adds its weights in).
double VisGraph::labels_search(Query& q, std::size_t& steps) const {
  q.path.clear();
  if (q.direct) return distance(q.start, q.goal);  // a clear segment is the shortest path
  thread_local std::vector<HubLabels::End> s, g;   // per-thread scratch: no allocation per query
  thread_local std::vector<std::uint32_t> up;
  s.clear();
  g.clear();
  // Each link's bound: the link, then the straight line on to the other end.
  for (const Link& l : q.s.links) s.push_back({l.vertex >> shift_, l.cost, l.cost + distance(position(l.vertex), q.goal)});
  for (const Link& l : q.g.links) g.push_back({l.vertex >> shift_, l.cost, l.cost + distance(q.start, position(l.vertex))});
  // With landmarks (alt=K, 16 by default) a tighter bound (HubLabels::tighten, inside best()).
  const HubLabels::Meet m = labels_.best(s, g, &label_landmarks_);
  if (!(m.cost < HubLabels::kInf)) return m.cost;
  up.clear();
  labels_.path(s[m.s].vertex, g[m.g].vertex, m.hub, up);  // the start's corner .. the hub .. the goal's
  steps += up.size();
  const auto& c = corners();
  double cost = q.s.links[m.s].cost;
  q.path.push_back(q.s.links[m.s].vertex);
  for (std::size_t i = 1; i < up.size(); ++i) {
    cost += distance(c[up[i - 1]].at, c[up[i]].at);
    q.path.push_back(i + 1 < up.size() ? Vertex(up[i] << shift_) : q.g.links[m.g].vertex);
  }
  return cost + q.g.links[m.g].cost;
}

BuildStats VisGraph::stats() const {
  BuildStats s;
  s.vertices = num_vertices(graph_);
  s.edges = graph_.num_edges();
  s.memory_bytes = graph_.memory_bytes() + fov_.memory_bytes() + corners().size() * sizeof(ConvexCorner) +
                   pos_.capacity() * sizeof(Point) + landmarks_.memory_bytes() + label_landmarks_.memory_bytes() + table_.memory_bytes() +
                   blocks_.memory_bytes() + points_.memory_bytes() + labels_.memory_bytes() + quad_.capacity() * sizeof(NodeQuad) + los_.memory_bytes() + skip_.memory_bytes() +
                   (upd_.adj_off.capacity() + upd_.adj.capacity() + upd_.env_off.capacity() + upd_.env_row0.capacity() + upd_.env.capacity()) * 4 +
                   upd_.grown.capacity() + upd_.row_hit.capacity() + (upd_.hit_rows.capacity() + upd_.freed.capacity() + upd_.blocked.capacity() + upd_.runs.capacity()) * 4 +
                   upd_.run_at.capacity() * 8 +
                   (vcomp_.capacity() + vat_.capacity() + line_off_.capacity() + line_.capacity()) * 4 + wpad_.capacity() * sizeof(double) +
                   wpal_.capacity() * sizeof(double) +
                   (wcell_[0].capacity() + wcell_[1].capacity()) * sizeof(std::uint32_t) +
                   (sq_ ? sq_->memory_bytes() : 0) + owed_corners_.memory_bytes();
  return s;
}

}  // namespace navbench
