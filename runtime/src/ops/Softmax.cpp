//===- Softmax.cpp - softmax and softmax cross-entropy --------------------===//
//
// Row-wise softmax and the classification loss with its logit gradient. All
// exponentials are taken of (logit − row maximum) ≤ 0, so no row overflows
// however large its logits (and FastExp.h's vectorizable exp applies); the
// loss uses log-sum-exp rather than the log of a softmax probability, which
// would underflow to log(0). Rows are independent and split over the pool
// (support/ThreadPool.h), after the labels of every row are checked.
//
//===----------------------------------------------------------------------===//
#include "ops/CpuOps.h"
#include "ops/FastExp.h"
#include "ops/IndexCheck.h"
#include "support/Guard.h"
#include "support/ThreadPool.h"

#include <algorithm>
#include <cmath>

using namespace cavs::runtime;

namespace {

/// What a row costs besides its elements, in floats moved (the measure of
/// the pool's split threshold): its maximum, sum, division or logarithm
/// and the exponentials' setup took 20 ns a row of 5 classes in the
/// Tree-LSTMs' loss, as long as a copy of about 64 floats.
constexpr int64_t kRowFloats = 64;

/// The maximum of a non-empty row.
float rowMax(const float *row, int64_t width) {
  return *std::max_element(row, row + width);
}

/// Lanes of the partial sums, so that the sum vectorizes without
/// reassociation flags (and is the same in every build).
constexpr int64_t kLanes = 8;
/// Terms computed before they are summed (in a stack buffer when they are
/// not stored).
constexpr int64_t kChunk = 512;

float sumInLanes(const float *values, int64_t count) {
  float lanes[kLanes] = {};
  int64_t c = 0;
  for (; c + kLanes <= count; c += kLanes)
    for (int64_t l = 0; l < kLanes; ++l)
      lanes[l] += values[c + l];
  for (; c < count; ++c)
    lanes[0] += values[c];
  float sum = 0.0f;
  for (float lane : lanes)
    sum += lane;
  return sum;
}

/// The sum of exp(row[c] − shift) over the row (shift >= every element);
/// with Store, also writes each term to `out` (which may be row). Each
/// chunk's terms are computed in one loop and summed in another: both
/// vectorize, one loop doing both does not.
template <bool Store>
float shiftedExp(const float *row, int64_t width, float shift, float *out) {
  float chunk[kChunk];
  float sum = 0.0f;
  for (int64_t begin = 0; begin < width; begin += kChunk) {
    const int64_t count = std::min(kChunk, width - begin);
    float *terms = Store ? out + begin : chunk;
    const float *in = row + begin;
    for (int64_t c = 0; c < count; ++c)
      terms[c] = expNonPositive(in[c] - shift);
    sum += sumInLanes(terms, count);
  }
  return sum;
}

} // namespace

namespace cavs::runtime::cpu {

void softmax(int64_t rows, int64_t width, const float *src, int64_t ld,
             float *dst, int64_t dst_ld) {
  if (width == 0)
    return;
  const int64_t floats = rows * (2 * width + kRowFloats);
  parallelRanges(rows, floats, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float *in = src + r * ld;
      float *out = dst + r * dst_ld;
      float scale = 1.0f / shiftedExp<true>(in, width, rowMax(in, width), out);
      for (int64_t c = 0; c < width; ++c)
        out[c] *= scale;
    }
  });
}

cavs_status softmax_cross_entropy(int64_t rows, int64_t width,
                                  const float *logits, int64_t ld,
                                  const int32_t *labels, int64_t labels_ld,
                                  float *dst, int64_t dst_ld) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(
        checkIndices("cross-entropy label", rows, labels, labels_ld, width));
    const int64_t floats = rows * (width + kRowFloats);
    parallelRanges(rows, floats, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        int32_t label = labels[r * labels_ld];
        if (label < 0) {
          dst[r * dst_ld] = 0.0f;
          continue;
        }
        const float *in = logits + r * ld;
        float shift = rowMax(in, width);
        float sum = shiftedExp<false>(in, width, shift, nullptr);
        // Shifting the label's logit, not adding the shift back to the
        // log: shift + log(sum) rounds to the ulp of the largest logit (0.5
        // at 1e7, where the loss is 7.46).
        dst[r * dst_ld] = std::log(sum) - (in[label] - shift);
      }
    });
    return Status();
  });
}

cavs_status softmax_cross_entropy_grad(int64_t rows, int64_t width,
                                       const float *logits, int64_t ld,
                                       const int32_t *labels, int64_t labels_ld,
                                       const float *grad, int64_t grad_ld,
                                       float *dst, int64_t dst_ld) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(
        checkIndices("cross-entropy label", rows, labels, labels_ld, width));
    const int64_t floats = rows * (2 * width + kRowFloats);
    parallelRanges(rows, floats, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        int32_t label = labels[r * labels_ld];
        float *out = dst + r * dst_ld;
        if (label < 0) {
          std::fill(out, out + width, 0.0f);
          continue;
        }
        const float *in = logits + r * ld;
        float sum = shiftedExp<true>(in, width, rowMax(in, width), out);
        float scale = grad[r * grad_ld] / sum;
        for (int64_t c = 0; c < width; ++c)
          out[c] *= scale;
        out[label] -= grad[r * grad_ld];
      }
    });
    return Status();
  });
}

} // namespace cavs::runtime::cpu
