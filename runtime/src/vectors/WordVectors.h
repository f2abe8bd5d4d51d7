//===- WordVectors.h - pretrained word vectors into an embedding table ----===//
//
// The loader behind cavs_load_word_vectors (cavs/word_vectors.h): a layer
// of its own because it joins a vocabulary (graph) and a parameter store
// (params), which know nothing of each other.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_VECTORS_WORDVECTORS_H
#define CAVS_RUNTIME_VECTORS_WORDVECTORS_H

#include "cavs/word_vectors.h"
#include "graph/Vocab.h"
#include "params/ParamStore.h"

#include <string>

namespace cavs::runtime {

/// Fills the rows of parameter `param` of `params` that `vocab` has words
/// for from the vectors at `path`, as cavs_load_word_vectors.
Status loadWordVectors(const std::string &path, const Vocab &vocab,
                       ParamStore &params, const std::string &param,
                       uint32_t flags, cavs_word_vectors_report &report);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_VECTORS_WORDVECTORS_H
