//===- Sst.h - the SST splits, real or synthetic ----------------*- C++ -*-===//
//
// The tree apps read the Stanford Sentiment Treebank from a folder with
// train.txt, dev.txt and test.txt. Without it they train on a generated
// sample in the same format (SyntheticSst.h; see DataSource.h).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_SST_H
#define CAVS_EXAMPLES_SST_H

#include "DataSource.h"
#include "cavs/sample_set.hpp"

#include "cavs/runtime.hpp"

#include <string>

namespace cavs_examples {

using cavs::SampleSet;

struct SstSplits {
  /// The folder read.
  std::string dir;
  cavs::Vocab vocab;
  SampleSet train, dev, test;
};

/// Loads the three splits with attributes `word` and `label`, typed as
/// `typing` (loadSstTrees). The vocabulary comes from the training split;
/// unseen words of dev and test map to -1 (a zero embedding).
SstSplits loadSst(const DataSource &source, cavs::TreeTyping typing);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_SST_H
