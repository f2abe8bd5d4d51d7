//===- OpsTest.cpp - the kernels called by generated code (cavs/ops.h) ----===//
//
// Every op is compared with a plain reference loop written here, over random
// sizes that include empty and single-row calls, leading dimensions larger
// than the width (whose padding must stay untouched), DAG children with
// repeats and absent (-1) entries, negative ids and labels, and the exact
// messages of out-of-range ids. gemm is checked in its three uses against a
// naive triple loop on every GEMM engine built in, at small sizes and at the
// sizes the models issue (where the engines take their blocked paths).
//
//===----------------------------------------------------------------------===//
#include "cavs/instance.h"
#include "cavs/ops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace cavs::test {
namespace {

/// Marks the padding of strided rows, which no op may write.
constexpr float kPad = 777.0f;

/// Row counts of every randomized test: empty, one row, a few, many.
const int64_t kRowCounts[] = {0, 1, 2, 5, 33};

/// Rows of `width` random floats at stride `ld`, padding set to kPad.
struct Rows {
  Rows(std::mt19937 &rng, int64_t rows, int64_t width, int64_t ld)
      : rows(rows), width(width), ld(ld), data(rows * ld, kPad) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        at(r, c) = value(rng);
  }
  float &at(int64_t r, int64_t c) { return data[r * ld + c]; }
  float *ptr() { return data.data(); }
  /// Expects every padding slot to still hold kPad.
  void expectPaddingIntact() const {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = width; c < ld; ++c)
        ASSERT_EQ(data[r * ld + c], kPad) << "row " << r << " column " << c;
  }
  int64_t rows, width, ld;
  std::vector<float> data;
};

/// A width in [1, 9] and an ld that exceeds it by 0 to 3.
struct Shape {
  int64_t width, ld;
};
Shape randomShape(std::mt19937 &rng) {
  int64_t width = std::uniform_int_distribution<int64_t>(1, 9)(rng);
  return {width, width + std::uniform_int_distribution<int64_t>(0, 3)(rng)};
}

/// `count` int32 ids in [low, high) at stride `ld` (padding set to 0).
std::vector<int32_t> randomIds(std::mt19937 &rng, int64_t count, int64_t ld,
                               int32_t low, int32_t high) {
  std::vector<int32_t> ids(count * ld, 0);
  std::uniform_int_distribution<int32_t> id(low, high - 1);
  for (int64_t r = 0; r < count; ++r)
    ids[r * ld] = id(rng);
  return ids;
}

void expectNear(float actual, double expected, const std::string &where) {
  EXPECT_NEAR(actual, expected, 1e-4 * std::max(1.0, std::abs(expected)))
      << where;
}

/// Expects `status` to be CAVS_ERROR_INVALID_ARGUMENT with `message`.
void expectInvalid(cavs_status status, const std::string &message) {
  EXPECT_EQ(status, CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(cavs_last_error_message()), message);
}

// --- gemm -------------------------------------------------------------------

/// Reference C = alpha·op(A)·op(B) + beta·C, in double.
void naiveGemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
               float alpha, const Rows &a, const Rows &b, float beta, Rows &c) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        double x = transA ? a.data[p * a.ld + i] : a.data[i * a.ld + p];
        double y = transB ? b.data[j * b.ld + p] : b.data[p * b.ld + j];
        sum += x * y;
      }
      c.at(i, j) = float(alpha * sum + beta * c.at(i, j));
    }
}

void expectSame(const Rows &actual, const Rows &expected) {
  actual.expectPaddingIntact();
  for (int64_t r = 0; r < actual.rows; ++r)
    for (int64_t c = 0; c < actual.width; ++c)
      expectNear(actual.data[r * actual.ld + c],
                 expected.data[r * expected.ld + c],
                 "row " + std::to_string(r) + " column " + std::to_string(c));
}

/// Runs `check` once with each GEMM engine built in as the active one.
template <typename Check> void forEachGemmEngine(Check check) {
  const std::string active = cavs_gemm_engine();
  for (int32_t e = 0; e < cavs_num_gemm_engines(); ++e) {
    const char *engine = cavs_gemm_engine_name(e);
    SCOPED_TRACE(engine);
    ASSERT_EQ(cavs_set_gemm_engine(engine), CAVS_OK);
    ASSERT_STREQ(cavs_gemm_engine(), engine);
    check();
  }
  ASSERT_EQ(cavs_set_gemm_engine(active.c_str()), CAVS_OK);
}

