//===- Distributed.h - an app's side of data-parallel training --*- C++ -*-===//
//
// With --distributed an app runs as one of several processes started by
// mpirun and trains through cavs::dist::Trainer (cavs/dist.hpp): every rank
// loads the same data and builds the same global minibatches from the same
// seed; the trainer shards each batch by work and sums the gradients, and
// evaluation runs each rank's shard of each batch (Trainer.h). What the app
// adds is here: the flag, a clear failure when the runtime lacks MPI, rank
// 0 as the only printer, sums of the counters kept per rank, and ending
// the whole job when one rank fails.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_DISTRIBUTED_H
#define CAVS_EXAMPLES_DISTRIBUTED_H

#include "Accuracy.h"
#include "ArgParser.h"

#include "cavs/dist.hpp"

#include <initializer_list>
#include <memory>
#include <string>

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
