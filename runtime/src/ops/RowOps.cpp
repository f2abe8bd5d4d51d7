//===- RowOps.cpp - row moves and reductions of the generated code --------===//
//
// The data-movement ops (gather, scatter, child gradients, copies, zeroing)
// and the reductions that need no index checks (column and row sums, the
// loss total). Each works on whole rows with plain loops, which the compiler
// vectorizes; none can fail. Independent rows are split over the pool
// (support/ThreadPool.h); accumulations, whose rows may add into the same
// destination, are split by columns, each thread adding all rows of its
// columns in row order, so every sum is the same for any thread count.
//
//===----------------------------------------------------------------------===//
#include "ops/AddRows.h"
#include "ops/CpuOps.h"
#include "support/CpuDispatch.h"
#include "support/ThreadPool.h"

#include <algorithm>
#include <cstring>

namespace cavs::runtime::cpu {

void gather(int64_t rows, int64_t k, int64_t arity, const int32_t *children,
            const float *state, int64_t width, float *dst, int64_t ld) {
  parallelRanges(rows, 2 * rows * width, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      int32_t child = children[r * arity + k];
      float *out = dst + r * ld;
      if (child < 0)
        std::fill(out, out + width, 0.0f);
      else
        std::copy_n(state + int64_t(child) * width, width, out);
    }
  });
}

void scatter(int64_t rows, const float *src, int64_t ld,
             float *state_rows_begin, int64_t width) {
  copy_rows(rows, width, src, ld, state_rows_begin, width);
}

CAVS_CPU_DISPATCH
void addRowsInColumns(int64_t rows, const int32_t *ids, int64_t id_stride,
                      const float *src, int64_t ld, float *dst, int64_t width,
                      int64_t first, int64_t last) {
  for (int64_t r = 0; r < rows; ++r) {
    const int32_t id = ids[r * id_stride];
    if (id < 0)
      continue;
    const float *in = src + r * ld;
    float *out = dst + int64_t(id) * width;
    for (int64_t c = first; c < last; ++c)
      out[c] += in[c];
  }
}

void child_grad(int64_t rows, int64_t k, int64_t arity, const int32_t *children,
                const float *src, int64_t ld, float *state_grad,
                int64_t width) {
  // Rows sharing a child (DAGs) all add into its row.
  addRowsInto(rows, children + k, arity, src, ld, state_grad, width);
}

void copy_rows(int64_t rows, int64_t width, const float *src, int64_t src_ld,
               float *dst, int64_t dst_ld) {
  if (rows == 0 || width == 0)
    return;
  parallelRanges(rows, 2 * rows * width, [&](int64_t begin, int64_t end) {
    if (src_ld == width && dst_ld == width) {
      // Dense on both sides (scatter into the state, whole values): one
      // copy.
      std::memcpy(dst + begin * width, src + begin * width,
                  sizeof(float) * (end - begin) * width);
      return;
    }
    for (int64_t r = begin; r < end; ++r)
      std::memcpy(dst + r * dst_ld, src + r * src_ld, sizeof(float) * width);
  });
}

void zero_rows(int64_t rows, int64_t width, float *dst, int64_t ld) {
  parallelRanges(rows, rows * width, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      std::fill(dst + r * ld, dst + r * ld + width, 0.0f);
  });
}

namespace {
/// column_sum over the columns [first, last). Four rows per sweep along
/// contiguous memory: the rows are a vertex's arena apart (kilobytes, a
/// page boundary between most of them), and four streams read at once hide
/// more of the memory's latency than one; dst is loaded and stored once per
/// four rows. The additions stay in row order.
CAVS_CPU_DISPATCH
void columnSumOfColumns(int64_t rows, const float *src, int64_t ld,
                        float *dst, int64_t first, int64_t last) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float *in0 = src + r * ld, *in1 = in0 + ld, *in2 = in1 + ld,
                *in3 = in2 + ld;
    for (int64_t c = first; c < last; ++c)
      dst[c] = dst[c] + in0[c] + in1[c] + in2[c] + in3[c];
  }
  for (; r < rows; ++r) {
    const float *in = src + r * ld;
    for (int64_t c = first; c < last; ++c)
      dst[c] += in[c];
  }
}
} // namespace

void column_sum(int64_t rows, int64_t width, const float *src, int64_t ld,
                float *dst) {
  parallelColumns(width, rows * width, [&](int64_t first, int64_t last) {
    columnSumOfColumns(rows, src, ld, dst, first, last);
  });
}

double loss_sum(int64_t rows, const float *src, int64_t ld) {
  // Double, because an epoch's loss adds up many thousands of terms.
  double sum = 0.0;
  for (int64_t r = 0; r < rows; ++r)
    sum += src[r * ld];
  return sum;
}

} // namespace cavs::runtime::cpu
