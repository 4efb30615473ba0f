// What every representation with hub labels (labels=1) owes its labels_mb parameter, checked the
// same way for each (tests/test_subgoal.cpp, tests/test_visgraph.cpp), like the batteries: the
// default cap is declared with labels=1 and absent without it; labels above the cap are refused
// with an UnsupportedMap naming the parameter; a cap at the labels' size builds the same labels.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "representations/hub_labels.hpp"
#include "representations/params.hpp"
#include "representations/types.hpp"

namespace testlabels {

using namespace navbench;

// `m` must need more than 1 MiB of labels (the test says so when it does not).
template <class Rep>
void expect_labels_mb_caps(const Map& m) {
  Params p = Params::parse("labels=1");
  const Rep rep(m, p);
  ASSERT_NE(rep.hub_labels(), nullptr);
  EXPECT_NE(p.canonical().find("labels_mb=1024"), std::string::npos) << p.canonical();
  const std::size_t bytes = rep.hub_labels()->entries() * HubLabels::kEntryBytes;
  ASSERT_GT(bytes, std::size_t(1) << 20) << "the map must need more than the 1 MiB cap below";
  Params capped = Params::parse("labels=1,labels_mb=1");
  try {
    const Rep refused(m, capped);
    ADD_FAILURE() << "labels above labels_mb=1 were built";
  } catch (const UnsupportedMap& e) {
    EXPECT_NE(std::string(e.what()).find("raise labels_mb"), std::string::npos) << e.what();
  }
  Params roomy = Params::parse("labels=1,labels_mb=" + std::to_string((bytes >> 20) + 1));
  EXPECT_EQ(Rep(m, roomy).hub_labels()->entries(), rep.hub_labels()->entries());
  Params plain;
  const Rep without(m, plain);
  EXPECT_EQ(plain.canonical().find("labels_mb"), std::string::npos) << plain.canonical();
}

}  // namespace testlabels
