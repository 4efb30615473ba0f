// Work a representation leaves owed after a change of the map (docs/changing-maps.md), and the rule
// that settles it: ski rental (Karlin, Manasse, Rudolph & Sleator, "Competitive snoopy caching",
// Algorithmica 1988). The queries pay as they go, each adding what it spent doing without the owed
// structure, in the units the price is counted in (e.g. arcs an A* expansion reads), until what
// they have paid since the work became owed exceeds its price (what making it costs, in those
// units); then the query that finds it due makes it, in the thread that answers and in its own
// time. Queries and work together cost at most twice the better of "make it at once" and "never
// make it", in those units. Used by subgoal (its contraction) and visgraph (its skip graph and
// landmarks, its block lists).
//
// A changing map is answered on one thread: pay() counts in const queries (the count is mutable),
// and the representation that finds the work due makes it through a const_cast, as a lazily
// filled cache does. A build that no update touched never owes.
#pragma once
#include <cstdint>
#include <limits>

#include "representations/types.hpp"

namespace navbench {

class OwedWork {
 public:
  // The work is owed from now (a change of the map), at `price` (what making it costs now), with
  // nothing paid: work made before this change would have been dropped by it, so what the
  // queries paid before bought nothing that lasts. The rule's bound holds per period between two
  // changes.
  void owe(std::uint64_t price) {
    owed_ = true;
    price_ = price;
    paid_ = 0;
  }
  // The work is done (by the query that found it due, or by a build): nothing owed. The price
  // stays readable (price()).
  void settle() { owed_ = false; }
  bool owed() const { return owed_; }
  // A query's spending while owed (nothing when not owed).
  void pay(std::uint64_t units) const {
    if (owed_) paid_ += units;
  }
  // Owed, and paid more than the price: the next query makes the work.
  bool due() const { return owed_ && paid_ > price_; }
  // When due, make() does the work (and settle()s), in the query that found it so. Work that
  // would pass a declared cap on this map state (make() throws DeclaredCap, e.g. hub labels above
  // labels_mb) is not made: it stays owed with its price out of reach, the queries answering
  // without it, until the next change owes it anew.
  template <class Make>
  void make_if_due(Make&& make) {
    if (!due()) return;
    try {
      make();
    } catch (const DeclaredCap&) {
      owe(std::numeric_limits<std::uint64_t>::max());
    }
  }
  std::uint64_t price() const { return price_; }
  std::uint64_t paid() const { return paid_; }

 private:
  bool owed_ = false;
  std::uint64_t price_ = 0;
  mutable std::uint64_t paid_ = 0;
};

}  // namespace navbench
