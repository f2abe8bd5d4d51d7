//===- AddRows.h - rows added into indexed rows, on the kernel threads ----===//
//
// The backward passes of gather (child_grad), lookup (lookup_grad) and pull
// (scatter_rows with accumulate) all add a call's rows into rows of a
// larger buffer named by an index, where several rows may name the same
// one. They split by columns (support/ThreadPool.h): each thread adds every row
// of its columns in row order, so every sum is the same for any thread
// count.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_ADDROWS_H
#define CAVS_RUNTIME_OPS_ADDROWS_H

#include "support/ThreadPool.h"

#include <cstdint>

namespace cavs::runtime::cpu {

/// addRowsInto over the columns [first, last) (support/CpuDispatch.h).
void addRowsInColumns(int64_t rows, const int32_t *ids, int64_t id_stride,
                      const float *src, int64_t ld, float *dst, int64_t width,
                      int64_t first, int64_t last);

/// dst row ids[r * id_stride] += src row r (`width` floats; dst's ld is
/// width) for r < rows, skipping negative ids.
inline void addRowsInto(int64_t rows, const int32_t *ids, int64_t id_stride,
                        const float *src, int64_t ld, float *dst,
                        int64_t width) {
  parallelColumns(width, 3 * rows * width, [&](int64_t first, int64_t last) {
    addRowsInColumns(rows, ids, id_stride, src, ld, dst, width, first, last);
  });
}

} // namespace cavs::runtime::cpu

#endif // CAVS_RUNTIME_OPS_ADDROWS_H
