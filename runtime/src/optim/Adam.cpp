//===- Adam.cpp - Adam with decoupled weight decay (AdamW) ----------------===//
//
// With d = scale * g, step t (1-based), b1 = beta1, b2 = beta2:
//   p *= 1 - lr * weight_decay                 (decoupled decay, as AdamW)
//   m = b1 * m + (1 - b1) * d
//   v = b2 * v + (1 - b2) * d * d
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + epsilon)
// which is PyTorch's AdamW, bias correction included.
//
//===----------------------------------------------------------------------===//
#include "optim/UpdateRules.h"

#include "support/CpuDispatch.h"

#include <cmath>

namespace cavs::runtime {

CAVS_CPU_DISPATCH
void adamUpdate(const cavs_optimizer_options &options, const UpdateArgs &args,
                const std::vector<ElementRange> &ranges) {
  const double t = static_cast<double>(args.step);
  const double correction1 = 1.0 - std::pow(options.beta1, t);
  const double correction2 = 1.0 - std::pow(options.beta2, t);
  const float stepSize =
      static_cast<float>(options.learning_rate / correction1);
  const float invRootCorrection2 =
      static_cast<float>(1.0 / std::sqrt(correction2));
  const float keep =
      static_cast<float>(1.0 - options.learning_rate * options.weight_decay);
  // 1 - beta is taken in double, as PyTorch does: 1 - float(0.999) is off
  // by 1.3e-5 relative, which put every step 6.4e-6 off the formula.
  const float b1 = static_cast<float>(options.beta1);
  const float b2 = static_cast<float>(options.beta2);
  const float rest1 = static_cast<float>(1.0 - options.beta1);
  const float rest2 = static_cast<float>(1.0 - options.beta2);
  const float epsilon = static_cast<float>(options.epsilon);
  const float scale = args.gradScale;
  for (const ElementRange &range : ranges) {
    const int64_t n = range.end - range.begin;
    float *__restrict p = args.params + range.begin;
    const float *__restrict g = args.grads + range.begin;
    float *__restrict m = args.slots[0] + range.begin;
    float *__restrict v = args.slots[1] + range.begin;
    for (int64_t i = 0; i < n; ++i) {
      const float d = scale * g[i];
      m[i] = flushSubnormal(b1 * m[i] + rest1 * d);
      v[i] = flushSubnormal(b2 * v[i] + rest2 * d * d);
      p[i] = flushSubnormal(keep * p[i] - stepSize * m[i] /
                                              (std::sqrt(v[i]) *
                                                   invRootCorrection2 +
                                               epsilon));
    }
  }
}

} // namespace cavs::runtime
