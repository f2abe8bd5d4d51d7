//===- Chains.h - PTB sentences as chains for the LSTM LM -------*- C++ -*-===//
//
// chainlstm.cavs runs one vertex function `step` (arity 1: slot 0 is the
// previous word's state) per word, reading `word` and predicting `next`
// (< 0: no loss). The two Cavs language-model workloads differ only in how
// text becomes chains:
//
// - Var-LSTM: one chain per sentence, <eos> w1 .. wn with targets
//   w1 .. wn <eos>, so every word and the sentence end are predicted (<eos>
//   starts the chain as a beginning-of-sentence marker);
// - Fixed-LSTM: the sentences, each followed by <eos>, as one token stream
//   cut into chains of exactly `length` steps; targets are the stream
//   shifted by one (the last step of the stream has none), and every chain
//   starts from a zero state, as in the fixed-length benchmark.
//
//===----------------------------------------------------------------------===//
#ifndef LM_CHAINS_H
#define LM_CHAINS_H

#include "cavs/sample_set.hpp"
#include "TextCorpus.h"

#include <cstdint>
#include <vector>

namespace lm {

/// One chain per sentence (Var-LSTM).
cavs::SampleSet
sentenceChains(const std::vector<cavs_examples::Sentence> &sentences);

/// Chains of `length` steps over the token stream (Fixed-LSTM); a shorter
/// remainder at the end is dropped.
cavs::SampleSet
fixedChains(const std::vector<cavs_examples::Sentence> &sentences,
            int32_t length);

} // namespace lm

#endif // LM_CHAINS_H
