//===- GraphBatch.cpp - the CSR graph batch and its builder ---------------===//
//
// Appending a sample is linear in its size and amortised allocation-free: the
// batch's arrays grow geometrically and the validator reuses its scratch.
// Child indices are converted from sample-local to global ids on append;
// finalize derives the per-vertex sample, parent counts and roots in one pass.
//
//===----------------------------------------------------------------------===//
#include "graph/GraphBatch.h"

#include "cavs/graph.h"
#include "support/Excerpt.h"

#include <algorithm>
#include <limits>

namespace cavs::runtime {

namespace {
constexpr int64_t kMaxSize = std::numeric_limits<int32_t>::max();

// An empty batch with the given types and the names of `attributes`.
GraphBatch emptyBatch(std::vector<int32_t> arities,
                      const std::vector<Attribute> &attributes) {
  GraphBatch batch;
  batch.maxArity = *std::max_element(arities.begin(), arities.end());
  batch.arities = std::move(arities);
  batch.childOffsets = {0};
  batch.sampleOffsets = {0};
  for (const Attribute &attribute : attributes)
    batch.attributes.push_back({attribute.name, {}});
  return batch;
}
} // namespace

int32_t GraphBatch::findAttribute(std::string_view name) const {
  for (size_t a = 0; a < attributes.size(); ++a)
    if (attributes[a].name == name)
      return static_cast<int32_t>(a);
  return -1;
}

Status GraphBuilder::create(std::vector<int32_t> arities, GraphBuilder &out) {
  if (arities.empty())
    return Status(CAVS_ERROR_INVALID_ARGUMENT,
                  "a graph needs at least one vertex type");
  for (size_t t = 0; t < arities.size(); ++t)
    if (arities[t] < 0 || arities[t] > CAVS_MAX_ARITY)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "type {} has arity {}, outside [0, {}]", t, arities[t],
                       CAVS_MAX_ARITY);
  out = GraphBuilder();
  out.batch_ = emptyBatch(std::move(arities), {});
  return Status();
}

Status GraphBuilder::addAttribute(std::string name, int32_t &index) {
  if (numSamples() > 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "attribute '{}' declared after the first sample",
                     excerpt(name));
  if (name.empty())
    return Status(CAVS_ERROR_INVALID_ARGUMENT,
                  "attribute names must not be empty");
  if (batch_.findAttribute(name) >= 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "attribute '{}' is declared twice", excerpt(name));
  index = static_cast<int32_t>(batch_.attributes.size());
  batch_.attributes.push_back({std::move(name), {}});
  return Status();
}

Status GraphBuilder::reserve(int64_t numVertices, int64_t numSamples) {
  if (numVertices < 0 || numSamples < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "cannot reserve {} vertices in {} samples", numVertices,
                     numSamples);
  if (numVertices > kMaxSize - batch_.numVertices() ||
      numSamples > kMaxSize - batch_.numSamples())
    return makeError(CAVS_ERROR_INVALID_GRAPH,
                     "cannot reserve {} more vertices in {} more samples: the "
                     "batch would have more than the int32 limit {}",
                     numVertices, numSamples, kMaxSize);
  const int64_t vertices = batch_.numVertices() + numVertices;
  batch_.types.reserve(vertices);
  batch_.childOffsets.reserve(vertices + 1);
  batch_.children.reserve(
      std::min(kMaxSize, vertices * int64_t(batch_.maxArity)));
  batch_.sampleOffsets.reserve(
      std::min(kMaxSize, batch_.numSamples() + numSamples) + 1);
  for (Attribute &attribute : batch_.attributes)
    attribute.values.reserve(vertices);
  return Status();
}

Status GraphBuilder::checkSampleSize(int32_t numVertices) const {
  return checkSampleSize(numSamples(), numVertices, batch_.numVertices());
}

Status GraphBuilder::checkSampleSize(int32_t index, int32_t numVertices,
                                     int64_t verticesBefore) {
  if (numVertices < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "sample {}: negative vertex count {}", index, numVertices);
  if (numVertices == 0)
    return makeError(CAVS_ERROR_INVALID_GRAPH, "sample {} has no vertices",
                     index);
  const int64_t total = verticesBefore + numVertices;
  if (total > kMaxSize)
    return makeError(CAVS_ERROR_INVALID_GRAPH,
                     "sample {}: the batch would have {} vertices, more than "
                     "the int32 limit {}",
                     index, total, kMaxSize);
  return Status();
}

