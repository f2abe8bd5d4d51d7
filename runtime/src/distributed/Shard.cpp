//===- Shard.cpp - the vertex-balanced, deterministic work split ----------===//
//
// Greedy LPT scheduling of samples onto ranks, and the extraction of one
// rank's samples into a batch of its own (re-validated by the builder, which
// is linear and keeps the extraction simple).
//
//===----------------------------------------------------------------------===//
#include "distributed/Shard.h"

#include "cavs/graph.h"

#include <algorithm>
#include <numeric>

namespace cavs::runtime {

Status assignSamples(const int32_t *sampleVertices, int32_t numSamples,
                     int32_t numRanks, std::vector<int32_t> &rankOfSample) {
  if (numRanks < 1)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the number of ranks must be at least 1, got {}",
                     numRanks);
  if (numSamples < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the number of samples must not be negative, got {}",
                     numSamples);
  if (numSamples > 0 && !sampleVertices)
    return Status(CAVS_ERROR_INVALID_ARGUMENT,
                  "sample_vertices must not be NULL");
  for (int32_t s = 0; s < numSamples; ++s)
    if (sampleVertices[s] < 1)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "sample {} has {} vertices; every sample needs at "
                       "least 1",
                       s, sampleVertices[s]);

  // Largest first: the small samples placed last even out what the large
  // ones left, which bounds the imbalance by the smallest sizes.
  std::vector<int32_t> order(numSamples);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return sampleVertices[a] > sampleVertices[b];
  });
  // A linear scan for the least-loaded rank: rank counts are small, and a
  // scan makes the tie rule (lowest rank) obvious.
  std::vector<int64_t> load(numRanks, 0);
  rankOfSample.assign(numSamples, 0);
  for (int32_t s : order) {
    const int32_t rank = static_cast<int32_t>(
        std::min_element(load.begin(), load.end()) - load.begin());
    rankOfSample[s] = rank;
    load[rank] += sampleVertices[s];
  }
  return Status();
}

Status samplesOfRank(const GraphBatch &batch, int32_t numRanks, int32_t rank,
                     std::vector<int32_t> &samples) {
  if (rank < 0 || rank >= numRanks)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT, "rank {} is outside [0, {})",
                     rank, numRanks);
  std::vector<int32_t> sizes(batch.numSamples());
  for (int32_t s = 0; s < batch.numSamples(); ++s)
    sizes[s] = batch.sampleOffsets[s + 1] - batch.sampleOffsets[s];
  std::vector<int32_t> rankOfSample;
  CAVS_RETURN_IF_ERROR(
      assignSamples(sizes.data(), batch.numSamples(), numRanks, rankOfSample));
  samples.clear();
  for (int32_t s = 0; s < batch.numSamples(); ++s)
    if (rankOfSample[s] == rank)
      samples.push_back(s);
  return Status();
}

Status extractSamples(const GraphBatch &batch,
                      const std::vector<int32_t> &samples, GraphBatch &out) {
  GraphBuilder builder;
  CAVS_RETURN_IF_ERROR(GraphBuilder::create(batch.arities, builder));
  for (const Attribute &attribute : batch.attributes) {
    int32_t index = 0;
    CAVS_RETURN_IF_ERROR(builder.addAttribute(attribute.name, index));
  }
  // The builder takes dense child slots (max arity per vertex, sample-local
  // indices); the batch stores CSR slots with global ids.
  const int32_t maxArity = batch.maxArity;
  std::vector<int32_t> children;
  std::vector<const int32_t *> attributes(batch.attributes.size());
  for (int32_t s : samples) {
    if (s < 0 || s >= batch.numSamples())
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "sample {} is outside the batch's {} samples", s,
                       batch.numSamples());
    const int32_t first = batch.sampleOffsets[s];
    const int32_t count = batch.sampleOffsets[s + 1] - first;
    children.assign(static_cast<size_t>(count) * maxArity, CAVS_NO_CHILD);
    for (int32_t v = 0; v < count; ++v) {
      const int32_t begin = batch.childOffsets[first + v];
      const int32_t end = batch.childOffsets[first + v + 1];
      for (int32_t k = 0; k < end - begin; ++k) {
        const int32_t child = batch.children[begin + k];
        children[static_cast<size_t>(v) * maxArity + k] =
            child == CAVS_NO_CHILD ? CAVS_NO_CHILD : child - first;
      }
    }
    for (size_t a = 0; a < attributes.size(); ++a)
      attributes[a] = batch.attributes[a].values.data() + first;
    CAVS_RETURN_IF_ERROR(builder.addSample(
        count, batch.types.data() + first, maxArity ? children.data() : nullptr,
        attributes.empty() ? nullptr : attributes.data()));
  }
  return builder.finalize(out);
}

} // namespace cavs::runtime
