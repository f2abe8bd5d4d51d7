//===- TransposedOperands.cpp - parameters kept transposed for one pass ---===//
//
// A per-thread map from (matrix, shape) to its transposed copy, valid for
// the current scope; OpenBLAS's cblas_somatcopy transposes.
//
//===----------------------------------------------------------------------===//
#include "ops/TransposedOperands.h"

#include <cblas.h>

#include <map>
#include <tuple>
#include <vector>

namespace cavs::runtime::cpu {

namespace {

struct Copy {
  std::vector<float> values;
  bool current = false;
};

struct Cache {
  const float *begin = nullptr, *end = nullptr;
  std::map<std::tuple<const float *, int64_t, int64_t, int64_t>, Copy> copies;
};

thread_local Cache cache;

} // namespace

StableOperandScope::StableOperandScope(const float *begin, const float *end) {
  cache.begin = begin;
  cache.end = end;
  for (auto &entry : cache.copies)
    entry.second.current = false;
}

StableOperandScope::~StableOperandScope() {
  cache.begin = cache.end = nullptr;
}

const float *transposedOperand(const float *b, int64_t ldb, int64_t n,
                               int64_t k) {
  if (b < cache.begin || b >= cache.end)
    return nullptr;
  Copy &copy = cache.copies[{b, ldb, n, k}];
  if (!copy.current) {
    copy.values.resize(static_cast<size_t>(n * k));
    cblas_somatcopy(CblasRowMajor, CblasTrans, n, k, 1.0f, b, ldb,
                    copy.values.data(), n);
    copy.current = true;
  }
  return copy.values.data();
}

} // namespace cavs::runtime::cpu
