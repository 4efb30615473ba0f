// Probabilistic roadmaps (docs/prm.md): `prm`, N seeded free samples each joined to its k nearest
// where the segment is valid (Kavraki, Svestka, Latombe & Overmars, "Probabilistic roadmaps for path
// planning in high-dimensional configuration spaces", IEEE T-RA 12(4), 1996); `prm-star`, every
// sample joined to those within PRM*'s radius gamma (log n / n)^(1/2), gamma above the bound of
// Karaman & Frazzoli ("Sampling-based algorithms for optimal motion planning", IJRR 30(7), 2011,
// Theorem 34), so that the roadmap's paths tend to the optimum as n grows. An edge is kept only where
// the exact validity test of SPEC §1 passes on its segment, so every path is valid; a roadmap may
// miss a path that exists (capability may_miss): the row says why (miss_reason).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "representations/built_graph.hpp"
#include "representations/csr_graph.hpp"

namespace navbench {

class FreeSpace;

// What both variants build and answer; Prm and PrmStar declare it and read their parameters.
class Roadmap : public BuiltGraph<CsrGraph>, public StoredPositions, public SegmentPricing {
 public:
  struct Settings {
    std::size_t samples = 0;
    std::uint64_t seed = 0;
    std::size_t k = 0;         // prm: neighbours per sample and query point
    double gamma_scale = 0;    // prm-star: gamma over Karaman & Frazzoli's bound (> 1); 0 for prm
  };
  ~Roadmap();
  Roadmap(Roadmap&&) noexcept;
  Roadmap& operator=(Roadmap&&) noexcept;

  // A query point joins the samples it would join as a sample (its k nearest, or those within the
  // radius) whose segment to it is valid. No such sample: an attachment without links (the search
  // then finds no path and the row is no_path with miss_reason()).
  std::optional<Attachment> attach(Point p) const;
  // start sees goal: the straight segment, as the roadmap joins two samples.
  bool direct(const Query& q) const;
  Polyline polyline(const Query& q) const { return polyline_through_positions(*this, q); }
  BuildStats stats() const;
  // Why a query found no path: no sample connects the start or the goal, or start and goal join
  // different roadmap components.
  std::string miss_reason(const Query& q) const;
  // docs/changing-maps.md, grid maps: the samples stay; every candidate edge (and sample) whose
  // segment touches a changed cell is tested again, the graph and components laid out anew. Not a
  // fresh build's roadmap (that would draw other samples): update_approximate. When half the
  // map's cells changed, or those tests would walk more than half the cells a build's tests walk
  // (each segment's |dx| + |dy| + 1), the roadmap is built again instead, in place (a fresh
  // build's: rebuilt_update()). False
  // (rebuild) on polygon maps or another size.
  bool update(const Map& m, const std::vector<CellChange>& changed);
  // Whether the last update built the roadmap again (the rule above).
  bool rebuilt_update() const { return rebuilt_; }

  double radius() const { return radius_; }           // prm-star's connection radius, 0 for prm
  std::size_t samples() const { return pos_.size(); }  // drawn (fewer than asked when the map is mostly blocked)

 protected:
  Roadmap(const Map& m, const Settings& s);

 private:
  struct Index;        // the samples in a Boost.Geometry rtree (build.cpp)
  struct UpdateState;  // the candidate edges' boxes in an rtree, made by the first update (update.cpp)
  // The samples p joins as a sample would (itself excluded when it is sample `self`).
  std::vector<Vertex> neighbours(Point p, std::int64_t self) const;
  void draw(const Map& m);
  void connect();
  void layout();  // graph_ and component_ from the valid candidates

  Settings settings_;
  double radius_ = 0;
  std::unique_ptr<FreeSpace> free_;
  std::unique_ptr<Index> index_;
  struct Candidate {
    Vertex a, b;
    bool valid;
  };
  std::vector<Candidate> candidates_;  // every neighbour pair (a < b), valid or not
  std::vector<std::int32_t> component_;
  std::unique_ptr<UpdateState> update_;
  bool rebuilt_ = false;
};

class Prm : public Roadmap {
 public:
  static constexpr Capabilities kCapabilities{.point_vertices = true, .weights = true, .update_in_place = true,
                                              .update_approximate = true, .segment_edges = true, .may_miss = true};
  static constexpr std::array kParams{
      ParamDecl{"samples", ParamType::integer, 2000, 1, 10000000, "free points drawn, uniform over the map (seeded)"},
      ParamDecl{"seed", ParamType::integer, 1, 0, 2147483647, "the samples' random seed"},
      ParamDecl{"k", ParamType::integer, 10, 1, 1000, "each sample and query point joins its k nearest samples where the segment is valid"}};
  // The batteries' floors (docs/testing.md#floors), per battery and map.
  static constexpr std::array kFloors{
      // It keeps its samples through an update (update_approximate): on the mixed sequence a few
      // starts lose every link; the change scenarios are built on the empty map, so the samples were
      // drawn before the rooms' walls came, and a doorway one cell wide holds few of them.
      Floor{"UpdateBattery", "", "mixed", 190},            // of 198
      Floor{"UpdateBattery", "", "doors", 16},             // of 35
      Floor{"UpdateBattery", "", "blocks-scenario", 19},   // of 35
      // 2,000 samples on the 48 x 48 random grid: one start none of its 10 nearest samples sees.
      Floor{"ThetaBattery", "", "random-7", 23},  // of 24
  };
  Prm(const Map& m, Params& params);
};

class PrmStar : public Roadmap {
 public:
  static constexpr Capabilities kCapabilities = Prm::kCapabilities;
  static constexpr std::array kParams{
      ParamDecl{"samples", ParamType::integer, 2000, 1, 10000000, "free points drawn, uniform over the map (seeded)"},
      ParamDecl{"seed", ParamType::integer, 1, 0, 2147483647, "the samples' random seed"},
      ParamDecl{"gamma", ParamType::real, 1.1, 1.0001, 100,
                "gamma over Karaman & Frazzoli's bound sqrt(6 free area / pi): radius gamma sqrt(6 A / pi) (log n / n)^(1/2)"}};
  PrmStar(const Map& m, Params& params);
};

}  // namespace navbench
