//===- Parse.h - structural validation of checkpoint files ----------------===//
//
// parseCheckpoint checks everything a checkpoint says about itself (magic,
// version, recorded length, checksum, record structure, optimizer
// hyperparameters and slots, training-state fields) and returns views of
// its records; matching them against a model is Load.cpp's job.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_PARSE_H
#define CAVS_RUNTIME_CHECKPOINT_PARSE_H

#include "cavs/checkpoint.h"
#include "cavs/optim.h"
#include "support/ReadFile.h"

#include <optional>
#include <string_view>
#include <vector>

namespace cavs::runtime::checkpoint {

/// A tensor record; views point into the file bytes.
struct TensorRecord {
  std::string_view name;
  int32_t rank = 0;
  /// As in cavs_param_info: {size, 0} or {rows, columns}.
  int64_t shape[2] = {0, 0};
  /// The f32 values (not aligned), as many as the shape has elements.
  const unsigned char *data = nullptr;
};

/// The state arrays of one optimizer slot, one tensor per parameter.
struct SlotRecord {
  std::string_view name;
  std::vector<TensorRecord> tensors;
};

/// Optimizer state: validated options (the kind's defaults overwritten by
/// the recorded hyperparameters), the step count, and exactly the slots the
/// options need, in order.
struct OptimizerRecord {
  cavs_optimizer_options options{};
  int64_t stepCount = 0;
  std::vector<SlotRecord> slots;
};

/// A training-state field (cavs/checkpoint.h); `bits` holds the u64 or the
/// f64's bit pattern.
struct TrainFieldRecord {
  std::string_view name;
  cavs_train_field_type type = CAVS_TRAIN_FIELD_U64;
  uint64_t bits = 0;
};

/// The records of a checkpoint.
struct Contents {
  uint32_t version = 0;
  uint64_t signature = 0;
  std::string_view modelName;
  std::vector<TensorRecord> params;
  std::optional<OptimizerRecord> optimizer;
  /// Validated: names not empty and distinct, known types. Empty when the
  /// file has no training state (or is of version 1).
  std::vector<TrainFieldRecord> trainState;
};

/// Validates the bytes of the checkpoint file `path` and extracts its
/// records. Fails with CAVS_ERROR_PARSE (bad magic, truncation, trailing
/// bytes, checksum mismatch, malformed records) or CAVS_ERROR_UNSUPPORTED
/// (newer version, unknown dtype). Reads every version from
/// kOldestFormatVersion to kFormatVersion (Format.h).
Status parseCheckpoint(const std::string &path, const FileBytes &bytes,
                       Contents &out);

/// Checks that every optimizer slot of `contents` holds one tensor per
/// parameter, of its shape: what loading checks against a model, for the
/// tools that read a checkpoint without one (cavs-ckpt). CAVS_ERROR_PARSE.
Status checkSlotsMatchParams(const std::string &path, const Contents &contents);

} // namespace cavs::runtime::checkpoint

#endif // CAVS_RUNTIME_CHECKPOINT_PARSE_H