TEST(OpsTest, GemmEnginesAreListedAndSelectedByName) {
  ASSERT_GE(cavs_num_gemm_engines(), 1);
  EXPECT_STREQ(cavs_gemm_engine_name(0), "openblas");
  EXPECT_EQ(cavs_gemm_engine_name(-1), nullptr);
  EXPECT_EQ(cavs_gemm_engine_name(cavs_num_gemm_engines()), nullptr);
  std::string names;
  for (int32_t e = 0; e < cavs_num_gemm_engines(); ++e)
    names += (e ? ", " : "") + std::string(cavs_gemm_engine_name(e));
  const std::string active = cavs_gemm_engine();
  expectInvalid(cavs_set_gemm_engine("bogus"),
                "no GEMM engine is called 'bogus'; this runtime has: " + names);
  expectInvalid(cavs_set_gemm_engine(nullptr), "the engine name is NULL");
  // A long or binary name is quoted as an excerpt (it was quoted whole).
  const std::string huge = "x\n" + std::string(100000, 'y');
  expectInvalid(cavs_set_gemm_engine(huge.c_str()),
                "no GEMM engine is called 'x\\n" + std::string(78, 'y') +
                    "…(+99922 bytes)'; this runtime has: " + names);
  EXPECT_EQ(cavs_gemm_engine(), active);
  forEachGemmEngine([] { EXPECT_STRNE(cavs_gemm_kernel(), ""); });
}

TEST(OpsTest, GemmMatmulIsXTimesWTransposed) {
  forEachGemmEngine([] {
  std::mt19937 rng(1);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [k, ldx] = randomShape(rng);
    auto [m, ldy] = randomShape(rng);
    Rows x(rng, rows, k, ldx), w(rng, m, k, k), y(rng, rows, m, ldy);
    Rows expected = y;
    naiveGemm(false, true, rows, m, k, 1.0f, x, w, 0.0f, expected);
    cavs_op_gemm(0, 1, rows, m, k, 1.0f, x.ptr(), ldx, w.ptr(), k, 0.0f,
                 y.ptr(), ldy);
    expectSame(y, expected);
  }
  });
}

TEST(OpsTest, GemmTransposedMatmulIsDyTimesW) {
  forEachGemmEngine([] {
  std::mt19937 rng(2);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [k, lddx] = randomShape(rng);
    auto [m, lddy] = randomShape(rng);
    Rows dy(rng, rows, m, lddy), w(rng, m, k, k), dx(rng, rows, k, lddx);
    Rows expected = dx;
    // beta = 1: the input gradient accumulates over several uses.
    naiveGemm(false, false, rows, k, m, 0.5f, dy, w, 1.0f, expected);
    cavs_op_gemm(0, 0, rows, k, m, 0.5f, dy.ptr(), lddy, w.ptr(), k, 1.0f,
                 dx.ptr(), lddx);
    expectSame(dx, expected);
  }
  });
}

TEST(OpsTest, GemmWeightGradientAccumulatesOuterProducts) {
  forEachGemmEngine([] {
  std::mt19937 rng(3);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [k, ldx] = randomShape(rng);
    auto [m, lddy] = randomShape(rng);
    Rows dy(rng, rows, m, lddy), x(rng, rows, k, ldx), dw(rng, m, k, k);
    Rows expected = dw;
    naiveGemm(true, false, m, k, rows, 1.0f, dy, x, 1.0f, expected);
    // rows == 0 takes the k == 0 path: dW stays as it was.
    cavs_op_gemm(1, 0, m, k, rows, 1.0f, dy.ptr(), lddy, x.ptr(), ldx, 1.0f,
                 dw.ptr(), k);
    expectSame(dw, expected);
  }
  });
}

