// The example's registration (search/registration.hpp): the folder's one Registration object, named
// after the folder, adds its entry; make_entry holds the declaration against the type.
#include "docs/example/tiles/tiles.hpp"
#include "search/make_entry.hpp"

namespace {

void add(navbench::Registrar& r) {
  r.add(navbench::make_entry<navbench::example::Tiles>("tiles", "docs example: 4-connected CSR tile graph"));
}
const navbench::Registration tiles("tiles", add);

}  // namespace
