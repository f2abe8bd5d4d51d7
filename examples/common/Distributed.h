//===- Distributed.h - an app's side of data-parallel training --*- C++ -*-===//
//
// With --distributed an app runs as one of several processes started by
// mpirun and trains through cavs::dist::Trainer (cavs/dist.hpp): every rank
// loads the same data and builds the same global minibatches from the same
// seed; the trainer shards each batch by work and sums the gradients, and
// evaluation runs each rank's shard of each batch (Trainer.h). What the app
// adds is here: the flag, a clear failure when the runtime lacks MPI, rank
// 0 as the only printer, the check that every rank loaded the same
// evaluation data, sums of the counters kept per rank, and ending the whole
// job when one rank fails.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_DISTRIBUTED_H
#define CAVS_EXAMPLES_DISTRIBUTED_H

#include "Accuracy.h"
#include "ArgParser.h"
#include "Fingerprint.h"

#include "cavs/dist.hpp"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace cavs_examples {

/// The command-line settings of distributed training.
struct DistributedOptions {
  bool enabled = false;
  /// --gpu-sums: "auto", "mpi" or "nccl" (cavs_dist_gpu_sums).
  std::string gpuSums = "auto";
};

/// Registers --distributed and --gpu-sums.
void addDistributedOptions(ArgParser &parser, DistributedOptions *options);

/// Joins the other ranks (collective) and makes the replicas equal: rank
/// 0's parameters and optimizer state go to every rank. On ranks other
/// than 0 stdout then goes to /dev/null, since their reports would repeat
/// rank 0's (stderr stays, for errors). Throws UsageError when the runtime
/// was built without MPI.
std::unique_ptr<cavs::dist::Trainer>
startDistributed(cavs::Model &model, cavs::Optimizer &optimizer,
                 const DistributedOptions &options);

/// Data every rank must have loaded alike.
struct SharedData {
  /// What it is, for messages: "dev set".
  std::string what;
  /// This rank's file.
  std::string path;
  /// Equal on two ranks exactly when they loaded the same data (up to hash
  /// collisions): fileFingerprint, vocabFingerprint (Fingerprint.h).
  uint64_t fingerprint = 0;
};

/// Checks that every rank loaded the same `data` as rank 0 (collective),
/// else throws std::runtime_error on every rank naming the first rank and
/// file that differ. Each training step checks its global batch; what only
/// evaluation reads must be checked here, or a rank with another dev set
/// silently skews the dev accuracy that picks the best checkpoint.
void requireSameData(cavs::dist::Trainer &trainer,
                     const std::vector<SharedData> &data);

/// A command-line setting every rank must share: its flag and value.
struct SharedSetting {
  std::string flag;
  std::string value;
};

/// Checks that every rank runs with rank 0's `settings` (collective), else
/// throws std::runtime_error on every rank naming the first rank and flag
/// that differ. Steps compare their global batches, but evaluation shards
/// each rank's own batches: ranks with other --eval-batch values would count
/// dev samples twice or not at all, and other --epochs would leave one rank
/// waiting for the others until the timeout.
void requireSameSettings(cavs::dist::Trainer &trainer,
                         const std::vector<SharedSetting> &settings);

/// Sums the counts of `accuracies` over the ranks in place (collective);
/// nothing without a trainer.
void sumOverRanks(cavs::dist::Trainer *trainer,
                  std::initializer_list<Accuracy *> accuracies);

/// The exit status of a rank: a failed rank ends every rank of the job at
/// once (cavs::dist::abort) rather than leaving the others to wait for it
/// until their collectives time out.
int finishDistributed(bool distributed, int status);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_DISTRIBUTED_H
