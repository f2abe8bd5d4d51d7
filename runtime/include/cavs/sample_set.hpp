//===- sample_set.hpp - graphs kept per sample for minibatching -*- C++ -*-===//
//
// Loaders and generators produce whole data sets, but training regroups the
// samples into shuffled minibatches every epoch (and benchmarks cut them
// into batches of B). A SampleSet keeps a data set as flat per-sample
// arrays (vertex types, sample-local children in max-arity slots, int32
// attributes) and assembles any selection of samples into a new batch with
// the runtime's graph builder (runtime.hpp), linear in the vertices of the
// selection. Types follow the model: type t runs the t-th vertex function
// of the .cavs file. Header-only, over the C ABI like runtime.hpp.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_SAMPLE_SET_HPP
#define CAVS_SAMPLE_SET_HPP

#include "cavs/runtime.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cavs {

class SampleSet {
public:
  using Ints = Span<const int32_t>;

  /// An empty set of graphs whose vertex types have the given arities, with
  /// the int32 attributes `attributes` on every vertex.
  SampleSet(std::vector<int32_t> arities, std::vector<std::string> attributes);

  /// Every sample of `batch` with its types, children and the attributes
  /// `attributes`.
  static SampleSet fromBatch(const GraphBatch &batch,
                             std::vector<std::string> attributes);

  /// Appends a sample: one type per vertex, max-arity child slots per vertex
  /// (sample-local ids or CAVS_NO_CHILD), one array per attribute. Checked
  /// by the builder when batched.
  void add(Ints types, Ints children, const std::vector<Ints> &attributes);

  int32_t size() const { return int32_t(offsets_.size()) - 1; }
  int64_t numVertices() const { return offsets_.back(); }
  /// Vertices of `sample`; throws std::invalid_argument when it is out of
  /// range.
  int32_t numVertices(int32_t sample) const {
    checkSample(sample, "numVertices");
    return verticesOf(sample);
  }
  /// Keeps only the first `count` samples (all when `count` >= size());
  /// throws std::invalid_argument for a negative count.
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

  /// A batch of the samples `ids`, in that order (sample s is ids[s]);
  /// throws std::invalid_argument for an id out of range or a negative
  /// count.
  GraphBatch batch(const int32_t *ids, int32_t count) const;

private:
  size_t attributeIndex(const std::string &name) const;
  /// Throws std::invalid_argument unless `sample` is in [0, size()).
  void checkSample(int32_t sample, const char *caller) const;
  /// numVertices without the check, for samples known to be in range.
  int32_t verticesOf(int32_t sample) const {
    return offsets_[size_t(sample) + 1] - offsets_[size_t(sample)];
  }

  std::vector<int32_t> arities_;
  size_t maxArity_ = 0;
  std::vector<std::string> names_;
  std::vector<int32_t> offsets_{0}; // first vertex of each sample, + total
  std::vector<int32_t> types_;
  std::vector<int32_t> children_; // maxArity_ per vertex, sample-local
  std::vector<std::vector<int32_t>> attributes_;
};


namespace detail {
inline size_t widestArity(const std::vector<int32_t> &arities) {
  return arities.empty()
             ? 0
             : size_t(*std::max_element(arities.begin(), arities.end()));
}
} // namespace detail

inline SampleSet::SampleSet(std::vector<int32_t> arities,
                     std::vector<std::string> attributes)
    : arities_(std::move(arities)), maxArity_(detail::widestArity(arities_)),
      names_(std::move(attributes)), attributes_(names_.size()) {}

inline SampleSet SampleSet::fromBatch(const GraphBatch &batch,
                               std::vector<std::string> attributes) {
  std::vector<int32_t> arities;
  for (int32_t t = 0; t < batch.numTypes(); ++t)
    arities.push_back(batch.arity(t));
  SampleSet set(std::move(arities), std::move(attributes));
  const int32_t n = batch.numVertices();
  Ints offsets = batch.sampleOffsets();
  Ints samples = batch.vertexSamples();
  set.offsets_.assign(offsets.begin(), offsets.end());
  set.types_.assign(batch.types().begin(), batch.types().end());
  for (size_t a = 0; a < set.names_.size(); ++a) {
    Ints values = batch.attribute(set.names_[a]);
    set.attributes_[a].assign(values.begin(), values.end());
  }
  set.children_.assign(size_t(n) * set.maxArity_, CAVS_NO_CHILD);
  for (int32_t v = 0; v < n; ++v) {
    const int32_t first = offsets[size_t(samples[size_t(v)])];
    Ints children = batch.children(v);
    for (size_t k = 0; k < children.size(); ++k)
      if (children[k] != CAVS_NO_CHILD)
        set.children_[size_t(v) * set.maxArity_ + k] = children[k] - first;
  }
  return set;
}

