//===- SyntheticText.h - a learnable PTB-format text sample -----*- C++ -*-===//
//
// Stands in for the Penn Treebank text when it is absent: sentences of a
// first-order Markov source over a small vocabulary of made-up words (2-6
// letters from a 12-letter alphabet), where every word has three possible
// successors (60/30/10 %). The next word is thus far more predictable than
// the vocabulary size suggests (perplexity about 3 once learned, against
// 60 for unigrams), and words repeat as character strings, which the
// character and lattice models can exploit. The output depends only on the
// seed.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_SYNTHETICTEXT_H
#define CAVS_EXAMPLES_SYNTHETICTEXT_H

#include <cstdint>
#include <string>

namespace cavs_examples {

struct SyntheticTextSizes {
  /// Sentences of valid.txt (the apps' training text) and test.txt.
  int32_t valid = 1200;
  int32_t test = 200;
  int32_t vocabulary = 60;
};

/// Writes valid.txt and test.txt into `dir` (created if needed), one
/// sentence per line with a blank before and after, as in PTB.
void writeSyntheticText(const std::string &dir, uint64_t seed,
                        const SyntheticTextSizes &sizes = {});

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_SYNTHETICTEXT_H
