//===- dist.hpp - C++ wrapper of the data-parallel trainer ----------------===//
//
// RAII over cavs/dist.h, in the style of cavs/runtime.hpp: failures throw
// cavs::Error. A communication failure (a rank died or hangs) surfaces as a
// cavs::Error with status CAVS_ERROR_IO from step(), save(), allreduceSum()
// or allgather(); end the job then (cavs::dist::abort, or exit non-zero).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_DIST_HPP
#define CAVS_DIST_HPP

#include "cavs/runtime.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace cavs::dist {

/// Whether this runtime was built with MPI.
inline bool available() { return cavs_dist_available() != 0; }

/// The default options (timeout 30 s or $CAVS_DIST_TIMEOUT, 4 MiB buckets).
inline cavs_dist_options defaults() {
  cavs_dist_options options;
  check(cavs_dist_options_init(&options));
  return options;
}

/// The rank of every sample of sizes `sampleVertices`; see
/// cavs_dist_shard_assign.
inline std::vector<int32_t> assignSamples(Span<const int32_t> sampleVertices,
                                          int32_t numRanks) {
  std::vector<int32_t> ranks(sampleVertices.size());
  check(cavs_dist_shard_assign(sampleVertices.data(),
                               static_cast<int32_t>(sampleVertices.size()),
                               numRanks, ranks.data()));
  return ranks;
}

/// Whether shardOf found samples for the rank.
inline bool hasShard(const GraphBatch &shard) { return shard.get() != nullptr; }

/// The samples of `batch` given to `rank` (a GraphBatch holding NULL, see
/// hasShard, when it gets none).
inline GraphBatch shardOf(const GraphBatch &batch, int32_t numRanks,
                          int32_t rank) {
  cavs_graph_batch *shard = nullptr;
  check(cavs_dist_shard_batch(batch.get(), numRanks, rank, &shard));
  return GraphBatch(shard);
}

/// A data-parallel trainer over a Model and its Optimizer (both must
/// outlive it); see cavs_dist_trainer_create. Construction is collective.
class Trainer {
public:
  Trainer(Model &model, Optimizer &optimizer,
          const cavs_dist_options &options = defaults()) {
    cavs_dist_trainer *trainer = nullptr;
    check(cavs_dist_trainer_create(model.get(), optimizer.get(), &options,
                                   &trainer));
    handle_.reset(trainer);
  }

  int32_t rank() const { return cavs_dist_trainer_rank(get()); }
  int32_t size() const { return cavs_dist_trainer_size(get()); }
  /// Whether this is rank 0 (which writes checkpoints and should print).
  bool isRoot() const { return rank() == 0; }
  /// "MPI" or "NCCL": where the dense gradients are summed.
  const char *denseSums() const { return cavs_dist_trainer_dense_sums(get()); }

  /// One step over the global batch; returns its whole loss (every rank).
  double step(const GraphBatch &globalBatch) {
    double loss = 0;
    check(cavs_dist_trainer_step(get(), globalBatch.get(), &loss));
    return loss;
  }
  /// Sums `values` over the ranks in place.
  void allreduceSum(std::vector<double> &values) {
    check(cavs_dist_trainer_allreduce_sum(
        get(), values.data(), static_cast<int32_t>(values.size())));
  }
  /// Every rank's `values`, rank after rank; every rank passes as many.
  template <typename T>
  std::vector<T> allgather(const std::vector<T> &values) {
    static_assert(std::is_trivially_copyable_v<T>, "gathered as bytes");
    std::vector<T> all(values.size() * static_cast<size_t>(size()));
    check(cavs_dist_trainer_allgather(
        get(), values.data(), static_cast<int32_t>(values.size() * sizeof(T)),
        all.data()));
    return all;
  }
  /// Every rank's `text` (of any length), in rank order.
  std::vector<std::string> allgather(const std::string &text) {
    const std::vector<uint64_t> lengths =
        allgather(std::vector<uint64_t>{text.size()});
    // The same width on every rank: the longest text.
    const size_t width = *std::max_element(lengths.begin(), lengths.end());
    std::vector<char> padded(text.begin(), text.end());
    padded.resize(width);
    const std::vector<char> all = allgather(padded);
    std::vector<std::string> texts;
    for (size_t r = 0; r < lengths.size(); ++r)
      texts.emplace_back(all.data() + r * width, lengths[r]);
    return texts;
  }
  /// Rank 0 writes the checkpoint (with its training state `state`);
  /// throws on every rank if it failed.
  void save(const std::string &path, const TrainState *state = nullptr) {
    check(cavs_dist_trainer_save_with_state(get(), detail::cString(path),
                                            state ? state->get() : nullptr));
  }
  cavs_dist_stats lastStats() const {
    return cavs_dist_trainer_last_stats(get());
  }

  cavs_dist_trainer *get() const { return handle_.get(); }

private:
  detail::Owned<cavs_dist_trainer, cavs_dist_trainer_destroy> handle_;
};

/// Ends every rank of the job with `code`.
[[noreturn]] inline void abort(int32_t code) {
  cavs_dist_abort(code);
  throw Error(CAVS_ERROR_INTERNAL, "cavs_dist_abort returned");
}

} // namespace cavs::dist

#endif // CAVS_DIST_HPP
