//===- checkpoint.h - checkpoints of the cavs C ABI -----------------------===//
//
// A checkpoint file holds the parameter values of a model and optionally the
// state of its optimizer, in a documented little-endian binary format with a
// trailing CRC-32C (docs/runtime.md, "Checkpoint file format").
//
// Saving is atomic: the data goes to `<path>.tmp.<pid>`, which is synced and
// then renamed over `path`, so `path` always holds either the old or the new
// complete checkpoint. Loading reads and validates the whole file (magic,
// version, length, checksum, model signature, every tensor's name and shape)
// before it changes anything: on any failure the parameters and the
// optimizer are left untouched.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_CHECKPOINT_H
#define CAVS_CHECKPOINT_H

#include "cavs/optim.h"

CAVS_EXTERN_C_BEGIN

/// Writes the parameters and, when `optimizer` is not NULL, its
/// hyperparameters, step count and state to `path` (atomically). The
/// optimizer must belong to the model of `params`. Fails with CAVS_ERROR_IO
/// when the file cannot be written.
CAVS_API cavs_status cavs_checkpoint_save(const char *path,
                                          const cavs_param_store *params,
                                          const cavs_optimizer *optimizer);

/// Loads the checkpoint at `path` into `params` and, when `optimizer` is not
/// NULL, restores its hyperparameters, step count and state (the checkpoint
/// must then hold state of the optimizer's kind). With a NULL optimizer any
/// optimizer state in the file is checked but not used (inference).
/// Failures, all before anything changes:
///   CAVS_ERROR_IO               the file cannot be read or is not a
///                               regular file
///   CAVS_ERROR_PARSE            not a checkpoint, truncated, trailing bytes,
///                               checksum mismatch or malformed content
///   CAVS_ERROR_UNSUPPORTED      a newer format version
///   CAVS_ERROR_INVALID_ARGUMENT another model (signature), a missing, extra
///                               or misshapen tensor, or optimizer state of
///                               another kind or none
CAVS_API cavs_status cavs_checkpoint_load(const char *path,
                                          cavs_param_store *params,
                                          cavs_optimizer *optimizer);

CAVS_EXTERN_C_END

#endif // CAVS_CHECKPOINT_H
