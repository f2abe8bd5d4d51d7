//===- Lookup.cpp - embedding lookups and their gradients -----------------===//
//
// Table rows selected by per-vertex int32 ids (word embeddings). The ids are
// data, so both directions range-check them all first (ops/IndexCheck.h)
// and only then write, split over the pool (support/ThreadPool.h): lookups by
// rows, gradients, where rows may share a word, by columns.
//
//===----------------------------------------------------------------------===//
#include "ops/AddRows.h"
#include "ops/CpuOps.h"
#include "ops/IndexCheck.h"
#include "support/Guard.h"
#include "support/ThreadPool.h"

#include <algorithm>

namespace cavs::runtime::cpu {

cavs_status lookup(int64_t rows, const int32_t *index, int64_t index_ld,
                   const float *table, int64_t table_rows, int64_t width,
                   float *dst, int64_t ld) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(
        checkIndices("lookup index", rows, index, index_ld, table_rows));
    parallelRanges(rows, 2 * rows * width, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        int32_t id = index[r * index_ld];
        float *out = dst + r * ld;
        if (id < 0)
          std::fill(out, out + width, 0.0f);
        else
          std::copy_n(table + int64_t(id) * width, width, out);
      }
    });
    return Status();
  });
}

cavs_status lookup_grad(int64_t rows, const int32_t *index, int64_t index_ld,
                        const float *src, int64_t ld, float *table_grad,
                        int64_t table_rows, int64_t width) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(
        checkIndices("lookup index", rows, index, index_ld, table_rows));
    // A word may occur in several rows of one call.
    addRowsInto(rows, index, index_ld, src, ld, table_grad, width);
    return Status();
  });
}

} // namespace cavs::runtime::cpu
