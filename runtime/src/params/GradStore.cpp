//===- GradStore.cpp - zeroing, row tracking and active ranges ------------===//
//
// Row tracking exists for embedding tables: a batch touches a few hundred of
// their rows, so clearing and updating only those rows saves a pass over
// the whole table (21701 x 300 floats for GloVe) per step.
//
//===----------------------------------------------------------------------===//
#include "params/GradStore.h"
#include "params/RangeSlices.h"

#include <algorithm>
#include <cstring>

namespace cavs::runtime {

GradStore::GradStore(std::shared_ptr<const ModelLayout> layout)
    : layout_(std::move(layout)), values_(layout_->size()),
      trackers_(layout_->numParams()) {}

void GradStore::zero() {
  parallelSlices(activeRanges(), 1,
                 [&](const std::vector<ElementRange> &slice) {
                   for (const ElementRange &range : slice)
                     std::memset(data() + range.begin, 0,
                                 static_cast<size_t>(range.end - range.begin) *
                                     sizeof(float));
                 });
  for (std::optional<RowTracker> &tracker : trackers_)
    if (tracker) {
      for (int32_t row : tracker->rows)
        tracker->marked[row] = 0;
      tracker->rows.clear();
    }
}

Status GradStore::checkParam(int32_t param) const {
  if (param < 0 || param >= layout_->numParams())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "parameter index {} is out of range; model '{}' has {} "
                     "parameters",
                     param, layout_->name(), layout_->numParams());
  const cavs_param_info &info = layout_->param(param);
  if (info.rank != 2)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "parameter '{}' is a vector; only matrices have rows to "
                     "track",
                     info.name);
  return Status();
}

Status GradStore::trackRows(int32_t param) {
  CAVS_RETURN_IF_ERROR(checkParam(param));
  if (trackers_[param])
    return Status();
  const cavs_param_info &info = layout_->param(param);
  if (rowTrackingFixed_)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "parameter '{}' has a dense gradient in this model "
                     "instance: its backward pass writes every row and marks "
                     "none, so a step would update none (the instance tracks "
                     "the rows of its lookup tables itself)",
                     info.name);
  RowTracker tracker;
  tracker.marked.assign(static_cast<size_t>(info.shape[0]), 0);
  std::fill(data() + info.offset, data() + info.offset + info.size, 0.0f);
  trackers_[param] = std::move(tracker);
  return Status();
}

Status GradStore::markRows(int32_t param, const int32_t *rows, int64_t count) {
  CAVS_RETURN_IF_ERROR(checkParam(param));
  if (count < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "cannot mark a negative number of rows ({})", count);
  const cavs_param_info &info = layout_->param(param);
  for (int64_t i = 0; i < count; ++i)
    if (rows[i] < 0 || rows[i] >= info.shape[0])
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "row {} (entry {}) of parameter '{}' is out of range "
                       "[0, {})",
                       rows[i], i, info.name, info.shape[0]);
  if (!trackers_[param])
    return Status();
  RowTracker &tracker = *trackers_[param];
  for (int64_t i = 0; i < count; ++i)
    if (!tracker.marked[rows[i]]) {
      tracker.marked[rows[i]] = 1;
      tracker.rows.push_back(rows[i]);
    }
  return Status();
}

std::vector<ElementRange>
GradStore::activeRanges(const std::vector<uint8_t> &excluded) const {
  std::vector<ElementRange> ranges;
  bool afterDenseParam = false;
  for (int32_t i : layout_->storageOrder()) {
    const cavs_param_info &info = layout_->param(i);
    if (!excluded.empty() && excluded[i]) {
      afterDenseParam = false;
      continue;
    }
    if (trackers_[i]) {
      for (int32_t row : trackers_[i]->rows)
        ranges.push_back({info.offset + row * info.shape[1],
                          info.offset + (row + 1) * info.shape[1]});
      afterDenseParam = false;
      continue;
    }
    // Extending over the padding in between is harmless (it is zero) and
    // gives longer loops.
    if (afterDenseParam)
      ranges.back().end = info.offset + info.size;
    else
      ranges.push_back({info.offset, info.offset + info.size});
    afterDenseParam = true;
  }
  return ranges;
}

} // namespace cavs::runtime
