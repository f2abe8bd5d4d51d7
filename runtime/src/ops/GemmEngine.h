//===- GemmEngine.h - the libraries that run the matrix products ----------===//
//
// The gemm op (ops.def) runs on one of several BLAS-like engines built into
// the runtime: OpenBLAS always, oneDNN when it was found at build time. The
// default follows the CPU's own features (docs/runtime.md, "GEMM engines"),
// $CAVS_GEMM or cavs_set_gemm_engine override it; the choice is
// process-wide, like the kernel thread count. An engine runs each call on
// the calling thread: the kernel threads split the products themselves
// (ops/Gemm.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_GEMMENGINE_H
#define CAVS_RUNTIME_OPS_GEMMENGINE_H

#include "support/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cavs::runtime::cpu {

struct GemmEngine {
  /// The name $CAVS_GEMM and cavs_set_gemm_engine take: "openblas", "onednn".
  const char *name;
  /// The kernel family the engine runs on this CPU, e.g. OpenBLAS's core
  /// ("Haswell", "Cooperlake") or oneDNN's instruction set ("avx512_core").
  std::string (*kernel)();
  /// Row-major C[m×n] = alpha · op(A) · op(B) + beta · C for m, n, k >= 1,
  /// as the gemm op of ops.def, on the calling thread only.
  void (*sgemm)(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                float alpha, const float *a, int64_t lda, const float *b,
                int64_t ldb, float beta, float *c, int64_t ldc);
};

/// The engines built in, OpenBLAS first.
const std::vector<const GemmEngine *> &gemmEngines();

/// The engine gemm runs on; until selectGemmEngine, the default: oneDNN
/// where its kernels use AVX-512 on this CPU, else OpenBLAS.
const GemmEngine &activeGemmEngine();

/// Applies $CAVS_GEMM, once per process: when it is set, the engine it
/// names becomes the active one; when it names none, this and every later
/// call fail (instance creation reports it) until setGemmEngine succeeds.
Status initGemmEngine();

/// Makes the engine called `name` the active one; an unknown name is an
/// error that lists the engines built in.
Status selectGemmEngine(std::string_view name);

/// selectGemmEngine after $CAVS_GEMM was applied, as the API sets the
/// engine: it overrides $CAVS_GEMM, and a $CAVS_GEMM that named no engine
/// no longer fails instance creation.
Status setGemmEngine(std::string_view name);

/// The engines of this build.
const GemmEngine &openBlasEngine();
#ifdef CAVS_HAVE_ONEDNN
const GemmEngine &oneDnnEngine();
/// Whether oneDNN's kernels use AVX-512 on this CPU.
bool oneDnnUsesAvx512();
#endif

} // namespace cavs::runtime::cpu

#endif // CAVS_RUNTIME_OPS_GEMMENGINE_H