TEST(OpsTest, GemmEnginesAgreeWithTheReferenceAtModelSizes) {
  // Rows of a task, hidden sizes, an odd leading dimension; all three uses.
  struct Case {
    bool transA, transB;
    int64_t m, n, k;
  };
  const Case cases[] = {{false, true, 57, 384, 256},
                        {false, false, 300, 129, 515},
                        {true, false, 256, 515, 57}};
  forEachGemmEngine([&] {
    std::mt19937 rng(4);
    for (const Case &c : cases) {
      SCOPED_TRACE(testing::Message() << c.m << "x" << c.n << "x" << c.k);
      Rows a(rng, c.transA ? c.k : c.m, c.transA ? c.m : c.k,
             (c.transA ? c.m : c.k) + 3);
      Rows b(rng, c.transB ? c.n : c.k, c.transB ? c.k : c.n,
             c.transB ? c.k : c.n);
      Rows out(rng, c.m, c.n, c.n + 1), expected = out;
      naiveGemm(c.transA, c.transB, c.m, c.n, c.k, 1.0f, a, b, 1.0f, expected);
      cavs_op_gemm(c.transA, c.transB, c.m, c.n, c.k, 1.0f, a.ptr(), a.ld,
                   b.ptr(), b.ld, 1.0f, out.ptr(), out.ld);
      out.expectPaddingIntact();
      // Float sums of k products of values in [-1, 1], in any order.
      for (int64_t r = 0; r < c.m; ++r)
        for (int64_t j = 0; j < c.n; ++j)
          ASSERT_NEAR(out.at(r, j), expected.at(r, j), 1e-5 * double(c.k))
              << "row " << r << " column " << j;
    }
  });
}

TEST(OpsTest, GemmWithEmptyProductScalesOrClearsC) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> c = {1, 2, kPad, 3, nan, kPad};
  cavs_op_gemm(0, 1, 2, 2, 0, 1.0f, nullptr, 0, nullptr, 0, 2.0f, c.data(), 3);
  EXPECT_EQ(c[0], 2.0f);
  EXPECT_EQ(c[3], 6.0f);
  EXPECT_TRUE(std::isnan(c[4]));
  cavs_op_gemm(0, 1, 2, 2, 0, 1.0f, nullptr, 0, nullptr, 0, 0.0f, c.data(), 3);
  EXPECT_EQ(c, (std::vector<float>{0, 0, kPad, 0, 0, kPad}));
  cavs_op_gemm(0, 1, 0, 2, 5, 1.0f, nullptr, 0, nullptr, 0, 0.0f, nullptr, 0);
}

// --- gather, scatter and child gradients
// --------------------------------------

TEST(OpsTest, GatherCopiesChildStateRowsOrZeros) {
  std::mt19937 rng(4);
  const int64_t arity = 3, stateRows = 6;
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows state(rng, stateRows, width, width), dst(rng, rows, width, ld);
    // Ids repeat (DAG) and include absent children.
    std::vector<int32_t> children =
        randomIds(rng, rows * arity, 1, -1, stateRows);
    for (int64_t k = 0; k < arity; ++k) {
      cavs_op_gather(rows, k, arity, children.data(), state.ptr(), width,
                     dst.ptr(), ld);
      dst.expectPaddingIntact();
      for (int64_t r = 0; r < rows; ++r) {
        int32_t child = children[r * arity + k];
        for (int64_t c = 0; c < width; ++c)
          EXPECT_EQ(dst.at(r, c), child < 0 ? 0.0f : state.at(child, c));
      }
    }
  }
}

TEST(OpsTest, ScatterWritesConsecutiveStateRows) {
  std::mt19937 rng(5);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows src(rng, rows, width, ld), state(rng, rows + 3, width, width);
    Rows expected = state;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        expected.at(r + 2, c) = src.at(r, c);
    cavs_op_scatter(rows, src.ptr(), ld, state.ptr() + 2 * width, width);
    EXPECT_EQ(state.data, expected.data);
  }
}

TEST(OpsTest, ChildGradAccumulatesSharedChildren) {
  std::mt19937 rng(6);
  const int64_t arity = 2, stateRows = 4;
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows src(rng, rows, width, ld), grad(rng, stateRows, width, width);
    std::vector<int32_t> children =
        randomIds(rng, rows * arity, 1, -1, stateRows);
    if (rows >= 2) { // Make sure a child is shared within the call.
      children[0 * arity + 1] = 3;
      children[1 * arity + 1] = 3;
    }
    for (int64_t k = 0; k < arity; ++k) {
      Rows expected = grad;
      for (int64_t r = 0; r < rows; ++r)
        if (int32_t child = children[r * arity + k]; child >= 0)
          for (int64_t c = 0; c < width; ++c)
            expected.at(child, c) += src.at(r, c);
      cavs_op_child_grad(rows, k, arity, children.data(), src.ptr(), ld,
                         grad.ptr(), width);
      EXPECT_EQ(grad.data, expected.data);
    }
  }
}

