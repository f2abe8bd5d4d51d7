//===- Shard.h - splitting a global batch across data-parallel ranks ------===//
//
// The work split of data-parallel training: every rank holds the same global
// batch and computes, without communication, which samples are its own, so
// the split costs no network round trip and is reproducible. Work is counted
// in vertices (what forward and backward cost), not samples: SST trees vary
// from 1 to over 100 vertices, so equal sample counts can leave one rank with
// twice the work of another.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_DISTRIBUTED_SHARD_H
#define CAVS_RUNTIME_DISTRIBUTED_SHARD_H

#include "graph/GraphBatch.h"
#include "support/Status.h"

#include <cstdint>
#include <vector>

namespace cavs::runtime {

/// Assigns each sample (sampleVertices[s] >= 1 vertices) to a rank in
/// [0, numRanks): greedy longest-processing-time — samples by decreasing
/// size (ties by index), each to the least-loaded rank (ties to the lowest
/// rank) — deterministic for given sizes. Fails for a non-positive size or
/// rank count.
Status assignSamples(const int32_t *sampleVertices, int32_t numSamples,
                     int32_t numRanks, std::vector<int32_t> &rankOfSample);

/// The samples `samples` (increasing indices) of `batch` as a new batch with
/// the same types and attributes.
Status extractSamples(const GraphBatch &batch,
                      const std::vector<int32_t> &samples, GraphBatch &out);

/// The samples of `batch` that assignSamples gives to `rank`, in increasing
/// index; empty when there are fewer samples than ranks.
Status samplesOfRank(const GraphBatch &batch, int32_t numRanks, int32_t rank,
                     std::vector<int32_t> &samples);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_DISTRIBUTED_SHARD_H
