//===- ChainLoader.cpp - chains from lengths or from sentences ------------===//
//
// Vertex i of a chain has vertex i - 1 in child slot 0, so the chain of a
// sentence runs left to right and vertex ids follow word positions.
//
//===----------------------------------------------------------------------===//
#include "graph/Loaders.h"

#include "graph/TextFile.h"

#include <algorithm>

namespace cavs::runtime {

namespace {

/// Builds chains one at a time, reusing its arrays between them.
class ChainAppender {
public:
  Status create(cavs_tree_typing typing, std::vector<std::string> attributes) {
    CAVS_RETURN_IF_ERROR(TreeTypes::create(typing, 1, treeTypes_));
    CAVS_RETURN_IF_ERROR(GraphBuilder::create(treeTypes_.arities(), builder_));
    for (std::string &name : attributes) {
      int32_t index;
      CAVS_RETURN_IF_ERROR(builder_.addAttribute(std::move(name), index));
    }
    return Status();
  }

  /// Appends a chain of `n` vertices with the given attribute arrays.
  Status append(int32_t n, const int32_t *const *attributes) {
    // Checked before the arrays are sized, so a bad length cannot allocate.
    CAVS_RETURN_IF_ERROR(builder_.checkSampleSize(n));
    types_.resize(n);
    children_.resize(n);
    for (int32_t i = 0; i < n; ++i) {
      types_[i] = treeTypes_.typeOf(i > 0);
      children_[i] = i - 1;
    }
    return builder_.addSample(n, types_.data(), children_.data(), attributes);
  }

  GraphBuilder &builder() { return builder_; }

private:
  TreeTypes treeTypes_;
  GraphBuilder builder_;
  std::vector<int32_t> types_, children_;
};

} // namespace

Status makeChains(int32_t numSamples, const int32_t *lengths,
                  cavs_tree_typing typing, GraphBatch &out) {
  if (numSamples < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "negative number of chains {}", numSamples);
  ChainAppender chains;
  CAVS_RETURN_IF_ERROR(chains.create(typing, {}));
  // Every length is checked before any chain is built, so that a batch past
  // the int32 limit fails at once instead of after building its first
  // chains.
  int64_t numVertices = 0;
  for (int32_t s = 0; s < numSamples; ++s) {
    CAVS_RETURN_IF_ERROR(
        GraphBuilder::checkSampleSize(s, lengths[s], numVertices));
    numVertices += lengths[s];
  }
  CAVS_RETURN_IF_ERROR(chains.builder().reserve(numVertices, numSamples));
  for (int32_t s = 0; s < numSamples; ++s)
    CAVS_RETURN_IF_ERROR(chains.append(lengths[s], nullptr));
  return chains.builder().finalize(out);
}

Status loadSentenceChains(const std::string &path, WordMapper &words,
                          cavs_tree_typing typing, GraphBatch &out) {
  ChainAppender chains;
  TextFile file;
  CAVS_RETURN_IF_ERROR(chains.create(typing, {"word"}));
  CAVS_RETURN_IF_ERROR(TextFile::read(path, "sentences", file));
  std::vector<int32_t> ids;
  std::string_view line;
  while (file.nextLine(line)) {
    ids.clear();
    Tokens tokens(line);
    std::string_view word;
    while (tokens.next(word)) {
      int32_t id;
      if (Status s = words.map(word, id); !s.ok())
        return std::move(s).withPrefix(file.location(tokens.column(word)));
      ids.push_back(id);
    }
    if (ids.empty())
      return file.error("blank line; expected a sentence");
    const int32_t *attributes[] = {ids.data()};
    if (Status s = chains.append(static_cast<int32_t>(ids.size()), attributes);
        !s.ok())
      return std::move(s).withPrefix(file.location());
  }
  return chains.builder().finalize(out).withPrefix(path + ": ");
}

} // namespace cavs::runtime
