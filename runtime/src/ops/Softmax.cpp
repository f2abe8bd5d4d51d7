//===- Softmax.cpp - softmax and softmax cross-entropy --------------------===//
//
// Row-wise softmax and the classification loss with its logit gradient. All
// exponentials are taken of (logit − row maximum) ≤ 0, so no row overflows
// however large its logits; the loss uses log-sum-exp rather than the log of
// a softmax probability, which would underflow to log(0).
//
//===----------------------------------------------------------------------===//
#include "api/Guard.h"
#include "cavs/ops.h"
#include "ops/IndexCheck.h"

#include <algorithm>
#include <cmath>

using namespace cavs::runtime;

namespace {

/// The maximum of a non-empty row.
float rowMax(const float *row, int64_t width) {
  return *std::max_element(row, row + width);
}

/// Writes exp(row[c] − shift) to out (which may be row) and returns the sum.
float shiftedExp(const float *row, int64_t width, float shift, float *out) {
  float sum = 0.0f;
  for (int64_t c = 0; c < width; ++c) {
    out[c] = std::exp(row[c] - shift);
    sum += out[c];
  }
  return sum;
}

} // namespace

extern "C" {

void cavs_op_softmax(int64_t rows, int64_t width, const float *src, int64_t ld,
                     float *dst, int64_t dst_ld) {
  if (width == 0)
    return;
  for (int64_t r = 0; r < rows; ++r) {
    const float *in = src + r * ld;
    float *out = dst + r * dst_ld;
    float scale = 1.0f / shiftedExp(in, width, rowMax(in, width), out);
    for (int64_t c = 0; c < width; ++c)
      out[c] *= scale;
  }
}

cavs_status cavs_op_softmax_cross_entropy(int64_t rows, int64_t width,
                                          const float *logits, int64_t ld,
                                          const int32_t *labels,
                                          int64_t labels_ld, float *dst,
                                          int64_t dst_ld) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(
        checkIndices("cross-entropy label", rows, labels, labels_ld, width));
    for (int64_t r = 0; r < rows; ++r) {
      int32_t label = labels[r * labels_ld];
      if (label < 0) {
        dst[r * dst_ld] = 0.0f;
        continue;
      }
      const float *in = logits + r * ld;
      float shift = rowMax(in, width);
      float sum = 0.0f;
      for (int64_t c = 0; c < width; ++c)
        sum += std::exp(in[c] - shift);
      dst[r * dst_ld] = shift + std::log(sum) - in[label];
    }
    return Status();
  });
}

cavs_status cavs_op_softmax_cross_entropy_grad(
    int64_t rows, int64_t width, const float *logits, int64_t ld,
    const int32_t *labels, int64_t labels_ld, const float *grad,
    int64_t grad_ld, float *dst, int64_t dst_ld) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(
        checkIndices("cross-entropy label", rows, labels, labels_ld, width));
    for (int64_t r = 0; r < rows; ++r) {
      int32_t label = labels[r * labels_ld];
      float *out = dst + r * dst_ld;
      if (label < 0) {
        std::fill(out, out + width, 0.0f);
        continue;
      }
      const float *in = logits + r * ld;
      float sum = shiftedExp(in, width, rowMax(in, width), out);
      float scale = grad[r * grad_ld] / sum;
      for (int64_t c = 0; c < width; ++c)
        out[c] *= scale;
      out[label] -= grad[r * grad_ld];
    }
    return Status();
  });
}

} // extern "C"
