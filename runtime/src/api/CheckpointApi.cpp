//===- CheckpointApi.cpp - C ABI of checkpoints ---------------------------===//
//
// Thin adapters from cavs/checkpoint.h onto saveCheckpoint and
// loadCheckpoint.
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
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    return saveCheckpoint(path, params->impl,
                          optimizer ? &optimizer->impl : nullptr);
  });
}

cavs_status cavs_checkpoint_load(const char *path, cavs_param_store *params,
                                 cavs_optimizer *optimizer) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    return loadCheckpoint(path, params->impl,
                          optimizer ? &optimizer->impl : nullptr);
  });
}

} // extern "C"
