//===- SampleSet.h - graphs kept per sample for minibatching ----*- C++ -*-===//
//
// Loaders and generators produce whole data sets, but training regroups the
// samples into shuffled minibatches every epoch. A SampleSet keeps a data
// set as flat per-sample arrays (vertex types, sample-local children in
// max-arity slots, int32 attributes) and assembles any selection of samples
// into a new batch with the runtime's graph builder, linear in the vertices
// of the selection. Types follow the model: type t runs the t-th vertex
// function of the .cavs file.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_SAMPLESET_H
#define CAVS_EXAMPLES_SAMPLESET_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cavs_examples {

class SampleSet {
public:
  using Ints = cavs::Span<const int32_t>;

  /// An empty set of graphs whose vertex types have the given arities, with
  /// the int32 attributes `attributes` on every vertex.
  SampleSet(std::vector<int32_t> arities, std::vector<std::string> attributes);

  /// Every sample of `batch` with its types, children and the attributes
  /// `attributes`.
  static SampleSet fromBatch(const cavs::GraphBatch &batch,
                             std::vector<std::string> attributes);

  /// Appends a sample: one type per vertex, max-arity child slots per vertex
  /// (sample-local ids or CAVS_NO_CHILD), one array per attribute. Checked
  /// by the builder when batched.
  void add(Ints types, Ints children, const std::vector<Ints> &attributes);

  int32_t size() const { return int32_t(offsets_.size()) - 1; }
  int64_t numVertices() const { return offsets_.back(); }
  int32_t numVertices(int32_t sample) const {
    return offsets_[size_t(sample) + 1] - offsets_[size_t(sample)];
  }
  /// Keeps only the first `count` samples.
  void truncate(int32_t count);

  /// Gives every vertex a new type, `typeOf(sample, vertex, oldType)`, of a
  /// new list of arities (no wider than the old ones).
  void retype(std::vector<int32_t> arities,
              const std::function<int32_t(int32_t, int32_t, int32_t)> &typeOf);
  /// Sets attribute `name` to -1 on every vertex that has a parent, e.g. to
  /// train a loss at the roots only.
  void maskNonRoots(const std::string &name);
  /// Vertices whose attribute `name` is >= 0 (loss targets).
  int64_t countNonNegative(const std::string &name) const;
  /// Values of attribute `name`, vertex after vertex.
  const std::vector<int32_t> &attribute(const std::string &name) const {
    return attributes_[attributeIndex(name)];
  }

  /// A batch of the samples `ids`, in that order (sample s is ids[s]).
  cavs::GraphBatch batch(const int32_t *ids, int32_t count) const;

private:
  size_t attributeIndex(const std::string &name) const;

  std::vector<int32_t> arities_;
  size_t maxArity_ = 0;
  std::vector<std::string> names_;
  std::vector<int32_t> offsets_{0}; // first vertex of each sample, + total
  std::vector<int32_t> types_;
  std::vector<int32_t> children_; // maxArity_ per vertex, sample-local
  std::vector<std::vector<int32_t>> attributes_;
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_SAMPLESET_H
