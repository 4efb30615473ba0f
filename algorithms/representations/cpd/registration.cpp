// The registration of cpd (search/registration.hpp): what the type declares is checked by make_entry
// at compile time, its opt-in (kOptIn: minutes of build on a large map) among it.
#include "search/make_entry.hpp"
#include "representations/cpd/cpd.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::CompressedPathDatabase>(
      "cpd",
      "compressed path database (SRC, Strasser, Harabor & Botea 2014): grid8's first moves between all free cells, one Dijkstra each (threads), rows run-length encoded over a DFS order; a query walks first moves, no search (max_cells, cache=DIR; docs/cpd.md)"));
}
const navbench::Registration cpd("cpd", add);

}  // namespace
