//===- LatticeTest.cpp - the lattice app's lexicon matching ---------------===//
//
// Lexicon::matchEnds against trying every substring (what the app did
// before), and lattices of one very long word, which trying substrings made
// quadratic in the word's length (an 8,000-character token took 18 s,
// 50,000 minutes; this test's ctest time limit is 60 s).
//
//===----------------------------------------------------------------------===//
#include "Lattice.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>

namespace {

using Match = std::tuple<size_t, int32_t, size_t>; // end, word, length

/// A lexicon of `words` (most frequent first: word i occurs n - i times).
lattice::Lexicon makeLexicon(const std::vector<std::string> &words,
                             cavs::Vocab &vocab) {
  std::vector<cavs_examples::Sentence> sentences;
  for (size_t i = 0; i < words.size(); ++i)
    for (size_t n = i; n < words.size(); ++n)
      sentences.push_back({vocab.add(words[i])});
  return lattice::Lexicon(sentences, vocab, int32_t(words.size()));
}

std::vector<Match> matches(const lattice::Lexicon &lexicon,
                           const std::string &text, int32_t limit) {
  std::vector<Match> found;
  lexicon.matchEnds(text, limit, [&](size_t end, int32_t word, size_t length) {
    found.emplace_back(end, word, length);
  });
  return found;
}

/// Every substring ending at each character, longest first.
std::vector<Match> bruteForce(const std::vector<std::string> &words,
                              const std::string &text, int32_t limit) {
  std::vector<Match> found;
  for (size_t end = 0; end < text.size(); ++end) {
    int32_t count = 0;
    for (size_t length = end + 1; length >= 1 && count < limit; --length) {
      const std::string piece = text.substr(end + 1 - length, length);
      for (size_t id = 0; id < words.size(); ++id)
        if (words[id] == piece) {
          found.emplace_back(end, int32_t(id), length);
          ++count;
        }
    }
  }
  return found;
}

TEST(Lexicon, MatchesLikeTryingEverySubstring) {
  std::mt19937 random(7);
  for (int round = 0; round < 50; ++round) {
    // Short words over a small alphabet overlap a lot: suffixes of suffixes.
    std::vector<std::string> words;
    cavs::Vocab vocab;
    for (int i = 0; i < 12; ++i) {
      std::string word(2 + random() % 5, 'a');
      for (char &c : word)
        c = char('a' + random() % 3);
      if (std::find(words.begin(), words.end(), word) == words.end())
        words.push_back(word);
    }
    const lattice::Lexicon lexicon = makeLexicon(words, vocab);
    std::string text(200, 'a');
    for (char &c : text)
      c = char('a' + random() % 4);
    for (int32_t limit : {1, 2, 100})
      EXPECT_EQ(matches(lexicon, text, limit), bruteForce(words, text, limit))
          << "round " << round << ", limit " << limit;
  }
}

TEST(Lexicon, OneLongWordBuildsInLinearTime) {
  const std::string token(1 << 20, 'a');
  cavs::Vocab vocab;
  const lattice::Lexicon lexicon = makeLexicon({token, "aa"}, vocab);
  EXPECT_EQ(lexicon.longest(), token.size());
  const std::vector<std::string> texts = {token + " " + token};
  const lattice::Alphabet alphabet(texts);
  lattice::LatticeStats stats;
  const cavs::SampleSet set =
      lattice::buildLattices(texts, alphabet, lexicon, stats);
  EXPECT_EQ(set.size(), 1);
  EXPECT_EQ(stats.chars, int64_t(texts[0].size()) + 1);
  // In each half "aa" ends at every character but the first, the token at
  // the last.
  EXPECT_EQ(stats.words, 2 * int64_t(token.size()));
}

} // namespace
