// The tangent graph of a disc of radius R (see tangent_graph.hpp).
//
// Why only corner circles, and only their normal cones: the grown obstacle's boundary is made of
// offset edges and, at each convex corner, the arc of radius R over the corner's normal cone (the
// directions between the two edges' outward normals). Beyond the cone the circle runs within R of
// one of the corner's own edges, so a tangent point there breaks clearance; pinch points and
// concave corners carry no arc at all (their nearest obstacle points are edges). A shortest path
// bends only where the free space is locally non-convex, i.e. along those arcs, and leaves or meets
// them tangentially (Chew 1985; Liu & Arimoto 1992), so it is a walk in this graph: tangent
// segments between two circles (outer ones keep the wrap sense, inner ones reverse it) and arcs in
// the wrap sense between consecutive tangent points of one circle. An offset edge is the outer
// tangent of the circles at its two ends, so paths that slide along a wall are included.
//
// Each node is a tangent point with a wrap sense, so that a path arriving at a circle counter-
// clockwise can only continue counter-clockwise; it has one leaving segment (or none) and one
// leaving arc to the next tangent point in its sense (or none). Start and goal tangents are added
// per query, and the arcs of the circles they touch are re-linked around the new points.
#include "geometry/tangent_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "geometry/clearance.hpp"
#include "geometry/distance.hpp"

