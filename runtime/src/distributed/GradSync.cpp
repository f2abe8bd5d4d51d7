//===- GradSync.cpp - dense buckets by readiness, touched-row unions -----===//
//
// Dense buckets go out as the backward pass finishes them (GradSync.h).
// The tables take three rounds, each posted whole and then waited for: the
// touched-row counts of every table, the row ids, then the tables, packed
// as their union rows or whole. Rows a rank did not touch are zero in its
// store (GradStore's invariant), so packing them adds zeros and the sums
// are exact.
//
//===----------------------------------------------------------------------===//
#include "distributed/GradSync.h"

#include <algorithm>
#include <cstring>

namespace cavs::runtime {

GradSync::GradSync(const GradStore &grads, const std::vector<uint8_t> &frozen,
                   const cavs_program_desc &train, int64_t bucketBytes,
                   cavs_dist_sparse_mode sparseMode)
    : bucketFloats_(std::max<int64_t>(1, bucketBytes / int64_t(sizeof(float)))),
      sparseMode_(sparseMode), numFunctions_(train.num_functions) {
  const ModelLayout &layout = grads.layout();
  // A parameter no backward phase writes has a zero (or accumulated)
  // gradient from the start: it goes with the first point.
  std::vector<int32_t> finalPoint(layout.numParams(), 0);
  for (int32_t f = 0; f < train.num_functions; ++f)
    for (int phase = CAVS_PHASE_BACKWARD_EAGER; phase < CAVS_NUM_PHASES;
         ++phase) {
      const cavs_function_desc &function = train.functions[f];
      const int32_t point = pointOf(static_cast<cavs_phase>(phase), f);
      for (int32_t i = 0; i < function.num_grad_params[phase]; ++i) {
        int32_t &last = finalPoint[function.grad_params[phase][i]];
        last = std::max(last, point);
      }
    }

  pointRanges_.resize(2 * numFunctions_ + 1);
  // Neighbours in the buffer final at the same point are one range
  // (padding between them is zero on every rank, so summing it is
  // harmless and saves messages).
  int32_t previousPoint = -1;
  for (int32_t p : layout.storageOrder()) {
    const cavs_param_info &info = layout.param(p);
    if (frozen[p]) {
      previousPoint = -1;
      continue;
    }
    if (grads.tracksRows(p)) {
      tables_.push_back({p, info.offset, info.shape[0], info.shape[1]});
      previousPoint = -1;
      continue;
    }
    std::vector<ElementRange> &ranges = pointRanges_[finalPoint[p]];
    if (previousPoint == finalPoint[p])
      ranges.back().end = info.offset + info.size;
    else
      ranges.push_back({info.offset, info.offset + info.size});
    previousPoint = finalPoint[p];
  }
  unions_.resize(tables_.size());
  packed_.resize(tables_.size());
}

int32_t GradSync::pointOf(cavs_phase phase, int32_t function) const {
  switch (phase) {
  case CAVS_PHASE_BACKWARD_EAGER:
    return function;
  case CAVS_PHASE_BACKWARD_BODY:
    return numFunctions_;
  default:
    return numFunctions_ + 1 + function;
  }
}

void GradSync::beginStep() {
  posted_ = 0;
  stats_ = GradSyncStats();
}

Status GradSync::postUpTo(int32_t point, float *grads, const PostSum &post) {
  for (; posted_ <= point; ++posted_)
    for (const ElementRange &range : pointRanges_[posted_]) {
      const int64_t count = range.end - range.begin;
      CAVS_RETURN_IF_ERROR(postSum(post, grads + range.begin, count));
      stats_.denseBuckets +=
          static_cast<int32_t>((count + bucketFloats_ - 1) / bucketFloats_);
      stats_.denseBytes += count * int64_t(sizeof(float));
    }
  return Status();
}

Status GradSync::postFinal(cavs_phase phase, int32_t function, float *grads,
                           const PostSum &post) {
  const int32_t point = pointOf(phase, function);
  const int64_t before = stats_.denseBytes;
  CAVS_RETURN_IF_ERROR(postUpTo(point, grads, post));
  // The last point ends the pass: nothing after it overlaps.
  if (point + 1 < int32_t(pointRanges_.size()))
    stats_.earlyBytes += stats_.denseBytes - before;
  return Status();
}

Status GradSync::postRest(float *grads, const PostSum &post) {
  return postUpTo(int32_t(pointRanges_.size()) - 1, grads, post);
}

Status GradSync::postSum(const PostSum &post, float *data, int64_t count) {
  for (int64_t done = 0; done < count; done += bucketFloats_)
    CAVS_RETURN_IF_ERROR(
        post(data + done, std::min(bucketFloats_, count - done)));
  return Status();
}

bool GradSync::sendDense(const Table &table, size_t unionRows) const {
  if (sparseMode_ == CAVS_DIST_SPARSE_DENSE)
    return true;
  if (sparseMode_ == CAVS_DIST_SPARSE_ROWS)
    return false;
  // Packing copies each row twice (gather, scatter) and a dense sum copies
  // nothing, so past half the table the whole table is the cheaper message.
  return int64_t(unionRows) * 2 >= table.rows;
}

Status GradSync::gatherRows(Communicator &comm, const GradStore &grads) {
  const int ranks = comm.size();
  const size_t numTables = tables_.size();
  std::vector<int32_t> localCounts(numTables), counts(numTables * ranks);
  for (size_t t = 0; t < numTables; ++t)
    localCounts[t] =
        static_cast<int32_t>(grads.touchedRows(tables_[t].param).size());
  CAVS_RETURN_IF_ERROR(comm.postAllgather(
      localCounts.data(), static_cast<int>(numTables * sizeof(int32_t)),
      counts.data()));
  CAVS_RETURN_IF_ERROR(comm.wait("exchanging touched-row counts"));

  std::vector<std::vector<int32_t>> gathered(numTables);
  std::vector<std::vector<int>> rankCounts(numTables, std::vector<int>(ranks)),
      displs(numTables, std::vector<int>(ranks));
  for (size_t t = 0; t < numTables; ++t) {
    int total = 0;
    for (int r = 0; r < ranks; ++r) {
      rankCounts[t][r] = counts[size_t(r) * numTables + t];
      displs[t][r] = total;
      total += rankCounts[t][r];
    }
    gathered[t].resize(std::max(total, 1));
    stats_.indexBytes += int64_t(localCounts[t]) * int64_t(sizeof(int32_t));
    CAVS_RETURN_IF_ERROR(comm.postAllgatherv(
        grads.touchedRows(tables_[t].param).data(), localCounts[t],
        gathered[t].data(), rankCounts[t].data(), displs[t].data()));
  }
  CAVS_RETURN_IF_ERROR(comm.wait("exchanging touched rows"));

  for (size_t t = 0; t < numTables; ++t) {
    std::vector<int32_t> &rows = unions_[t];
    rows.assign(gathered[t].begin(), gathered[t].begin() +
                                         displs[t][ranks - 1] +
                                         rankCounts[t][ranks - 1]);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  return Status();
}

Status GradSync::sumTables(Communicator &comm, GradStore &grads) {
  if (tables_.empty())
    return Status();
  CAVS_RETURN_IF_ERROR(gatherRows(comm, grads));
  const auto post = [&](float *data, int64_t count) {
    return comm.postAllreduceSum(data, count);
  };
  float *data = grads.data();
  for (size_t t = 0; t < tables_.size(); ++t) {
    const Table &table = tables_[t];
    float *values = data + table.offset;
    const std::vector<int32_t> &rows = unions_[t];
    if (sendDense(table, rows.size())) {
      CAVS_RETURN_IF_ERROR(postSum(post, values, table.rows * table.cols));
      stats_.sparseBytes += table.rows * table.cols * int64_t(sizeof(float));
      ++stats_.sparseDenseTables;
      continue;
    }
    std::vector<float> &packed = packed_[t];
    packed.resize(rows.size() * size_t(table.cols));
    for (size_t i = 0; i < rows.size(); ++i)
      std::memcpy(packed.data() + i * table.cols,
                  values + int64_t(rows[i]) * table.cols,
                  size_t(table.cols) * sizeof(float));
    CAVS_RETURN_IF_ERROR(postSum(post, packed.data(), int64_t(packed.size())));
    stats_.sparseRows += int64_t(rows.size());
    stats_.sparseBytes += int64_t(packed.size()) * int64_t(sizeof(float));
  }
  CAVS_RETURN_IF_ERROR(comm.wait("summing the embedding gradients"));
  for (size_t t = 0; t < tables_.size(); ++t) {
    const Table &table = tables_[t];
    const std::vector<int32_t> &rows = unions_[t];
    if (!sendDense(table, rows.size()))
      for (size_t i = 0; i < rows.size(); ++i)
        std::memcpy(data + table.offset + int64_t(rows[i]) * table.cols,
                    packed_[t].data() + i * table.cols,
                    size_t(table.cols) * sizeof(float));
    // Every rank now holds gradient in the union's rows: mark them all, so
    // zeroing clears them and the optimizer updates the same rows on every
    // rank (one process would have touched exactly this union).
    CAVS_RETURN_IF_ERROR(
        grads.markRows(table.param, rows.data(), int64_t(rows.size())));
  }
  return Status();
}

} // namespace cavs::runtime
