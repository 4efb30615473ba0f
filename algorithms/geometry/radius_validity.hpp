// The exact validity test for a disc agent of radius R (docs/radius.md): every point of every segment and
// arc of the path keeps distance >= R - 1e-9 from every obstacle.
#pragma once
#include <memory>
#include <vector>

#include "geometry/clearance.hpp"
#include "geometry/distance.hpp"
#include "geometry/free_space.hpp"

namespace navbench {

// Length of docs/radius.md items: segments, and each arc as its radius (the mean of its ends' distances
// from the centre) times its angle, the shorter way.
double path_items_length(const std::vector<PathItem>& items);
// Plain points as items (no arcs).
std::vector<PathItem> items_of(const Polyline& p);

class RadiusValidity {
 public:
  // Keeps a reference to fs (and so to its map): both must outlive this. Grid maps build the
  // clearance grid (an exact distance transform), polygon maps an rtree over fs's boundary edges.
  explicit RadiusValidity(const FreeSpace& fs);
  ~RadiusValidity();
  RadiusValidity(RadiusValidity&&) noexcept;
  RadiusValidity& operator=(RadiusValidity&&) noexcept;

  // docs/radius.md. False for a malformed path (empty, an arc centre first or last or next to another
  // centre, an arc that make_arc rejects). R <= 1e-9 makes the distance test vacuous, so there the
  // point agent's test of docs/maps.md applies (FreeSpace::path_valid); arcs then must have radius
  // <= 1e-9 (checked as their chord) and any other arc throws std::invalid_argument, as does R < 0.
  bool path_valid_radius(const std::vector<PathItem>& path, double R) const;

  // The pieces, for R > 1e-9 (they say nothing about the pinch rule or free space below that).
  // Polygon maps: the piece's start must lie in the free space, the rest follows from the distance.
  bool point_clear(Point p, double R) const;
  bool segment_clear(Point a, Point b, double R) const;
  bool arc_clear(const Arc& arc, double R) const;

  // Grid maps: the clearance grid; nullptr for polygon maps.
  const GridClearance* clearance() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace navbench
