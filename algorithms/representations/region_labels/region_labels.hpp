// region-labels: exact any-angle (Euclidean shortest path) queries answered by a merge of two label
// lists: no search, and at query time no finding of the corners a point sees.
//
// The idea is Euclidean Hub Labeling's (Du, Shen & Cheema, "Euclidean Hub Labeling", AAAI 2023):
// hub labels over the visibility graph of the convex corners (pruned landmark labelling, Akiba,
// Iwata & Yoshida, SIGMOD 2013, as visgraph's labels=1: representations/hub_labels.hpp), and for
// the places a query may start from, the hubs reachable through the corners they see. The optimum
// between two points s and g that do not see each other is
//   min over hubs h of F_s(h) + F_g(h),   F_p(h) = min over the corners a p sees of |p - a| + d(a, h),
// because a shortest path that is not the segment leaves s for a corner it sees, tangent there,
// and reaches g from one (visgraph.hpp), and the labels hold a common hub of every two corners on a
// shortest path between them (a 2-hop cover). Every sum is the length of a real path.
//
// What a point keeps (this file's own rules, close to EHL's pruning and stronger): only the pairs
// (hub h, via a) that are h's entry at p in a canonical labelling with p as one more vertex,
// ranked last. An entry goes when
//   (1) the path p -> a -> (the next corner from a towards h) does not wrap a's obstacle (the side
//       p arrives with is not the side the path leaves with): a shortest path is taut at every
//       corner (visgraph's taut states; EHL's "non-taut" pruning);
//   (2) a corner further along the labels' path from a to h is in sight of p: it is nearer by the
//       triangle inequality;
//   (3) its value |p - a| + d(a, h) is above F_p(h), or F_p(h) is above F_p(h') + d(h', h) for a
//       hub h' of h's own label: p's shortest path to h then leaves by a corner whose label lacks
//       h, and h is not the highest-ranked corner on it, so no shortest path from p needs h as its
//       hub (a pruned labelling is canonical: Abraham, Delling, Goldberg & Werneck, "Hierarchical
//       hub labelings for shortest paths", ESA 2012).
// What is left at a point is its own pruned label, one via per hub (ties kept), about as many
// entries as a corner's (den520d 75, Aurora 210; EHL keeps per grid cell the union over the cell's
// points, den520d 179 per cell). For the max over two points s, g the optimum's hub m (the
// highest-ranked corner on it) survives at both with its exact value: the sum is the optimum.
//
// The points: the lattice points (cell corners) and the cells' centres, the query points of the
// corner and centre conventions (docs/results.md); on a polygon map the integer points of its box
// and the unit squares' centres (the query points of a mesh made from a grid map, Polyanya's). What
// each sees is found at build time with visgraph's attach: on grids the per-block candidate lists
// (block_candidates.hpp) and the exact segment test, on polygon maps the triangular expansion
// (point_lists.hpp). Any other free point is answered too, exactly and more slowly: the corners it
// sees by visgraph's angular sweep (grid_fov.hpp) or expansion, and their whole labels.
//
// Two layouts, the memory budget (docs/region-labels.md):
// - points=1: each point its own list of (hub, via, distance to the hub through the via), by hub
//   rank; a query merges the two lists (the values as floats, a near tie resolved in doubles from
//   the labels; the path's length summed in doubles along its corners, as visgraph does). Memory:
//   8 bytes per entry (up to 65,536 corners).
// - points=0, region=B: the points of a block of B x B cells share one list of vias (with a bit per
//   point: sees it) and one list of entries (hub, via, d(via, hub)), the union of their labels; a
//   query first measures its distance to each via it sees. Memory falls with B, the query grows.
// - budget_mb: the memory the representation keeps (stats().memory_bytes: the tangent graph, the
//   hub labels, the segment tests, 16 bytes per lattice record, the lists). Given, it chooses the
//   settings not given, the first that fits, in the order points=1, then points=0 with region 2,
//   3, 4 (region 1 first where points=1 cannot be: it keeps more than points=1; a larger region is
//   not slower on den520d and Aurora, docs/measurements.md record 25): each is tried with its blocks in an order spread over the map, and dropped as soon as
//   a sixteenth of them project the lists above what the budget leaves (or they exceed it). The
//   build is refused, with the projection, when the last does not fit. Not given, the defaults
//   stand and 4096 MiB is the cap. The build's peak is above the budget by its scratch (the
//   blocks' candidate lists, the labels' sides, the corners' sweeps).
//
// The graph (the contract's, and for the shared A* when a heuristic the table answer does not
// stand for is asked): the corners' tangent graph; a point has no links, and the direct link
// (direct(), direct_cost()) stands for the whole answer, as subgoal's octile direct link stands
// for a path: start and goal in one component make the A* return the labels' optimum.
// Not supported: changing maps other than by rebuilding, weighted maps (terrain), an agent radius
// other than the harness's erosion of the map (RadiusSupport::shrunk_map), the squeeze rule (the
// free space is built with pinch points forbidden). A polygon map whose box holds more than
// kMaxLattice lattice points and centres keeps no point labels (every query the slow way).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "geometry/free_space.hpp"
#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"
#include "representations/hub_labels.hpp"
#include "representations/params.hpp"
#include "representations/representation.hpp"
#include "representations/visgraph/grid_fov.hpp"
#include "representations/visgraph/grid_los.hpp"

