//===- TreeSet.cpp - SST trees kept per sample for minibatching -----------===//
#include "TreeSet.h"


namespace treelstm {

namespace {
constexpr int32_t kArity = 2;
/// Vertex types of treelstm.cavs: leaves (type 0) read a word, inner
/// vertices (type 1) combine two children.
constexpr int32_t kArities[] = {0, kArity};
} // namespace

TreeSet TreeSet::load(const std::string &path, cavs::Vocab &vocab,
                      cavs::WordPolicy words) {
  cavs::GraphBatch all =
      cavs::loadSstTrees(path, vocab, words, cavs::TreeTyping::LeafType);
  TreeSet set;
  const int32_t n = all.numVertices();
  cavs::Span<const int32_t> offsets = all.sampleOffsets();
  cavs::Span<const int32_t> samples = all.vertexSamples();
  cavs::Span<const int32_t> wordIds = all.attribute("word");
  cavs::Span<const int32_t> labels = all.attribute("label");
  cavs::Span<const int32_t> types = all.types();
  set.offsets_.assign(offsets.begin(), offsets.end());
  set.types_.assign(types.begin(), types.end());
  set.words_.assign(wordIds.begin(), wordIds.end());
  set.labels_.assign(labels.begin(), labels.end());
  set.children_.resize(size_t(n) * kArity);
  for (int32_t v = 0; v < n; ++v) {
    const int32_t first = offsets[samples[v]];
    cavs::Span<const int32_t> children = all.children(v);
    for (int32_t k = 0; k < kArity; ++k)
      set.children_[size_t(v) * kArity + k] =
          size_t(k) >= children.size() || children[k] == CAVS_NO_CHILD
              ? CAVS_NO_CHILD
              : children[k] - first;
  }
  return set;
}

void TreeSet::truncate(int32_t count) {
  if (count >= size())
    return;
  offsets_.resize(size_t(count) + 1);
  const size_t n = size_t(offsets_.back());
  children_.resize(n * kArity);
  types_.resize(n);
  words_.resize(n);
  labels_.resize(n);
}

cavs::GraphBatch TreeSet::batch(const int32_t *ids, int32_t count) const {
  cavs::GraphBuilder builder(cavs::Span<const int32_t>(kArities, 2));
  builder.addAttribute("word");
  builder.addAttribute("label");
  int64_t vertices = 0;
  for (int32_t s = 0; s < count; ++s)
    vertices += numVertices(ids[s]);
  builder.reserve(vertices, count);
  for (int32_t s = 0; s < count; ++s) {
    const int32_t first = offsets_[ids[s]];
    const size_t size = size_t(numVertices(ids[s]));
    using Ints = cavs::Span<const int32_t>;
    const Ints attributes[] = {Ints(words_.data() + first, size),
                               Ints(labels_.data() + first, size)};
    builder.addSample(
        Ints(types_.data() + first, size),
        Ints(children_.data() + size_t(first) * kArity, size * kArity),
        cavs::Span<const Ints>(attributes, 2));
  }
  return builder.finalize();
}

} // namespace treelstm
