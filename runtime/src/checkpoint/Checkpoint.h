//===- Checkpoint.h - saving and loading checkpoints ----------------------===//
//
// The entry points behind cavs/checkpoint.h.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_CHECKPOINT_H
#define CAVS_RUNTIME_CHECKPOINT_CHECKPOINT_H

#include "checkpoint/TrainState.h"
#include "optim/Optimizer.h"
#include "params/ParamStore.h"

#include <string>

namespace cavs::runtime {

/// Writes `params` and, when not null, `optimizer` (of the same model) and
/// `state` to `path`, atomically.
Status saveCheckpoint(const std::string &path, const ParamStore &params,
                      const Optimizer *optimizer, const TrainState *state);

/// Reads and validates the checkpoint at `path` completely, then copies its
/// parameters into `params` and, when not null, restores `optimizer` and
/// replaces `state` from it. On failure none is changed.
Status loadCheckpoint(const std::string &path, ParamStore &params,
                      Optimizer *optimizer, TrainState *state);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_CHECKPOINT_CHECKPOINT_H