namespace navbench {

class RegionLabels : public BuiltGraph<CsrGraph>, public StoredPositions {
 public:
  // Keeps a reference to map: it must outlive the representation.
  RegionLabels(const Map& map, Params& params);
  static constexpr Capabilities kCapabilities{.exact = true, .point_vertices = true, .table_search = true};
  // Opt-in: a sweep's {"every": true} leaves it out (the corners' hub labels take minutes on a
  // random 512 x 512 map of the default job, the per-point lists hundreds of MiB on large maps).
  static constexpr bool kOptIn = true;
  static constexpr std::array kParams{
      ParamDecl{"points", ParamType::flag, 0, 0, 1, "each query point its own list of hub distances (points=0: per region)",
                "1 up to 2^18 cells and 65,536 corners, else 0"},
      ParamDecl{"region", ParamType::integer, 0, 1, 4, "cells per side of a block (points=0: its points share their vias and entries)",
                "2 up to 2^18 cells, else 4"},
      ParamDecl{"threads", ParamType::integer, 1, 1, 64, "threads of the build"},
      ParamDecl{"budget_mb", ParamType::integer, 4096, 1, 1 << 20,
                "the memory the representation keeps (MiB, as its memory_bytes): given, it chooses points and region where they are not; "
                "the build is refused above"}};

  // No links at a lattice point or cell centre (its record names its list); elsewhere the links
  // to every corner the point sees. The direct link stands for the whole answer.
  std::optional<Attachment> attach(Point p) const;
  // Start and goal in one component: a path exists, and the direct link is the labels' answer.
  bool direct(const Query& q) const { return q.s.component >= 0 && q.s.component == q.g.component; }
  double direct_cost(const Query& q) const;
  Polyline polyline(const Query& q) const;
  std::optional<double> table_search(Query& q, std::size_t& steps) const;
  BuildStats stats() const;

  // For tests and measurements.
  bool point_lists() const { return points_; }
  int region() const { return B_; }
  std::size_t entries() const { return entries_; }
  std::size_t vias() const { return vias_; }
  const HubLabels& hub_labels() const { return labels_; }
  const std::vector<ConvexCorner>& corners() const { return fs_.convex_corners(); }

 private:
  // A lattice point's or cell centre's record: points=1: its list [first, last) of its run's plist
  // (run: its block / kRun); points=0: its region (first) and its index among the region's points
  // (last). comp: its free-space component, -1 when the point is not free.
  struct PointRec {
    std::uint32_t first = 0, last = 0;
    std::int32_t comp = -1;
    std::uint32_t run = 0;
  };
  struct PEntry {  // points=1: a hub's rank, the via (a corner id), the distance through it
    std::uint16_t hub, via;
    float d;
  };
  // The corners, their tangent graph and hub labels, the segment tests (the part every setting shares).
  void prepare(const Map& map, std::size_t max_bytes);
  // The points' lists at one setting (points, B), within `limit` bytes. Returns 0 when they fit;
  // else the bytes they take or (project: after a sixteenth of the blocks, spread over the map)
  // would take, and nothing is kept.
  std::size_t lists(const Map& map, bool points, int B, std::size_t limit, bool project, int threads);
  struct BlockLists;  // one block's lists at a time, a thread's scratch (build.cpp)
  // The blocks' lists, by runs, on one thread per BlockLists; as lists() returns.
  std::size_t make_runs(std::vector<BlockLists>& makers, std::size_t base, std::size_t limit, bool project);
  void count_lists();  // entries_, vias_ (and the pruning's figures, with NAVBENCH_REGION_LABELS_STATS)
  // The memory stats() counts, without the points' lists.
  std::size_t fixed_bytes() const;
  // The most lattice points and cell centres with records (16 bytes each); above, every query
  // takes the way of a point off the lattice.
  static constexpr std::size_t kMaxLattice = std::size_t(1) << 25;
  // Grid maps: the free cell a free point lies in (y * W + x; -1 for none), for a point on a cell's
  // side or corner the first free one in FreeSpace's owner order (cell (x, y), then (x, y - 1), ...).
  std::int64_t cell_of(Point p) const;
  // The record id of a lattice point (y * (W + 1) + x, from the lattice's origin) or cell centre
  // (after them); -1 for other points and without records.
  std::int64_t point_id(Point p) const {
    p.x -= ox_, p.y -= oy_;
    if (!(p.x >= 0 && p.y >= 0 && p.x <= W_ && p.y <= H_) || pts_.empty()) return -1;
    const double fx = std::floor(p.x), fy = std::floor(p.y);
    if (p.x == fx && p.y == fy) return std::int64_t(fy) * (W_ + 1) + std::int64_t(fx);
    if (p.x - fx == 0.5 && p.y - fy == 0.5) return std::int64_t(W_ + 1) * (H_ + 1) + std::int64_t(fy) * W_ + std::int64_t(fx);
    return -1;
  }
  // Every corner p sees with the line tangent there (the angular sweep, then the exact test), into out.
  void visible_corners(Point p, std::vector<Link>& out) const;
  bool segment_clear(Point a, Point b) const;
  bool sees(Point p, std::uint32_t corner) const;
  // The labels' answer for q (the segment when clear): its cost, and with path the corners between.
  double answer(const Query& q, std::vector<Vertex>* path, std::size_t* steps) const;
  struct Cand {  // an answer's candidate: its hub, the start's via and the goal's (corner ids)
    std::uint32_t h, a, b;
  };
  // The least sum and its candidates (those within a float's error of it), from two point lists,
  // or from any two ends (query.cpp); n: the entries read.
  double merge_lists(const Query& q, std::vector<Cand>& cand, std::size_t& n) const;
  double fold_values(const Query& q, std::vector<Cand>& cand, std::size_t& n) const;
  // The candidate of least exact value: its corners into path, its length.
  double unpack(const Query& q, const std::vector<Cand>& cand, std::vector<Vertex>* path) const;
  // d(v, hub) from v's label, which must hold the hub.
  double hub_distance(std::uint32_t v, std::uint32_t hub) const;

