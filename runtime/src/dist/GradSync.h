//===- GradSync.h - summing a gradient store over the ranks ---------------===//
//
// After every rank's backward pass, GradSync makes every rank's gradient
// store the sum of all of them, as one process would have accumulated over
// the whole batch: dense parameters in fixed buckets; embedding tables
// (parameters that track touched rows) as the union of the rows touched on
// any rank, which is also what every rank then marks, so the lazy
// optimizers update the same rows everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_DIST_GRADSYNC_H
#define CAVS_RUNTIME_DIST_GRADSYNC_H

#include "cavs/dist.h"
#include "dist/MpiComm.h"
#include "params/GradStore.h"

#include <vector>

namespace cavs::runtime {

/// What one exchange sent (per rank).
struct GradSyncStats {
  int32_t denseBuckets = 0;
  int64_t denseBytes = 0;
  int64_t sparseRows = 0;
  int64_t sparseBytes = 0;
  int32_t sparseDenseTables = 0;
  int64_t indexBytes = 0;
};

class GradSync {
public:
  /// Plans the buckets for `grads`' layout and row-tracking parameters.
  GradSync(const GradStore &grads, int64_t bucketBytes,
           cavs_dist_sparse_mode sparseMode);

  /// Sums `grads` over the ranks of `comm` in place.
  Status run(Communicator &comm, GradStore &grads, GradSyncStats &stats);

private:
  struct Table {
    int32_t param;
    int64_t offset, rows, cols;
  };
  /// Posts in-place sums of data[0, count) in pieces of at most a bucket.
  Status postSum(Communicator &comm, float *data, int64_t count,
                 int32_t &pieces);
  /// Gathers every rank's touched rows of every table into unions_.
  Status gatherRows(Communicator &comm, const GradStore &grads,
                    GradSyncStats &stats);
  bool sendDense(const Table &table, size_t unionRows) const;

  int64_t bucketFloats_;
  cavs_dist_sparse_mode sparseMode_;
  /// The flat-buffer ranges outside the tables, merged (padding included).
  std::vector<ElementRange> denseRanges_;
  std::vector<Table> tables_;
  // Per step, reused: the sorted union of touched rows per table and the
  // packed rows of the tables sent as rows.
  std::vector<std::vector<int32_t>> unions_;
  std::vector<std::vector<float>> packed_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_DIST_GRADSYNC_H
