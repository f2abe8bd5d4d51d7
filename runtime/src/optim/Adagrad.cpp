//===- Adagrad.cpp - adaptive per-element learning rates ------------------===//
//
// With d = scale * g + weight_decay * p (L2 regularisation):
//   s += d * d;  p -= lr * d / (sqrt(s) + epsilon)
// as in PyTorch's Adagrad (initial accumulator 0, no learning-rate decay).
//
//===----------------------------------------------------------------------===//
#include "optim/UpdateRules.h"

#include "support/CpuDispatch.h"

#include <cmath>

namespace cavs::runtime {

CAVS_CPU_DISPATCH
void adagradUpdate(const cavs_optimizer_options &options,
                   const UpdateArgs &args,
                   const std::vector<ElementRange> &ranges) {
  const float lr = static_cast<float>(options.learning_rate);
  const float decay = static_cast<float>(options.weight_decay);
  const float epsilon = static_cast<float>(options.epsilon);
  const float scale = args.gradScale;
  for (const ElementRange &range : ranges) {
    const int64_t n = range.end - range.begin;
    float *__restrict p = args.params + range.begin;
    const float *__restrict g = args.grads + range.begin;
    float *__restrict s = args.slots[0] + range.begin;
    for (int64_t i = 0; i < n; ++i) {
      const float d = scale * g[i] + decay * p[i];
      s[i] += d * d; // only grows: never decays into subnormals
      p[i] = flushSubnormal(p[i] - lr * d / (std::sqrt(s[i]) + epsilon));
    }
  }
}

} // namespace cavs::runtime
