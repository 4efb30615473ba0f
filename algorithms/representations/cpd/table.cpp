// The first-move table (table.hpp): the node order, one Dijkstra per source, the greedy run-length
// encoding of each row, and the sources shared out to threads.
#include "representations/cpd/table.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace navbench::cpd {

static_assert(kDiagonal % 4 == 0 && (kDiagonal / 4) % 2 == 1, "table.hpp's tie argument needs kDiagonal = 4 x odd");
static_assert(double(kMaxCells) * 1.4143 * double(kStraight) < 0x1p61, "a key must stay below 2^61");
static_assert(kMaxCells < (std::size_t(1) << (32 - FirstMoveTable::kMoveBits)), "a rank must fit an entry's 28 bits");

const char* to_string(Order o) {
  switch (o) {
    case Order::hilbert: return "hilbert";
    case Order::dfs: return "dfs";
    case Order::rows: break;
  }
  return "rows";
}

namespace {

constexpr std::uint64_t kUnreached = std::numeric_limits<std::uint64_t>::max();

// The position of cell (x, y) along the Hilbert curve over a side x side square, side a power of
// two (the iterative xy-to-d conversion: each level picks the quadrant, then turns the frame so the
// curve enters the quadrant at its corner).
std::uint64_t hilbert_index(std::uint32_t side, std::uint32_t x, std::uint32_t y) {
  std::uint64_t d = 0;
  for (std::uint32_t s = side / 2; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
    d += std::uint64_t(s) * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) x = s - 1 - x, y = s - 1 - y;
      std::swap(x, y);
    }
  }
  return d;
}

}  // namespace

NodeOrder make_order(const GridMap& map, const GridGraph& g, Order o) {
  const std::size_t cells = std::size_t(map.width) * std::size_t(map.height);
  NodeOrder n;
  n.rank_of.assign(cells, NodeOrder::kNone);
  // The depth-first search of the papers' DFS order (gppc_suboptCPD's compute_real_dfs_order): a cell is
  // numbered when first taken off the stack; it goes back on the stack under its next neighbour not
  // yet pushed, so the search descends one move at a time, trying the moves in GridEdge order.
  // It runs for either order: its roots number the components.
  std::vector<std::uint32_t> dfs_rank(cells, NodeOrder::kNone), comp_of_cell(cells, NodeOrder::kNone);
  std::vector<std::uint8_t> next_dir(cells, 0), pushed(cells, 0);
  std::vector<std::uint32_t> stack, dfs_cells;
  std::uint32_t components = 0;
  for (std::size_t root = 0; root < cells; ++root) {
    if (!map.cells[root] || pushed[root]) continue;
    stack.push_back(std::uint32_t(root));
    pushed[root] = 1;
    while (!stack.empty()) {
      const std::uint32_t x = stack.back();
      stack.pop_back();
      if (dfs_rank[x] == NodeOrder::kNone) {
        dfs_rank[x] = std::uint32_t(dfs_cells.size());
        dfs_cells.push_back(x);
        comp_of_cell[x] = components;
      }
      const unsigned moves = g.moves(x);
      for (unsigned d = next_dir[x]; d < 8; ++d) {
        if (!(moves >> d & 1u)) continue;
        const std::uint32_t y = std::uint32_t(std::int64_t(x) + g.offset(d));
        if (pushed[y]) continue;
        pushed[y] = 1;
        next_dir[x] = std::uint8_t(d + 1);
        stack.push_back(x);
        stack.push_back(y);
        break;
      }
    }
    ++components;
  }
  if (o == Order::dfs) {
    n.cell_of = std::move(dfs_cells);
  } else {
    n.cell_of.reserve(dfs_cells.size());
    for (std::size_t c = 0; c < cells; ++c)
      if (map.cells[c]) n.cell_of.push_back(std::uint32_t(c));
  }
  if (o == Order::hilbert) {
    std::uint32_t side = 1;
    while (side < std::uint32_t(std::max(map.width, map.height))) side *= 2;
    const std::uint32_t W = std::uint32_t(map.width);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> along;
    along.reserve(n.cell_of.size());
    for (std::uint32_t c : n.cell_of) along.push_back({hilbert_index(side, c % W, c / W), c});
    std::sort(along.begin(), along.end());
    for (std::size_t r = 0; r < along.size(); ++r) n.cell_of[r] = along[r].second;
  }
  n.component.resize(n.cell_of.size());
  for (std::size_t r = 0; r < n.cell_of.size(); ++r) {
    n.rank_of[n.cell_of[r]] = std::uint32_t(r);
    n.component[r] = comp_of_cell[n.cell_of[r]];
  }
  return n;
}

RowBuilder::RowBuilder(const GridGraph& g, const NodeOrder& order)
    : move_mask_(order.size()), next_(8 * order.size(), NodeOrder::kNone), dist_(order.size()), first_(order.size()) {
  for (unsigned d = 0; d < 8; ++d) cost_[d] = d < 4 ? kStraight : kDiagonal;
  for (std::size_t r = 0; r < order.size(); ++r) {
    const Vertex c = order.cell_of[r];
    move_mask_[r] = std::uint8_t(g.moves(c));
    for (unsigned m = g.moves(c); m; m &= m - 1) {
      const unsigned d = unsigned(std::countr_zero(m));
      next_[8 * r + d] = order.rank_of[std::size_t(std::int64_t(c) + g.offset(d))];
    }
  }
}

