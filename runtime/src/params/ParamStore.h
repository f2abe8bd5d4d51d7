//===- ParamStore.h - the flat buffer of a model's parameters -------------===//
//
// ParamStore is the object behind cavs_param_store: a shared ModelLayout,
// one aligned buffer holding every parameter at its layout offset, and which
// parameters are frozen (optimizers leave them unchanged).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_PARAMSTORE_H
#define CAVS_RUNTIME_PARAMS_PARAMSTORE_H

#include "params/AlignedBuffer.h"
#include "params/ModelLayout.h"

#include <vector>

namespace cavs::runtime {

/// The parameter values of one model instance.
class ParamStore {
public:
  /// Validates `desc` and initialises every parameter from `seed`.
  static Status create(const cavs_model_desc &desc, uint64_t seed,
                       ParamStore &out);

  const ModelLayout &layout() const { return *layout_; }
  const std::shared_ptr<const ModelLayout> &sharedLayout() const {
    return layout_;
  }
  /// Writable values; every call counts as a change (see generation()).
  float *data() {
    ++generation_;
    return values_.data();
  }
  const float *data() const { return values_.data(); }
  /// Changes whenever the values may have changed: a device copy made at
  /// another generation is stale.
  uint64_t generation() const { return generation_; }
  /// The values of parameter `index`.
  const float *param(int32_t index) const {
    return data() + layout_->param(index).offset;
  }

  /// Freezes or unfreezes parameter `index` (in range): optimizer steps
  /// skip a frozen parameter, and the distributed trainer does not exchange
  /// its gradient. Its values stay writable (and are checkpointed).
  void setFrozen(int32_t index, bool frozen) { frozen_[index] = frozen; }
  bool frozen(int32_t index) const { return frozen_[index] != 0; }
  /// Per parameter index, 1 when frozen.
  const std::vector<uint8_t> &frozenMask() const { return frozen_; }

private:
  std::shared_ptr<const ModelLayout> layout_;
  AlignedBuffer values_;
  uint64_t generation_ = 0;
  std::vector<uint8_t> frozen_;
};

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_param_store {
  cavs::runtime::ParamStore impl;
};

#endif // CAVS_RUNTIME_PARAMS_PARAMSTORE_H
