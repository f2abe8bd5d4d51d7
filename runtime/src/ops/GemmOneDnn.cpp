//===- GemmOneDnn.cpp - the oneDNN engine ---------------------------------===//
//
// dnnl_sgemm, whose kernels oneDNN generates at run time for the widest
// instruction set of the CPU it runs on (AVX-512 where there is one,
// whatever $OPENBLAS_CORETYPE says). It would run on OpenMP threads; the
// kernel threads call it on their blocks of C (ops/Gemm.cpp), so each call
// keeps its calling thread to one OpenMP thread (a per-thread setting).
//
//===----------------------------------------------------------------------===//
#include "ops/GemmEngine.h"

#include <dnnl.h>
#include <omp.h>

namespace cavs::runtime::cpu {

namespace {

std::string isaName(dnnl_cpu_isa_t isa) {
  switch (isa) {
  case dnnl_cpu_isa_sse41:
    return "sse41";
  case dnnl_cpu_isa_avx:
    return "avx";
  case dnnl_cpu_isa_avx2:
    return "avx2";
  case dnnl_cpu_isa_avx2_vnni:
    return "avx2_vnni";
  case dnnl_cpu_isa_avx512_core:
    return "avx512_core";
  case dnnl_cpu_isa_avx512_core_vnni:
    return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core_bf16:
    return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_amx:
    return "avx512_core_amx";
  default:
    return "isa " + std::to_string(static_cast<int>(isa));
  }
}

std::string kernel() { return isaName(dnnl_get_effective_cpu_isa()); }

void sgemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
           float alpha, const float *a, int64_t lda, const float *b,
           int64_t ldb, float beta, float *c, int64_t ldc) {
  if (omp_get_max_threads() != 1)
    omp_set_num_threads(1);
  // oneDNN fails only on arguments that are invalid for any BLAS (a
  // leading dimension too small): OpenBLAS then reports which one, as it did
  // before there were engines.
  if (dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, alpha, a,
                 lda, b, ldb, beta, c, ldc) != dnnl_success)
    openBlasEngine().sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb,
                           beta, c, ldc);
}

} // namespace

const GemmEngine &oneDnnEngine() {
  static const GemmEngine engine{"onednn", kernel, sgemm};
  return engine;
}

bool oneDnnUsesAvx512() {
  const unsigned isa = dnnl_get_effective_cpu_isa();
  // The ISA values are nested bit sets (dnnl_types.h).
  return (isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
}

} // namespace cavs::runtime::cpu
