// The registration of region-labels (search/registration.hpp): what the type declares is checked by
// make_entry at compile time, its opt-in (kOptIn: its corners' hub labels take minutes on a random
// map of the default job's size) among it.
#include "search/make_entry.hpp"
#include "representations/region_labels/region_labels.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::RegionLabels>(
      "region-labels",
      "exact any-angle optimum from hub labels over the convex corners kept per query point (Euclidean Hub Labeling, Du, Shen & Cheema 2023): every lattice point and cell centre its pruned hubs and the corners it reaches them by (points=1), or per block of region x region cells (points=0); a query merges two lists, no search; budget_mb chooses them"));
}
const navbench::Registration region_labels("region-labels", add);

}  // namespace
