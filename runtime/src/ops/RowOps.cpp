//===- RowOps.cpp - row moves and reductions of the generated code --------===//
//
// The data-movement ops (gather, scatter, child gradients, copies, zeroing)
// and the reductions that need no index checks (column and row sums, the
// loss total). Each works on whole rows with plain loops, which the compiler
// vectorizes; none can fail.
//
//===----------------------------------------------------------------------===//
#include "ops/CpuOps.h"

#include <algorithm>
#include <cstring>

namespace cavs::runtime::cpu {

void gather(int64_t rows, int64_t k, int64_t arity, const int32_t *children,
            const float *state, int64_t width, float *dst, int64_t ld) {
  for (int64_t r = 0; r < rows; ++r) {
    int32_t child = children[r * arity + k];
    float *out = dst + r * ld;
    if (child < 0)
      std::fill(out, out + width, 0.0f);
    else
      std::copy_n(state + int64_t(child) * width, width, out);
  }
}

void scatter(int64_t rows, const float *src, int64_t ld,
             float *state_rows_begin, int64_t width) {
  copy_rows(rows, width, src, ld, state_rows_begin, width);
}

void child_grad(int64_t rows, int64_t k, int64_t arity, const int32_t *children,
                const float *src, int64_t ld, float *state_grad,
                int64_t width) {
  // Strictly sequential over rows: rows sharing a child must all add into
  // the same state gradient row.
  for (int64_t r = 0; r < rows; ++r) {
    int32_t child = children[r * arity + k];
    if (child < 0)
      continue;
    const float *in = src + r * ld;
    float *out = state_grad + int64_t(child) * width;
    for (int64_t c = 0; c < width; ++c)
      out[c] += in[c];
  }
}

void copy_rows(int64_t rows, int64_t width, const float *src, int64_t src_ld,
               float *dst, int64_t dst_ld) {
  if (rows == 0 || width == 0)
    return;
  if (src_ld == width && dst_ld == width) {
    // Dense on both sides (scatter into the state, whole values): one copy.
    std::memcpy(dst, src, sizeof(float) * rows * width);
    return;
  }
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(dst + r * dst_ld, src + r * src_ld, sizeof(float) * width);
}

void zero_rows(int64_t rows, int64_t width, float *dst, int64_t ld) {
  for (int64_t r = 0; r < rows; ++r)
    std::fill(dst + r * ld, dst + r * ld + width, 0.0f);
}

void column_sum(int64_t rows, int64_t width, const float *src, int64_t ld,
                float *dst) {
  // Row by row, so the inner loop runs along contiguous memory.
  for (int64_t r = 0; r < rows; ++r) {
    const float *in = src + r * ld;
    for (int64_t c = 0; c < width; ++c)
      dst[c] += in[c];
  }
}

double loss_sum(int64_t rows, const float *src, int64_t ld) {
  // Double, because an epoch's loss adds up many thousands of terms.
  double sum = 0.0;
  for (int64_t r = 0; r < rows; ++r)
    sum += src[r * ld];
  return sum;
}

} // namespace cavs::runtime::cpu
