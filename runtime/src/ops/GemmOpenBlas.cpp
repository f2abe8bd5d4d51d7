//===- GemmOpenBlas.cpp - the OpenBLAS engine -----------------------------===//
//
// cblas_sgemm, on the calling thread: the kernel threads call it on their
// blocks of C (ops/Gemm.cpp), so OpenBLAS's own threads are set to one.
// OpenBLAS picks its kernels when it is loaded, from the CPU or from
// $OPENBLAS_CORETYPE, which some machines set to pin it to its AVX2
// (Haswell) kernels.
//
//===----------------------------------------------------------------------===//
#include "ops/GemmEngine.h"

#include <cblas.h>

namespace cavs::runtime::cpu {

namespace {

std::string core() { return openblas_get_corename(); }

void sgemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
           float alpha, const float *a, int64_t lda, const float *b,
           int64_t ldb, float beta, float *c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), alpha, a,
              static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta, c,
              static_cast<blasint>(ldc));
}

} // namespace

const GemmEngine &openBlasEngine() {
  static const GemmEngine engine = [] {
    openblas_set_num_threads(1);
    return GemmEngine{"openblas", core, sgemm};
  }();
  return engine;
}

} // namespace cavs::runtime::cpu
