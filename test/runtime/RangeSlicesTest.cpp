//===- RangeSlicesTest.cpp - slices of element ranges ---------------------===//
//
// sliceRanges cuts a list of element ranges by positions in their
// concatenation (params/RangeSlices.h); parallelSlices hands every element
// to exactly one slice, on any number of threads.
//
//===----------------------------------------------------------------------===//
#include "params/RangeSlices.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <utility>
#include <vector>

namespace cavs::test {
namespace {

using namespace cavs::runtime;

using Ranges = std::vector<ElementRange>;
using Pairs = std::vector<std::pair<int64_t, int64_t>>;

Pairs pairs(const Ranges &ranges) {
  Pairs result;
  for (const ElementRange &range : ranges)
    result.emplace_back(range.begin, range.end);
  return result;
}

/// Work splits from one float on (as in ThreadedOpsTest, the same
/// program); set before the first split reads it.
[[maybe_unused]] const bool kSplitEverything =
    setenv("CAVS_MIN_PARALLEL_FLOATS", "1", 1) == 0;

// Dense parameters [0, 100), then rows of a table at 500, 700 and 300.
const Ranges kRanges = {{0, 100}, {500, 516}, {700, 716}, {300, 316}};

TEST(RangeSlicesTest, CutsByPositionInTheConcatenation) {
  EXPECT_EQ(pairs(sliceRanges(kRanges, 0, 148)), pairs(kRanges));
  EXPECT_EQ(pairs(sliceRanges(kRanges, 10, 20)), (Pairs{{10, 20}}));
  EXPECT_EQ(pairs(sliceRanges(kRanges, 96, 120)),
            (Pairs{{96, 100}, {500, 516}, {700, 704}}));
  // Cuts on a range's edges leave no empty ranges.
  EXPECT_EQ(pairs(sliceRanges(kRanges, 100, 132)),
            (Pairs{{500, 516}, {700, 716}}));
  EXPECT_EQ(pairs(sliceRanges(kRanges, 140, 148)), (Pairs{{308, 316}}));
  EXPECT_TRUE(sliceRanges(kRanges, 50, 50).empty());
  EXPECT_TRUE(sliceRanges(kRanges, 148, 200).empty());
  EXPECT_TRUE(sliceRanges({}, 0, 10).empty());
  EXPECT_EQ(pairs(sliceRanges({{4, 4}, {8, 12}}, 0, 2)), (Pairs{{8, 10}}));
}

TEST(RangeSlicesTest, EveryElementGoesToOneSlice) {
  for (int32_t threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    setPoolThreads(threads);
    std::vector<std::atomic<int>> visits(716);
    std::atomic<int> slices{0};
    parallelSlices(kRanges, 1, [&](const Ranges &slice) {
      ++slices;
      for (const ElementRange &range : slice)
        for (int64_t i = range.begin; i < range.end; ++i)
          ++visits[i];
    });
    for (int64_t i = 0; i < 716; ++i) {
      const bool inRanges = i < 100 || (i >= 300 && i < 316) ||
                            (i >= 500 && i < 516) || (i >= 700);
      ASSERT_EQ(visits[i], inRanges ? 1 : 0) << "element " << i;
    }
    EXPECT_EQ(slices, threads);
  }
  setPoolThreads(1);
}

} // namespace
} // namespace cavs::test
