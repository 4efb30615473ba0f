// Union-find over 0 .. n-1 with path halving (Tarjan & van Leeuwen, "Worst-case analysis of set
// union algorithms", JACM 1984): the builds' connected components (quadtree cells, navmesh-vertices
// corner fans) and the component labels that docs/changing-maps.md updates keep (grid, quadtree, navmesh-tiles).
// There an update labels its new cells and unites the labels they connect: grid and quadtree give a
// new cell its neighbours' labels, navmesh-tiles gives each new region of a tile a label and unites
// across every portal it makes. Labels are never split, so after an update that cuts a region equal
// roots may over-approximate connectivity; different roots still prove that no path exists (the
// fast no-path answer). flatten() after each update makes root() one read for the queries.
// (navmesh's merge_convex keeps its own directed parent links: a merged cell's root is its first.)
#pragma once
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace navbench {

class UnionFind {
 public:
  UnionFind() = default;
  explicit UnionFind(std::size_t n) { reset(n); }
  // Labels 0 .. n-1, each its own root (a build's labels).
  void reset(std::size_t n) {
    root_.resize(n);
    std::iota(root_.begin(), root_.end(), std::int32_t(0));
  }
  // A new label, its own root.
  std::int32_t add() {
    root_.push_back(std::int32_t(root_.size()));
    return root_.back();
  }
  // The root of label l (halves the path on the way).
  std::int32_t find(std::int32_t l) {
    while (root_[std::size_t(l)] != l) l = root_[std::size_t(l)] = root_[std::size_t(root_[std::size_t(l)])];
    return l;
  }
  // Unites the sets of a and b; returns the root of the union (b's root).
  std::int32_t unite(std::int32_t a, std::int32_t b) {
    const std::int32_t ra = find(a), rb = find(b);
    if (ra != rb) root_[std::size_t(ra)] = rb;
    return rb;
  }
  // Every label points at its root: root() is then exact.
  void flatten() {
    for (std::size_t l = 0; l < root_.size(); ++l) root_[l] = find(std::int32_t(l));
  }
  // Label l's component id, valid after flatten().
  std::int32_t root(std::int32_t l) const { return root_[std::size_t(l)]; }
  std::size_t size() const { return root_.size(); }
  std::size_t memory_bytes() const { return root_.capacity() * sizeof(std::int32_t); }

 private:
  std::vector<std::int32_t> root_;
};

}  // namespace navbench
