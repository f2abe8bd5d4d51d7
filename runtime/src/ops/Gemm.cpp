//===- Gemm.cpp - matrix products of the generated code -------------------===//
//
// gemm forwards to the active engine (ops/GemmEngine.h). The degenerate
// shapes are handled here because BLAS rejects a leading dimension below 1
// (which an empty call may legitimately pass) and, for k == 0, would still
// read C when beta == 0.
//
// A large product is cut into blocks of C, one per thread of the pool
// (support/ThreadPool.h), each a single-threaded engine call: the models'
// products have few rows (a task's vertices) or, for the weight gradients,
// a short k, shapes an engine's own threads split poorly. The blocks are
// rows of C when C has more rows than columns, else columns, so that each
// thread reads only its share of the larger operand. Each element of C is
// computed by one engine call, the same whatever the thread count.
//
//===----------------------------------------------------------------------===//
#include "ops/CpuOps.h"
#include "ops/GemmEngine.h"
#include "ops/TransposedOperands.h"
#include "support/ThreadPool.h"

#include <algorithm>

namespace cavs::runtime::cpu {

void gemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
          float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
          float beta, float *c, int64_t ldc) {
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    // The product is empty: C = beta * C, where beta == 0 must clear C even
    // if it held NaNs (as BLAS specifies).
    for (int64_t i = 0; i < m; ++i) {
      float *row = c + i * ldc;
      if (beta == 0.0f)
        std::fill(row, row + n, 0.0f);
      else if (beta != 1.0f)
        std::transform(row, row + n, row, [&](float x) { return beta * x; });
    }
    return;
  }
  const GemmEngine &engine = activeGemmEngine();
  const bool transA = trans_a != 0;
  bool transB = trans_b != 0;
  // A parameter read transposed (X · Wᵀ): its transposed copy, made once
  // per pass (ops/TransposedOperands.h).
  if (transB)
    if (const float *copy = transposedOperand(b, ldb, n, k)) {
      b = copy;
      ldb = n;
      transB = false;
    }
  // A multiply-add counts as a fraction of a float moved by the other ops:
  // it is vectorized and its operands are reused from cache.
  constexpr int64_t kMultiplyAddsPerFloat = 16;
  const int64_t floats = m * n * (k / kMultiplyAddsPerFloat + 1);
  // Blocks are whole cache lines of C's columns, or kGemmRowBlock rows; the
  // last block also takes the rows or columns left over (the engines'
  // kernels for a single row or column, matrix-vector products, round
  // differently from those of the whole product).
  constexpr int64_t kColumnBlock = 16;
  if (m > n) {
    parallelRanges(blockCount(m, kGemmRowBlock), floats,
                   [&](int64_t begin, int64_t end) {
                     const int64_t first = begin * kGemmRowBlock;
                     const int64_t rows =
                         blockEnd(end, m, kGemmRowBlock) - first;
                     engine.sgemm(transA, transB, rows, n, k, alpha,
                                  transA ? a + first : a + first * lda, lda, b,
                                  ldb, beta, c + first * ldc, ldc);
                   });
    return;
  }
  parallelRanges(blockCount(n, kColumnBlock), floats,
                 [&](int64_t begin, int64_t end) {
                   const int64_t first = begin * kColumnBlock;
                   const int64_t columns =
                       blockEnd(end, n, kColumnBlock) - first;
                   engine.sgemm(transA, transB, m, columns, k, alpha, a, lda,
                                transB ? b + first * ldb : b + first, ldb, beta,
                                c + first, ldc);
                 });
}

} // namespace cavs::runtime::cpu
