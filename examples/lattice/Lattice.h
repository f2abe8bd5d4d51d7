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
#include <functional>
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
/// (ties by first appearance), as strings with ids 0..size-1. The words are
/// matched by an Aho-Corasick automaton, so finding every word that ends at
/// every character of a text takes time linear in the text, however long
/// the words are.
class Lexicon {
public:
  Lexicon(const std::vector<cavs_examples::Sentence> &sentences,
          const cavs::Vocab &vocab, int32_t size);
  int32_t size() const { return size_; }
  size_t longest() const { return longest_; }
  /// Calls `found(end, word, length)` for the words that end at each
  /// character `end` of `text`, longest first, at most `limit` per character.
  void matchEnds(const std::string &text, int32_t limit,
                 const std::function<void(size_t end, int32_t word,
                                          size_t length)> &found) const;

private:
  struct Node {
    int32_t fail = 0;    // the longest proper suffix that is a node
    int32_t shorter = 0; // the longest proper suffix that is a word, or 0
    int32_t word = -1;   // the id of the word that ends here
    int32_t depth = 0;
  };
  void add(const std::string &word, int32_t id);
  void link();
  /// The child of `node` by `c`, or -1.
  int32_t child(int32_t node, char c) const {
    const auto found = children_.find(key(node, c));
    return found == children_.end() ? -1 : found->second;
  }
  static uint64_t key(int32_t node, char c) {
    return uint64_t(node) << 8 | uint8_t(c);
  }

  std::vector<Node> nodes_ = std::vector<Node>(1); // node 0: the empty string
  std::unordered_map<uint64_t, int32_t> children_;
  int32_t size_ = 0;
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
