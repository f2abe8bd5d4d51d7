//===- Sst.cpp - the SST splits, real or synthetic ------------------------===//
#include "Sst.h"

#include "SyntheticSst.h"

#include <filesystem>

namespace cavs_examples {

namespace fs = std::filesystem;

namespace {
SampleSet load(const fs::path &path, cavs::Vocab &vocab, cavs::WordPolicy words,
               cavs::TreeTyping typing) {
  return SampleSet::fromBatch(
      cavs::loadSstTrees(path.string(), vocab, words, typing),
      {"word", "label"});
}
} // namespace

SstSplits loadSst(const DataSource &source, cavs::TreeTyping typing) {
  const fs::path dir = resolveData(source, {"train.txt", "dev.txt", "test.txt"},
                                   "SST", [](const std::string &folder) {
                                     writeSyntheticSst(folder, /*seed=*/2015);
                                   });
  cavs::Vocab vocab;
  SampleSet train =
      load(dir / "train.txt", vocab, cavs::WordPolicy::grow(), typing);
  SampleSet dev =
      load(dir / "dev.txt", vocab, cavs::WordPolicy::mapTo(-1), typing);
  SampleSet test =
      load(dir / "test.txt", vocab, cavs::WordPolicy::mapTo(-1), typing);
  return {dir.string(), std::move(vocab), std::move(train), std::move(dev),
          std::move(test)};
}

} // namespace cavs_examples
