//===- ShardApi.cpp - C ABI of the data-parallel work split ---------------===//
//
// Thin adapters from cavs/dist.h onto distributed/Shard.h; built with and
// without MPI, so applications can plan shards (and tests can check the split)
// anywhere.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/dist.h"
#include "distributed/Shard.h"
#include "support/Guard.h"

#include <algorithm>
#include <memory>

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_dist_shard_assign(const int32_t *sample_vertices,
                                   int32_t num_samples, int32_t num_ranks,
                                   int32_t *out_ranks) {
  return guard([&] {
    if (num_samples > 0)
      CAVS_RETURN_IF_ERROR(requireNonNull(out_ranks, "out_ranks"));
    std::vector<int32_t> ranks;
    CAVS_RETURN_IF_ERROR(
        assignSamples(sample_vertices, num_samples, num_ranks, ranks));
    std::copy(ranks.begin(), ranks.end(), out_ranks);
    return Status();
  });
}

cavs_status cavs_dist_shard_batch(const cavs_graph_batch *batch,
                                  int32_t num_ranks, int32_t rank,
                                  cavs_graph_batch **out_shard) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(batch, "batch"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_shard, "out_shard"));
    *out_shard = nullptr;
    std::vector<int32_t> samples;
    CAVS_RETURN_IF_ERROR(
        samplesOfRank(batch->impl, num_ranks, rank, samples));
    if (samples.empty())
      return Status();
    auto shard = std::make_unique<cavs_graph_batch>();
    CAVS_RETURN_IF_ERROR(extractSamples(batch->impl, samples, shard->impl));
    *out_shard = shard.release();
    return Status();
  });
}

} // extern "C"
