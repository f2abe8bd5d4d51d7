//===- GraphBatch.h - the CSR graph batch and its builder -----------------===//
//
// GraphBatch is the immutable, validated batch behind cavs_graph_batch: plain
// arrays indexed by global vertex id, so the scheduler and executor read it
// without indirection. GraphBuilder appends samples, validating each one
// before touching its own arrays, so that a rejected sample leaves it
// unchanged and loaders can keep one builder per file.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_GRAPH_GRAPHBATCH_H
#define CAVS_RUNTIME_GRAPH_GRAPHBATCH_H

#include "graph/Validate.h"
#include "support/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cavs::runtime {

/// A named per-vertex int32 attribute.
struct Attribute {
  std::string name;
  std::vector<int32_t> values;
};

/// A validated batch of input graphs; see cavs/graph.h for the meaning of
/// each array.
struct GraphBatch {
  std::vector<int32_t> arities;
  int32_t maxArity = 0;
  std::vector<int32_t> types;
  std::vector<int32_t> childOffsets;
  std::vector<int32_t> children;
  std::vector<int32_t> sampleOffsets;
  std::vector<int32_t> vertexSamples;
  std::vector<int32_t> parentCounts;
  std::vector<int32_t> roots;
  std::vector<Attribute> attributes;

  int32_t numVertices() const { return static_cast<int32_t>(types.size()); }
  int32_t numSamples() const {
    return static_cast<int32_t>(sampleOffsets.size()) - 1;
  }
  int32_t numTypes() const { return static_cast<int32_t>(arities.size()); }
  /// Index of the attribute called `name`, or -1.
  int32_t findAttribute(std::string_view name) const;
};

/// Accumulates validated samples into a GraphBatch.
class GraphBuilder {
public:
  /// Checks the arities (at least one type, none negative).
  static Status create(std::vector<int32_t> arities, GraphBuilder &out);

  int32_t maxArity() const { return batch_.maxArity; }
  int32_t numTypes() const { return batch_.numTypes(); }
  int32_t numSamples() const { return batch_.numSamples(); }
  int32_t numVertices() const { return batch_.numVertices(); }
  int32_t numAttributes() const {
    return static_cast<int32_t>(batch_.attributes.size());
  }
  /// Arity of `type`, which must be in range.
  int32_t arity(int32_t type) const { return batch_.arities[type]; }

  /// Declares an attribute; only before the first sample.
  Status addAttribute(std::string name, int32_t &index);
  /// Reserves room for more vertices and samples.
  Status reserve(int64_t numVertices, int64_t numSamples);
  /// Checks that a next sample of `numVertices` vertices is non-empty and
  /// fits int32 sizes; addSample does it first, loaders before they allocate
  /// the sample.
  Status checkSampleSize(int32_t numVertices) const;
  /// The same check for sample `index` after `verticesBefore` vertices,
  /// for loaders that check every sample before they build any.
  static Status checkSampleSize(int32_t index, int32_t numVertices,
                                int64_t verticesBefore);
  /// Validates and appends one sample (layout as in
  /// cavs_graph_builder_add_sample). `attributes` holds one array per
  /// declared attribute.
  Status addSample(int32_t numVertices, const int32_t *types,
                   const int32_t *children, const int32_t *const *attributes);
  /// Completes the batch into `out` and empties the builder.
  Status finalize(GraphBatch &out);

private:
  GraphBatch batch_;
  // Reused between samples so that validation allocates nothing per sample
  // once the largest sample has been seen.
  SampleValidator validator_;
};

} // namespace cavs::runtime

/// The opaque C handles: these objects, which the C ABI (api/) unwraps.
struct cavs_graph_builder {
  cavs::runtime::GraphBuilder impl;
};
struct cavs_graph_batch {
  cavs::runtime::GraphBatch impl;
};

#endif // CAVS_RUNTIME_GRAPH_GRAPHBATCH_H
