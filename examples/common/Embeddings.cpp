//===- Embeddings.cpp - pretrained word vectors for an app ----------------===//
#include "Embeddings.h"

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace cavs_examples {

void addEmbeddingOptions(ArgParser &parser, EmbeddingOptions &options) {
  parser.text("--embeddings", "FILE",
              "initialise the word embeddings from pretrained vectors: GloVe "
              "or word2vec text, maybe gzipped (words without a vector keep "
              "their random values)",
              &options.path);
  parser.toggle("--freeze-embeddings",
                "keep the word embeddings fixed while training",
                &options.freeze);
}

void freezeEmbeddings(cavs::Model &model, const std::string &param,
                      const EmbeddingOptions &options) {
  if (options.freeze)
    model.freeze(param);
}

void loadEmbeddings(cavs::Model &model, const std::string &param,
                    const cavs::Vocab &vocab, const EmbeddingOptions &options) {
  const char *frozen = options.freeze ? ", frozen" : "";
  if (options.path.empty()) {
    if (options.freeze)
      std::printf("embeddings: random%s\n", frozen);
    return;
  }
  // The app's table has the model's compiled row count, at least the
  // vocabulary's size (requireRows).
  cavs_word_vectors_report report{};
  try {
    report = cavs::loadWordVectors(options.path, vocab, model.params(), param,
                                   CAVS_WORD_VECTORS_EXTRA_ROWS);
  } catch (const cavs::Error &error) {
    // A file that is missing or unreadable is a bad flag, as missing data.
    if (error.status() == CAVS_ERROR_IO)
      throw UsageError(std::string("--embeddings: ") + error.what());
    throw;
  }
  std::printf("embeddings: %s (%s%s, %d dims): %d of %d vocabulary words "
              "found, coverage %.2f%%%s\n",
              options.path.c_str(),
              report.word2vec_header ? "word2vec text" : "GloVe text",
              report.gzipped ? ", gzipped" : "", report.dim, report.found,
              report.vocabulary_words,
              report.vocabulary_words
                  ? 100.0 * report.found / report.vocabulary_words
                  : 0.0,
              frozen);
}

SharedData embeddingsData(const cavs::Model &model, const std::string &param,
                          const EmbeddingOptions &options) {
  const cavs::Span<const float> table = model.paramValues(param);
  const std::string_view bytes(reinterpret_cast<const char *>(table.data()),
                               table.size() * sizeof(float));
  // std::hash: the same on every rank, since they run the same program.
  return {"word vectors", options.path, std::hash<std::string_view>()(bytes)};
}

} // namespace cavs_examples
