//===- dist.h - data-parallel training across processes (MPI, NCCL) -------===//
//
// Data-parallel training of one model over several processes ("ranks",
// started by mpirun). Every rank holds a replica of the model and the same
// global batch; a step
//
//   1. splits the global batch by work (cavs_dist_shard_assign: about the
//      same number of VERTICES per rank, deterministically, no messages),
//   2. runs forward and backward on the rank's own samples,
//   3. SUMS the parameter gradients over the ranks (dense parameters in
//      buckets, each started as soon as the backward pass has finished it,
//      over MPI or, for models on GPUs, with NCCL; embedding tables as
//      their touched rows, or dense when that is cheaper; frozen
//      parameters not at all) and sums the losses,
//   4. applies the same optimizer step on every rank.
//
// cavs_model_forward returns the SUM of the losses of the batch and backward
// the gradient of that sum, so summing (not averaging) over the ranks makes
// N ranks on the shards equal one process on the whole batch.
//
// Every collective is non-blocking and polled against a deadline
// (cavs_dist_options::timeout_seconds, default 30 s, $CAVS_DIST_TIMEOUT):
// when a rank dies or hangs, the others fail with CAVS_ERROR_IO and a
// message naming the operation instead of hanging. After such a failure the
// process should end with cavs_dist_abort (or just exit non-zero: the
// runtime then aborts the MPI job at exit, so mpirun stops every rank).
//
// The sharding functions always exist. The trainer needs a runtime built
// with MPI (CAVS_ENABLE_MPI); without it cavs_dist_trainer_create fails
// with CAVS_ERROR_UNSUPPORTED (cavs_dist_available() tells beforehand).
// See docs/distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_DIST_H
#define CAVS_DIST_H

#include "cavs/checkpoint.h"
#include "cavs/instance.h"

CAVS_EXTERN_C_BEGIN

/// 1 when this runtime was built with MPI, else 0.
CAVS_API int32_t cavs_dist_available(void);

//===----------------------------------------------------------------------===//
// The work split (always available)
//===----------------------------------------------------------------------===//

/// Assigns each of `num_samples` samples, sample s having
/// `sample_vertices[s]` >= 1 vertices, to a rank in [0, num_ranks):
/// samples by decreasing size (ties by index) each go to the rank with the
/// fewest vertices so far (ties to the lowest rank). The result depends on
/// the sizes only, so every rank computes the same split. Writes
/// `out_ranks[s]` (num_samples entries).
CAVS_API cavs_status cavs_dist_shard_assign(const int32_t *sample_vertices,
                                            int32_t num_samples,
                                            int32_t num_ranks,
                                            int32_t *out_ranks);

/// The samples of `batch` that cavs_dist_shard_assign gives to `rank`, in
/// their original order, as a new batch (same types and attributes). When
/// the rank gets no sample (fewer samples than ranks) `*out_shard` is NULL
/// and the call succeeds.
CAVS_API cavs_status cavs_dist_shard_batch(const cavs_graph_batch *batch,
                                           int32_t num_ranks, int32_t rank,
                                           cavs_graph_batch **out_shard);

//===----------------------------------------------------------------------===//
// The trainer (needs MPI)
//===----------------------------------------------------------------------===//

/// How embedding (row-tracking) gradients are summed.
typedef enum cavs_dist_sparse_mode {
  /// Per table and step, the touched rows when their union is smaller than
  /// the table (counting the exchanged row ids), else the dense table.
  CAVS_DIST_SPARSE_AUTO = 0,
  /// Always the union of the touched rows.
  CAVS_DIST_SPARSE_ROWS = 1,
  /// Always the whole table.
  CAVS_DIST_SPARSE_DENSE = 2,
  CAVS_DIST_SPARSE_FORCE_INT32 = 0x7fffffff,
} cavs_dist_sparse_mode;

/// Where ranks whose model runs on a GPU sum their dense gradients.
typedef enum cavs_dist_gpu_sums {
  /// With NCCL when every rank's model is on a GPU and every rank can load
  /// NCCL, else like CAVS_DIST_GPU_SUMS_MPI.
  CAVS_DIST_GPU_SUMS_AUTO = 0,
  /// In host memory over MPI, after the backward pass copied them there.
  CAVS_DIST_GPU_SUMS_MPI = 1,
  /// In device memory with NCCL, started while the backward pass runs;
  /// creating the trainer fails when a rank cannot.
  CAVS_DIST_GPU_SUMS_NCCL = 2,
  CAVS_DIST_GPU_SUMS_FORCE_INT32 = 0x7fffffff,
} cavs_dist_gpu_sums;

/// Settings of a trainer; start from cavs_dist_options_init.
typedef struct cavs_dist_options {
  /// Longest wait of any collective before the step fails, > 0 seconds.
  double timeout_seconds;
  /// Dense gradients are summed in messages of at most this many bytes
  /// (>= 4).
  int64_t bucket_bytes;
  cavs_dist_sparse_mode sparse_mode;
  cavs_dist_gpu_sums gpu_sums;
} cavs_dist_options;

/// Defaults: timeout 30 s, or $CAVS_DIST_TIMEOUT seconds when it is a
/// positive number; buckets of 4 MiB; CAVS_DIST_SPARSE_AUTO;
/// CAVS_DIST_GPU_SUMS_AUTO.
CAVS_API cavs_status cavs_dist_options_init(cavs_dist_options *out_options);

typedef struct cavs_dist_trainer cavs_dist_trainer;

