//===- safetensors.h - parameters as safetensors files --------------------===//
//
// safetensors is the tensor file format that PyTorch, JAX and numpy users
// read (Hugging Face's `safetensors` library): a u64 little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range,
// then the raw data. A model's parameters map to one F32 tensor each, named
// like the parameter and shaped [size] or [rows, columns]; the metadata
// records the model name ("cavs.model") and signature ("cavs.signature")
// (docs/runtime.md, "safetensors").
//
// Writing is atomic like cavs_checkpoint_save. Reading validates the whole
// file before it changes anything, and a hostile file is an error, never a
// crash or an allocation beyond the file's own size.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_SAFETENSORS_H
#define CAVS_SAFETENSORS_H

#include "cavs/model.h"

CAVS_EXTERN_C_BEGIN

/// Writes every parameter of `params` to the safetensors file `path`, in
/// declaration order, through a temporary file renamed over `path`. Fails
/// with CAVS_ERROR_IO when the file cannot be written.
CAVS_API cavs_status cavs_safetensors_save(const char *path,
                                           const cavs_param_store *params);

/// Reads the safetensors file `path` into `params`: it must hold exactly
/// the model's parameters, each F32 with the declared shape, in any order
/// (metadata is not checked). Failures, all before anything changes:
///   CAVS_ERROR_IO               the file cannot be read or is not a
///                               regular file
///   CAVS_ERROR_PARSE            truncated, a header length over 100 MB or
///                               past the end of the file, a header that is
///                               not valid JSON or breaks the format (a
///                               duplicate key, a field of the wrong type),
///                               data offsets out of range, of the wrong
///                               size, overlapping or leaving a gap
///   CAVS_ERROR_UNSUPPORTED      a parameter of another dtype than F32, or
///                               a dtype safetensors does not define
///   CAVS_ERROR_INVALID_ARGUMENT a tensor that is not a parameter, a
///                               missing parameter or one of another shape
CAVS_API cavs_status cavs_safetensors_load(const char *path,
                                           cavs_param_store *params);

/// Writes the parameters of the checkpoint `checkpoint_path` to the
/// safetensors file `path`, as cavs_safetensors_save would from the model
/// it was saved from; needs no model. The checkpoint is validated as by
/// cavs_checkpoint_load (without a model); its optimizer state is not
/// exported.
CAVS_API cavs_status
cavs_safetensors_from_checkpoint(const char *checkpoint_path, const char *path);

/// Writes the checkpoint `checkpoint_path` (atomically) of the model that
/// the checkpoint `template_checkpoint` was saved from (its name, signature,
/// parameter names and shapes), with the parameter values of the
/// safetensors file `path`, read as by cavs_safetensors_load, and no
/// optimizer state. `checkpoint_path` may be `template_checkpoint`.
CAVS_API cavs_status cavs_safetensors_to_checkpoint(
    const char *path, const char *template_checkpoint,
    const char *checkpoint_path);

CAVS_EXTERN_C_END

#endif // CAVS_SAFETENSORS_H
