//===- Sgd.cpp - stochastic gradient descent with momentum ----------------===//
//
// With d = scale * g + weight_decay * p (L2 regularisation):
//   no momentum:  p -= lr * d
//   momentum mu:  v = mu * v + d;  p -= lr * v
//   Nesterov:     v = mu * v + d;  p -= lr * (d + mu * v)
// as in PyTorch's SGD without dampening (its first step also gives v = d).
//
//===----------------------------------------------------------------------===//
#include "optim/UpdateRules.h"

#include "support/CpuDispatch.h"

namespace cavs::runtime {

CAVS_CPU_DISPATCH
void sgdUpdate(const cavs_optimizer_options &options, const UpdateArgs &args,
               const std::vector<ElementRange> &ranges) {
  const float lr = static_cast<float>(options.learning_rate);
  const float decay = static_cast<float>(options.weight_decay);
  const float mu = static_cast<float>(options.momentum);
  const float scale = args.gradScale;
  for (const ElementRange &range : ranges) {
    const int64_t n = range.end - range.begin;
    float *__restrict p = args.params + range.begin;
    const float *__restrict g = args.grads + range.begin;
    if (options.momentum == 0) {
      for (int64_t i = 0; i < n; ++i)
        p[i] = flushSubnormal(p[i] - lr * (scale * g[i] + decay * p[i]));
      continue;
    }
    float *__restrict v = args.slots[0] + range.begin;
    if (options.nesterov) {
      for (int64_t i = 0; i < n; ++i) {
        const float d = scale * g[i] + decay * p[i];
        v[i] = flushSubnormal(mu * v[i] + d);
        p[i] = flushSubnormal(p[i] - lr * (d + mu * v[i]));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        v[i] = flushSubnormal(mu * v[i] + scale * g[i] + decay * p[i]);
        p[i] = flushSubnormal(p[i] - lr * v[i]);
      }
    }
  }
}

} // namespace cavs::runtime
