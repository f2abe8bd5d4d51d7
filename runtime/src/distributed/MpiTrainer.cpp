//===- MpiTrainer.cpp - one data-parallel training step over MPI ----------===//
//
// A step: this rank's shard (distributed/Shard.h), forward and backward through
// the model instance, whose gradient listener (this trainer) starts the sum
// of each dense bucket as soon as the backward pass has finished it
// (distributed/GradSync.h), on the host over MPI or on the GPUs with NCCL; one
// all-gather in which the ranks agree that they saw the same global batch
// and that nobody failed (so a bad label on one rank fails the step
// everywhere, before any update, instead of leaving the others waiting);
// the embedding tables' sum; the optimizer step every rank applies
// identically.
//
//===----------------------------------------------------------------------===//
#include "cavs/checkpoint.h"
#include "distributed/GradSync.h"
#include "distributed/MpiComm.h"
#include "distributed/Replica.h"
#include "distributed/Shard.h"
#include "distributed/Trainer.h"
#include "exec/Instance.h"
#include "exec/Stopwatch.h"

#include <cstdlib>
#include <vector>

namespace cavs::runtime {

namespace {

/// A failed C ABI call as a Status, with the call's message.
Status fromC(cavs_status code) {
  if (code == CAVS_OK)
    return Status();
  return Status(code, cavs_last_error_message());
}

/// FNV-1a over the batch's structure and attributes: equal on every rank
/// exactly when they loaded the same global batch (up to hash collisions).
uint64_t fingerprint(const GraphBatch &batch) {
  uint64_t hash = 1469598103934665603ull;
  auto mix = [&](const std::vector<int32_t> &values) {
    for (int32_t value : values) {
      hash ^= static_cast<uint32_t>(value);
      hash *= 1099511628211ull;
    }
  };
  mix(batch.sampleOffsets);
  mix(batch.types);
  mix(batch.children);
  for (const Attribute &attribute : batch.attributes)
    mix(attribute.values);
  return hash;
}

/// What each rank tells the others after its backward pass.
struct Report {
  uint64_t fingerprint;
  double loss;
  int32_t status;
  int32_t vertices;
};

/// What every rank says about summing on its GPU.
struct DeviceSumsOffer {
  int32_t able;
  int32_t idBytes;
  /// Rank 0's group id (NCCL's is 128 bytes).
  char id[256];
};

class MpiTrainer final : public Trainer, private GradientListener {
public:
  MpiTrainer(cavs_model *model, cavs_optimizer *optimizer)
      : model_(model), optimizer_(optimizer) {}

  Status init(const cavs_dist_options &options) {
    CAVS_RETURN_IF_ERROR(Communicator::create(options.timeout_seconds, comm_));
    ModelInstance &instance = model_->impl;
    GradStore &grads = cavs_model_grads(model_)->impl;
    ParamStore &params = cavs_model_params(model_)->impl;
    frozen_ = params.frozenMask();
    sync_ =
        std::make_unique<GradSync>(grads, frozen_, instance.definition().train,
                                   options.bucket_bytes, options.sparse_mode);
    int32_t tables = 0;
    for (int32_t p = 0; p < grads.layout().numParams(); ++p)
      tables += grads.tracksRows(p) ? 1 : 0;
    CAVS_RETURN_IF_ERROR(
        checkSameReplica(*comm_, params, optimizer_->impl, tables));
    CAVS_RETURN_IF_ERROR(broadcastReplica(*comm_, params, optimizer_->impl));
    CAVS_RETURN_IF_ERROR(joinDeviceSums(options));
    if (deviceSums_)
      postSum_ = [this](float *data, int64_t count) {
        return deviceSums_->postAllreduceSum(data, count);
      };
    else
      postSum_ = [this](float *data, int64_t count) {
        return comm_->postAllreduceSum(data, count);
      };
    // On a GPU without device sums the gradients reach the store only at
    // the end of the pass: nothing to listen to.
    listens_ = !instance.device() || deviceSums_;
    return Status();
  }