// --- copies and zeroing
// -------------------------------------------------------

TEST(OpsTest, CopyRowsStrided) {
  std::mt19937 rng(7);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows src(rng, rows, width, ld + 1), dst(rng, rows, width, ld);
    cavs_op_copy_rows(rows, width, src.ptr(), src.ld, dst.ptr(), ld);
    dst.expectPaddingIntact();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        EXPECT_EQ(dst.at(r, c), src.at(r, c));
  }
}

TEST(OpsTest, CopyRowsDenseBlock) {
  std::mt19937 rng(8);
  Rows src(rng, 4, 3, 3), dst(rng, 4, 3, 3);
  cavs_op_copy_rows(4, 3, src.ptr(), 3, dst.ptr(), 3);
  EXPECT_EQ(dst.data, src.data);
  cavs_op_copy_rows(0, 3, nullptr, 3, nullptr, 3);
}

TEST(OpsTest, ZeroRowsKeepsPadding) {
  std::mt19937 rng(9);
  for (int64_t rows : kRowCounts) {
    auto [width, ld] = randomShape(rng);
    Rows dst(rng, rows, width, ld);
    cavs_op_zero_rows(rows, width, dst.ptr(), ld);
    dst.expectPaddingIntact();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        EXPECT_EQ(dst.at(r, c), 0.0f);
  }
}

// --- lookup
// -------------------------------------------------------------------

TEST(OpsTest, LookupCopiesTableRowsOrZeros) {
  std::mt19937 rng(10);
  const int64_t tableRows = 7;
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows table(rng, tableRows, width, width), dst(rng, rows, width, ld);
    std::vector<int32_t> ids = randomIds(rng, rows, ld, -2, tableRows);
    ASSERT_EQ(cavs_op_lookup(rows, ids.data(), ld, table.ptr(), tableRows,
                             width, dst.ptr(), ld),
              CAVS_OK);
    dst.expectPaddingIntact();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        EXPECT_EQ(dst.at(r, c),
                  ids[r * ld] < 0 ? 0.0f : table.at(ids[r * ld], c));
  }
}

TEST(OpsTest, LookupRejectsOutOfRangeIdsWithoutWriting) {
  std::mt19937 rng(11);
  Rows table(rng, 3, 2, 2), dst(rng, 5, 2, 4);
  std::vector<int32_t> ids = {0, 9, 2, 9, -1, 9, 2, 9, 21705, 9};
  Rows before = dst;
  expectInvalid(
      cavs_op_lookup(5, ids.data(), 2, table.ptr(), 3, 2, dst.ptr(), 4),
      "lookup index 21705 is out of range [0, 3) at row 4");
  EXPECT_EQ(dst.data, before.data);
  ids[8] = 3; // Exactly table_rows is out of range too.
  expectInvalid(
      cavs_op_lookup(5, ids.data(), 2, table.ptr(), 3, 2, dst.ptr(), 4),
      "lookup index 3 is out of range [0, 3) at row 4");
}

TEST(OpsTest, LookupGradScatterAddsRepeatedIds) {
  std::mt19937 rng(12);
  const int64_t tableRows = 4;
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows src(rng, rows, width, ld), grad(rng, tableRows, width, width);
    std::vector<int32_t> ids = randomIds(rng, rows, 3, -1, tableRows);
    Rows expected = grad;
    for (int64_t r = 0; r < rows; ++r)
      if (ids[r * 3] >= 0)
        for (int64_t c = 0; c < width; ++c)
          expected.at(ids[r * 3], c) += src.at(r, c);
    ASSERT_EQ(cavs_op_lookup_grad(rows, ids.data(), 3, src.ptr(), ld,
                                  grad.ptr(), tableRows, width),
              CAVS_OK);
    EXPECT_EQ(grad.data, expected.data);
  }
}

TEST(OpsTest, LookupGradRejectsOutOfRangeIdsWithoutWriting) {
  std::mt19937 rng(13);
  Rows src(rng, 4, 3, 3), grad(rng, 21701, 3, 3);
  std::vector<int32_t> ids = {5, -1, 7, 21705};
  Rows before = grad;
  expectInvalid(
      cavs_op_lookup_grad(4, ids.data(), 1, src.ptr(), 3, grad.ptr(), 21701, 3),
      "lookup index 21705 is out of range [0, 21701) at row 3");
  EXPECT_EQ(grad.data, before.data);
}

