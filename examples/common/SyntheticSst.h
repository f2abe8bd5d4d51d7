//===- SyntheticSst.h - a learnable SST-format sample -----------*- C++ -*-===//
//
// When the real Stanford Sentiment Treebank is not available, the example
// trains on generated data in the same format: random binary trees over a
// small vocabulary in which every word has a hidden polarity in -2..2 (most
// are neutral), and every node is labelled 2 + the summed polarity of the
// words below it, clamped to 0..4. Labels are thus a function of the subtree
// that a Tree-LSTM can learn. The output depends only on the seed.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_SYNTHETICSST_H
#define CAVS_EXAMPLES_SYNTHETICSST_H

#include <cstdint>
#include <string>

namespace cavs_examples {

struct SyntheticSizes {
  int32_t train = 2000;
  int32_t dev = 250;
  int32_t test = 250;
  int32_t vocabulary = 400;
  /// Words per sentence, uniform in [minWords, maxWords].
  int32_t minWords = 2;
  int32_t maxWords = 16;
};

/// Writes train.txt, dev.txt and test.txt into `dir` (created if needed);
/// throws std::runtime_error when a file cannot be written.
void writeSyntheticSst(const std::string &dir, uint64_t seed,
                       const SyntheticSizes &sizes = {});

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_SYNTHETICSST_H
