//===- Optimizer.h - optimizer state and the update step ------------------===//
//
// Optimizer is the object behind cavs_optimizer: validated options, the step
// count and one flat state array per slot (see Options.h), all in the layout
// of the model it was created for.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPTIM_OPTIMIZER_H
#define CAVS_RUNTIME_OPTIM_OPTIMIZER_H

#include "cavs/optim.h"
#include "params/GradStore.h"
#include "params/ParamStore.h"

namespace cavs::runtime {

/// An optimizer of one model.
class Optimizer {
public:
  /// Validates `options`; the state starts zeroed, the step count at 0.
  static Status create(std::shared_ptr<const ModelLayout> layout,
                       const cavs_optimizer_options &options, Optimizer &out);

  /// One update of `params` from `grads` (both of this model): clipping,
  /// weight decay and the kind's rule over grads.activeRanges(), frozen
  /// parameters of `params` excluded.
  Status step(ParamStore &params, const GradStore &grads);

  Status setLearningRate(double learningRate);

  const ModelLayout &layout() const { return *layout_; }
  const cavs_optimizer_options &options() const { return options_; }
  int64_t stepCount() const { return stepCount_; }
  /// The state arrays, one per slotNames(options()).
  const std::vector<AlignedBuffer> &slots() const { return slots_; }

  /// Replaces options, step count and state at once (what a checkpoint
  /// restores); the caller has validated them against this model.
  void restore(const cavs_optimizer_options &options, int64_t stepCount,
               std::vector<AlignedBuffer> slots) noexcept;

private:
  /// The factor that clips the global gradient norm to options_.clip_norm.
  float clipScale(const GradStore &grads,
                  const std::vector<ElementRange> &ranges) const;

  std::shared_ptr<const ModelLayout> layout_;
  cavs_optimizer_options options_{};
  int64_t stepCount_ = 0;
  std::vector<AlignedBuffer> slots_;
};

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_optimizer {
  cavs::runtime::Optimizer impl;
};

#endif // CAVS_RUNTIME_OPTIM_OPTIMIZER_H
