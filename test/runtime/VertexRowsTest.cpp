//===- VertexRowsTest.cpp - the per-vertex data ops (cavs/ops.h) ----------===//
//
// gather_rows, scatter_rows and mark_rows against plain loops: repeated and
// permuted vertex ids, strided rows whose padding must stay untouched, the
// NULL source (zeros) and destination (nothing), and touched-row marking
// with skipped negative ids and checked ranges.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "RandomFloats.h"

#include "cavs/ops.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace cavs::test {
namespace {

constexpr float kPad = 777.0f;

/// `rows` vertex ids in [0, vertices), with repeats.
std::vector<int32_t> randomIndex(std::mt19937 &rng, int64_t rows,
                                 int32_t vertices) {
  std::vector<int32_t> index(rows);
  for (int32_t &id : index)
    id = std::uniform_int_distribution<int32_t>(0, vertices - 1)(rng);
  return index;
}

TEST(VertexRowsOps, GatherRowsReadsRowsByVertexId) {
  std::mt19937 rng(1);
  for (int64_t rows : {0, 1, 7, 40}) {
    const int64_t width = 3, ld = 5;
    const int32_t vertices = 6;
    const std::vector<float> src = randomFloats(rng, vertices * width);
    const std::vector<int32_t> index = randomIndex(rng, rows, vertices);
    std::vector<float> dst(rows * ld, kPad);
    cavs_op_gather_rows(rows, index.data(), src.data(), width, dst.data(), ld);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < ld; ++c)
        EXPECT_EQ(dst[r * ld + c],
                  c < width ? src[index[r] * width + c] : kPad);
    // No source: zeros.
    cavs_op_gather_rows(rows, index.data(), nullptr, width, dst.data(), ld);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < ld; ++c)
        EXPECT_EQ(dst[r * ld + c], c < width ? 0.0f : kPad);
  }
}

TEST(VertexRowsOps, ScatterRowsAssignsOrAccumulates) {
  std::mt19937 rng(2);
  for (int64_t rows : {0, 1, 7, 40}) {
    const int64_t width = 2, ld = 3;
    const int32_t vertices = 5;
    const std::vector<float> src = randomFloats(rng, rows * ld);
    const std::vector<int32_t> index = randomIndex(rng, rows, vertices);
    const std::vector<float> initial = randomFloats(rng, vertices * width);

    std::vector<float> assigned = initial, expected = initial;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        expected[index[r] * width + c] = src[r * ld + c];
    cavs_op_scatter_rows(rows, index.data(), src.data(), ld, assigned.data(),
                         width, 0);
    EXPECT_EQ(assigned, expected);

    std::vector<float> summed = initial;
    expected = initial;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        expected[index[r] * width + c] += src[r * ld + c];
    cavs_op_scatter_rows(rows, index.data(), src.data(), ld, summed.data(),
                         width, 1);
    EXPECT_EQ(summed, expected);
  }
  // No destination: nothing happens (and nothing is read).
  const int32_t index[] = {0};
  cavs_op_scatter_rows(1, index, nullptr, 1, nullptr, 1, 1);
}

class MarkRows : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(cavs_param_store_create(&desc, 1, &params), CAVS_OK);
    ASSERT_EQ(cavs_grad_store_create(params, &grads), CAVS_OK);
  }
  void TearDown() override {
    cavs_grad_store_destroy(grads);
    cavs_param_store_destroy(params);
  }
  std::vector<int32_t> touched(int32_t param) {
    const int32_t *rows = cavs_grad_store_touched_rows(grads, param);
    return {rows, rows + cavs_grad_store_num_touched_rows(grads, param)};
  }

  ModelSpec spec = tinyModel();
  cavs_model_desc desc = spec.desc();
  cavs_param_store *params = nullptr;
  cavs_grad_store *grads = nullptr;
};

TEST_F(MarkRows, MarksStridedIdsAndSkipsNegativeOnes) {
  ASSERT_EQ(cavs_grad_store_track_rows(grads, 0), CAVS_OK);
  // index_ld 2: the ids are every other entry.
  const int32_t index[] = {3, 99, -1, 99, 7, 99, 3, 99};
  ASSERT_EQ(cavs_op_mark_rows(grads, 0, 4, index, 2), CAVS_OK);
  EXPECT_EQ(touched(0), (std::vector<int32_t>{3, 7}));
  EXPECT_EQ(cavs_op_mark_rows(grads, 0, 0, nullptr, 1), CAVS_OK);
}

TEST_F(MarkRows, RejectsOutOfRangeRowsWithoutMarking) {
  ASSERT_EQ(cavs_grad_store_track_rows(grads, 0), CAVS_OK);
  const int32_t index[] = {2, 10};
  EXPECT_EQ(cavs_op_mark_rows(grads, 0, 2, index, 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "row 10 (entry 1) of parameter 'embed' is out of range [0, 10)");
  EXPECT_TRUE(touched(0).empty());
  EXPECT_EQ(cavs_op_mark_rows(nullptr, 0, 2, index, 1),
            CAVS_ERROR_INVALID_ARGUMENT);
}

TEST_F(MarkRows, OnlyChecksParametersThatDoNotTrackRows) {
  const int32_t index[] = {1, 2};
  EXPECT_EQ(cavs_op_mark_rows(grads, 1, 2, index, 1), CAVS_OK);
  EXPECT_EQ(cavs_grad_store_num_touched_rows(grads, 1), 0);
}

} // namespace
} // namespace cavs::test
