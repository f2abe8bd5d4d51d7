//===- TransposedOperands.cpp - parameters kept transposed for one pass ---===//
//
// A per-thread map from (matrix, shape) to its transposed copy, valid for
// the current scope; OpenBLAS's cblas_somatcopy transposes, split over the
// kernel threads by blocks of the copy's columns.
//
//===----------------------------------------------------------------------===//
#include "ops/TransposedOperands.h"
#include "params/AlignedBuffer.h"
#include "support/ThreadPool.h"

#include <cblas.h>

#include <map>
#include <mutex>
#include <tuple>

namespace cavs::runtime::cpu {

namespace {

/// Scopes a copy may go unused before it is freed: a training step's
/// backward pass and evaluation passes between two forward passes keep
/// their copies; another model's are freed.
constexpr int kIdleScopesKept = 4;

struct Copy {
  /// Aligned, and in huge pages when large, like the parameters: written
  /// column by column, a copy in 4 KiB pages took a TLB miss nearly every
  /// float, and the transposes twice as long (docs/performance.md).
  AlignedBuffer values;
  /// Scopes begun since it was made or last used: 0 means made in the
  /// current scope; a new entry has no values yet.
  int idleScopes = 1;
};

} // namespace

struct OperandCache {
  const float *begin = nullptr, *end = nullptr;
  std::map<std::tuple<const float *, int64_t, int64_t, int64_t>, Copy> copies;
  /// Held by transposedOperand: the threads of a split body share a cache.
  std::mutex mutex;
};

namespace {

thread_local OperandCache ownCache;
/// The cache of the calling thread: its own, or a SharedOperandCache's.
thread_local OperandCache *activeCache = &ownCache;

} // namespace

OperandCache *currentOperandCache() { return activeCache; }

SharedOperandCache::SharedOperandCache(OperandCache *cache)
    : previous_(activeCache) {
  activeCache = cache;
}

SharedOperandCache::~SharedOperandCache() { activeCache = previous_; }

StableOperandScope::StableOperandScope(const float *begin, const float *end) {
  OperandCache &cache = *activeCache;
  cache.begin = begin;
  cache.end = end;
  // Copies unused for a while (another model's, or a parameter no longer
  // read transposed) are freed; the others' memory is reused.
  for (auto it = cache.copies.begin(); it != cache.copies.end();) {
    if (++it->second.idleScopes > kIdleScopesKept)
      it = cache.copies.erase(it);
    else
      ++it;
  }
}

StableOperandScope::~StableOperandScope() {
  activeCache->begin = activeCache->end = nullptr;
}

const float *transposedOperand(const float *b, int64_t ldb, int64_t n,
                               int64_t k) {
  OperandCache &cache = *activeCache;
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (b < cache.begin || b >= cache.end)
    return nullptr;
  Copy &copy = cache.copies[{b, ldb, n, k}];
  if (copy.idleScopes != 0) {
    if (copy.values.size() == 0) // its size is part of the key
      copy.values = AlignedBuffer(n * k);
    // Blocks of whole cache lines of the copy's columns, as the products
    // split them (ops/Gemm.cpp): a thread writes the columns it reads.
    float *values = copy.values.data();
    parallelColumns(n, 2 * n * k, [&](int64_t first, int64_t last) {
      cblas_somatcopy(CblasRowMajor, CblasTrans, last - first, k, 1.0f,
                      b + first * ldb, ldb, values + first, n);
    });
    copy.idleScopes = 0;
  }
  return copy.values.data();
}

int64_t transposedOperandFloats() {
  int64_t floats = 0;
  for (const auto &entry : activeCache->copies)
    floats += entry.second.values.size();
  return floats;
}

} // namespace cavs::runtime::cpu