namespace navbench {

namespace {

constexpr double kConeSlack = 1e-12;  // rounding of tangent directions on a cone's edge (docs/radius.md allows 1e-9)
constexpr int kPruneSamples = 8;      // samples on a cone arc for the circle usefulness bound

double dot(Point a, Point b) { return a.x * b.x + a.y * b.y; }
Point unit(Point a, Point b) {
  const double d = distance(a, b);
  return {(b.x - a.x) / d, (b.y - a.y) / d};
}
Point on_circle(Point c, double R, Point w) { return {c.x + R * w.x, c.y + R * w.y}; }

}  // namespace

bool TangentGraph::in_cone(const Circle& ci, Point v) { return dot(v, ci.ua) <= kConeSlack && dot(v, ci.ub) <= kConeSlack; }
double TangentGraph::cone_key(const Circle& ci, Point v) { return std::atan2(cross(ci.start, v), dot(ci.start, v)); }
bool TangentGraph::cone_key(const Circle& ci, Point v, double& key) {
  if (!in_cone(ci, v)) return false;
  key = cone_key(ci, v);
  return true;
}

bool TangentGraph::surely_blocked(Point a, Point b) const {
  const GridClearance* gc = rv_->clearance();
  if (!gc) return false;
  // Clearance is 1-Lipschitz and exact at cell centres, so clearance(x) <= centre clearance +
  // |x - centre|: a sample below R proves the piece breaks clearance. Samples every <= 1 unit.
  const double lim = R_ - kRadiusTolerance - 1e-12;
  const double dx = b.x - a.x, dy = b.y - a.y;
  const int n = 1 + int(std::sqrt(dx * dx + dy * dy));
  const int W = gc->width(), H = gc->height();
  // Coarse to fine (bit-reversed order: 1/2, 1/4, 3/4, 1/8, ...): a blocked piece is caught after
  // a few samples wherever its obstacle lies, not after a walk from the middle.
  int bits = 0;
  while ((1 << bits) <= n) ++bits;
  const unsigned span = 1u << bits;
  for (unsigned s = 1; s <= span; ++s) {
    unsigned r = 0, v = s & (span - 1);
    for (int b = 0; b < bits; ++b, v >>= 1) r = (r << 1) | (v & 1u);
    const int kk = int(r);
    if (kk > n) continue;
    const double t = double(kk) / n, x = a.x + t * dx, y = a.y + t * dy;
    if (!(x >= 0 && y >= 0 && x <= W && y <= H)) return false;  // outside: left to the exact test
    const int i = std::min(W - 1, int(x)), j = std::min(H - 1, int(y));
    const double ex = x - (i + 0.5), ey = y - (j + 0.5);
    if (std::sqrt(gc->centre_sq(i, j)) + std::sqrt(ex * ex + ey * ey) < lim) return true;
  }
  return false;
}

bool TangentGraph::arc_ok(const Circle& ci, Point a, Point b) const {
  if (ci.arc_clear || a == b) return true;  // both end points were checked as tangent points
  Arc arc;
  if (!make_arc(a, ci.c, b, arc)) return false;
  return rv_->arc_clear(arc, R_);
}

std::int32_t TangentGraph::add_node(std::vector<Node>& nodes, std::int32_t circle, Point p, int sign, double key) const {
  Node n;
  n.p = p;
  n.circle = circle;
  n.sign = std::int8_t(sign);
  n.key = key;
  nodes.push_back(n);
  return std::int32_t(nodes.size() - 1);
}

int TangentGraph::point_tangents(Point q, std::int32_t ci, PointTangent out[2]) const {
  const Circle& C = circles_[std::size_t(ci)];
  const double d = distance(q, C.c);
  if (d == 0) return 0;
  const Point v{(q.x - C.c.x) / d, (q.y - C.c.y) / d};
  int k = 0;
  double key;
  if (d <= R_) {
    // q lies on the circle (within docs/radius.md's tolerance): its projection, reached by a segment of
    // length <= 1e-9, is the tangent point for both senses.
    if (!cone_key(C, v, key)) return 0;
    const Point t = on_circle(C.c, R_, v);
    for (int sign : {1, -1}) out[k++] = {t, key, sign, R_ - d};
    return k;
  }
  // The tangent point t = c + R w with w . v = R / d; w = cos v + sigma sin n is reached from q
  // going round the circle in sense sigma (counter-clockwise for +1).
  const double cs = R_ / d, sn = std::sqrt(std::max(0.0, 1 - cs * cs));
  const Point n{-v.y, v.x};
  for (int sigma : {1, -1}) {
    const Point w{cs * v.x + sigma * sn * n.x, cs * v.y + sigma * sn * n.y};
    if (!cone_key(C, w, key)) continue;
    const Point t = on_circle(C.c, R_, w);
    out[k++] = {t, key, sigma, distance(q, t)};
  }
  return k;
}

TangentGraph::TangentGraph(const FreeSpace& fs, const RadiusValidity& rv, double R) : fs_(&fs), rv_(&rv), R_(R) {
  if (!(R > kRadiusTolerance)) throw std::invalid_argument("TangentGraph: the radius must be > 1e-9 (R = 0 is the point visibility graph)");
  const GridClearance* gc = rv.clearance();
  const double lim = R - kRadiusTolerance;
  // Circles: one per convex corner whose cone arc may hold a point of clearance R.
  corner_circle_.assign(fs.convex_corners().size(), -1);
  for (std::size_t kc = 0; kc < fs.convex_corners().size(); ++kc) {
    const ConvexCorner& k = fs.convex_corners()[kc];
    Circle C;
    C.c = k.at;
    C.ua = unit(k.at, k.after);
    C.ub = unit(k.at, k.before);
    C.start = {-C.ua.y, C.ua.x};               // after's outward normal: after turned +90 degrees
    const Point end{C.ub.y, -C.ub.x};          // before's outward normal: before turned -90 degrees
    C.width = std::atan2(cross(C.start, end), dot(C.start, end));
    C.component = k.component;
    if (!(C.width >= 0)) continue;  // not convex (cannot happen for FreeSpace's corners)
    const Point a = on_circle(C.c, R, C.start), b = on_circle(C.c, R, end);
    if (gc) {
      // Clearance is 1-Lipschitz and every arc point lies within half a sample step of a sample,
      // so when every sample's clearance + step / 2 is below R no arc point is clear: drop it.
      const double half_step = 0.5 * R * C.width / kPruneSamples;
      bool useful = false;
      for (int s = 0; s <= kPruneSamples && !useful; ++s) {
        const double th = C.width * s / kPruneSamples;
        const Point w{std::cos(th) * C.start.x - std::sin(th) * C.start.y, std::sin(th) * C.start.x + std::cos(th) * C.start.y};
        useful = gc->point_clearance(on_circle(C.c, R, w)) + half_step + 1e-9 >= lim;
      }
      if (!useful) continue;
    }
    Arc whole;
    C.arc_clear = make_arc(a, C.c, b, whole) && rv.arc_clear(whole, R);
    corner_circle_[kc] = std::int32_t(circles_.size());
    circles_.push_back(std::move(C));
  }

  // Common tangents of every pair of circles in one free-space component.
  const std::size_t n = circles_.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const Circle &A = circles_[i], &B = circles_[j];
      if (A.component != B.component) continue;
      const double ex = B.c.x - A.c.x, ey = B.c.y - A.c.y, d = std::sqrt(ex * ex + ey * ey);
      if (d == 0) continue;
      const Point u{(B.c.x - A.c.x) / d, (B.c.y - A.c.y) / d}, nn{-u.y, u.x};
      // Up to four tangents: direction wA of A's tangent point, wB of B's, and the wrap senses.
      struct Cand {
        Point wA, wB;
        int sA, sB;
      } cand[4];
      int m = 0;
      cand[m++] = {nn, nn, -1, -1};                    // outer, both clockwise
      cand[m++] = {{-nn.x, -nn.y}, {-nn.x, -nn.y}, 1, 1};  // outer, both counter-clockwise
      if (d * d >= 4 * R * R) {
        // Inner: w . u = 2R / d, the line separates the centres; touching circles (d = 2R) give
        // two coinciding zero-length tangents through the contact point.
        const double cs = 2 * R / d, sn = std::sqrt(std::max(0.0, 1 - cs * cs));
        for (int sigma : {1, -1}) {
          const Point w{cs * u.x + sigma * sn * nn.x, cs * u.y + sigma * sn * nn.y};
          cand[m++] = {w, {-w.x, -w.y}, -sigma, sigma};
        }
      }
      for (int c = 0; c < m; ++c) {
        // Cheap tests first: the cones, a sampled clearance bound; then the exact ones.
        if (!in_cone(A, cand[c].wA) || !in_cone(B, cand[c].wB)) continue;
        const Point p = on_circle(A.c, R, cand[c].wA), q = on_circle(B.c, R, cand[c].wB);
        if (surely_blocked(p, q)) continue;
        if (!rv.point_clear(p, R) || !rv.point_clear(q, R) || !rv.segment_clear(p, q, R)) continue;
        const double kA = cone_key(A, cand[c].wA), kB = cone_key(B, cand[c].wB);
        // Forward p -> q leaves A in sense sA and arrives at B in sense sB; backward reverses both.
        const double len = distance(p, q);
        const std::int32_t outA = add_node(nodes_, std::int32_t(i), p, cand[c].sA, kA);
        const std::int32_t inB = add_node(nodes_, std::int32_t(j), q, cand[c].sB, kB);
        const std::int32_t outB = add_node(nodes_, std::int32_t(j), q, -cand[c].sB, kB);
        const std::int32_t inA = add_node(nodes_, std::int32_t(i), p, -cand[c].sA, kA);
        nodes_[std::size_t(outA)].seg_to = inB;
        nodes_[std::size_t(outA)].seg_len = len;
        nodes_[std::size_t(outB)].seg_to = inA;
        nodes_[std::size_t(outB)].seg_len = len;
        segment_count_ += 2;
      }
    }

