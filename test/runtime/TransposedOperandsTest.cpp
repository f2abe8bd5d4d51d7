//===- TransposedOperandsTest.cpp - parameters kept transposed per pass ---===//
//
// Within a scope, gemm multiplies by a transposed copy of a B operand read
// transposed from the scope's range (ops/TransposedOperands.h): the
// products must equal those without the scope, follow new values in the
// next scope, and keep apart matrices that start at the same float (a
// pack and its first member); copies are aligned like the parameters, and
// those no longer read are freed.
//
//===----------------------------------------------------------------------===//
#include "ops/TransposedOperands.h"
#include "RandomFloats.h"
#include "ops/CpuOps.h"
#include "params/AlignedBuffer.h"
#include "support/ThreadPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace cavs::test {
namespace {

using namespace cavs::runtime;

/// Y[rows×n] = X[rows×k] · Wᵀ for W[n×k] at `w` (leading dimension k).
std::vector<float> forwardProduct(const std::vector<float> &x, const float *w,
                                  int64_t rows, int64_t n, int64_t k) {
  std::vector<float> y(rows * n);
  cpu::gemm(0, 1, rows, n, k, 1.0f, x.data(), k, w, k, 0.0f, y.data(), n);
  return y;
}

void expectNear(const std::vector<float> &actual,
                const std::vector<float> &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-5f * (1.0f + std::fabs(expected[i])))
        << "element " << i;
}

TEST(TransposedOperandsTest, OnlyMatricesInTheScopeAreCopied) {
  std::vector<float> params(12), other(12);
  EXPECT_EQ(cpu::transposedOperand(params.data(), 4, 3, 4), nullptr);
  {
    cpu::StableOperandScope scope(params.data(), params.data() + 12);
    const float *copy = cpu::transposedOperand(params.data(), 4, 3, 4);
    EXPECT_NE(copy, nullptr);
    EXPECT_EQ(cpu::transposedOperand(params.data(), 4, 3, 4), copy);
    EXPECT_EQ(cpu::transposedOperand(other.data(), 4, 3, 4), nullptr);
  }
  EXPECT_EQ(cpu::transposedOperand(params.data(), 4, 3, 4), nullptr);
  cpu::StableOperandScope empty(nullptr, nullptr);
  EXPECT_EQ(cpu::transposedOperand(params.data(), 4, 3, 4), nullptr);
}

TEST(TransposedOperandsTest, ProductsFollowTheValuesOfEachScope) {
  std::mt19937 rng(7);
  const int64_t rows = 5, n = 37, k = 19;
  std::vector<float> x = randomFloats(rng, rows * k);
  std::vector<float> params = randomFloats(rng, n * k + 3);
  const float *w = params.data() + 3; // not at the start of the range
  const std::vector<float> before = forwardProduct(x, w, rows, n, k);
  {
    cpu::StableOperandScope scope(params.data(),
                                  params.data() + params.size());
    expectNear(forwardProduct(x, w, rows, n, k), before);
    expectNear(forwardProduct(x, w, rows, n, k), before);
  }
  // An optimizer step: new values in the same memory.
  const std::vector<float> stepped = randomFloats(rng, params.size());
  std::copy(stepped.begin(), stepped.end(), params.begin());
  const std::vector<float> after = forwardProduct(x, w, rows, n, k);
  cpu::StableOperandScope scope(params.data(), params.data() + params.size());
  expectNear(forwardProduct(x, w, rows, n, k), after);
}

TEST(TransposedOperandsTest, AMatrixAndItsFirstRowsAreCopiedApart) {
  std::mt19937 rng(11);
  const int64_t rows = 3, k = 8;
  std::vector<float> x = randomFloats(rng, rows * k);
  std::vector<float> pack = randomFloats(rng, 6 * k); // members of 2 and 4 rows
  const std::vector<float> whole = forwardProduct(x, pack.data(), rows, 6, k);
  const std::vector<float> first = forwardProduct(x, pack.data(), rows, 2, k);
  cpu::StableOperandScope scope(pack.data(), pack.data() + pack.size());
  expectNear(forwardProduct(x, pack.data(), rows, 6, k), whole);
  expectNear(forwardProduct(x, pack.data(), rows, 2, k), first);
  expectNear(forwardProduct(x, pack.data(), rows, 6, k), whole);
}

// The copy is split by blocks of its columns on 2 and 3 threads (every
// split happens in this program: ThreadedOpsTest); each must be the exact
// transpose, padding of the source rows skipped.
TEST(TransposedOperandsTest, CopiesSplitOverThreadsAreTheTranspose) {
  constexpr int64_t n = 37, k = 29, ld = 31;
  std::mt19937 rng(11);
  const std::vector<float> w = randomFloats(rng, n * ld);
  for (int32_t threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    setPoolThreads(threads);
    cpu::StableOperandScope scope(w.data(), w.data() + w.size());
    const float *copy = cpu::transposedOperand(w.data(), ld, n, k);
    ASSERT_NE(copy, nullptr);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < k; ++j)
        ASSERT_EQ(copy[j * n + i], w[i * ld + j]) << i << ", " << j;
  }
  setPoolThreads(1);
}

TEST(TransposedOperandsTest, CopiesAreAlignedLikeTheParameters) {
  // A copy of 2 MiB or more starts on a huge page, a smaller one on a cache
  // line (params/AlignedBuffer.h): the copies are written column by column.
  const int64_t n = 1024, k = 512;
  std::vector<float> params(n * k + 1);
  cpu::StableOperandScope scope(params.data(), params.data() + params.size());
  const float *large = cpu::transposedOperand(params.data() + 1, k, n, k);
  const float *small = cpu::transposedOperand(params.data() + 1, k, 3, 5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(large) % kHugePageBytes, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % kBufferAlignment, 0u);
}

TEST(TransposedOperandsTest, CopiesOfMatricesNoLongerReadAreFreed) {
  std::vector<float> params(6 * 8);
  auto pass = [&](bool readsTransposed) {
    cpu::StableOperandScope scope(params.data(), params.data() + 48);
    if (readsTransposed) {
      ASSERT_NE(cpu::transposedOperand(params.data(), 8, 6, 8), nullptr);
    }
  };
  for (int idle = 0; idle < 5; ++idle) // frees the other tests' copies
    pass(false);
  EXPECT_EQ(cpu::transposedOperandFloats(), 0);
  for (int step = 0; step < 10; ++step) {
    pass(true);  // forward
    pass(false); // backward
    pass(false); // an evaluation pass of another model
    EXPECT_EQ(cpu::transposedOperandFloats(), 48);
  }
  // Unused since its forward pass: kept for four scopes, freed at the fifth.
  pass(false);
  pass(false);
  EXPECT_EQ(cpu::transposedOperandFloats(), 48);
  pass(false);
  EXPECT_EQ(cpu::transposedOperandFloats(), 0);
}

} // namespace
} // namespace cavs::test
