//===- GradStore.h - gradients in the layout of a parameter store ---------===//
//
// GradStore is the object behind cavs_grad_store: a flat buffer in the
// parameter layout plus optional touched-row tracking per matrix parameter.
// For a tracking parameter, rows that were not marked are zero, so zeroing
// and optimizer updates only visit marked rows; activeRanges() lists the
// elements that may be nonzero, for both.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_GRADSTORE_H
#define CAVS_RUNTIME_PARAMS_GRADSTORE_H

#include "params/AlignedBuffer.h"
#include "params/ModelLayout.h"

#include <optional>

namespace cavs::runtime {

/// A half-open range [begin, end) of flat-buffer elements.
struct ElementRange {
  int64_t begin = 0;
  int64_t end = 0;
};

/// Gradients of one model instance.
class GradStore {
public:
  /// Zeroed gradients in `layout`, no parameter tracking rows.
  explicit GradStore(std::shared_ptr<const ModelLayout> layout);

  const ModelLayout &layout() const { return *layout_; }
  float *data() { return values_.data(); }
  const float *data() const { return values_.data(); }

  /// Zeroes every gradient, visiting only the marked rows of tracking
  /// parameters, and empties their lists.
  void zero();

  /// Starts tracking rows of matrix parameter `param` (zeroing its gradient).
  Status trackRows(int32_t param);
  /// Fixes which parameters track rows: a model instance's store, whose
  /// generated backward marks the rows of its lookup tables only. A dense
  /// gradient tracked there would be written whole but stepped nowhere.
  void fixRowTracking() { rowTrackingFixed_ = true; }
  bool tracksRows(int32_t param) const { return trackers_[param].has_value(); }
  /// Marks `rows` of `param` (checked against its row count first).
  Status markRows(int32_t param, const int32_t *rows, int64_t count);
  /// The distinct marked rows of a tracking `param`, in first-marked order.
  const std::vector<int32_t> &touchedRows(int32_t param) const {
    return trackers_[param]->rows;
  }

  /// The elements that may hold nonzero gradients: whole non-tracking
  /// parameters (runs of adjacent ones merged, with the zero padding between
  /// them) and one range per touched row of tracking parameters, in layout
  /// order of the parameters. Ranges never overlap, so work over them can
  /// be split across threads. Parameters p with `excluded[p]` set (frozen
  /// ones, for an optimizer) are left out; an empty mask excludes none.
  std::vector<ElementRange>
  activeRanges(const std::vector<uint8_t> &excluded = {}) const;

private:
  struct RowTracker {
    /// marked[r] != 0 when row r is in `rows`.
    std::vector<uint8_t> marked;
    std::vector<int32_t> rows;
  };

  Status checkParam(int32_t param) const;

  std::shared_ptr<const ModelLayout> layout_;
  AlignedBuffer values_;
  std::vector<std::optional<RowTracker>> trackers_;
  bool rowTrackingFixed_ = false;
};

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_grad_store {
  cavs::runtime::GradStore impl;
};

#endif // CAVS_RUNTIME_PARAMS_GRADSTORE_H
