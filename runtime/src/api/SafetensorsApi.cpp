//===- SafetensorsApi.cpp - C ABI of safetensors files --------------------===//
//
// Thin adapters from cavs/safetensors.h onto checkpoint/Interchange.h.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/safetensors.h"
#include "checkpoint/Interchange.h"
#include "support/Guard.h"

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_safetensors_save(const char *path,
                                  const cavs_param_store *params) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    return saveSafetensors(path, params->impl);
  });
}

cavs_status cavs_safetensors_load(const char *path, cavs_param_store *params) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    return loadSafetensors(path, params->impl);
  });
}

cavs_status cavs_safetensors_from_checkpoint(const char *checkpoint_path,
                                             const char *path) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(checkpoint_path, "checkpoint_path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    return safetensorsFromCheckpoint(checkpoint_path, path);
  });
}

cavs_status cavs_safetensors_to_checkpoint(const char *path,
                                           const char *template_checkpoint,
                                           const char *checkpoint_path) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(
        requireNonNull(template_checkpoint, "template_checkpoint"));
    CAVS_RETURN_IF_ERROR(requireNonNull(checkpoint_path, "checkpoint_path"));
    return safetensorsToCheckpoint(path, template_checkpoint, checkpoint_path);
  });
}

} // extern "C"
