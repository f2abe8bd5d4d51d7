//===- SampleSetTest.cpp - cavs::SampleSet (cavs/sample_set.hpp) ----------===//
//
// Samples in, batches out: a batch of chosen samples carries their types,
// children (shifted to batch ids) and attributes; retyping, root masking,
// the round trip through fromBatch and malformed samples.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "cavs/sample_set.hpp"

namespace cavs::test {
namespace {

std::vector<int32_t> toVector(Span<const int32_t> values) {
  return {values.begin(), values.end()};
}

/// Two trees with a leaf type 0 (arity 0) and an inner type 1 (arity 2):
/// sample 0 is leaves 0, 1 under root 2; sample 1 is a single leaf.
SampleSet twoTrees() {
  SampleSet set({0, 2}, {"word", "label"});
  set.add(std::vector<int32_t>{0, 0, 1}, std::vector<int32_t>{-1, -1, -1, -1, 0, 1},
          {std::vector<int32_t>{4, 5, -1}, std::vector<int32_t>{1, 2, 3}});
  set.add(std::vector<int32_t>{0}, std::vector<int32_t>{-1, -1},
          {std::vector<int32_t>{7}, std::vector<int32_t>{4}});
  return set;
}

// Tests that a batch holds the chosen samples in the given order.
TEST(SampleSet, BatchesChosenSamplesInOrder) {
  SampleSet set = twoTrees();
  EXPECT_EQ(set.size(), 2);
  EXPECT_EQ(set.numVertices(), 4);
  EXPECT_EQ(set.numVertices(0), 3);
  const int32_t ids[] = {1, 0};
  GraphBatch batch = set.batch(ids, 2);
  EXPECT_EQ(batch.numSamples(), 2);
  EXPECT_EQ(toVector(batch.types()), (std::vector<int32_t>{0, 0, 0, 1}));
  EXPECT_EQ(toVector(batch.children(3)), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(toVector(batch.attribute("word")),
            (std::vector<int32_t>{7, 4, 5, -1}));
  EXPECT_EQ(set.countNonNegative("word"), 3);
}

// Tests retyping, root masking and the round trip through a batch.
TEST(SampleSet, RetypeMaskAndRoundTrip) {
  SampleSet set = twoTrees();
  set.retype({2, 2}, [](int32_t sample, int32_t vertex, int32_t) {
    return (sample + vertex) % 2;
  });
  set.maskNonRoots("label");
  EXPECT_EQ(set.attribute("label"), (std::vector<int32_t>{-1, -1, 3, 4}));
  const int32_t ids[] = {0, 1};
  GraphBatch batch = set.batch(ids, 2);
  EXPECT_EQ(toVector(batch.types()), (std::vector<int32_t>{0, 1, 0, 1}));
  SampleSet again = SampleSet::fromBatch(batch, {"label"});
  EXPECT_EQ(again.size(), 2);
  EXPECT_EQ(again.attribute("label"), (std::vector<int32_t>{-1, -1, 3, 4}));
  GraphBatch rebuilt = again.batch(ids, 2);
  EXPECT_EQ(toVector(rebuilt.children(2)), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(toVector(rebuilt.types()), toVector(batch.types()));
}

// Tests that malformed samples and unknown names are refused.
TEST(SampleSet, RejectsMalformedSamples) {
  SampleSet set({0, 2}, {"word"});
  EXPECT_THROW(set.add(std::vector<int32_t>{0}, std::vector<int32_t>{-1},
                       {std::vector<int32_t>{1}}),
               std::invalid_argument);
  EXPECT_THROW(set.add(std::vector<int32_t>{0}, std::vector<int32_t>{-1, -1},
                       {std::vector<int32_t>{1, 2}}),
               std::invalid_argument);
  EXPECT_THROW(set.maskNonRoots("label"), std::invalid_argument);
  EXPECT_THROW(set.retype({3}, [](int32_t, int32_t, int32_t) { return 0; }),
               std::invalid_argument);
}

// Tests that sample ids out of range and negative counts are refused, not
// read past the arrays (an id of 7 in a set of 2 used to report a made-up
// type from memory beyond them; 1e8 crashed).
TEST(SampleSet, RejectsSamplesOutOfRange) {
  SampleSet set = twoTrees();
  for (int32_t bad : {2, 7, -1, 100000000}) {
    const int32_t ids[] = {0, bad};
    try {
      set.batch(ids, 2);
      ADD_FAILURE() << "sample " << bad << " was batched";
    } catch (const std::invalid_argument &error) {
      EXPECT_EQ(std::string(error.what()),
                "SampleSet::batch: sample " + std::to_string(bad) +
                    " is out of range (the set has 2 samples)");
    }
    EXPECT_THROW(set.numVertices(bad), std::invalid_argument);
  }
  const int32_t ids[] = {1};
  EXPECT_THROW(set.batch(ids, -1), std::invalid_argument);
  EXPECT_THROW(set.truncate(-1), std::invalid_argument);
  EXPECT_EQ(set.size(), 2);
  set.truncate(1);
  EXPECT_EQ(set.size(), 1);
  EXPECT_EQ(set.numVertices(0), 3);
}

// Tests that the C++ accessors of a batch and its schedule check the
// indices the C arrays behind their spans cannot (children(3) of a
// 3-vertex batch used to return 2^64 - 2 entries).
TEST(SampleSet, BatchAccessorsCheckIndices) {
  SampleSet set = twoTrees();
  const int32_t ids[] = {0, 1};
  GraphBatch batch = set.batch(ids, 2);
  EXPECT_EQ(toVector(batch.children(2)), (std::vector<int32_t>{0, 1}));
  for (int32_t bad : {4, -1, 100000000})
    EXPECT_THROW(batch.children(bad), Error);
  Schedule schedule(batch);
  const Span<const cavs_task> tasks = schedule.tasks();
  const cavs_task &root = tasks[tasks.size() - 1];
  ASSERT_EQ(root.arity, 2);
  EXPECT_EQ(toVector(schedule.childRows(root, 1)).size(), 1u);
  EXPECT_THROW(schedule.childRows(root, 2), Error);
  EXPECT_THROW(schedule.childView(root, -1), Error);
  EXPECT_EQ(schedule.typeRows(1).size(), 1u);
  EXPECT_THROW(schedule.typeRows(2), Error);
}

} // namespace
} // namespace cavs::test
