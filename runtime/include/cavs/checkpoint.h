//===- checkpoint.h - checkpoints of the cavs C ABI -----------------------===//
//
// A checkpoint file holds the parameter values of a model and optionally the
// state of its optimizer and the state of the training run (a set of named
// numbers the application defines: epoch, shuffling state, best score, so
// that a run can be resumed), in a documented little-endian binary format
// with a trailing CRC-32C (docs/runtime.md, "Checkpoint file format").
//
// Saving is atomic: the data goes to `<path>.tmp.<pid>.<n>` (one per save),
// which is synced and then renamed over `path`, so `path` always holds
// either the old or the new complete checkpoint. Loading reads and validates the whole file (magic,
// version, length, checksum, model signature, every tensor's name and shape)
// before it changes anything: on any failure the parameters and the
// optimizer are left untouched.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_CHECKPOINT_H
#define CAVS_CHECKPOINT_H

#include "cavs/optim.h"

CAVS_EXTERN_C_BEGIN

/// The state of a training run: named fields, each an unsigned 64-bit
/// integer or a double, in the order they were first set. The runtime
/// stores and restores it with a checkpoint but gives the names no meaning.
typedef struct cavs_train_state cavs_train_state;

/// The type of a training-state field (the values are the file's).
typedef enum cavs_train_field_type {
  CAVS_TRAIN_FIELD_U64 = 1,
  CAVS_TRAIN_FIELD_F64 = 2,
  /// Makes the enum 32 bits wide.
  CAVS_TRAIN_FIELD_FORCE_INT32 = 0x7fffffff,
} cavs_train_field_type;

/// An empty training state; free it with cavs_train_state_destroy.
CAVS_API cavs_status cavs_train_state_create(cavs_train_state **out_state);
CAVS_API void cavs_train_state_destroy(cavs_train_state *state);

/// Sets field `name` (not empty) to `value`, replacing a field of that name
/// whatever its type.
CAVS_API cavs_status cavs_train_state_set_u64(cavs_train_state *state,
                                              const char *name, uint64_t value);
CAVS_API cavs_status cavs_train_state_set_f64(cavs_train_state *state,
                                              const char *name, double value);

/// The value of field `name`. Fails with CAVS_ERROR_INVALID_ARGUMENT when
/// there is no such field or it has the other type (the message says which).
CAVS_API cavs_status cavs_train_state_get_u64(const cavs_train_state *state,
                                              const char *name,
                                              uint64_t *out_value);
CAVS_API cavs_status cavs_train_state_get_f64(const cavs_train_state *state,
                                              const char *name,
                                              double *out_value);

/// The number of fields (0 for NULL), and the name (valid until the state
/// changes) and type of field `index` in [0, number of fields).
CAVS_API int32_t cavs_train_state_num_fields(const cavs_train_state *state);
CAVS_API cavs_status cavs_train_state_field(const cavs_train_state *state,
                                            int32_t index,
                                            const char **out_name,
                                            cavs_train_field_type *out_type);

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

/// cavs_checkpoint_save that also writes `state` (when not NULL and not
/// empty) as the checkpoint's training state.
CAVS_API cavs_status cavs_checkpoint_save_with_state(
    const char *path, const cavs_param_store *params,
    const cavs_optimizer *optimizer, const cavs_train_state *state);

/// cavs_checkpoint_load that, when `state` is not NULL, also replaces its
/// fields with the checkpoint's training state: none when the file has
/// none (it was saved without, or in format version 1). Changes nothing
/// on failure, `state` included.
CAVS_API cavs_status cavs_checkpoint_load_with_state(const char *path,
                                                     cavs_param_store *params,
                                                     cavs_optimizer *optimizer,
                                                     cavs_train_state *state);

CAVS_EXTERN_C_END

#endif // CAVS_CHECKPOINT_H