  int32_t rank() const override { return comm_->rank(); }
  int32_t size() const override { return comm_->size(); }
  const cavs_dist_stats &stats() const override { return stats_; }
  const char *denseSums() const override {
    return deviceSums_ ? "NCCL" : "MPI";
  }

  Status step(const GraphBatch &globalBatch, double &loss) override {
    Stopwatch total;
    cavs_dist_stats stats{};
    stats.global_vertices = globalBatch.numVertices();
    Stopwatch compute;
    sync_->beginStep();
    passGrads_ = nullptr;
    Report mine{fingerprint(globalBatch), 0.0, CAVS_OK, 0};
    // Only this step's pass posts sums: a backward pass the application
    // runs between steps must not.
    if (listens_)
      model_->impl.setGradientListener(this, /*keepDenseOnDevice=*/true);
    Status local = checkFrozenUnchanged();
    if (local.ok())
      local = computeShard(globalBatch, mine, stats);
    model_->impl.setGradientListener(nullptr, false);
    // Every rank posts every bucket, also when its pass failed or did not
    // run: the collectives must match across the ranks.
    GradStore &grads = cavs_model_grads(model_)->impl;
    float *rest = passGrads_    ? passGrads_
                  : deviceSums_ ? model_->impl.gradientsWithoutPass()
                                : grads.data();
    Status posted = sync_->postRest(rest, postSum_);
    if (local.ok())
      local = std::move(posted);
    mine.status = local.code();
    stats.compute_seconds = compute.seconds();

    Stopwatch comm;
    CAVS_RETURN_IF_ERROR(agree(mine, std::move(local), loss));
    if (deviceSums_) {
      CAVS_RETURN_IF_ERROR(
          deviceSums_->wait("summing the dense gradients on the GPUs"));
      CAVS_RETURN_IF_ERROR(model_->impl.addDenseDeviceGradients());
    }
    CAVS_RETURN_IF_ERROR(sync_->sumTables(*comm_, grads));
    stats.comm_seconds = comm.seconds();
    CAVS_RETURN_IF_ERROR(fromC(cavs_model_step(model_, optimizer_)));

    const GradSyncStats &sent = sync_->stats();
    stats.dense_buckets = sent.denseBuckets;
    stats.dense_bytes = sent.denseBytes;
    stats.early_bytes = sent.earlyBytes;
    stats.dense_on_gpus = deviceSums_ ? 1 : 0;
    stats.sparse_rows = sent.sparseRows;
    stats.sparse_bytes = sent.sparseBytes;
    stats.sparse_dense_tables = sent.sparseDenseTables;
    stats.index_bytes = sent.indexBytes;
    stats.step_seconds = total.seconds();
    stats_ = stats;
    return Status();
  }

  Status allreduceSum(double *values, int32_t count) override {
    CAVS_RETURN_IF_ERROR(comm_->postAllreduceSum(values, count));
    return comm_->wait("summing metrics");
  }

  Status allgather(const void *data, int32_t bytes, void *out) override {
    CAVS_RETURN_IF_ERROR(comm_->postAllgather(data, bytes, out));
    return comm_->wait("gathering the ranks' data");
  }

  Status save(const char *path, const cavs_train_state *state) override {
    Status saved;
    if (rank() == 0)
      saved = fromC(cavs_checkpoint_save_with_state(
          path, cavs_model_params(model_), optimizer_, state));
    int32_t code = saved.code();
    CAVS_RETURN_IF_ERROR(comm_->postBroadcast(&code, sizeof(code), 0));
    CAVS_RETURN_IF_ERROR(comm_->wait("sharing the checkpoint's status"));
    if (rank() == 0 || code == CAVS_OK)
      return saved;
    return makeError(static_cast<cavs_status>(code),
                     "distributed training: rank 0 could not write the "
                     "checkpoint '{}' ({}; see rank 0's message)",
                     path, cavs_status_string(static_cast<cavs_status>(code)));
  }

private:
  Status phaseDone(cavs_phase phase, int32_t function, float *grads) override {
    passGrads_ = grads;
    CAVS_RETURN_IF_ERROR(sync_->postFinal(phase, function, grads, postSum_));
    // Moves the buckets posted so far along while the pass goes on.
    return comm_->progress();
  }

