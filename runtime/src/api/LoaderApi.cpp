//===- LoaderApi.cpp - C ABI of the input graph loaders -------------------===//
//
// Thin adapters from cavs/loaders.h onto the loaders of graph/Loaders.h.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/loaders.h"
#include "graph/Loaders.h"
#include "support/Guard.h"

#include <memory>

using namespace cavs::runtime;

namespace {

/// Runs `load` into a new batch handle stored in `*out_batch`.
template <typename Load>
cavs_status loadInto(cavs_graph_batch **out_batch, Load &&load) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_batch, "out_batch"));
    auto handle = std::make_unique<cavs_graph_batch>();
    CAVS_RETURN_IF_ERROR(load(handle->impl));
    *out_batch = handle.release();
    return Status();
  });
}

/// Loads words through `vocab` under the caller's unknown-word policy.
template <typename Load>
cavs_status loadWordsInto(cavs_graph_batch **out_batch, const char *path,
                          cavs_vocab *vocab, int32_t addUnknownWords,
                          int32_t unknownId, Load &&load) {
  return loadInto(out_batch, [&](GraphBatch &batch) {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(vocab, "vocab"));
    WordMapper words;
    CAVS_RETURN_IF_ERROR(WordMapper::create(vocab->impl, addUnknownWords != 0,
                                            unknownId, words));
    return load(std::string(path), words, batch);
  });
}

} // namespace

extern "C" {

cavs_status cavs_load_sst_trees(const char *path, cavs_vocab *vocab,
                                int32_t add_unknown_words, int32_t unknown_id,
                                cavs_tree_typing typing,
                                cavs_graph_batch **out_batch) {
  return loadWordsInto(
      out_batch, path, vocab, add_unknown_words, unknown_id,
      [&](const std::string &file, WordMapper &words, GraphBatch &batch) {
        return loadSstTrees(file, words, typing, batch);
      });
}

cavs_status cavs_load_sentence_chains(const char *path, cavs_vocab *vocab,
                                      int32_t add_unknown_words,
                                      int32_t unknown_id,
                                      cavs_tree_typing typing,
                                      cavs_graph_batch **out_batch) {
  return loadWordsInto(
      out_batch, path, vocab, add_unknown_words, unknown_id,
      [&](const std::string &file, WordMapper &words, GraphBatch &batch) {
        return loadSentenceChains(file, words, typing, batch);
      });
}

cavs_status cavs_load_parent_arrays(const char *path, int32_t arity,
                                    cavs_tree_typing typing,
                                    cavs_graph_batch **out_batch) {
  return loadInto(out_batch, [&](GraphBatch &batch) {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    return loadParentArrays(path, arity, typing, batch);
  });
}

cavs_status cavs_graph_batch_create_chains(int32_t num_samples,
                                           const int32_t *lengths,
                                           cavs_tree_typing typing,
                                           cavs_graph_batch **out_batch) {
  return loadInto(out_batch, [&](GraphBatch &batch) {
    if (num_samples > 0)
      CAVS_RETURN_IF_ERROR(requireNonNull(lengths, "lengths"));
    return makeChains(num_samples, lengths, typing, batch);
  });
}

cavs_status cavs_load_edge_list(const char *path,
                                cavs_graph_batch **out_batch) {
  return loadInto(out_batch, [&](GraphBatch &batch) {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    return loadEdgeList(path, batch);
  });
}

} // extern "C"