// --- reductions
// -----------------------------------------------------------------

TEST(OpsTest, ColumnSumAccumulatesIntoVector) {
  std::mt19937 rng(14);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows src(rng, rows, width, ld), dst(rng, 1, width, width);
    std::vector<double> expected(dst.data.begin(), dst.data.end());
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        expected[c] += src.at(r, c);
    cavs_op_column_sum(rows, width, src.ptr(), ld, dst.ptr());
    for (int64_t c = 0; c < width; ++c)
      expectNear(dst.at(0, c), expected[c], "column " + std::to_string(c));
  }
}

TEST(OpsTest, LossSumAddsAColumnInDouble) {
  std::vector<float> column = {1.5f, kPad, -0.25f, kPad, 1e-8f, kPad};
  EXPECT_DOUBLE_EQ(cavs_op_loss_sum(3, column.data(), 2),
                   1.5 - 0.25 + double(1e-8f));
  EXPECT_EQ(cavs_op_loss_sum(0, nullptr, 2), 0.0);
  // 2^24 + 1 + 1 is exact in double but not in float.
  std::vector<float> big = {16777216.0f, 1.0f, 1.0f};
  EXPECT_EQ(cavs_op_loss_sum(3, big.data(), 1), 16777218.0);
}

// --- softmax and cross-entropy
// ----------------------------------------------------

/// Reference softmax of row r, in double, without the max shift.
std::vector<double> naiveSoftmax(Rows &x, int64_t r) {
  std::vector<double> p(x.width);
  double sum = 0;
  for (int64_t c = 0; c < x.width; ++c)
    sum += p[c] = std::exp(double(x.at(r, c)));
  for (double &v : p)
    v /= sum;
  return p;
}

TEST(OpsTest, SoftmaxNormalizesRows) {
  std::mt19937 rng(16);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows src(rng, rows, width, ld), dst(rng, rows, width, ld + 1);
    cavs_op_softmax(rows, width, src.ptr(), ld, dst.ptr(), ld + 1);
    dst.expectPaddingIntact();
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> p = naiveSoftmax(src, r);
      for (int64_t c = 0; c < width; ++c)
        expectNear(dst.at(r, c), p[c], "row " + std::to_string(r));
    }
    // In place gives the same result.
    cavs_op_softmax(rows, width, src.ptr(), ld, src.ptr(), ld);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        EXPECT_EQ(src.at(r, c), dst.at(r, c));
  }
}

// Tests the softmax's exponentials element by element where the absolute
// tolerance above would hide them: over a row whose logits span 0 to -87
// (every term but the first is tiny), each probability is within 1e-6
// relative of exp in double, and logits below expf's range give exact 0.
TEST(OpsTest, SoftmaxTermsAreAccurateOverTheWholeExpRange) {
  std::vector<float> x;
  for (int i = 0; i <= 1000; ++i)
    x.push_back(-0.087f * float(i));
  x.push_back(-88.0f);
  x.push_back(-1e30f);
  std::vector<double> expected;
  double sum = 0;
  for (float v : x)
    sum += expected.emplace_back(std::exp(double(v)));
  std::vector<float> p(x.size());
  cavs_op_softmax(1, int64_t(x.size()), x.data(), int64_t(x.size()), p.data(),
                  int64_t(x.size()));
  for (size_t c = 0; c + 2 < x.size(); ++c)
    EXPECT_NEAR(p[c], expected[c] / sum, 1e-6 * expected[c] / sum)
        << "logit " << x[c];
  EXPECT_EQ(p[x.size() - 2], 0.0f);
  EXPECT_EQ(p.back(), 0.0f);
}

TEST(OpsTest, SoftmaxIsStableForLargeLogits) {
  std::vector<float> x = {1000.0f, 1000.0f, -1000.0f};
  std::vector<float> p(3);
  cavs_op_softmax(1, 3, x.data(), 3, p.data(), 3);
  EXPECT_EQ(p, (std::vector<float>{0.5f, 0.5f, 0.0f}));
}

