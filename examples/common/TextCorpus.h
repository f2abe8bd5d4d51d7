//===- TextCorpus.h - PTB language-model text as word ids -------*- C++ -*-===//
//
// The language-model apps (lm, lattice) read Penn Treebank text, one
// sentence per line. Only PTB's valid.txt and test.txt are available here
// (../shared/data/ptb), so the apps train on valid.txt and evaluate on
// test.txt; an app that selects its best epoch holds out part of
// valid.txt as a dev split. The vocabulary comes from valid.txt, after two
// reserved words: <eos> (id 0, the end of a sentence) and <unk> (id 1,
// which test words missing from valid.txt map to).
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
  /// dev: held out of valid.txt (empty unless asked for).
  std::vector<Sentence> train, dev, test;
};

/// Loads valid.txt (training) and test.txt from `source`, or the synthetic
/// sample of SyntheticText.h. With `devEvery` > 0 every devEvery-th
/// sentence of valid.txt (the devEvery-th, the 2 devEvery-th, ...) goes to
/// `dev` instead of `train`. `maxTrain` > 0 then keeps that many training
/// sentences. The vocabulary covers all of valid.txt. With
/// `spellTestWords`, test words missing from valid.txt are added to the
/// vocabulary instead of becoming <unk>: for models that read the
/// characters of words, never the word ids.
TextCorpus loadTextCorpus(const DataSource &source, int64_t maxTrain,
                          bool spellTestWords = false, int32_t devEvery = 0);

/// Registers --data and --synthetic for PTB text: `dataDir` by default,
/// the synthetic sample generated into `syntheticDir`.
void addTextDataOptions(ArgParser &parser, DataSource &source,
                        const std::string &dataDir,
                        const std::string &syntheticDir);

/// Words in `sentences`.
int64_t countWords(const std::vector<Sentence> &sentences);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_TEXTCORPUS_H
