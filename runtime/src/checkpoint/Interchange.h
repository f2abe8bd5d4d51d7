//===- Interchange.h - parameters to and from safetensors files -----------===//
//
// The entry points behind cavs/safetensors.h: a model's parameters (of a
// parameter store or a checkpoint file) as a safetensors file, one F32
// tensor per parameter, and back.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_INTERCHANGE_H
#define CAVS_RUNTIME_CHECKPOINT_INTERCHANGE_H

#include "params/ParamStore.h"

#include <string>

namespace cavs::runtime {

/// Writes every parameter of `params` to the safetensors file `path`,
/// atomically.
Status saveSafetensors(const std::string &path, const ParamStore &params);

/// Reads and validates the safetensors file `path` completely and matches
/// it against the model of `params` (every parameter present as F32 with
/// its shape, no other tensor), then copies the values. On failure `params`
/// is not changed.
Status loadSafetensors(const std::string &path, ParamStore &params);

/// Writes the parameters of the checkpoint `checkpointPath` to the
/// safetensors file `path`; needs no model.
Status safetensorsFromCheckpoint(const std::string &checkpointPath,
                                 const std::string &path);

/// Writes a checkpoint of the model that the checkpoint `templatePath` was
/// saved from to `checkpointPath`, with the parameter values of the
/// safetensors file `path` and no optimizer state.
Status safetensorsToCheckpoint(const std::string &path,
                               const std::string &templatePath,
                               const std::string &checkpointPath);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_CHECKPOINT_INTERCHANGE_H
