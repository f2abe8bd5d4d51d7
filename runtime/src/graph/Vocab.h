//===- Vocab.h - word vocabularies ----------------------------------------===//
//
// The word → id map behind cavs_vocab, plus WordMapper, the policy text
// loaders apply to words (add unseen ones, or map them to an unknown id).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_GRAPH_VOCAB_H
#define CAVS_RUNTIME_GRAPH_VOCAB_H

#include "support/Status.h"

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cavs::runtime {

/// Words with dense ids in insertion order.
class Vocab {
public:
  Vocab() = default;
  // Moving keeps the deque's blocks and so the map's views valid; a copy
  // would key on the original's strings.
  Vocab(Vocab &&) = default;
  Vocab &operator=(Vocab &&) = default;
  Vocab(const Vocab &) = delete;
  Vocab &operator=(const Vocab &) = delete;

  /// Loads the one-word-per-line format of cavs/vocab.h.
  static Status load(const std::string &path, Vocab &out);
  Status save(const std::string &path) const;

  /// The id of `word`, adding it when absent; the word must be a non-empty
  /// token without whitespace.
  Status add(std::string_view word, int32_t &id);
  /// The id of `word`, or -1.
  int32_t lookup(std::string_view word) const;
  int32_t size() const { return static_cast<int32_t>(words_.size()); }
  /// The word of `id`, which must be in range.
  const std::string &word(int32_t id) const { return words_[id]; }

private:
  friend class WordMapper;
  /// add() of a word already checked (a loader's, checked as input).
  Status insert(std::string_view word, int32_t &id);

  // A deque keeps word addresses stable, so the map can key on views of
  // them and cavs_vocab_word pointers stay valid as words are added.
  std::deque<std::string> words_;
  std::unordered_map<std::string_view, int32_t> ids_;
};

/// How a text loader turns words into ids.
class WordMapper {
public:
  /// Checks the policy: `unknownId` must be -1 or an id of `vocab` unless
  /// unseen words are added.
  static Status create(Vocab &vocab, bool addUnknownWords, int32_t unknownId,
                       WordMapper &out);
  /// The id of `word` under the policy; a word no vocabulary can hold is a
  /// CAVS_ERROR_PARSE of the file it was read from.
  Status map(std::string_view word, int32_t &id);

private:
  Vocab *vocab_ = nullptr;
  bool addUnknownWords_ = false;
  int32_t unknownId_ = -1;
};

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_vocab {
  cavs::runtime::Vocab impl;
};

#endif // CAVS_RUNTIME_GRAPH_VOCAB_H