TEST(OpsTest, SoftmaxCrossEntropyMatchesReference) {
  std::mt19937 rng(17);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows logits(rng, rows, width, ld), loss(rng, rows, 1, 3);
    std::vector<int32_t> labels = randomIds(rng, rows, 2, -1, int32_t(width));
    ASSERT_EQ(cavs_op_softmax_cross_entropy(rows, width, logits.ptr(), ld,
                                            labels.data(), 2, loss.ptr(), 3),
              CAVS_OK);
    loss.expectPaddingIntact();
    for (int64_t r = 0; r < rows; ++r) {
      int32_t label = labels[r * 2];
      double expected =
          label < 0 ? 0.0 : -std::log(naiveSoftmax(logits, r)[label]);
      expectNear(loss.at(r, 0), expected, "row " + std::to_string(r));
    }
  }
}

TEST(OpsTest, SoftmaxCrossEntropyIsStableForLargeLogits) {
  std::vector<float> x = {1000.0f, -1000.0f};
  std::vector<int32_t> label = {1};
  float loss = 0;
  ASSERT_EQ(cavs_op_softmax_cross_entropy(1, 2, x.data(), 2, label.data(), 1,
                                          &loss, 1),
            CAVS_OK);
  EXPECT_FLOAT_EQ(loss, 2000.0f); // log(0) would have been infinite.
}

// Logits far from zero keep the loss to float rounding of the loss, not
// of the logits: m, m + 1, ..., m + 7 with label 0 is 7.45834 for every m
// (it was 7.4375 at m = 1e6 and 7 at 1e7).
TEST(OpsTest, SoftmaxCrossEntropyIsAccurateForLargeLogits) {
  for (float m : {1e2f, 1e4f, 1e6f, 1e7f, -1e7f}) {
    std::vector<float> x(8);
    for (int c = 0; c < 8; ++c)
      x[c] = m + float(c);
    const int32_t label = 0;
    float loss = 0;
    ASSERT_EQ(
        cavs_op_softmax_cross_entropy(1, 8, x.data(), 8, &label, 1, &loss, 1),
        CAVS_OK);
    double sum = 0;
    for (int c = 0; c < 8; ++c)
      sum += std::exp(double(x[c]) - double(x[7]));
    const double expected = std::log(sum) + double(x[7]) - double(x[0]);
    EXPECT_NEAR(loss, expected, 2e-6 * expected) << "logits around " << m;
  }
}

TEST(OpsTest, SoftmaxCrossEntropyGradMatchesReference) {
  std::mt19937 rng(18);
  for (int64_t rows : kRowCounts) {
    SCOPED_TRACE(rows);
    auto [width, ld] = randomShape(rng);
    Rows logits(rng, rows, width, ld), grad(rng, rows, 1, 2),
        dst(rng, rows, width, ld + 2);
    std::vector<int32_t> labels = randomIds(rng, rows, 1, -1, int32_t(width));
    ASSERT_EQ(cavs_op_softmax_cross_entropy_grad(rows, width, logits.ptr(), ld,
                                                 labels.data(), 1, grad.ptr(),
                                                 2, dst.ptr(), ld + 2),
              CAVS_OK);
    dst.expectPaddingIntact();
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> p = naiveSoftmax(logits, r);
      for (int64_t c = 0; c < width; ++c) {
        double expected =
            labels[r] < 0 ? 0.0
                          : grad.at(r, 0) * (p[c] - (c == labels[r] ? 1 : 0));
        expectNear(dst.at(r, c), expected, "row " + std::to_string(r));
      }
    }
  }
}

TEST(OpsTest, SoftmaxCrossEntropyRejectsOutOfRangeLabels) {
  std::mt19937 rng(19);
  Rows logits(rng, 3, 5, 5), out(rng, 3, 5, 5);
  std::vector<int32_t> labels = {4, -1, 5};
  std::vector<float> grad = {1, 1, 1};
  Rows before = out;
  expectInvalid(cavs_op_softmax_cross_entropy(3, 5, logits.ptr(), 5,
                                              labels.data(), 1, out.ptr(), 5),
                "cross-entropy label 5 is out of range [0, 5) at row 2");
  expectInvalid(
      cavs_op_softmax_cross_entropy_grad(3, 5, logits.ptr(), 5, labels.data(),
                                         1, grad.data(), 1, out.ptr(), 5),
      "cross-entropy label 5 is out of range [0, 5) at row 2");
  EXPECT_EQ(out.data, before.data);
}

} // namespace
} // namespace cavs::test