inline void SampleSet::add(Ints types, Ints children,
                    const std::vector<Ints> &attributes) {
  if (types.empty() || children.size() != types.size() * maxArity_ ||
      attributes.size() != names_.size())
    throw std::invalid_argument("SampleSet::add: malformed sample");
  for (size_t a = 0; a < attributes.size(); ++a) {
    if (attributes[a].size() != types.size())
      throw std::invalid_argument("SampleSet::add: attribute '" + names_[a] +
                                  "' has the wrong length");
    attributes_[a].insert(attributes_[a].end(), attributes[a].begin(),
                          attributes[a].end());
  }
  types_.insert(types_.end(), types.begin(), types.end());
  children_.insert(children_.end(), children.begin(), children.end());
  offsets_.push_back(offsets_.back() + int32_t(types.size()));
}

inline void SampleSet::truncate(int32_t count) {
  if (count < 0)
    throw std::invalid_argument("SampleSet::truncate: negative count " +
                                std::to_string(count));
  if (count >= size())
    return;
  offsets_.resize(size_t(count) + 1);
  const size_t n = size_t(offsets_.back());
  types_.resize(n);
  children_.resize(n * maxArity_);
  for (std::vector<int32_t> &values : attributes_)
    values.resize(n);
}

inline void SampleSet::retype(
    std::vector<int32_t> arities,
    const std::function<int32_t(int32_t, int32_t, int32_t)> &typeOf) {
  if (detail::widestArity(arities) > maxArity_)
    throw std::invalid_argument("SampleSet::retype: wider arities");
  // Child slots are kept max-arity wide, so narrower types only need the
  // builder's check that their extra slots are absent.
  arities_ = std::move(arities);
  for (int32_t s = 0; s < size(); ++s)
    for (int32_t v = 0, n = verticesOf(s); v < n; ++v) {
      int32_t &type = types_[size_t(offsets_[size_t(s)] + v)];
      type = typeOf(s, v, type);
    }
}

inline void SampleSet::checkSample(int32_t sample, const char *caller) const {
  if (sample < 0 || sample >= size())
    throw std::invalid_argument(std::string("SampleSet::") + caller +
                                ": sample " + std::to_string(sample) +
                                " is out of range (the set has " +
                                std::to_string(size()) + " samples)");
}

inline size_t SampleSet::attributeIndex(const std::string &name) const {
  const auto found = std::find(names_.begin(), names_.end(), name);
  if (found == names_.end())
    throw std::invalid_argument("SampleSet: no attribute '" + name + "'");
  return size_t(found - names_.begin());
}

inline void SampleSet::maskNonRoots(const std::string &name) {
  std::vector<int32_t> &values = attributes_[attributeIndex(name)];
  for (int32_t s = 0; s < size(); ++s) {
    const int32_t first = offsets_[size_t(s)];
    const size_t begin = size_t(first) * maxArity_;
    const size_t end = size_t(first + verticesOf(s)) * maxArity_;
    for (size_t slot = begin; slot < end; ++slot)
      if (children_[slot] != CAVS_NO_CHILD)
        values[size_t(first + children_[slot])] = -1;
  }
}

inline int64_t SampleSet::countNonNegative(const std::string &name) const {
  const std::vector<int32_t> &values = attribute(name);
  return std::count_if(values.begin(), values.end(),
                       [](int32_t value) { return value >= 0; });
}

inline GraphBatch SampleSet::batch(const int32_t *ids, int32_t count) const {
  if (count < 0)
    throw std::invalid_argument("SampleSet::batch: negative count " +
                                std::to_string(count));
  GraphBuilder builder{Ints(arities_)};
  for (const std::string &name : names_)
    builder.addAttribute(name);
  int64_t vertices = 0;
  for (int32_t s = 0; s < count; ++s) {
    checkSample(ids[s], "batch");
    vertices += verticesOf(ids[s]);
  }
  builder.reserve(vertices, count);
  std::vector<Ints> values(names_.size());
  for (int32_t s = 0; s < count; ++s) {
    const size_t first = size_t(offsets_[size_t(ids[s])]);
    const size_t size = size_t(verticesOf(ids[s]));
    for (size_t a = 0; a < names_.size(); ++a)
      values[a] = Ints(attributes_[a].data() + first, size);
    builder.addSample(
        Ints(types_.data() + first, size),
        Ints(children_.data() + first * maxArity_, size * maxArity_),
        Span<const Ints>(values));
  }
  return builder.finalize();
}

} // namespace cavs

#endif // CAVS_SAMPLE_SET_HPP
