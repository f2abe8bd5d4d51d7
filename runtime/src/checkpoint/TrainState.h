//===- TrainState.h - the training state a checkpoint carries -------------===//
//
// The state of a training run (epoch, shuffling state, best score...) as
// named u64 or f64 fields that the application defines; the runtime only
// stores them in a checkpoint and gives them back, so it can resume a run
// without knowing what the app counts.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_TRAINSTATE_H
#define CAVS_RUNTIME_CHECKPOINT_TRAINSTATE_H

#include "cavs/checkpoint.h"
#include "support/Status.h"

#include <string>
#include <string_view>
#include <vector>

namespace cavs::runtime {

/// One field; `bits` holds the u64 or the f64's bit pattern.
struct TrainField {
  std::string name;
  cavs_train_field_type type = CAVS_TRAIN_FIELD_U64;
  uint64_t bits = 0;
};

/// Whether `type` is one of cavs_train_field_type's field types.
bool isTrainFieldType(uint32_t type);

/// "u64" or "f64".
const char *trainFieldTypeName(cavs_train_field_type type);

class TrainState {
public:
  /// Sets or replaces field `name` (not empty).
  Status set(std::string_view name, cavs_train_field_type type, uint64_t bits);
  /// The bits of field `name` of type `type`; fails naming what is wrong.
  Status get(std::string_view name, cavs_train_field_type type,
             uint64_t &bits) const;
  /// In the order they were first set.
  const std::vector<TrainField> &fields() const { return fields_; }
  void swap(TrainState &other) { fields_.swap(other.fields_); }

private:
  std::vector<TrainField> fields_;
};

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_train_state {
  cavs::runtime::TrainState impl;
};

#endif // CAVS_RUNTIME_CHECKPOINT_TRAINSTATE_H
