//===- UpdateRules.h - the per-element update loops of the optimizers -----===//
//
// One function per optimizer kind applies its rule to a list of element
// ranges of the flat buffers. Per-step coefficients are computed once in
// double, the loops run in float over restrict pointers so that they
// vectorize; ranges are independent, and Optimizer::step hands each thread
// a slice of them (params/RangeSlices.h).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPTIM_UPDATERULES_H
#define CAVS_RUNTIME_OPTIM_UPDATERULES_H

#include "cavs/optim.h"
#include "params/GradStore.h"

#include <cmath>
#include <limits>
#include <vector>

namespace cavs::runtime {

/// `value`, or zero when it is subnormal. Weight decay shrinks a parameter
/// that never gets a gradient (a weight only ever multiplied by zeros, as
/// the word inputs of per-child gates are on trees) geometrically into
/// subnormals, and so do momentum and Adam's moments; on x86 every product
/// with a subnormal operand takes a microcode assist, which made such
/// models train 6-10x slower. Zero is within 1.2e-38 of the value.
inline float flushSubnormal(float value) {
  return std::fabs(value) < std::numeric_limits<float>::min() ? 0.0f : value;
}

/// The flat arrays and per-step values of one update.
struct UpdateArgs {
  float *params;
  const float *grads;
  /// The optimizer's state arrays, in slotNames() order.
  float *const *slots;
  /// Factor applied to every gradient: global-norm clipping, else 1.
  float gradScale;
  /// The 1-based number of this step (Adam's bias correction).
  int64_t step;
};

/// SGD, with optional (Nesterov) momentum and L2 weight decay.
void sgdUpdate(const cavs_optimizer_options &options, const UpdateArgs &args,
               const std::vector<ElementRange> &ranges);
/// Adagrad with L2 weight decay.
void adagradUpdate(const cavs_optimizer_options &options,
                   const UpdateArgs &args,
                   const std::vector<ElementRange> &ranges);
/// Adam with bias correction and decoupled weight decay (AdamW).
void adamUpdate(const cavs_optimizer_options &options, const UpdateArgs &args,
                const std::vector<ElementRange> &ranges);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_OPTIM_UPDATERULES_H