  // Arcs: along each circle, in each sense, from every tangent point to the next one.
  for (std::size_t v = 0; v < nodes_.size(); ++v) {
    const Node& nd = nodes_[v];
    circles_[std::size_t(nd.circle)].order[nd.sign > 0].push_back(std::int32_t(v));
  }
  for (Circle& C : circles_)
    for (int s = 0; s < 2; ++s) {
      auto& ord = C.order[s];
      const double sg = s ? 1.0 : -1.0;  // position along the sense: key counter-clockwise, -key clockwise
      std::sort(ord.begin(), ord.end(), [&](std::int32_t x, std::int32_t y) {
        const double px = sg * nodes_[std::size_t(x)].key, py = sg * nodes_[std::size_t(y)].key;
        return px < py || (px == py && x < y);
      });
      for (std::size_t t = 0; t + 1 < ord.size(); ++t) {
        Node &x = nodes_[std::size_t(ord[t])], &y = nodes_[std::size_t(ord[t + 1])];
        if (!arc_ok(C, x.p, y.p)) continue;
        x.arc_to = ord[t + 1];
        x.arc_len = R * std::abs(y.key - x.key);
      }
    }
}

template <class F>
void TangentGraph::for_each_tangent(Point q, const std::vector<std::int32_t>* circles, F&& f) const {
  const std::int32_t comp = fs_->component(q);
  auto visit = [&](std::int32_t ci) {
    const Circle& C = circles_[std::size_t(ci)];
    if (C.component != comp) return;
    PointTangent t[2];
    const int k = point_tangents(q, ci, t);
    for (int i = 0; i < k; ++i) f(C, t[i]);
  };
  if (circles) {
    for (std::int32_t ci : *circles) visit(ci);
  } else {
    for (std::int32_t ci = 0; ci < std::int32_t(circles_.size()); ++ci) visit(ci);
  }
}

