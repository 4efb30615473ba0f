// Line-of-sight string pulling, as a template over the visibility test (smoothing.cpp instantiates it
// with VisibleFn; benchmarks can instantiate it with a plain lambda to measure the wrapper's cost).
//
// The rule is the classic post-smoothing of grid and navmesh A* paths ("if A sees C, B is useless";
// e.g. Botea et al., "Near optimal hierarchical path-finding", JOGD 2004, and the A*-on-a-navmesh
// write-ups): from an anchor, jump to a later path point the anchor sees, drop everything between,
// repeat from there; repeat whole passes until a pass drops nothing.
//
// Search strategy (cost): a visibility test on a grid costs O(segment length), so scanning every
// later point (farthest visible) is O(n^2) tests of O(n) each, and the classic forward scan that
// stops at the first blocked point is O(k) tests of length up to k per jump of k points. Here each
// jump gallops (exponential search: i+2, i+4, i+8, ... until a test fails or the goal is seen) and
// then binary-searches between the last seen and the first unseen point: O(log k) tests per jump.
// Visibility along a path is not monotone (the path may bend out of sight and come back), so the
// chosen point is a point the anchor sees, not always the farthest one; every chosen segment is
// still checked by the exact test, and the passes repeat until no point can be dropped, so at the
// fixpoint no point is removable by a shortcut between its two neighbours.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "geometry/point.hpp"

namespace navbench {

namespace detail {

// One greedy pass over p into out (cleared first). out is a subsequence of p with the same ends.
// shortcut(i, j): p[i] may be joined to p[j] directly (the points between dropped).
template <class Shortcut>
void los_pass(const Polyline& p, Polyline& out, Shortcut&& shortcut) {
  out.clear();
  out.push_back(p.front());
  const std::size_t n = p.size(), last = n - 1;
  std::size_t i = 0;
  while (i < last) {
    std::size_t lo = i + 1;  // the path's own segment: kept without a test (never "fixed")
    std::size_t hi = n;      // first index known unseen from p[i] (n: none known)
    for (std::size_t step = 2;; step *= 2) {  // gallop
      const std::size_t j = std::min(i + step, last);
      if (j <= lo) break;
      if (!shortcut(i, j)) {
        hi = j;
        break;
      }
      lo = j;
      if (j == last) break;
    }
    if (hi != n) {
      while (hi - lo > 1) {  // binary search: p[i] sees p[lo], not p[hi]
        const std::size_t mid = lo + (hi - lo) / 2;
        if (shortcut(i, mid)) lo = mid;
        else hi = mid;
      }
    }
    out.push_back(p[lo]);
    i = lo;
  }
}

}  // namespace detail

template <class Visible>
Polyline los_smooth_with(const Polyline& raw, Visible&& visible) {
  if (raw.size() < 3) return raw;
  Polyline cur = raw, next;
  next.reserve(raw.size());
  for (;;) {
    detail::los_pass(cur, next, [&](std::size_t i, std::size_t j) { return visible(cur[i], cur[j]); });
    // A pass keeps a subsequence with the same ends: the same size means nothing changed.
    if (next.size() == cur.size()) return cur;
    cur.swap(next);
  }
}

// The same on a weighted map (docs/terrain.md): a shortcut is taken only when it is valid and its
// cost, cost(a, b), is not larger than the cost of the piece of path it replaces, so the path's
// cost never rises beyond rounding (each pass replaces disjoint pieces).
template <class Visible, class Cost>
Polyline los_smooth_costed_with(const Polyline& raw, Visible&& visible, Cost&& cost) {
  if (raw.size() < 3) return raw;
  Polyline cur = raw, next;
  next.reserve(raw.size());
  std::vector<double> along;  // along[i]: the cost of cur from its start to cur[i]
  for (;;) {
    along.assign(cur.size(), 0.0);
    for (std::size_t i = 1; i < cur.size(); ++i) along[i] = along[i - 1] + cost(cur[i - 1], cur[i]);
    detail::los_pass(cur, next, [&](std::size_t i, std::size_t j) {
      // (1 + 1e-12): a straight run of points is replaced by its chord although the two sums round
      // differently, so weight 1 everywhere smooths exactly as the unweighted map does.
      return visible(cur[i], cur[j]) && cost(cur[i], cur[j]) <= (along[j] - along[i]) * (1 + 1e-12);
    });
    if (next.size() == cur.size()) return cur;
    cur.swap(next);
  }
}

}  // namespace navbench