  /// Decides with the other ranks whether the dense gradients are summed
  /// on the GPUs, and joins the NCCL group if so.
  Status joinDeviceSums(const cavs_dist_options &options) {
    DeviceBackend *device = model_->impl.device();
    const bool wanted = options.gpu_sums != CAVS_DIST_GPU_SUMS_MPI;
    DeviceSumsOffer mine{};
    std::string id;
    Status local;
    if (!wanted)
      local = Status(CAVS_ERROR_UNSUPPORTED, "gpu_sums is MPI");
    else if (!device)
      local = makeError(CAVS_ERROR_UNSUPPORTED,
                        "rank {}'s model runs on the CPU", rank());
    else
      local = device->collectiveGroupId(rank() == 0 ? &id : nullptr);
    if (local.ok() && id.size() > sizeof(mine.id))
      local =
          makeError(CAVS_ERROR_INTERNAL, "a group id of {} bytes", id.size());
    mine.able = local.ok() ? 1 : 0;
    mine.idBytes = static_cast<int32_t>(local.ok() ? id.size() : 0);
    std::copy(id.begin(), id.begin() + mine.idBytes, mine.id);
    std::vector<DeviceSumsOffer> all(size());
    CAVS_RETURN_IF_ERROR(comm_->postAllgather(&mine, sizeof(mine), all.data()));
    CAVS_RETURN_IF_ERROR(comm_->wait("choosing where to sum gradients"));
    for (int r = 0; r < size(); ++r) {
      if (all[r].able)
        continue;
      if (options.gpu_sums != CAVS_DIST_GPU_SUMS_NCCL)
        return Status(); // AUTO or MPI: every rank sums over MPI
      if (r == rank())
        return std::move(local).withPrefix(
            "distributed training: gpu_sums is NCCL, but this rank cannot "
            "sum on its GPU: ");
      return makeError(CAVS_ERROR_UNSUPPORTED,
                       "distributed training: gpu_sums is NCCL, but rank {} "
                       "cannot sum on its GPU (see its message)",
                       r);
    }
    const DeviceSumsOffer &root = all[0];
    Status joined = device->joinCollectiveGroup(
        std::string(root.id, root.id + root.idBytes), rank(), size(),
        comm_->timeoutSeconds(), deviceSums_);
    // Every rank must know that every other joined before relying on it.
    double failed = joined.ok() ? 0 : 1;
    CAVS_RETURN_IF_ERROR(comm_->postAllreduceSum(&failed, 1));
    CAVS_RETURN_IF_ERROR(comm_->wait("joining the NCCL group"));
    if (!joined.ok())
      return joined;
    if (failed) {
      deviceSums_.reset();
      return Status(CAVS_ERROR_IO, "distributed training: another rank "
                                   "could not join the NCCL group (see its "
                                   "message)");
    }
    return Status();
  }

  /// The exchange was planned for the parameters frozen when the trainer
  /// was created: a parameter unfrozen since would be updated from this
  /// rank's gradient alone, and the replicas would drift apart.
  Status checkFrozenUnchanged() const {
    const ParamStore &params = cavs_model_params(model_)->impl;
    for (int32_t p = 0; p < params.layout().numParams(); ++p)
      if (params.frozen(p) != (frozen_[p] != 0))
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "distributed training: parameter '{}' was {} after "
                         "the trainer was created; freeze parameters before "
                         "creating it",
                         params.layout().param(p).name,
                         frozen_[p] ? "unfrozen" : "frozen");
    return Status();
  }

