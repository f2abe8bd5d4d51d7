//===- GradSync.h - summing a gradient store over the ranks ---------------===//
//
// GradSync makes every rank's gradients the sum of all of them, as one
// process would have accumulated over the whole batch.
//
// Dense parameters are summed in buckets as soon as the backward pass has
// finished them: the compiler lists which backward phases add to each
// parameter's gradient (cavs_function_desc::grad_params), so a parameter
// is final after the last of them, and the model instance reports every
// finished phase (GradientListener). The buckets of a point of the pass are
// the same on every rank, so every rank posts the same collectives in the
// same order, also when its pass failed or did not run (postRest).
//
// Embedding tables (parameters that track touched rows) are summed after
// the ranks agreed on the step, as the union of the rows touched on any
// rank, which is also what every rank then marks, so the lazy optimizers
// update the same rows everywhere.
//
// Frozen parameters are left out of both: the optimizer does not read their
// gradients, so a frozen table exchanges neither row ids nor rows.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_DISTRIBUTED_GRADSYNC_H
#define CAVS_RUNTIME_DISTRIBUTED_GRADSYNC_H

#include "cavs/dist.h"
#include "cavs/program.h"
#include "distributed/MpiComm.h"
#include "params/GradStore.h"

#include <functional>
#include <vector>

namespace cavs::runtime {

/// What one exchange sent (per rank).
struct GradSyncStats {
  int32_t denseBuckets = 0;
  int64_t denseBytes = 0;
  /// Of denseBytes, those posted while the backward pass still ran.
  int64_t earlyBytes = 0;
  int64_t sparseRows = 0;
  int64_t sparseBytes = 0;
  int32_t sparseDenseTables = 0;
  int64_t indexBytes = 0;
};

class GradSync {
public:
  /// Posts an in-place sum over the ranks of data[0, count).
  using PostSum = std::function<Status(float *data, int64_t count)>;

  /// Plans the buckets for `grads`' layout from the backward phases of
  /// `train`, leaving out the parameters p with `frozen[p]` set.
  GradSync(const GradStore &grads, const std::vector<uint8_t> &frozen,
           const cavs_program_desc &train, int64_t bucketBytes,
           cavs_dist_sparse_mode sparseMode);

  /// Starts a step: nothing posted, statistics cleared.
  void beginStep();
  /// Posts the buckets final after backward phase `phase` of `function`
  /// (-1: the body phase), and those of earlier points not posted yet, as
  /// ranges of `grads` (the flat gradient buffer).
  Status postFinal(cavs_phase phase, int32_t function, float *grads,
                   const PostSum &post);
  /// Posts every bucket not posted yet: after a pass, or for a pass that
  /// failed or did not run.
  Status postRest(float *grads, const PostSum &post);

  /// Sums the embedding tables of `grads` over `comm` (in host memory) and
  /// marks the union of their touched rows.
  Status sumTables(Communicator &comm, GradStore &grads);

  const GradSyncStats &stats() const { return stats_; }

private:
  struct Table {
    int32_t param;
    int64_t offset, rows, cols;
  };
  /// Index of the point of the pass after backward `phase` of `function`.
  int32_t pointOf(cavs_phase phase, int32_t function) const;
  Status postUpTo(int32_t point, float *grads, const PostSum &post);
  /// Posts in-place sums of data[0, count) in pieces of at most a bucket.
  Status postSum(const PostSum &post, float *data, int64_t count);
  /// Gathers every rank's touched rows of every table into unions_.
  Status gatherRows(Communicator &comm, const GradStore &grads);
  bool sendDense(const Table &table, size_t unionRows) const;

  int64_t bucketFloats_;
  cavs_dist_sparse_mode sparseMode_;
  int32_t numFunctions_;
  /// Per point of the pass (the backward eager phase of each function,
  /// the body, the backward lazy phase of each function): the flat-buffer
  /// ranges of the dense parameters final there, neighbours merged.
  std::vector<std::vector<ElementRange>> pointRanges_;
  /// The points posted in this step.
  int32_t posted_ = 0;
  std::vector<Table> tables_;
  GradSyncStats stats_;
  // Per step, reused: the sorted union of touched rows per table and the
  // packed rows of the tables sent as rows.
  std::vector<std::vector<int32_t>> unions_;
  std::vector<std::vector<float>> packed_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_DISTRIBUTED_GRADSYNC_H
