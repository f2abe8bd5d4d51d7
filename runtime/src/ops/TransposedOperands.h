//===- TransposedOperands.h - parameters kept transposed for one pass -----===//
//
// A forward product Y = X · Wᵀ reads the parameter W (rows = outputs) as
// the transposed B operand of a GEMM. With the few rows of a task, the
// engines then re-arrange all of W on every call (W is the larger operand
// by far), and the product runs at a fraction of the peak: on an AVX-512
// CPU with oneDNN, H = 512, 20 rows, 5H×H: ~20 GFLOP/s against ~108 for
// the same product with Wᵀ stored (docs/performance.md, "Transposed
// weights"). Parameters do not change during a pass, so the executor opens
// a scope over the parameter buffer for each pass, and gemm multiplies by
// a copy of Wᵀ made at W's first product in the scope and reused by every
// later task.
//
// The cache belongs to the calling thread (a pass runs on one thread; the
// kernel threads run blocks of products, or parts of a task's body, which
// share the caller's cache: SharedOperandCache). Its buffers are kept
// across passes, so a training loop stops allocating after its first batch.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_TRANSPOSEDOPERANDS_H
#define CAVS_RUNTIME_OPS_TRANSPOSEDOPERANDS_H

#include <cstdint>

namespace cavs::runtime::cpu {

/// While alive, matrices in [begin, end) (the parameters) do not change, so
/// transposedOperand may return copies of them; an empty range copies
/// nothing. Scopes do not nest.
class StableOperandScope {
public:
  StableOperandScope(const float *begin, const float *end);
  ~StableOperandScope();
  StableOperandScope(const StableOperandScope &) = delete;
  StableOperandScope &operator=(const StableOperandScope &) = delete;
};

/// The copies of one thread (opaque).
struct OperandCache;
/// The calling thread's cache: its own, or the one it shares.
OperandCache *currentOperandCache();

/// While alive, the calling thread uses `cache`, another thread's, as its
/// own: a kernel thread running part of a task's body (exec/RowSplit.h)
/// multiplies by the copies of the thread that runs the pass. Lookups and
/// new copies are then serialized by the cache's lock.
class SharedOperandCache {
public:
  explicit SharedOperandCache(OperandCache *cache);
  ~SharedOperandCache();
  SharedOperandCache(const SharedOperandCache &) = delete;
  SharedOperandCache &operator=(const SharedOperandCache &) = delete;

private:
  OperandCache *previous_;
};

/// Bᵀ (`k` rows of `n` floats, leading dimension `n`) of the `n`×`k`
/// matrix `b` (leading dimension `ldb`) when `b` lies in the current
/// scope's range; null otherwise.
const float *transposedOperand(const float *b, int64_t ldb, int64_t n,
                               int64_t k);

/// Floats held by the calling thread's copies. A copy unused in more than
/// four scopes in a row (another model's) is freed when a scope begins.
int64_t transposedOperandFloats();

} // namespace cavs::runtime::cpu

#endif // CAVS_RUNTIME_OPS_TRANSPOSEDOPERANDS_H
