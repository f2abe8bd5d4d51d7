//===- SampleSet.h - samples kept apart for batching ------------*- C++ -*-===//
//
// A data set held as flat per-sample arrays (vertex types, sample-local
// children, int32 attributes), so that any run of consecutive samples can
// be assembled into a graph batch with the runtime's builder, linear in its
// vertices. Benchmarks cut the set into batches of B samples in a fixed
// order.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_SAMPLESET_H
#define CAVS_BENCH_SAMPLESET_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cavs::bench {

class SampleSet {
public:
  /// An empty set of graphs whose vertex type t has `arities[t]` child
  /// slots, with the int32 attributes `attributes` on every vertex.
  SampleSet(std::vector<int32_t> arities, std::vector<std::string> attributes);

  /// Maps a loaded vertex (global id in the batch, its type there) to its
  /// type in the set.
  using Retype = std::function<int32_t(int32_t vertex, int32_t type)>;

  /// Takes every sample of `batch` with its attributes `attributes`; types
  /// and arities are the batch's unless `arities` and `retype` say
  /// otherwise.
  static SampleSet fromBatch(const cavs::GraphBatch &batch,
                             std::vector<std::string> attributes,
                             std::vector<int32_t> arities = {},
                             const Retype &retype = {});

  /// Appends a sample: a type per vertex, max-arity child slots per vertex
  /// (sample-local ids or CAVS_NO_CHILD), then per attribute one value per
  /// vertex.
  void add(const std::vector<int32_t> &types,
           const std::vector<int32_t> &children,
           const std::vector<std::vector<int32_t>> &attributes);

  int32_t size() const { return int32_t(offsets_.size()) - 1; }
  int64_t numVertices() const { return offsets_.back(); }

  /// The batch of samples [first, first + count). When `rootsOnly` names
  /// an attribute, it is -1 on every vertex that has a parent.
  cavs::GraphBatch batch(int32_t first, int32_t count,
                         const std::string &rootsOnly = "") const;

private:
  std::vector<int32_t> arities_;
  size_t maxArity_;
  std::vector<std::string> names_;
  std::vector<int32_t> offsets_{0}; // first vertex of each sample, + total
  std::vector<int32_t> types_;      // per vertex
  std::vector<int32_t> children_;   // maxArity_ per vertex
  std::vector<std::vector<int32_t>> attributes_;
  std::vector<uint8_t> hasParent_; // per vertex
};

} // namespace cavs::bench

#endif // CAVS_BENCH_SAMPLESET_H
