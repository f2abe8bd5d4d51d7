//===- Workloads.h - the models and data sets cavs-bench runs ---*- C++ -*-===//
//
// A workload is an example model plus the samples it runs on:
//   treelstm       treelstm.cavs (leaf + inner function) on SST train
//   treegru        treegru.cavs on SST train
//   treelstm2type  treelstm2type.cavs on SST train, each vertex cell_a or
//                  cell_b by a seeded coin flip
//                  (the SST workloads use synthetic SST-like trees when
//                  the data set is absent)
//   treefc         treefc.cavs (leaf + inner function) on complete binary
//                  trees with 256 leaves
//                  (511 vertices), generated
//   chainlstm      chainlstm.cavs (Var-LSTM LM): a chain per PTB valid
//                  sentence, predicting the next word
//   fixedlstm      chainlstm.cavs (Fixed-LSTM LM): the PTB valid text in
//                  chains of exactly 64 words
//   lattice        lattice.cavs: PTB valid sentences as character chains
//                  plus word cells for lexicon words inside the tokens
// Samples keep their order, and generated ones depend only on a fixed seed,
// so every run benchmarks the same batches.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_WORKLOADS_H
#define CAVS_BENCH_WORKLOADS_H

#include "Options.h"
#include "cavs/sample_set.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cavs::bench {

struct Workload {
  Workload(std::string name, std::string modelPath, SampleSet samples)
      : name(std::move(name)), modelPath(std::move(modelPath)),
        samples(std::move(samples)) {}

  std::string name;
  /// The .cavs file of the model.
  std::string modelPath;
  /// Where the samples come from, for the report.
  std::string description;
  SampleSet samples;
  /// The attribute masked to the roots for --loss=root, or empty.
  std::string rootsOnly;

  /// The batches of `batchSize` consecutive samples, in order (at most
  /// kMaxBatches), built on first use. Throws std::runtime_error when the
  /// set has fewer samples than one batch.
  const std::vector<cavs::GraphBatch> &batches(int32_t batchSize);

  /// Seconds the runtime's graph builder took per batch of `batchSize`
  /// (validation and assembly) when each batch is built again and dropped,
  /// as a training loop does; after batches(batchSize).
  double buildSeconds(int32_t batchSize) const {
    return buildSeconds_.at(batchSize);
  }
  /// The lower bound on batched tasks (TaskBound.h) of each batch of
  /// `batchSize`, in batch order (after batches(batchSize)).
  const std::vector<int64_t> &taskBounds(int32_t batchSize) const {
    return taskBounds_.at(batchSize);
  }

  /// Enough distinct batches to average over, few enough to build quickly.
  static constexpr int32_t kMaxBatches = 256;

private:
  std::map<int32_t, std::vector<cavs::GraphBatch>> batches_;
  std::map<int32_t, double> buildSeconds_;
  std::map<int32_t, std::vector<int64_t>> taskBounds_;
};

/// The workload `options` select, or nothing (after saying why) when its
/// default data set is absent and there is no stand-in. Throws UsageError
/// for an unknown workload or misplaced flags and std::runtime_error for
/// missing or malformed data.
std::optional<Workload> makeWorkload(const Options &options);

} // namespace cavs::bench

#endif // CAVS_BENCH_WORKLOADS_H
