//===- Trainer.h - the data-parallel trainer behind cavs_dist_trainer -----===//
//
// An interface, so the C ABI (api/DistApi.cpp) compiles the same with and
// without MPI: MpiTrainer.cpp implements createTrainer over MPI,
// NoMpiTrainer.cpp (built when MPI is absent) fails it with
// CAVS_ERROR_UNSUPPORTED. No MPI type appears here.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_DISTRIBUTED_TRAINER_H
#define CAVS_RUNTIME_DISTRIBUTED_TRAINER_H

#include "cavs/dist.h"
#include "graph/GraphBatch.h"
#include "support/Status.h"

#include <memory>

namespace cavs::runtime {

/// One rank's side of data-parallel training; see cavs/dist.h.
class Trainer {
public:
  virtual ~Trainer() = default;
  virtual int32_t rank() const = 0;
  virtual int32_t size() const = 0;
  /// Shard, forward, backward, gradient sum, optimizer step; `loss` is the
  /// loss of the whole global batch.
  virtual Status step(const GraphBatch &globalBatch, double &loss) = 0;
  virtual Status allreduceSum(double *values, int32_t count) = 0;
  /// `bytes` from every rank, in rank order, into `out` (size() * bytes).
  virtual Status allgather(const void *data, int32_t bytes, void *out) = 0;
  /// Rank 0 writes the checkpoint with its `state` (may be null); every
  /// rank returns its status.
  virtual Status save(const char *path, const cavs_train_state *state) = 0;
  virtual const cavs_dist_stats &stats() const = 0;
  /// "MPI" or "NCCL": where the dense gradients are summed.
  virtual const char *denseSums() const = 0;
};

/// Whether createTrainer can succeed in this build.
bool trainerAvailable();

/// Joins the ranks and equalizes the replicas (collective); `options` are
/// validated already.
Status createTrainer(cavs_model *model, cavs_optimizer *optimizer,
                     const cavs_dist_options &options,
                     std::unique_ptr<Trainer> &out);

/// Ends the job (MPI_Abort) or, without MPI, the process.
[[noreturn]] void abortJob(int32_t code);

/// Finalizes MPI when the runtime initialized it.
void finalizeJob();

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_DISTRIBUTED_TRAINER_H