  const Map* map_;
  FreeSpace fs_;
  // The exact integer segment test (with the free squares that cross open ground at once), on grid
  // maps and on polygon maps whose free space is a union of unit squares of the lattice (every
  // obstacle ring's edge on a grid line: a mesh made from a grid map) over that grid (cell_walk_).
  GridLos los_;
  bool cell_walk_ = false;
  GridFov fov_;       // grid maps: the angular sweep, the corners a point off the query lattice sees
  std::vector<std::vector<GridFov::Span>> spans_;  // during the build (grid maps): each corner's sweep, for the block candidates
  HubLabels labels_;  // over the corners' tangent graph (graph_)
  // The corners' positions as floats, for a region's distances to its vias: half pos_'s cache
  // lines, read scattered (exact on grids, whose corners are integer points; elsewhere within
  // kNear of the doubles, and unpack measures again in doubles).
  std::vector<std::array<float, 2>> fpos_;
  double ox_ = 0, oy_ = 0;  // the lattice's origin: the map box's low corner, floored (0, 0 on grids)
  int W_ = 0, H_ = 0, B_ = 1, nbx_ = 0, nby_ = 0;  // the lattice's cells, the blocks
  bool points_ = false;
  std::vector<PointRec> pts_;
  // The lists, by runs of kRun consecutive blocks (a point's or region's run: its block / kRun).
  // points=1: plist, each point's list [first, last) of its record. points=0: per region r its vias
  // via[via_off_[off(r)] .. via_off_[off(r) + 1]) (corner ids), per via the bits of the region's
  // points that see it (bit k: lattice point k < (B + 1)^2 at (k % (B + 1), k / (B + 1)) from the
  // block's low corner, then the cells' centres, (B + 1)^2 + (y % B) * B + x % B); its entries
  // [ent_off_[off(r)], ent_off_[off(r) + 1]) by increasing hub rank: the hub's rank, the via (its
  // index among the region's vias) and d(via, hub). Each run has kRun + 1 offsets (from 0).
  static constexpr std::size_t kRun = 64;
  static std::size_t off(std::size_t region) { return region + region / kRun; }
  // A run of blocks' lists (the runs may be made on several threads; each by one, its blocks in
  // order: the lists do not depend on the threads). Kept as made, not copied into one array: the
  // build's peak holds the lists once.
  struct Block {
    std::vector<std::pair<std::int64_t, PointRec>> recs;  // its points' records, until the run is done
    std::vector<PEntry> plist;                            // points=1
    std::vector<std::uint32_t> via;                       // points=0
    std::vector<std::uint64_t> via_bits;
    std::vector<std::uint32_t> e_hub;
    std::vector<std::uint16_t> e_via;
    std::vector<float> e_dist;  // d(via, hub) as a float: a sum within kNear of the least is checked again in doubles (query.cpp)
    std::size_t raw = 0, cut_taut = 0, cut_dom = 0, cut_value = 0, points = 0;
    std::size_t bytes() const {
      return plist.capacity() * sizeof(PEntry) + via.capacity() * 4 + via_bits.capacity() * 8 + e_hub.capacity() * 4 +
             e_via.capacity() * 2 + e_dist.capacity() * sizeof(float);
    }
  };
  std::vector<Block> runs_;
  std::vector<std::uint32_t> via_off_, ent_off_;  // points=0: within the region's run, at off(region)
  std::size_t vias_ = 0;
  std::size_t entries_ = 0;
};

}  // namespace navbench