std::vector<TangentGraph::Join> TangentGraph::join_start(Point s, const std::vector<std::int32_t>* circles) const {
  std::vector<Join> out;
  for_each_tangent(s, circles, [&](const Circle& C, const PointTangent& t) {
    // The first node at or after t in t's sense (positions along the sense: sign x key).
    const auto& ord = C.order[t.sign > 0];
    const double sg = t.sign > 0 ? 1.0 : -1.0, at = sg * t.key;
    const auto it = std::lower_bound(ord.begin(), ord.end(), at,
                                     [&](std::int32_t x, double v) { return sg * nodes_[std::size_t(x)].key < v; });
    if (it == ord.end()) return;
    const Node& n = nodes_[std::size_t(*it)];
    // No sampled bound (surely_blocked) before the exact tests: joins are asked for the circles
    // of the corners a point sees (TangentRepresentation), whose tangents mostly keep clearance R
    // (docs/measurements.md), so the bound would only add its samples.
    // No point_clear(t) first: segment_clear(s, t) tests t itself with the same point-to-square
    // distances (and the map's border at its ends), so it fails whenever point_clear(t) does; the
    // separate test was a sizeable share of a join (docs/measurements.md).
    if (!rv_->segment_clear(s, t.t, R_)) return;
    // The arc t -> n lies within the arc from the node before t to n: when the graph holds that
    // one (it was found clear), this one is clear too; else the exact test.
    const bool within_clear = it != ord.begin() && nodes_[std::size_t(*(it - 1))].arc_to == *it;
    if (!within_clear && !arc_ok(C, t.t, n.p)) return;
    out.push_back({*it, t.len + R_ * std::abs(n.key - t.key), t.t});
  });
  return out;
}

std::vector<TangentGraph::Join> TangentGraph::join_goal(Point g, const std::vector<std::int32_t>* circles,
                                                       bool back_to_segment) const {
  std::vector<Join> out;
  for_each_tangent(g, circles, [&](const Circle& C, const PointTangent& t) {
    // Arriving at t going towards g: the sense opposite to the one from g. The last node at or
    // before t in that sense.
    const int sense = -t.sign;
    const auto& ord = C.order[sense > 0];
    const double sg = sense > 0 ? 1.0 : -1.0, at = sg * t.key;
    const auto it = std::upper_bound(ord.begin(), ord.end(), at,
                                     [&](double v, std::int32_t x) { return v < sg * nodes_[std::size_t(x)].key; });
    if (it == ord.begin()) return;
    if (!rv_->segment_clear(t.t, g, R_)) return;  // as join_start (it tests t too)
    for (auto k = it; k != ord.begin();) {
      const std::int32_t id = *--k;
      const Node& n = nodes_[std::size_t(id)];
      // The arc n -> t: for the last node before t, within the graph's arc to the next node
      // (clear when the graph holds it), else the exact test; for an earlier node, the graph's arc
      // to the node after it and then the arc already found clear. An arc that is not clear stays
      // so when it starts earlier (it holds this one): stop.
      const bool clear = k + 1 != ord.end() && n.arc_to == *(k + 1);
      if (!clear && (k + 1 != it || !arc_ok(C, n.p, t.t))) break;
      out.push_back({id, R_ * std::abs(t.key - n.key) + t.len, t.t});
      if (!back_to_segment || n.seg_to >= 0) break;
    }
  });
  return out;
}

