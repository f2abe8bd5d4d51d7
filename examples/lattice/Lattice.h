//===- Lattice.h - sentences as character/word lattices ---------*- C++ -*-===//
//
// lattice.cavs has two vertex functions: `char` (type 0, arity 3) and
// `word` (type 1, arity 1). A sentence (its words joined by blanks) becomes
// one DAG:
//
// - char vertex 0 is a start marker (the end symbol), char vertex j >= 1
//   reads character j-1 of the sentence; every char vertex predicts the
//   next character (`next`), the last one the end symbol; slot 0 is the
//   previous char vertex;
// - every occurrence of a lexicon word as a substring, characters s..e,
//   adds a word vertex reading the word id (`w`) whose slot 0 is the char
//   vertex before the word (j = s, the start marker for s = 0), and which
//   feeds the char vertex of its last character (j = e + 1) through slot 1
//   or 2. Of more than two words ending at one character the two longest
//   are kept.
//
// A word vertex only sees characters up to its last one, which its char
// vertex has read already, so nothing leaks from the future.
//
//===----------------------------------------------------------------------===//
#ifndef LATTICE_LATTICE_H
#define LATTICE_LATTICE_H

#include "cavs/sample_set.hpp"
#include "TextCorpus.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace lattice {

/// Character ids: 0 is the end symbol, 1 an unknown character, then the
/// characters of the training text in order of appearance.
class Alphabet {
public:
  static constexpr int32_t kEnd = 0, kUnknown = 1;
  explicit Alphabet(const std::vector<std::string> &sentences);
  int32_t id(char c) const {
    const int32_t id = ids_[uint8_t(c)];
    return id < 0 ? kUnknown : id;
  }
  int32_t size() const { return size_; }

private:
  std::vector<int32_t> ids_ = std::vector<int32_t>(256, -1);
  int32_t size_ = 2;
};

/// The `size` most frequent training words of at least two characters
/// (ties by first appearance), as strings with ids 0..size-1.
class Lexicon {
public:
  Lexicon(const std::vector<cavs_examples::Sentence> &sentences,
          const cavs::Vocab &vocab, int32_t size);
  /// The id of `word`, or -1.
  int32_t find(const std::string &word) const {
    const auto found = ids_.find(word);
    return found == ids_.end() ? -1 : found->second;
  }
  int32_t size() const { return int32_t(ids_.size()); }
  size_t longest() const { return longest_; }

private:
  std::unordered_map<std::string, int32_t> ids_;
  size_t longest_ = 0;
};

/// The sentences as text: words joined by single blanks.
std::vector<std::string>
spell(const std::vector<cavs_examples::Sentence> &sentences,
      const cavs::Vocab &vocab);

struct LatticeStats {
  int64_t chars = 0, words = 0;
};

/// One lattice per sentence, attributes `ch`, `next` and `w`.
cavs::SampleSet
buildLattices(const std::vector<std::string> &sentences,
              const Alphabet &alphabet, const Lexicon &lexicon,
              LatticeStats &stats);

} // namespace lattice

#endif // LATTICE_LATTICE_H
