//===- OptimizerApi.cpp - C ABI of optimizers -----------------------------===//
//
// Thin adapters from cavs/optim.h onto Optimizer and the option helpers.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/optim.h"
#include "optim/Options.h"
#include "support/Guard.h"

#include <memory>

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_optimizer_options_init(cavs_optimizer_kind kind,
                                        cavs_optimizer_options *out_options) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_options, "out_options"));
    return defaultOptions(kind, *out_options);
  });
}

cavs_status cavs_optimizer_create(const cavs_param_store *params,
                                  const cavs_optimizer_options *options,
                                  cavs_optimizer **out_optimizer) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    CAVS_RETURN_IF_ERROR(requireNonNull(options, "options"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_optimizer, "out_optimizer"));
    auto handle = std::make_unique<cavs_optimizer>();
    CAVS_RETURN_IF_ERROR(
        Optimizer::create(params->impl.sharedLayout(), *options, handle->impl));
    *out_optimizer = handle.release();
    return Status();
  });
}

void cavs_optimizer_destroy(cavs_optimizer *optimizer) { delete optimizer; }

cavs_status cavs_optimizer_step(cavs_optimizer *optimizer,
                                cavs_param_store *params,
                                const cavs_grad_store *grads) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(optimizer, "optimizer"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    CAVS_RETURN_IF_ERROR(requireNonNull(grads, "grads"));
    return optimizer->impl.step(params->impl, grads->impl);
  });
}

cavs_status cavs_optimizer_set_learning_rate(cavs_optimizer *optimizer,
                                             double learning_rate) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(optimizer, "optimizer"));
    return optimizer->impl.setLearningRate(learning_rate);
  });
}

const cavs_optimizer_options *
cavs_optimizer_options_of(const cavs_optimizer *optimizer) {
  return optimizer ? &optimizer->impl.options() : nullptr;
}

int64_t cavs_optimizer_step_count(const cavs_optimizer *optimizer) {
  return optimizer ? optimizer->impl.stepCount() : 0;
}

} // extern "C"
