//===- TextCorpus.cpp - PTB language-model text as word ids ---------------===//
#include "TextCorpus.h"

#include "ArgParser.h"
#include "SyntheticText.h"

#include <filesystem>

namespace cavs_examples {

namespace {
std::vector<Sentence> load(const std::filesystem::path &path,
                           cavs::Vocab &vocab, cavs::WordPolicy words) {
  // The loader would build a batch of no chains and say only that.
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error) &&
      std::filesystem::file_size(path, error) == 0 && !error)
    throw UsageError(path.string() + " is empty; expected a sentence per line");
  const cavs::GraphBatch chains =
      cavs::loadSentenceChains(path.string(), vocab, words);
  cavs::Span<const int32_t> offsets = chains.sampleOffsets();
  cavs::Span<const int32_t> ids = chains.attribute("word");
  std::vector<Sentence> sentences;
  for (size_t s = 0; s + 1 < offsets.size(); ++s)
    sentences.emplace_back(ids.begin() + offsets[s],
                           ids.begin() + offsets[s + 1]);
  return sentences;
}
} // namespace

TextCorpus loadTextCorpus(const DataSource &source, int64_t maxTrain,
                          bool spellTestWords, int32_t devEvery) {
  const std::filesystem::path dir = resolveData(
      source, {"valid.txt", "test.txt"}, "PTB", [](const std::string &folder) {
        writeSyntheticText(folder, /*seed=*/1994);
      });
  TextCorpus corpus{dir.string(), cavs::Vocab(), {}, {}, {}};
  corpus.vocab.add("<eos>");
  corpus.vocab.add("<unk>");
  std::vector<Sentence> valid =
      load(dir / "valid.txt", corpus.vocab, cavs::WordPolicy::grow());
  for (size_t i = 0; i < valid.size(); ++i) {
    const bool dev = devEvery > 0 && (i + 1) % size_t(devEvery) == 0;
    (dev ? corpus.dev : corpus.train).push_back(std::move(valid[i]));
  }
  corpus.test =
      load(dir / "test.txt", corpus.vocab,
           spellTestWords ? cavs::WordPolicy::grow()
                          : cavs::WordPolicy::mapTo(TextCorpus::kUnk));
  if (maxTrain > 0 && size_t(maxTrain) < corpus.train.size())
    corpus.train.resize(size_t(maxTrain));
  return corpus;
}

void addTextDataOptions(ArgParser &parser, DataSource &source,
                        const std::string &dataDir,
                        const std::string &syntheticDir) {
  source.dataDir = dataDir;
  source.syntheticDir = syntheticDir;
  addDataOptions(parser, source, "valid.txt and test.txt");
}

int64_t countWords(const std::vector<Sentence> &sentences) {
  int64_t words = 0;
  for (const Sentence &sentence : sentences)
    words += int64_t(sentence.size());
  return words;
}

} // namespace cavs_examples
