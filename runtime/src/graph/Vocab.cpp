//===- Vocab.cpp - word vocabularies --------------------------------------===//
//
// Loading and saving use the one-word-per-line format, where a word's id is
// its 0-based line index, so a saved vocabulary reloads to the same ids.
//
//===----------------------------------------------------------------------===//
#include "graph/Vocab.h"

#include "graph/TextFile.h"
#include "support/AtomicFile.h"
#include "support/Excerpt.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

namespace cavs::runtime {

Status Vocab::load(const std::string &path, Vocab &out) {
  TextFile file;
  CAVS_RETURN_IF_ERROR(TextFile::read(path, "vocabulary", file));
  Vocab vocab;
  std::string_view line;
  while (file.nextLine(line)) {
    Tokens tokens(line);
    std::string_view word, extra;
    if (!tokens.next(word))
      return file.error("blank line; expected one word per line");
    if (tokens.next(extra))
      return file.errorAt(tokens.column(extra),
                          "unexpected '{}' after the word '{}'; words cannot "
                          "contain blanks",
                          excerpt(extra), excerpt(word));
    if (int32_t id = vocab.lookup(word); id >= 0)
      return file.error("duplicate word '{}' (first on line {})", excerpt(word),
                        id + 1);
    // An error of the file, at the word: the C API hands words out as C
    // strings, which would end at the NUL.
    if (const size_t nul = word.find('\0'); nul != std::string_view::npos)
      return file.errorAt(tokens.column(word), "word '{}' contains a NUL byte",
                          excerpt(word));
    int32_t id;
    if (Status s = vocab.insert(word, id); !s.ok())
      return std::move(s).withPrefix(file.location());
  }
  out = std::move(vocab);
  return Status();
}

Status Vocab::save(const std::string &path) const {
  // As checkpoints are: a failed save leaves the old file whole, and a
  // FIFO or device is refused (fopen on a FIFO waited for a reader).
  AtomicFileWriter file(path, "vocabulary");
  CAVS_RETURN_IF_ERROR(file.open());
  for (const std::string &word : words_) {
    CAVS_RETURN_IF_ERROR(file.write(word.data(), word.size()));
    CAVS_RETURN_IF_ERROR(file.write("\n", 1));
  }
  return file.commit();
}

namespace {
/// A word is non-empty and holds no blank or NUL byte; `code` is the
/// status of a word that does.
Status checkWord(std::string_view word, cavs_status code) {
  if (word.empty())
    return Status(code, "words must not be empty");
  if (std::any_of(word.begin(), word.end(),
                  [](char c) { return isBlank(c) || c == '\n'; }))
    return makeError(code, "word '{}' contains whitespace", excerpt(word));
  // The C API hands words out as C strings, which would end at the NUL.
  if (word.find('\0') != std::string_view::npos)
    return makeError(code, "word '{}' contains a NUL byte", excerpt(word));
  return Status();
}
} // namespace

Status Vocab::add(std::string_view word, int32_t &id) {
  CAVS_RETURN_IF_ERROR(checkWord(word, CAVS_ERROR_INVALID_ARGUMENT));
  return insert(word, id);
}

Status Vocab::insert(std::string_view word, int32_t &id) {
  if (auto it = ids_.find(word); it != ids_.end()) {
    id = it->second;
    return Status();
  }
  if (size() == std::numeric_limits<int32_t>::max())
    return Status(CAVS_ERROR_INVALID_ARGUMENT,
                  "the vocabulary is full (int32 ids)");
  id = size();
  ids_.emplace(words_.emplace_back(word), id);
  return Status();
}

int32_t Vocab::lookup(std::string_view word) const {
  auto it = ids_.find(word);
  return it == ids_.end() ? -1 : it->second;
}

Status WordMapper::create(Vocab &vocab, bool addUnknownWords, int32_t unknownId,
                          WordMapper &out) {
  if (!addUnknownWords && (unknownId < -1 || unknownId >= vocab.size()))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "unknown-word id {} is neither -1 nor an id of the "
                     "vocabulary (size {})",
                     unknownId, vocab.size());
  out.vocab_ = &vocab;
  out.addUnknownWords_ = addUnknownWords;
  out.unknownId_ = unknownId;
  return Status();
}

Status WordMapper::map(std::string_view word, int32_t &id) {
  // The word comes from the file being read: one no vocabulary can hold (a
  // NUL byte in it) is an error of the input, whether it would be added or
  // looked up.
  CAVS_RETURN_IF_ERROR(checkWord(word, CAVS_ERROR_PARSE));
  if (addUnknownWords_)
    return vocab_->insert(word, id);
  id = vocab_->lookup(word);
  if (id < 0)
    id = unknownId_;
  return Status();
}

} // namespace cavs::runtime