std::optional<DiscPath> TangentGraph::direct_path(Point s, Point g, const std::vector<std::int32_t>* circles) const {
  if (s == g) return DiscPath{0, {{s, false}}};
  if (rv_->segment_clear(s, g, R_)) return DiscPath{distance(s, g), {{s, false}, {g, false}}};
  const std::int32_t comp = fs_->component(s);
  if (comp != fs_->component(g)) return std::nullopt;
  std::optional<DiscPath> best;
  const std::size_t count = circles ? circles->size() : circles_.size();
  for (std::size_t idx = 0; idx < count; ++idx) {
    const std::int32_t ci = circles ? (*circles)[idx] : std::int32_t(idx);
    const Circle& C = circles_[std::size_t(ci)];
    if (C.component != comp) continue;
    PointTangent ts[2], tg[2];
    const int ks = point_tangents(s, ci, ts);
    if (ks == 0) continue;
    const int kg = point_tangents(g, ci, tg);
    for (int i = 0; i < ks; ++i)
      for (int j = 0; j < kg; ++j) {
        const int sense = ts[i].sign;
        if (-tg[j].sign != sense || sense * ts[i].key > sense * tg[j].key) continue;
        const double len = ts[i].len + R_ * std::abs(tg[j].key - ts[i].key) + tg[j].len;
        if (best && best->length <= len) continue;
        if (surely_blocked(s, ts[i].t) || surely_blocked(tg[j].t, g) || !rv_->point_clear(ts[i].t, R_) ||
            !rv_->point_clear(tg[j].t, R_) || !rv_->segment_clear(s, ts[i].t, R_) || !arc_ok(C, ts[i].t, tg[j].t) ||
            !rv_->segment_clear(tg[j].t, g, R_))
          continue;
        DiscPath p;
        p.length = len;
        p.items.push_back({s, false});
        if (ts[i].t != s) p.items.push_back({ts[i].t, false});
        if (tg[j].t != ts[i].t) {
          p.items.push_back({C.c, true});
          p.items.push_back({tg[j].t, false});
        }
        if (g != p.items.back().p) p.items.push_back({g, false});
        best = std::move(p);
      }
  }
  return best;
}

std::size_t TangentGraph::edge_count() const {
  std::size_t arcs = 0;
  for (const Node& nd : nodes_) arcs += nd.arc_to >= 0;
  return segment_count_ + arcs;
}

// The nodes a query adds (ids from N on) and the arcs it re-links: tangent points from the start
// (arriving, with their segments from s) and to the goal (leaving, seg_to -2), per circle that has
// some; static nodes whose arc now ends at a query node (or nowhere).
struct TangentGraph::QueryNodes {
  std::int32_t N = 0;
  std::vector<Node> qn;
  std::vector<std::pair<std::int32_t, double>> from_s;  // s -> query node
  std::vector<std::int32_t> touched;                    // circles with query nodes
  std::vector<std::vector<std::int32_t>> on_circle_q;   // per touched circle: its query nodes
  std::unordered_map<std::int32_t, std::size_t> touched_index;
  std::unordered_map<std::int32_t, std::pair<std::int32_t, double>> arc_override;  // static node -> new arc
  const Node& node(const std::vector<Node>& nodes, std::int32_t id) const {
    return id < N ? nodes[std::size_t(id)] : qn[std::size_t(id - N)];
  }
};

