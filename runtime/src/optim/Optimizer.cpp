//===- Optimizer.cpp - model checks, clipping and rule dispatch -----------===//
//
// A step first checks that parameters and gradients belong to the
// optimizer's model, then computes the clipping factor over the active
// gradient ranges and hands the same ranges, in slices split over the
// kernel threads, to the rule of its kind.
//
//===----------------------------------------------------------------------===//
#include "optim/Optimizer.h"

#include "optim/Options.h"
#include "optim/UpdateRules.h"
#include "params/RangeSlices.h"

#include <cmath>
#include <limits>

namespace cavs::runtime {

Status Optimizer::create(std::shared_ptr<const ModelLayout> layout,
                         const cavs_optimizer_options &options,
                         Optimizer &out) {
  CAVS_RETURN_IF_ERROR(validateOptions(options));
  std::vector<AlignedBuffer> slots;
  for (size_t i = 0; i < slotNames(options).size(); ++i)
    slots.emplace_back(layout->size());
  out.layout_ = std::move(layout);
  out.restore(options, 0, std::move(slots));
  return Status();
}

void Optimizer::restore(const cavs_optimizer_options &options,
                        int64_t stepCount,
                        std::vector<AlignedBuffer> slots) noexcept {
  options_ = options;
  stepCount_ = stepCount;
  slots_ = std::move(slots);
}

Status Optimizer::setLearningRate(double learningRate) {
  CAVS_RETURN_IF_ERROR(validateLearningRate(learningRate));
  options_.learning_rate = learningRate;
  return Status();
}

float Optimizer::clipScale(const GradStore &grads,
                           const std::vector<ElementRange> &ranges) const {
  if (options_.clip_norm == 0)
    return 1.0f;
  // Summed in double: millions of float squares would lose precision.
  double sum = 0;
  for (const ElementRange &range : ranges)
    for (int64_t i = range.begin; i < range.end; ++i)
      sum += static_cast<double>(grads.data()[i]) * grads.data()[i];
  const double norm = std::sqrt(sum);
  return norm > options_.clip_norm
             ? static_cast<float>(options_.clip_norm / norm)
             : 1.0f;
}

Status Optimizer::step(ParamStore &params, const GradStore &grads) {
  CAVS_RETURN_IF_ERROR(
      requireSameModel(*layout_, params.layout(), "the parameter store"));
  CAVS_RETURN_IF_ERROR(
      requireSameModel(*layout_, grads.layout(), "the gradient store"));
  // The count after this step must still leave the next step's count in
  // int64, as a checkpoint's must (Adam's bias correction of an overflowed
  // count is NaN).
  if (stepCount_ >= std::numeric_limits<int64_t>::max() - 1)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the optimizer has taken {} steps; the step count "
                     "cannot grow further in int64",
                     stepCount_);
  // Frozen parameters take no part: no update, no state change, and their
  // gradients do not count towards the clipping norm.
  const std::vector<ElementRange> ranges =
      grads.activeRanges(params.frozenMask());
  std::vector<float *> slots;
  for (AlignedBuffer &slot : slots_)
    slots.push_back(slot.data());
  const UpdateArgs args{params.data(), grads.data(), slots.data(),
                        clipScale(grads, ranges), stepCount_ + 1};
  // Each rule reads a parameter, its gradient and state, and writes the
  // parameter and state: about five floats an element (SGD without
  // momentum three, Adam seven).
  constexpr int64_t kFloatsPerElement = 5;
  parallelSlices(ranges, kFloatsPerElement,
                 [&](const std::vector<ElementRange> &slice) {
                   switch (options_.kind) {
                   case CAVS_OPTIMIZER_SGD:
                     sgdUpdate(options_, args, slice);
                     break;
                   case CAVS_OPTIMIZER_ADAGRAD:
                     adagradUpdate(options_, args, slice);
                     break;
                   case CAVS_OPTIMIZER_ADAM:
                     adamUpdate(options_, args, slice);
                     break;
                   case CAVS_OPTIMIZER_FORCE_INT32:
                     break;
                   }
                 });
  ++stepCount_;
  return Status();
}

} // namespace cavs::runtime
