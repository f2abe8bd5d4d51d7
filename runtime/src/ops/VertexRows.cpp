//===- VertexRows.cpp - per-vertex external data of the generated code ----===//
//
// Pulls, pushes and their gradients live in buffers indexed by batch vertex
// id, while a call's rows are its vertices in task order; these ops move
// rows between the two through the call's vertex ids, split over the pool
// (support/ThreadPool.h) by rows, or by columns where rows accumulate into
// shared destinations. mark_rows records
// the table rows a lookup's backward pass wrote in the gradient store.
//
//===----------------------------------------------------------------------===//
#include "ops/AddRows.h"
#include "ops/CpuOps.h"
#include "params/GradStore.h"
#include "support/Guard.h"
#include "support/ThreadPool.h"

#include <algorithm>
#include <vector>

namespace cavs::runtime::cpu {

void gather_rows(int64_t rows, const int32_t *index, const float *src,
                 int64_t width, float *dst, int64_t ld) {
  parallelRanges(rows, 2 * rows * width, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      float *out = dst + r * ld;
      if (src)
        std::copy_n(src + int64_t(index[r]) * width, width, out);
      else
        std::fill(out, out + width, 0.0f);
    }
  });
}

void scatter_rows(int64_t rows, const int32_t *index, const float *src,
                  int64_t ld, float *dst, int64_t width, int32_t accumulate) {
  if (!dst)
    return;
  if (accumulate) {
    // Repeated ids (a vertex pulled twice) all add into its row.
    addRowsInto(rows, index, 1, src, ld, dst, width);
    return;
  }
  // A call's vertex ids are distinct, so its rows go to distinct rows.
  parallelRanges(rows, 2 * rows * width, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      std::copy_n(src + r * ld, width, dst + int64_t(index[r]) * width);
  });
}

cavs_status mark_rows(cavs_grad_store *grads, int32_t param, int64_t rows,
                      const int32_t *index, int64_t index_ld) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(grads, "grads"));
    std::vector<int32_t> marked;
    marked.reserve(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r)
      if (index[r * index_ld] >= 0)
        marked.push_back(index[r * index_ld]);
    return grads->impl.markRows(param, marked.data(),
                                static_cast<int64_t>(marked.size()));
  });
}

} // namespace cavs::runtime::cpu