// The tangent points from s and to g on the circles of component comp that keep clearance R.
void TangentGraph::make_query_nodes(Point s, Point g, std::int32_t comp, QueryNodes& qs) const {
  const std::int32_t N = qs.N;
  std::vector<Node>& qn = qs.qn;
  std::vector<std::pair<std::int32_t, double>>& from_s = qs.from_s;
  std::vector<std::int32_t>& touched = qs.touched;
  std::vector<std::vector<std::int32_t>>& on_circle_q = qs.on_circle_q;
  std::unordered_map<std::int32_t, std::size_t>& touched_index = qs.touched_index;
  auto touch = [&](std::int32_t ci, std::int32_t id) {
    auto [it, fresh] = touched_index.try_emplace(ci, touched.size());
    if (fresh) {
      touched.push_back(ci);
      on_circle_q.emplace_back();
    }
    on_circle_q[it->second].push_back(id);
  };
  for (std::int32_t ci = 0; ci < std::int32_t(circles_.size()); ++ci) {
    if (circles_[std::size_t(ci)].component != comp) continue;
    PointTangent t[2];
    const int ks = point_tangents(s, ci, t);
    for (int k = 0; k < ks; ++k) {
      if (surely_blocked(s, t[k].t) || !rv_->point_clear(t[k].t, R_) || !rv_->segment_clear(s, t[k].t, R_)) continue;
      const std::int32_t id = N + add_node(qn, ci, t[k].t, t[k].sign, t[k].key);
      from_s.push_back({id, t[k].len});
      touch(ci, id);
    }
    const int kg = point_tangents(g, ci, t);
    for (int k = 0; k < kg; ++k) {
      if (surely_blocked(t[k].t, g) || !rv_->point_clear(t[k].t, R_) || !rv_->segment_clear(t[k].t, g, R_)) continue;
      // Arriving from g in sense sigma is leaving towards g in sense -sigma.
      const std::int32_t id = N + add_node(qn, ci, t[k].t, -t[k].sign, t[k].key);
      qn.back().seg_to = -2;  // the goal
      qn.back().seg_len = t[k].len;
      touch(ci, id);
    }
  }
}

// Re-link the arcs of touched circles through the query nodes.
void TangentGraph::relink_arcs(QueryNodes& qs) const {
  const std::int32_t N = qs.N;
  std::vector<Node>& qn = qs.qn;
  const std::vector<std::int32_t>& touched = qs.touched;
  const std::vector<std::vector<std::int32_t>>& on_circle_q = qs.on_circle_q;
  auto& arc_override = qs.arc_override;
  auto node = [&](std::int32_t id) -> const Node& { return qs.node(nodes_, id); };
  for (std::size_t ti = 0; ti < touched.size(); ++ti) {
    const Circle& C = circles_[std::size_t(touched[ti])];
    for (int s2 = 0; s2 < 2; ++s2) {
      const double sg = s2 ? 1.0 : -1.0;
      std::vector<std::int32_t> merged;
      for (std::int32_t id : on_circle_q[ti])
        if ((node(id).sign > 0) == bool(s2)) merged.push_back(id);
      if (merged.empty()) continue;
      merged.insert(merged.end(), C.order[s2].begin(), C.order[s2].end());
      std::sort(merged.begin(), merged.end(), [&](std::int32_t x, std::int32_t y) {
        const double px = sg * node(x).key, py = sg * node(y).key;
        return px < py || (px == py && x < y);
      });
      for (std::size_t t = 0; t + 1 < merged.size(); ++t) {
        const std::int32_t x = merged[t], y = merged[t + 1];
        if (x < N && y < N) continue;  // a static pair: its arc is already in the graph
        const Node &nx = node(x), &ny = node(y);
        const bool ok = arc_ok(C, nx.p, ny.p);
        const std::int32_t to = ok ? y : -1;
        const double len = R_ * std::abs(ny.key - nx.key);
        if (x < N) {
          arc_override[x] = {to, len};
        } else {
          qn[std::size_t(x - N)].arc_to = to;
          qn[std::size_t(x - N)].arc_len = len;
        }
      }
    }
  }
}