/// Initializes MPI when the application has not (MPI_THREAD_FUNNELED),
/// joins every rank of MPI_COMM_WORLD and makes the replicas equal: checks
/// that every rank runs the same model and optimizer kind and froze the
/// same parameters (cavs_param_store_set_frozen; the exchange is planned
/// without them, so freeze before creating the trainer), then broadcasts
/// rank 0's parameters and optimizer state (step count included) to the
/// others. Collective: every rank must call it. `model` and `optimizer`
/// (created for the model's parameters) must outlive the trainer;
/// `options` may be NULL for the defaults. Fails with
/// CAVS_ERROR_UNSUPPORTED without MPI, for a model with f32 inputs (the
/// trainer cannot shard set_input data) or when gpu_sums is NCCL and a
/// rank cannot sum on its GPU (naming it), CAVS_ERROR_INVALID_ARGUMENT for
/// mismatched replicas or bad options, CAVS_ERROR_IO when a rank does not
/// answer in time.
CAVS_API cavs_status cavs_dist_trainer_create(cavs_model *model,
                                              cavs_optimizer *optimizer,
                                              const cavs_dist_options *options,
                                              cavs_dist_trainer **out_trainer);

/// Destroys a trainer (MPI stays initialized; cavs_dist_finalize ends it);
/// NULL is ignored.
CAVS_API void cavs_dist_trainer_destroy(cavs_dist_trainer *trainer);

/// This process's rank and the number of ranks (-1 and 0 on NULL).
CAVS_API int32_t cavs_dist_trainer_rank(const cavs_dist_trainer *trainer);
CAVS_API int32_t cavs_dist_trainer_size(const cavs_dist_trainer *trainer);

/// One data-parallel training step over `global_batch`, which must be the
/// same batch (same samples, same order) on every rank: the steps above.
/// `*out_loss` (may be NULL) receives the sum of the losses over the whole
/// global batch, the same on every rank. Collective. A failure on any rank
/// (a bad label, a different global batch, a parameter frozen or unfrozen
/// since the trainer was created) makes the step fail on every rank,
/// naming the rank, before any parameter changes; a rank that does
/// not answer within the timeout makes it fail with CAVS_ERROR_IO.
CAVS_API cavs_status cavs_dist_trainer_step(cavs_dist_trainer *trainer,
                                            const cavs_graph_batch *global_batch,
                                            double *out_loss);

/// Sums `count` doubles over the ranks in place (metrics such as correct
/// predictions); every rank gets the same sums. Collective.
CAVS_API cavs_status cavs_dist_trainer_allreduce_sum(cavs_dist_trainer *trainer,
                                                     double *values,
                                                     int32_t count);

/// Gathers `bytes` bytes of `data` from every rank into `out_all`, rank
/// after rank (size * bytes); every rank must pass the same `bytes`. For
/// checks that the ranks agree, e.g. on fingerprints of their data.
/// Collective. Fails with CAVS_ERROR_INVALID_ARGUMENT for a negative
/// `bytes` or NULL buffers, CAVS_ERROR_IO when a rank does not answer in
/// time.
CAVS_API cavs_status cavs_dist_trainer_allgather(cavs_dist_trainer *trainer,
                                                 const void *data,
                                                 int32_t bytes, void *out_all);

/// Rank 0 writes the parameters and optimizer state to `path`
/// (cavs_checkpoint_save: the same atomic file as one process writes, so it
/// loads into any number of ranks); every rank returns rank 0's status.
/// Collective.
CAVS_API cavs_status cavs_dist_trainer_save(cavs_dist_trainer *trainer,
                                            const char *path);

/// cavs_dist_trainer_save with rank 0's `state` (may be NULL) as the
/// checkpoint's training state (cavs_checkpoint_save_with_state). Collective.
CAVS_API cavs_status cavs_dist_trainer_save_with_state(
    cavs_dist_trainer *trainer, const char *path,
    const cavs_train_state *state);

/// What the last step did.
typedef struct cavs_dist_stats {
  /// Samples and vertices of this rank's shard, vertices of the batch.
  int32_t local_samples;
  int32_t local_vertices;
  int32_t global_vertices;
  /// Dense gradient buckets and their bytes (per rank, as sent to
  /// MPI_Iallreduce or ncclAllReduce), and of those the bytes whose sum
  /// started while the backward pass still ran.
  int32_t dense_buckets;
  int64_t dense_bytes;
  int64_t early_bytes;
  /// 1 when the dense gradients were summed on the GPUs (NCCL).
  int32_t dense_on_gpus;
  /// Embedding gradients: rows summed and their bytes, tables sent dense,
  /// and the bytes of row ids gathered.
  int64_t sparse_rows;
  int64_t sparse_bytes;
  int32_t sparse_dense_tables;
  int64_t index_bytes;
  /// Seconds of forward + backward, of the exchange (waiting included) and
  /// of the optimizer step.
  double compute_seconds;
  double comm_seconds;
  double step_seconds;
} cavs_dist_stats;

/// How the trainer sums dense gradients: "MPI" or "NCCL" ("" on NULL).
CAVS_API const char *cavs_dist_trainer_dense_sums(
    const cavs_dist_trainer *trainer);

/// Statistics of the last successful step (zeros before any, or on NULL).
CAVS_API cavs_dist_stats cavs_dist_trainer_last_stats(
    const cavs_dist_trainer *trainer);

/// Ends every rank of the job with exit status `code` (MPI_Abort); when MPI
/// is not initialized (or absent) it just exits the process with `code`.
CAVS_API void cavs_dist_abort(int32_t code);

/// Finalizes MPI if the runtime initialized it (also done at exit; a no-op
/// otherwise). After a failed collective MPI_Finalize could wait for a dead
/// rank forever, so the job is aborted instead and the call does not
/// return. No trainer may be used afterwards.
CAVS_API void cavs_dist_finalize(void);

CAVS_EXTERN_C_END

#endif // CAVS_DIST_H