// Dijkstra from one free cell (its rank) over the grid's moves with exact integer costs (table.hpp), keeping for
// every cell reached the set of moves out of the source that begin a shortest path to it: the
// source's own neighbours get their move, every other cell the union of the sets of its
// predecessors on shortest paths (a tie adds the other predecessor's set). Every such predecessor
// is settled before the cell (costs are positive), so a cell's set is complete when it is settled,
// and its successors read it then.
//
// The priority queue is two first-in first-out queues, one per edge cost: cells are settled in
// order of cost, and a push is a settled cell's cost plus the queue's edge cost, so each queue
// receives its costs in order and the least entry is at the head of one of the two (no heap). A
// cell pushed again when its cost falls leaves an older entry behind, skipped when it comes up.
void RowBuilder::dijkstra(std::uint32_t source) {
  std::fill(dist_.begin(), dist_.end(), kUnreached);
  for (auto& q : queue_) q.clear();
  std::size_t head[2] = {0, 0};
  // The source's own neighbours first: each is reached by its move alone, and no other path is as
  // short (two moves cost at least 2 > sqrt 2), so its set is that move.
  dist_[source] = 0;
  for (unsigned m = move_mask_[source]; m; m &= m - 1) {
    const unsigned d = unsigned(std::countr_zero(m));
    const std::uint32_t w = next_[8 * std::size_t(source) + d];
    dist_[w] = cost_[d];
    first_[w] = std::uint8_t(1u << d);
    queue_[d < 4 ? 0 : 1].push_back({cost_[d], w});
  }
  for (;;) {
    // the least entry still current at the two heads
    for (int i = 0; i < 2; ++i)
      while (head[i] < queue_[i].size() && queue_[i][head[i]].first != dist_[queue_[i][head[i]].second]) ++head[i];
    const bool has0 = head[0] < queue_[0].size(), has1 = head[1] < queue_[1].size();
    if (!has0 && !has1) break;
    const int i = !has0 || (has1 && queue_[1][head[1]].first < queue_[0][head[0]].first) ? 1 : 0;
    const auto [k, v] = queue_[i][head[i]++];
    const std::uint8_t from = first_[v];
    const std::uint32_t* next = next_.data() + 8 * std::size_t(v);
    for (unsigned m = move_mask_[v]; m; m &= m - 1) {
      const unsigned d = unsigned(std::countr_zero(m));
      const std::uint32_t w = next[d];
      const std::uint64_t nk = k + cost_[d];
      if (nk < dist_[w]) {
        dist_[w] = nk;
        first_[w] = from;
        queue_[d < 4 ? 0 : 1].push_back({nk, w});
      } else if (nk == dist_[w]) {
        first_[w] |= from;
      }
    }
  }
}

std::size_t RowBuilder::build(std::uint32_t s, std::vector<FirstMoveTable::Entry>& out) {
  dijkstra(s);
  // Any move will do for the source itself and for a target it cannot reach (the query never asks
  // for them): they join whichever run is beside them.
  const std::size_t n = first_.size();
  for (std::size_t r = 0; r < n; ++r)
    if (dist_[r] == kUnreached) first_[r] = 0xFF;
  first_[s] = 0xFF;
  // The greedy cut of the papers: extend the run while some move is optimal for all of its
  // targets; a run ends only where none is. Greedy extension gives the fewest runs (any cover of
  // the row by runs with a common move has a run starting at each greedy break or before it).
  const std::size_t before = out.size();
  std::uint32_t start = 0;
  unsigned common = first_[0];
  auto emit = [&](std::uint32_t first, unsigned set) {
    out.push_back((first << FirstMoveTable::kMoveBits) | unsigned(std::countr_zero(set)));
  };
  for (std::size_t r = 1; r < n; ++r) {
    const unsigned both = common & first_[r];
    if (both) {
      common = both;
      continue;
    }
    emit(start, common);
    start = std::uint32_t(r);
    common = first_[r];
  }
  if (n > 0) emit(start, common);
  return out.size() - before;
}

FirstMoveTable::FirstMoveTable(const GridGraph& g, const NodeOrder& order, unsigned threads) {
  const std::size_t n = order.size();
  if (n > kMaxCells)
    throw std::invalid_argument("cpd: " + std::to_string(n) + " free cells, more than the table's limit of " +
                                std::to_string(kMaxCells));
  // Sources in blocks of consecutive ranks, handed out one block at a time; each block's runs are
  // kept apart and joined in rank order at the end, so the table is the same for any thread count.
  constexpr std::size_t kBlock = 64;
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<std::vector<Entry>> parts(blocks);
  std::vector<std::uint32_t> length(n);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    try {
      RowBuilder rows(g, order);
      for (std::size_t b; (b = next.fetch_add(1)) < blocks;) {
        for (std::size_t s = b * kBlock; s < std::min(n, (b + 1) * kBlock); ++s)
          length[s] = std::uint32_t(rows.build(std::uint32_t(s), parts[b]));
        parts[b].shrink_to_fit();
      }
    } catch (...) {  // (bad_alloc): the first failure stops the hand-out, rethrown after the join
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = blocks;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, threads) && t < blocks; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  begin_.resize(n + 1);
  begin_[0] = 0;
  for (std::size_t s = 0; s < n; ++s) begin_[s + 1] = begin_[s] + length[s];
  entries_.reserve(begin_[n]);
  for (auto& p : parts) {
    entries_.insert(entries_.end(), p.begin(), p.end());
    std::vector<Entry>().swap(p);
  }
}

}  // namespace navbench::cpd
