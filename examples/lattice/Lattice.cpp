//===- Lattice.cpp - sentences as character/word lattices -----------------===//
#include "Lattice.h"

#include <algorithm>
#include <numeric>

namespace lattice {

using cavs::SampleSet;
using cavs_examples::Sentence;

Alphabet::Alphabet(const std::vector<std::string> &sentences) {
  for (const std::string &sentence : sentences)
    for (char c : sentence)
      if (ids_[uint8_t(c)] < 0)
        ids_[uint8_t(c)] = size_++;
}

Lexicon::Lexicon(const std::vector<Sentence> &sentences,
                 const cavs::Vocab &vocab, int32_t size) {
  std::vector<int64_t> counts(size_t(vocab.size()), 0);
  for (const Sentence &sentence : sentences)
    for (int32_t word : sentence)
      ++counts[size_t(word)];
  std::vector<int32_t> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  // Vocabulary ids follow first appearance, so a stable sort breaks ties
  // by it.
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return counts[size_t(a)] > counts[size_t(b)];
  });
  for (int32_t word : order) {
    if (int32_t(ids_.size()) >= size || counts[size_t(word)] == 0)
      break;
    const std::string text = vocab.word(word);
    if (text.size() < 2)
      continue;
    ids_.emplace(text, int32_t(ids_.size()));
    longest_ = std::max(longest_, text.size());
  }
}

std::vector<std::string> spell(const std::vector<Sentence> &sentences,
                               const cavs::Vocab &vocab) {
  std::vector<std::string> texts;
  for (const Sentence &sentence : sentences) {
    std::string text;
    for (int32_t word : sentence)
      text += (text.empty() ? "" : " ") + vocab.word(word);
    texts.push_back(std::move(text));
  }
  return texts;
}

namespace {
constexpr int32_t kArity = 3;

/// The vertices of one lattice, built up char vertices first.
struct Graph {
  std::vector<int32_t> types, children, ch, next, w;

  int32_t add(int32_t type, int32_t c, int32_t n, int32_t word) {
    types.push_back(type);
    children.insert(children.end(), kArity, CAVS_NO_CHILD);
    ch.push_back(c);
    next.push_back(n);
    w.push_back(word);
    return int32_t(types.size()) - 1;
  }
  int32_t &slot(int32_t v, int32_t k) {
    return children[size_t(v) * kArity + size_t(k)];
  }
};
} // namespace

SampleSet buildLattices(const std::vector<std::string> &sentences,
                        const Alphabet &alphabet, const Lexicon &lexicon,
                        LatticeStats &stats) {
  SampleSet set({kArity, 1}, {"ch", "next", "w"});
  for (const std::string &text : sentences) {
    Graph g;
    const int32_t n = int32_t(text.size());
    // Char vertex j reads text[j - 1] (the start marker for j = 0) and
    // predicts text[j] (the end symbol for j = n).
    for (int32_t j = 0; j <= n; ++j) {
      const int32_t v =
          g.add(0, j == 0 ? Alphabet::kEnd : alphabet.id(text[size_t(j - 1)]),
                j == n ? Alphabet::kEnd : alphabet.id(text[size_t(j)]), -1);
      if (j > 0)
        g.slot(v, 0) = j - 1;
    }
    for (int32_t e = 0; e < n; ++e) {
      // Longest first, so that the two kept are the two longest.
      int32_t used = 0;
      for (int32_t length =
               int32_t(std::min<size_t>(lexicon.longest(), size_t(e + 1)));
           length >= 2 && used < kArity - 1; --length) {
        const int32_t s = e - length + 1;
        const int32_t word =
            lexicon.find(text.substr(size_t(s), size_t(length)));
        if (word < 0)
          continue;
        const int32_t v = g.add(1, -1, -1, word);
        g.slot(v, 0) = s;
        g.slot(e + 1, 1 + used++) = v;
      }
    }
    stats.chars += n + 1;
    stats.words += int64_t(g.types.size()) - (n + 1);
    using Ints = SampleSet::Ints;
    set.add(Ints(g.types), Ints(g.children),
            {Ints(g.ch), Ints(g.next), Ints(g.w)});
  }
  return set;
}

} // namespace lattice
