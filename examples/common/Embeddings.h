//===- Embeddings.h - pretrained word vectors for an app --------*- C++ -*-===//
//
// --embeddings FILE loads pretrained vectors (GloVe or word2vec text, maybe
// gzipped; cavs/word_vectors.h) into an app's embedding table by its
// vocabulary, as Tai et al. (2015) start from GloVe, and prints the
// coverage; --freeze-embeddings keeps the table fixed while training.
// Freezing comes first, before a distributed trainer is created (it plans
// its gradient exchange without frozen tables); the vectors come once the
// data, and so the vocabulary, is loaded.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_EMBEDDINGS_H
#define CAVS_EXAMPLES_EMBEDDINGS_H

#include "ArgParser.h"
#include "Distributed.h"

#include "cavs/runtime.hpp"

#include <string>

namespace cavs_examples {

struct EmbeddingOptions {
  /// The vectors file; none when empty.
  std::string path;
  bool freeze = false;
};

/// Registers --embeddings and --freeze-embeddings.
void addEmbeddingOptions(ArgParser &parser, EmbeddingOptions &options);

/// Freezes the table `param` of `model` when asked.
void freezeEmbeddings(cavs::Model &model, const std::string &param,
                      const EmbeddingOptions &options);

/// Loads the vectors of the words of `vocab` into `param` when asked (rows
/// past the vocabulary keep their values) and prints "embeddings: ..." with
/// the coverage; throws UsageError when the file cannot be read and
/// cavs::Error when its contents do not fit.
void loadEmbeddings(cavs::Model &model, const std::string &param,
                    const cavs::Vocab &vocab, const EmbeddingOptions &options);

/// The table `param` as data every rank must hold alike (requireSameData):
/// ranks load their vectors after the trainer made them equal, each from
/// its own file.
SharedData embeddingsData(const cavs::Model &model, const std::string &param,
                          const EmbeddingOptions &options);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_EMBEDDINGS_H
