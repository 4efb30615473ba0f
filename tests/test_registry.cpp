// The registry against its declarations (algorithms/representations/params.hpp, capabilities.hpp):
// every key a representation reads is one it declared (the declaration object itself, not a
// look-alike), every declared key is read by some build, `--rep` texts are checked against the
// declaration alone (no build), and the canonical text is the declaration's formatting. The
// feature declarations are checked at compile time (search/make_entry.hpp; the
// Declaration.* tests show a wrong one does not compile).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "datasets/wkt.hpp"
#include "docs/example/tiles/tiles.hpp"
#include "search/make_entry.hpp"
#include "harness/registry/registry.hpp"
#include "representations/quadtree/quadtree.hpp"
#include "representations/visgraph/visgraph.hpp"
#include "support/maps.hpp"

// Each test file in a namespace of its own: the sanitizer build compiles them as one program (docs/testing.md).
namespace test_registry {

using namespace navbench;

namespace {

// A plain grid with rooms, the same grid weighted (weights in blobs, least weight 1), and a polygon map.
std::vector<Map> maps() {
  std::mt19937_64 rng(40);
  Map plain = testmaps::random_grid(40, 30, 0.2, rng);
  Map weighted = plain;
  weighted.grid.weights.assign(weighted.grid.cells.size(), 1.0);
  for (std::size_t i = 0; i < weighted.grid.cells.size(); ++i)
    if (weighted.grid.cells[i] && (i / 40) % 10 < 4 && (i % 40) % 10 < 5) weighted.grid.weights[i] = 3;
  weighted.terrain = "test";
  std::vector<Map> out = {plain, weighted};
  out.push_back(load_wkt_map(std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps/hand/polygons.wkt"));
  return out;
}

// A value inside the declared range: the default, or for an automatic one its lower bound; a
// choice's first item.
std::string some_value(const ParamDecl& d) {
  if (d.type == ParamType::choice) return base::split_list(d.choices).front();
  const double v = d.automatic ? d.lo : d.fallback;
  return d.type == ParamType::real ? std::to_string(v) : std::to_string(int(v));
}

// Builds e on m with `text`, keeping the declarations read even when the build refuses the map
// (UnsupportedMap) or a key it did not read (finish()).
std::vector<const ParamDecl*> reads(const RepresentationEntry& e, const Map& m, const std::string& text) {
  Params p = Params::parse(text);
  try {
    e.build(m, p);
  } catch (const std::invalid_argument&) {
  }
  return p.read();
}

std::vector<RepresentationEntry> entries() {
  std::vector<RepresentationEntry> out = representations();
  out.push_back(make_entry<example::Tiles>("tiles", "docs example"));
  return out;
}

}  // namespace

TEST(Registry, EveryReadIsDeclaredAndEveryDeclarationIsRead) {
  const std::vector<Map> ms = maps();
  for (const RepresentationEntry& e : entries()) {
    SCOPED_TRACE(e.name);
    std::set<const ParamDecl*> declared, read;
    for (const ParamDecl& d : e.params) declared.insert(&d);
    std::vector<std::string> texts = {""};  // the defaults, then each key given alone
    for (const ParamDecl& d : e.params) texts.push_back(std::string(d.name) + "=" + some_value(d));
    for (const Map& m : ms)
      for (const std::string& t : texts)
        for (const ParamDecl* d : reads(e, m, t)) {
          EXPECT_TRUE(declared.count(d)) << "reads '" << d->name << "' through a declaration not in its kParams";
          read.insert(d);
        }
    for (const ParamDecl* d : declared) EXPECT_TRUE(read.count(d)) << "declares '" << d->name << "' but no build reads it";
  }
}

TEST(Registry, RepOptionIsCheckedAgainstTheDeclaration) {
  // Every declared key at a value of its range is accepted; erode only where the radius is met by
  // a shrunk map.
  for (const RepresentationEntry& e : representations())
    for (const ParamDecl& d : e.params)
      EXPECT_NO_THROW(parse_rep_option(e.name + ":" + d.name + "=" + some_value(d))) << e.name << ' ' << d.name;
  EXPECT_EQ(parse_rep_option("navmesh:erode=cell,merge=1").at(0).erode, Erosion::cell);
  EXPECT_EQ(parse_rep_option("navmesh:erode=cell,merge=1").at(0).params, "merge=1");
  EXPECT_EQ(parse_rep_option("quadtree:merge=0,erode=none,min=2").at(0).params, "merge=0,min=2");
  const char* bad[] = {"quadtree:bogus=1", "quadtree:min=0", "quadtree:merge=2", "navmesh-tiles:tile=1.5",
                       "visgraph:skip=1,table=1", "visgraph:skip=1,taut=0", "subgoal:table=1,levels=2",
                       "navmesh:erode=side", "visgraph:erode=cell", "grid8:merge=1", "quadtree:min=nan"};
  for (const char* b : bad) EXPECT_THROW(parse_rep_option(b), std::invalid_argument) << b;
  // Clashes need both values as declared: these combine.
  for (const char* ok : {"visgraph:skip=0,table=1", "visgraph:skip=1,taut=1", "subgoal:table=1,levels=1", "subgoal:table=0,levels=2"})
    EXPECT_NO_THROW(parse_rep_option(ok)) << ok;
}

TEST(Registry, CanonicalTextComesFromTheDeclaration) {
  const Map m = maps()[0];
  const RepresentationEntry* q = find_representation("quadtree");
  ASSERT_NE(q, nullptr);
  Params p = Params::parse("merge=on,min=2.50");
  q->build(m, p);
  EXPECT_EQ(p.canonical(), "aspect=2,merge=1,min=2.5");  // flag as 1/0, real as printed, sorted
  const RepresentationSpec s = parse_rep_option("quadtree:erode=cell,merge=on,min=2.50").at(0);
  EXPECT_EQ(s.build_params(p, true), "erode=cell,aspect=2,merge=1,min=2.5");
  EXPECT_EQ(s.build_params(p, false), "aspect=2,merge=1,min=2.5");
  // A read that disagrees with its declaration is a programming error, not bad input.
  Params r;
  EXPECT_THROW(r.flag(QuadTree::kParams[0]), std::logic_error);       // min is real
  EXPECT_THROW(r.integer(VisGraph::kParams[1], 1), std::logic_error);  // table is a flag
  EXPECT_THROW(r.flag(VisGraph::kParams[1]), std::logic_error);        // automatic: the build gives the default
}

// The optimum's reference is the entry that declares the reference role (its kReferenceParams),
// never a costly opt-in build: with folders registered in name order, the first exact entry was
// region-labels, and every run's optimum built its labels (sweeps four times slower).
TEST(Registry, ReferenceIsTheDeclaredOneNotAnOptInBuild) {
  const RepresentationEntry* ref = reference_representation();
  ASSERT_NE(ref, nullptr);
  EXPECT_TRUE(ref->caps.exact);
  EXPECT_FALSE(ref->opt_in) << ref->name;
  EXPECT_FALSE(ref->reference_params.empty()) << ref->name;
}

}  // namespace test_registry