Status GraphBuilder::addSample(int32_t numVertices, const int32_t *types,
                               const int32_t *children,
                               const int32_t *const *attributes) {
  // Size checks come before any array is read, so a bogus count is reported
  // instead of causing an out-of-bounds read.
  CAVS_RETURN_IF_ERROR(checkSampleSize(numVertices));
  const int32_t index = numSamples();
  if (!types)
    return Status(CAVS_ERROR_INVALID_ARGUMENT, "types must not be NULL");
  if (!children && batch_.maxArity > 0)
    return Status(CAVS_ERROR_INVALID_ARGUMENT,
                  "children must not be NULL when a type has children");
  if (!batch_.attributes.empty()) {
    if (!attributes)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "the graph has {} attributes but no values were given",
                       batch_.attributes.size());
    for (size_t a = 0; a < batch_.attributes.size(); ++a)
      if (!attributes[a])
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "values of attribute '{}' must not be NULL",
                         excerpt(batch_.attributes[a].name));
  }

  const SampleView sample{index, numVertices, types, children, batch_.maxArity};
  int64_t childSlots = 0;
  CAVS_RETURN_IF_ERROR(
      validator_.checkTypes(sample, batch_.arities, childSlots));
  const int64_t totalSlots = int64_t(batch_.children.size()) + childSlots;
  if (totalSlots > kMaxSize)
    return makeError(CAVS_ERROR_INVALID_GRAPH,
                     "sample {}: the batch would have {} child slots, more "
                     "than the int32 limit {}",
                     index, totalSlots, kMaxSize);
  CAVS_RETURN_IF_ERROR(validator_.checkChildren(sample, batch_.arities));

  // Valid: append, turning sample-local child indices into global ids.
  const int32_t base = batch_.numVertices();
  batch_.types.insert(batch_.types.end(), types, types + numVertices);
  int32_t slot = static_cast<int32_t>(batch_.children.size());
  batch_.children.resize(size_t(totalSlots));
  batch_.childOffsets.resize(batch_.childOffsets.size() + numVertices);
  int32_t *globalChildren = batch_.children.data();
  int32_t *offsets = batch_.childOffsets.data() + base + 1;
  for (int32_t v = 0; v < numVertices; ++v) {
    const int32_t *slots = children + int64_t(v) * batch_.maxArity;
    for (int32_t k = 0, arity = batch_.arities[types[v]]; k < arity; ++k)
      globalChildren[slot++] = slots[k] == -1 ? -1 : base + slots[k];
    offsets[v] = slot;
  }
  for (size_t a = 0; a < batch_.attributes.size(); ++a)
    batch_.attributes[a].values.insert(batch_.attributes[a].values.end(),
                                       attributes[a],
                                       attributes[a] + numVertices);
  batch_.sampleOffsets.push_back(base + numVertices);
  return Status();
}

Status GraphBuilder::finalize(GraphBatch &out) {
  if (numSamples() == 0)
    return Status(CAVS_ERROR_INVALID_GRAPH, "the batch has no samples");
  const int32_t n = batch_.numVertices();

  batch_.vertexSamples.resize(n);
  for (int32_t s = 0; s < numSamples(); ++s)
    std::fill(batch_.vertexSamples.begin() + batch_.sampleOffsets[s],
              batch_.vertexSamples.begin() + batch_.sampleOffsets[s + 1], s);

  batch_.parentCounts.assign(n, 0);
  for (int32_t child : batch_.children)
    if (child != -1)
      ++batch_.parentCounts[child];
  batch_.roots.clear();
  for (int32_t v = 0; v < n; ++v)
    if (batch_.parentCounts[v] == 0)
      batch_.roots.push_back(v);

  // Hand the arrays over and start the next batch with the same types and
  // attribute names.
  GraphBatch next = emptyBatch(batch_.arities, batch_.attributes);
  out = std::move(batch_);
  batch_ = std::move(next);
  return Status();
}

} // namespace cavs::runtime
