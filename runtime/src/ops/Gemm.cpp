//===- Gemm.cpp - matrix products of the generated code -------------------===//
//
// gemm forwards to the active engine (ops/GemmEngine.h). The degenerate
// shapes are handled here because BLAS rejects a leading dimension below 1
// (which an empty call may legitimately pass) and, for k == 0, would still
// read C when beta == 0.
//
//===----------------------------------------------------------------------===//
#include "ops/CpuOps.h"
#include "ops/GemmEngine.h"

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
  activeGemmEngine().sgemm(trans_a != 0, trans_b != 0, m, n, k, alpha, a, lda,
                           b, ldb, beta, c, ldc);
}

} // namespace cavs::runtime::cpu