  /// Forward and backward over this rank's samples; a rank without
  /// samples contributes zero gradients and loss.
  Status computeShard(const GraphBatch &globalBatch, Report &mine,
                      cavs_dist_stats &stats) {
    std::vector<int32_t> samples;
    CAVS_RETURN_IF_ERROR(samplesOfRank(globalBatch, size(), rank(), samples));
    stats.local_samples = static_cast<int32_t>(samples.size());
    if (samples.empty())
      return Status();
    // Kept as a member: the instance reads the batch until backward ends.
    shard_ = std::make_unique<cavs_graph_batch>();
    CAVS_RETURN_IF_ERROR(extractSamples(globalBatch, samples, shard_->impl));
    stats.local_vertices = shard_->impl.numVertices();
    mine.vertices = stats.local_vertices;
    CAVS_RETURN_IF_ERROR(fromC(
        cavs_model_forward(model_, shard_.get(), CAVS_MODE_TRAIN, &mine.loss)));
    return fromC(cavs_model_backward(model_));
  }

  /// Exchanges the reports; fails on every rank when any rank failed or saw
  /// another global batch, else sums the losses in rank order (the same
  /// double on every rank).
  Status agree(const Report &mine, Status local, double &loss) {
    std::vector<Report> all(size());
    CAVS_RETURN_IF_ERROR(
        comm_->postAllgather(&mine, sizeof(Report), all.data()));
    CAVS_RETURN_IF_ERROR(comm_->wait("exchanging the step's losses"));
    Status failure;
    for (int r = 0; r < size() && failure.ok(); ++r) {
      if (all[r].status != CAVS_OK)
        failure = r == rank()
                      ? std::move(local)
                      : makeError(static_cast<cavs_status>(all[r].status),
                                  "distributed training: rank {} failed this "
                                  "step ({}; see its message); no parameter "
                                  "changed",
                                  r,
                                  cavs_status_string(
                                      static_cast<cavs_status>(all[r].status)));
      else if (all[r].fingerprint != all[0].fingerprint)
        failure = makeError(CAVS_ERROR_INVALID_ARGUMENT,
                            "distributed training: rank {} stepped over "
                            "another global batch than rank 0; every rank "
                            "must pass the same samples in the same order",
                            r);
    }
    if (!failure.ok()) {
      // The sums in flight finish before their buffers are reused, and the
      // partial gradients of this step must not leak into the next.
      if (deviceSums_)
        (void)deviceSums_->wait("summing the gradients of a failed step");
      cavs_grad_store_zero(cavs_model_grads(model_));
      return failure;
    }
    loss = 0;
    for (const Report &report : all)
      loss += report.loss;
    return Status();
  }

  cavs_model *model_;
  cavs_optimizer *optimizer_;
  std::unique_ptr<Communicator> comm_;
  std::unique_ptr<GradSync> sync_;
  /// The frozen parameters the exchange was planned for.
  std::vector<uint8_t> frozen_;
  /// The NCCL group when the dense gradients are summed on the GPUs.
  std::unique_ptr<DeviceCollectives> deviceSums_;
  /// Where the dense buckets go: NCCL on the GPUs or MPI on the host.
  GradSync::PostSum postSum_;
  /// Whether the trainer listens to its passes (not on GPU ranks that sum
  /// on the host).
  bool listens_ = false;
  /// The buffer this step's pass writes its gradients to, once known.
  float *passGrads_ = nullptr;
  std::unique_ptr<cavs_graph_batch> shard_;
  cavs_dist_stats stats_{};
};

} // namespace

bool trainerAvailable() { return true; }

Status createTrainer(cavs_model *model, cavs_optimizer *optimizer,
                     const cavs_dist_options &options,
                     std::unique_ptr<Trainer> &out) {
  auto trainer = std::make_unique<MpiTrainer>(model, optimizer);
  CAVS_RETURN_IF_ERROR(trainer->init(options));
  out = std::move(trainer);
  return Status();
}

void abortJob(int32_t code) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

void finalizeJob() { finalizeMpi(); }

} // namespace cavs::runtime
