//===- TextCorpus.h - PTB language-model text as word ids -------*- C++ -*-===//
//
// The language-model apps (lm, lattice) read Penn Treebank text, one
// sentence per line. Only PTB's valid.txt and test.txt are available here
// (../shared/data/ptb), so the apps train on valid.txt and evaluate on
// test.txt. The vocabulary comes from the training text, after two
// reserved words: <eos> (id 0, the end of a sentence) and <unk> (id 1,
// which test words missing from the training text map to).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_TEXTCORPUS_H
#define CAVS_EXAMPLES_TEXTCORPUS_H

#include "DataSource.h"

#include "cavs/runtime.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cavs_examples {

using Sentence = std::vector<int32_t>;

struct TextCorpus {
  static constexpr int32_t kEos = 0, kUnk = 1;
  /// The folder read.
  std::string dir;
  cavs::Vocab vocab;
  std::vector<Sentence> train, test;
};

/// Loads valid.txt (training) and test.txt from `source`, or the synthetic
/// sample of SyntheticText.h. `maxTrain` > 0 keeps that many training
/// sentences (the vocabulary still covers all of them). With
/// `spellTestWords`, test words missing from the training text are added to
/// the vocabulary instead of becoming <unk>: for models that read the
/// characters of words, never the word ids.
TextCorpus loadTextCorpus(const DataSource &source, int64_t maxTrain,
                          bool spellTestWords = false);

/// Registers --data and --synthetic for PTB text: `dataDir` by default,
/// the synthetic sample generated into `syntheticDir`.
void addTextDataOptions(ArgParser &parser, DataSource &source,
                        const std::string &dataDir,
                        const std::string &syntheticDir);

/// Words in `sentences`.
int64_t countWords(const std::vector<Sentence> &sentences);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_TEXTCORPUS_H
