//===- Chains.cpp - PTB sentences as chains for the LSTM LM ---------------===//
#include "Chains.h"

namespace lm {

namespace {
using cavs::SampleSet;
using cavs_examples::Sentence;
using cavs_examples::TextCorpus;

/// Appends the chain of `words` with targets `next` (equal lengths).
void addChain(SampleSet &set, const int32_t *words, const int32_t *next,
              size_t length) {
  std::vector<int32_t> types(length, 0), children(length);
  for (size_t i = 0; i < length; ++i)
    children[i] = i == 0 ? CAVS_NO_CHILD : int32_t(i) - 1;
  using Ints = SampleSet::Ints;
  set.add(Ints(types), Ints(children),
          {Ints(words, length), Ints(next, length)});
}
} // namespace

SampleSet sentenceChains(const std::vector<Sentence> &sentences) {
  SampleSet set({1}, {"word", "next"});
  std::vector<int32_t> words, next;
  for (const Sentence &sentence : sentences) {
    words.assign(1, TextCorpus::kEos);
    words.insert(words.end(), sentence.begin(), sentence.end());
    next.assign(sentence.begin(), sentence.end());
    next.push_back(TextCorpus::kEos);
    addChain(set, words.data(), next.data(), words.size());
  }
  return set;
}

SampleSet fixedChains(const std::vector<Sentence> &sentences, int32_t length) {
  std::vector<int32_t> stream;
  for (const Sentence &sentence : sentences) {
    stream.insert(stream.end(), sentence.begin(), sentence.end());
    stream.push_back(TextCorpus::kEos);
  }
  std::vector<int32_t> next(stream.begin() + (stream.empty() ? 0 : 1),
                            stream.end());
  next.push_back(-1); // the stream's last token has nothing to predict
  SampleSet set({1}, {"word", "next"});
  for (size_t first = 0; first + size_t(length) <= stream.size();
       first += size_t(length))
    addChain(set, stream.data() + first, next.data() + first, size_t(length));
  return set;
}

} // namespace lm
