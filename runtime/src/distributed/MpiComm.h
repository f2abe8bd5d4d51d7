//===- MpiComm.h - MPI collectives that cannot hang -----------------------===//
//
// The trainer's only door to MPI. Every collective is posted non-blocking
// and then polled against a deadline, so a rank that died or hangs turns
// into a Status (CAVS_ERROR_IO, naming the operation) after the timeout
// instead of a silent hang; MPI errors are returned, not fatal. The
// communicator is a duplicate of MPI_COMM_WORLD, so the application's own
// MPI traffic cannot mix with the trainer's.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_DISTRIBUTED_MPICOMM_H
#define CAVS_RUNTIME_DISTRIBUTED_MPICOMM_H

#include "support/Status.h"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace cavs::runtime {

/// Initializes MPI once per process unless the application did; the
/// runtime then finalizes it at exit (or aborts the job after a failure).
Status ensureMpiInitialized();

/// Records that a collective failed: finalizing would wait for the dead
/// rank, so the exit path aborts the job instead.
void markMpiFailed();
bool mpiFailed();

/// Finalizes MPI if the runtime initialized it; after a failed collective
/// it aborts the job instead (does not return then).
void finalizeMpi();

/// A duplicate of MPI_COMM_WORLD with deadline-polled collectives. Post
/// operations with the post* calls, then wait() for all of them; buffers
/// must stay alive and untouched until wait() returns.
class Communicator {
public:
  ~Communicator();

  /// Initializes MPI if needed and duplicates MPI_COMM_WORLD, waiting at
  /// most `timeoutSeconds` for the other ranks.
  static Status create(double timeoutSeconds,
                       std::unique_ptr<Communicator> &out);

  int rank() const { return rank_; }
  int size() const { return size_; }
  double timeoutSeconds() const { return timeoutSeconds_; }

  /// In-place sums over the ranks.
  Status postAllreduceSum(float *data, int64_t count);
  Status postAllreduceSum(double *data, int64_t count);
  /// `bytes` from every rank, concatenated in rank order into `recv`
  /// (size() * bytes).
  Status postAllgather(const void *send, int bytes, void *recv);
  /// Variable counts of int32: rank r sends counts[r] values, placed at
  /// displs[r] of `recv`.
  Status postAllgatherv(const int32_t *send, int count, int32_t *recv,
                        const int *counts, const int *displs);
  /// `bytes` of `root` copied to every rank (split into int-sized pieces).
  Status postBroadcast(void *data, int64_t bytes, int root);

  /// Lets posted operations progress without waiting for them (Open MPI
  /// moves non-blocking collectives along only inside MPI calls).
  Status progress();
  /// Waits for every posted operation, at most the timeout; `what` names
  /// them in the message of a failure. After a failure every later call
  /// fails at once: pending requests cannot be cancelled.
  Status wait(std::string_view what);

private:
  Communicator() = default;
  Status checkHealthy() const;
  Status postSum(void *data, int64_t count, MPI_Datatype type);
  Status mpiError(int code, std::string_view what);
  /// Records `request` (by reference: read after the MPI call that is the
  /// first argument has filled it) or fails with `code`.
  Status post(int code, const MPI_Request &request, std::string_view what);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  double timeoutSeconds_ = 30;
  bool failed_ = false;
  std::vector<MPI_Request> pending_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_DISTRIBUTED_MPICOMM_H
