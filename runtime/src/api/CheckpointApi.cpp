//===- CheckpointApi.cpp - C ABI of checkpoints ---------------------------===//
//
// Thin adapters from cavs/checkpoint.h onto saveCheckpoint and
// loadCheckpoint (training states: TrainStateApi.cpp).
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/checkpoint.h"
#include "checkpoint/Checkpoint.h"
#include "support/Guard.h"

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_checkpoint_save(const char *path,
                                 const cavs_param_store *params,
                                 const cavs_optimizer *optimizer) {
  return cavs_checkpoint_save_with_state(path, params, optimizer, nullptr);
}

cavs_status cavs_checkpoint_load(const char *path, cavs_param_store *params,
                                 cavs_optimizer *optimizer) {
  return cavs_checkpoint_load_with_state(path, params, optimizer, nullptr);
}

cavs_status cavs_checkpoint_save_with_state(const char *path,
                                            const cavs_param_store *params,
                                            const cavs_optimizer *optimizer,
                                            const cavs_train_state *state) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    return saveCheckpoint(path, params->impl,
                          optimizer ? &optimizer->impl : nullptr,
                          state ? &state->impl : nullptr);
  });
}

cavs_status cavs_checkpoint_load_with_state(const char *path,
                                            cavs_param_store *params,
                                            cavs_optimizer *optimizer,
                                            cavs_train_state *state) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    return loadCheckpoint(path, params->impl,
                          optimizer ? &optimizer->impl : nullptr,
                          state ? &state->impl : nullptr);
  });
}

} // extern "C"