std::optional<DiscPath> TangentGraph::shortest_path(Point s, Point g, DiscQueryStatus* status, std::string* why) const {
  auto fail = [&](DiscQueryStatus st, const std::string& msg) -> std::optional<DiscPath> {
    if (status) *status = st;
    if (why) *why = msg;
    return std::nullopt;
  };
  auto where = [](Point p) {
    std::ostringstream o;
    o.precision(17);
    o << "(" << p.x << ", " << p.y << ")";
    return o.str();
  };
  if (!rv_->point_clear(s, R_))
    return fail(DiscQueryStatus::invalid_query, "invalid_query: the disc at the start " + where(s) + " is not free");
  if (!rv_->point_clear(g, R_))
    return fail(DiscQueryStatus::invalid_query, "invalid_query: the disc at the goal " + where(g) + " is not free");
  const std::int32_t comp = fs_->component(s);
  if (comp != fs_->component(g)) return fail(DiscQueryStatus::no_path, "no_path: start and goal lie in different components");
  if (status) *status = DiscQueryStatus::ok;
  // The straight segment is the shortest of all curves: done when it keeps clearance R.
  if (s == g) return DiscPath{0, {{s, false}}};
  if (rv_->segment_clear(s, g, R_)) return DiscPath{distance(s, g), {{s, false}, {g, false}}};

  // Query nodes: tangent points from s (arriving) and to g (leaving), ids after the static ones.
  QueryNodes qs;
  qs.N = std::int32_t(nodes_.size());
  make_query_nodes(s, g, comp, qs);
  relink_arcs(qs);
  const std::int32_t N = qs.N;
  std::vector<Node>& qn = qs.qn;
  const std::vector<std::pair<std::int32_t, double>>& from_s = qs.from_s;
  const auto& arc_override = qs.arc_override;
  auto node = [&](std::int32_t id) -> const Node& { return id < N ? nodes_[std::size_t(id)] : qn[std::size_t(id - N)]; };

  // A* with the Euclidean heuristic (admissible: no curve is shorter than the straight segment).
  const std::int32_t S = N + std::int32_t(qn.size()), G = S + 1, total = G + 1;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(std::size_t(total), inf);
  std::vector<std::int32_t> parent(std::size_t(total), -1);
  std::vector<std::int8_t> by_arc(std::size_t(total), 0), closed(std::size_t(total), 0);
  auto pos = [&](std::int32_t id) { return id == S ? s : id == G ? g : node(id).p; };
  using Entry = std::pair<double, std::int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  dist[std::size_t(S)] = 0;
  open.push({distance(s, g), S});
  auto relax = [&](std::int32_t u, std::int32_t v, double len, bool arc) {
    const double nd = dist[std::size_t(u)] + len;
    if (nd < dist[std::size_t(v)]) {
      dist[std::size_t(v)] = nd;
      parent[std::size_t(v)] = u;
      by_arc[std::size_t(v)] = arc;
      open.push({nd + distance(pos(v), g), v});
    }
  };
  while (!open.empty()) {
    const std::int32_t u = open.top().second;
    open.pop();
    if (u == G) break;
    if (closed[std::size_t(u)]) continue;  // a stale entry
    closed[std::size_t(u)] = 1;
    if (u == S) {
      for (const auto& [v, len] : from_s) relax(S, v, len, false);
      continue;
    }
    const Node& nd = node(u);
    if (nd.seg_to == -2) relax(u, G, nd.seg_len, false);
    else if (nd.seg_to >= 0) relax(u, nd.seg_to, nd.seg_len, false);
    std::int32_t to = nd.arc_to;
    double len = nd.arc_len;
    if (u < N) {
      const auto it = arc_override.find(u);
      if (it != arc_override.end()) to = it->second.first, len = it->second.second;
    }
    if (to >= 0) relax(u, to, len, true);
  }
  if (dist[std::size_t(G)] == inf) return fail(DiscQueryStatus::no_path, "no_path: no tangent path keeps clearance R");

  // The node chain, then docs/radius.md items: consecutive arcs on one circle merge into one (< 180
  // degrees: they stay in one cone), arcs between equal points and repeated points are dropped.
  std::vector<std::int32_t> chain;
  for (std::int32_t v = G; v != -1; v = parent[std::size_t(v)]) chain.push_back(v);
  std::reverse(chain.begin(), chain.end());
  DiscPath out;
  out.length = dist[std::size_t(G)];
  out.items.push_back({s, false});
  std::int32_t arc_circle = -1;  // circle of the arc that ends the items so far
  for (std::size_t k = 1; k < chain.size(); ++k) {
    const std::int32_t v = chain[k];
    const Point p = pos(v);
    if (by_arc[std::size_t(v)]) {
      const std::int32_t ci = node(v).circle;
      if (p == out.items.back().p) continue;
      if (arc_circle == ci) {
        out.items.back().p = p;
      } else {
        out.items.push_back({circles_[std::size_t(ci)].c, true});
        out.items.push_back({p, false});
        arc_circle = ci;
      }
    } else {
      arc_circle = -1;
      if (p != out.items.back().p) out.items.push_back({p, false});
    }
  }
  return out;
}

}  // namespace navbench
