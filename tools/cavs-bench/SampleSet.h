//===- SampleSet.h - samples kept apart for batching ------------*- C++ -*-===//
//
// A data set held as flat per-sample arrays (sample-local children, int32
// attributes) of graphs with one vertex type or a leaf and an inner type,
// so that any run of
// consecutive samples can be assembled into a graph batch with the runtime's
// builder, linear in its vertices. Benchmarks cut the set into batches of B
// samples in a fixed order.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_SAMPLESET_H
#define CAVS_BENCH_SAMPLESET_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cavs::bench {

class SampleSet {
public:
  /// How batches type their vertices.
  enum class Typing {
    /// One vertex type of arity `arity`.
    OneType,
    /// Vertices without children are type 0 (arity 0), the others type 1
    /// (arity `arity`), as CAVS_TREE_LEAF_TYPE.
    LeafType,
  };

  /// An empty set of graphs with up to `arity` children per vertex and the
  /// int32 attributes `attributes` on every vertex.
  SampleSet(int32_t arity, std::vector<std::string> attributes,
            Typing typing = Typing::OneType);

  /// Takes every sample of `batch` (at most `arity` child slots per vertex)
  /// with its attributes `attributes`.
  static SampleSet fromBatch(const cavs::GraphBatch &batch, int32_t arity,
                             std::vector<std::string> attributes,
                             Typing typing = Typing::OneType);

  /// Appends a sample: `arity` child slots per vertex (sample-local ids or
  /// CAVS_NO_CHILD), then per attribute one value per vertex.
  void add(const std::vector<int32_t> &children,
           const std::vector<std::vector<int32_t>> &attributes);

  int32_t size() const { return int32_t(offsets_.size()) - 1; }
  int64_t numVertices() const { return offsets_.back(); }

  /// The batch of samples [first, first + count). When `rootsOnly` names
  /// an attribute, it is -1 on every vertex that has a parent.
  cavs::GraphBatch batch(int32_t first, int32_t count,
                         const std::string &rootsOnly = "") const;

private:
  int32_t arity_;
  Typing typing_;
  std::vector<std::string> names_;
  std::vector<int32_t> offsets_{0}; // first vertex of each sample, + total
  std::vector<int32_t> children_;   // arity_ per vertex
  std::vector<std::vector<int32_t>> attributes_;
  std::vector<uint8_t> hasParent_; // per vertex
};

} // namespace cavs::bench

#endif // CAVS_BENCH_SAMPLESET_H
