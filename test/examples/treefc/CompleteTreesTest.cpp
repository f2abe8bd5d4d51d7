//===- CompleteTreesTest.cpp - treefc-train's generated trees -------------===//
//
// The test trees must not depend on how many training trees come first:
// --max-train generated fewer of them, which shifted the test trees, so
// test figures of runs with and without it were not comparable.
//
//===----------------------------------------------------------------------===//
#include "CompleteTrees.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

TEST(CompleteTrees, TestTreesDoNotDependOnTheTrainingCount) {
  const treefc::TreeShape shape{16, 50};
  auto empty = [] { return cavs::SampleSet({0, 2}, {"word", "label"}); };
  cavs::SampleSet fullTrain = empty(), fullTest = empty(), fewTrain = empty(),
                  fewTest = empty();
  treefc::generateTrees(shape, 7, 20, 5, fullTrain, fullTest);
  treefc::generateTrees(shape, 7, 3, 5, fewTrain, fewTest);
  ASSERT_EQ(fullTest.size(), 5);
  EXPECT_EQ(fullTest.attribute("word"), fewTest.attribute("word"));
  EXPECT_EQ(fullTest.attribute("label"), fewTest.attribute("label"));
  // The training trees are a prefix of each other; the test trees are
  // others.
  const std::vector<int32_t> &words = fullTrain.attribute("word");
  const std::vector<int32_t> &fewWords = fewTrain.attribute("word");
  ASSERT_LT(fewWords.size(), words.size());
  EXPECT_TRUE(std::equal(fewWords.begin(), fewWords.end(), words.begin()));
  EXPECT_FALSE(std::equal(fullTest.attribute("word").begin(),
                          fullTest.attribute("word").end(), words.begin()));
}

} // namespace
