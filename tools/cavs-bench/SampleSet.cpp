//===- SampleSet.cpp - samples kept apart for batching --------------------===//
#include "SampleSet.h"

#include <algorithm>
#include <stdexcept>

namespace cavs::bench {

SampleSet::SampleSet(std::vector<int32_t> arities,
                     std::vector<std::string> attributes)
    : arities_(std::move(arities)),
      maxArity_(size_t(*std::max_element(arities_.begin(), arities_.end()))),
      names_(std::move(attributes)), attributes_(names_.size()) {}

SampleSet SampleSet::fromBatch(const cavs::GraphBatch &batch,
                               std::vector<std::string> attributes,
                               std::vector<int32_t> arities,
                               const Retype &retype) {
  if (arities.empty())
    for (int32_t t = 0; t < batch.numTypes(); ++t)
      arities.push_back(batch.arity(t));
  SampleSet set(std::move(arities), std::move(attributes));
  cavs::Span<const int32_t> offsets = batch.sampleOffsets();
  cavs::Span<const int32_t> loadedTypes = batch.types();
  std::vector<cavs::Span<const int32_t>> values;
  for (const std::string &name : set.names_)
    values.push_back(batch.attribute(name));
  std::vector<int32_t> types, children;
  std::vector<std::vector<int32_t>> sampleValues(values.size());
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    const int32_t first = offsets[s], end = offsets[s + 1];
    types.clear();
    children.clear();
    for (int32_t v = first; v < end; ++v) {
      types.push_back(retype ? retype(v, loadedTypes[v]) : loadedTypes[v]);
      cavs::Span<const int32_t> slots = batch.children(v);
      for (size_t k = 0; k < set.maxArity_; ++k) {
        const int32_t child = k < slots.size() ? slots[k] : CAVS_NO_CHILD;
        children.push_back(child == CAVS_NO_CHILD ? CAVS_NO_CHILD
                                                  : child - first);
      }
    }
    for (size_t a = 0; a < values.size(); ++a)
      sampleValues[a].assign(values[a].begin() + first,
                             values[a].begin() + end);
    set.add(types, children, sampleValues);
  }
  return set;
}

void SampleSet::add(const std::vector<int32_t> &types,
                    const std::vector<int32_t> &children,
                    const std::vector<std::vector<int32_t>> &attributes) {
  const size_t vertices = types.size();
  if (vertices == 0 || children.size() != vertices * maxArity_ ||
      attributes.size() != attributes_.size())
    throw std::invalid_argument("SampleSet::add: malformed sample");
  const size_t first = types_.size();
  types_.insert(types_.end(), types.begin(), types.end());
  children_.insert(children_.end(), children.begin(), children.end());
  hasParent_.resize(first + vertices, 0);
  for (int32_t child : children)
    if (child != CAVS_NO_CHILD)
      hasParent_[first + size_t(child)] = 1;
  for (size_t a = 0; a < attributes.size(); ++a) {
    if (attributes[a].size() != vertices)
      throw std::invalid_argument("SampleSet::add: attribute '" + names_[a] +
                                  "' has the wrong length");
    attributes_[a].insert(attributes_[a].end(), attributes[a].begin(),
                          attributes[a].end());
  }
  offsets_.push_back(offsets_.back() + int32_t(vertices));
}

cavs::GraphBatch SampleSet::batch(int32_t first, int32_t count,
                                  const std::string &rootsOnly) const {
  cavs::GraphBuilder builder{cavs::Span<const int32_t>(arities_)};
  for (const std::string &name : names_)
    builder.addAttribute(name);
  builder.reserve(offsets_[first + count] - offsets_[first], count);
  const auto masked = std::find(names_.begin(), names_.end(), rootsOnly);
  std::vector<int32_t> maskedValues;
  using Ints = cavs::Span<const int32_t>;
  std::vector<Ints> values(names_.size());
  for (int32_t s = first; s < first + count; ++s) {
    const size_t begin = size_t(offsets_[s]);
    const size_t size = size_t(offsets_[s + 1]) - begin;
    for (size_t a = 0; a < names_.size(); ++a)
      values[a] = Ints(attributes_[a].data() + begin, size);
    if (masked != names_.end()) {
      const size_t a = size_t(masked - names_.begin());
      maskedValues.assign(values[a].begin(), values[a].end());
      for (size_t v = 0; v < size; ++v)
        if (hasParent_[begin + v])
          maskedValues[v] = -1;
      values[a] = Ints(maskedValues);
    }
    builder.addSample(Ints(types_.data() + begin, size),
                      Ints(children_.data() + begin * maxArity_,
                           size * maxArity_),
                      cavs::Span<const Ints>(values));
  }
  return builder.finalize();
}

} // namespace cavs::bench
