//===- SampleSet.cpp - graphs kept per sample for minibatching ------------===//
#include "SampleSet.h"

#include <algorithm>
#include <stdexcept>

namespace cavs_examples {

namespace {
size_t widest(const std::vector<int32_t> &arities) {
  return arities.empty()
             ? 0
             : size_t(*std::max_element(arities.begin(), arities.end()));
}
} // namespace

SampleSet::SampleSet(std::vector<int32_t> arities,
                     std::vector<std::string> attributes)
    : arities_(std::move(arities)), maxArity_(widest(arities_)),
      names_(std::move(attributes)), attributes_(names_.size()) {}

SampleSet SampleSet::fromBatch(const cavs::GraphBatch &batch,
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

void SampleSet::add(Ints types, Ints children,
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

void SampleSet::truncate(int32_t count) {
  if (count >= size())
    return;
  offsets_.resize(size_t(count) + 1);
  const size_t n = size_t(offsets_.back());
  types_.resize(n);
  children_.resize(n * maxArity_);
  for (std::vector<int32_t> &values : attributes_)
    values.resize(n);
}

void SampleSet::retype(
    std::vector<int32_t> arities,
    const std::function<int32_t(int32_t, int32_t, int32_t)> &typeOf) {
  if (widest(arities) > maxArity_)
    throw std::invalid_argument("SampleSet::retype: wider arities");
  // Child slots are kept max-arity wide, so narrower types only need the
  // builder's check that their extra slots are absent.
  arities_ = std::move(arities);
  for (int32_t s = 0; s < size(); ++s)
    for (int32_t v = 0; v < numVertices(s); ++v) {
      int32_t &type = types_[size_t(offsets_[size_t(s)] + v)];
      type = typeOf(s, v, type);
    }
}

size_t SampleSet::attributeIndex(const std::string &name) const {
  const auto found = std::find(names_.begin(), names_.end(), name);
  if (found == names_.end())
    throw std::invalid_argument("SampleSet: no attribute '" + name + "'");
  return size_t(found - names_.begin());
}

void SampleSet::maskNonRoots(const std::string &name) {
  std::vector<int32_t> &values = attributes_[attributeIndex(name)];
  for (int32_t s = 0; s < size(); ++s) {
    const int32_t first = offsets_[size_t(s)];
    const size_t begin = size_t(first) * maxArity_;
    const size_t end = size_t(first + numVertices(s)) * maxArity_;
    for (size_t slot = begin; slot < end; ++slot)
      if (children_[slot] != CAVS_NO_CHILD)
        values[size_t(first + children_[slot])] = -1;
  }
}

int64_t SampleSet::countNonNegative(const std::string &name) const {
  const std::vector<int32_t> &values = attribute(name);
  return std::count_if(values.begin(), values.end(),
                       [](int32_t value) { return value >= 0; });
}

cavs::GraphBatch SampleSet::batch(const int32_t *ids, int32_t count) const {
  cavs::GraphBuilder builder{Ints(arities_)};
  for (const std::string &name : names_)
    builder.addAttribute(name);
  int64_t vertices = 0;
  for (int32_t s = 0; s < count; ++s)
    vertices += numVertices(ids[s]);
  builder.reserve(vertices, count);
  std::vector<Ints> values(names_.size());
  for (int32_t s = 0; s < count; ++s) {
    const size_t first = size_t(offsets_[size_t(ids[s])]);
    const size_t size = size_t(numVertices(ids[s]));
    for (size_t a = 0; a < names_.size(); ++a)
      values[a] = Ints(attributes_[a].data() + first, size);
    builder.addSample(
        Ints(types_.data() + first, size),
        Ints(children_.data() + first * maxArity_, size * maxArity_),
        cavs::Span<const Ints>(values));
  }
  return builder.finalize();
}

} // namespace cavs_examples
