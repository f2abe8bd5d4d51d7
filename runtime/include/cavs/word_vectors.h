//===- word_vectors.h - pretrained word vectors of the cavs C ABI ---------===//
//
// Loads pretrained word vectors (GloVe, word2vec, fastText .vec) from their
// text format into an embedding table of a parameter store: row i of the
// table gets the vector of vocabulary word i when the file has one, the
// other rows keep their values. Freeze the table afterwards
// (cavs_param_store_set_frozen) to keep the vectors fixed while training.
//
// File format: one vector per line, a word and then its values, separated
// by blanks; word2vec's text format starts with a header line "count dim",
// GloVe's has none (a first line of exactly two integers is taken as the
// header). The file may be gzip-compressed (recognized by its magic bytes,
// whatever its name). Lines with more fields than a word and dim values
// hold a word containing blanks (glove.840B has a few); no vocabulary word
// can match them, so they are skipped and counted. The values of a word
// outside the vocabulary are not parsed, so a big file spends its time
// reading, not converting numbers.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_WORD_VECTORS_H
#define CAVS_WORD_VECTORS_H

#include "cavs/model.h"
#include "cavs/status.h"
#include "cavs/vocab.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// Flags of cavs_load_word_vectors.
enum {
  /// The table may have more rows than the vocabulary has words (a model
  /// compiled with a fixed row count above its data's vocabulary); the rows
  /// past the vocabulary keep their values. Without it the row count must
  /// equal the vocabulary size.
  CAVS_WORD_VECTORS_EXTRA_ROWS = 1,
};

/// What cavs_load_word_vectors found. The coverage is found /
/// vocabulary_words.
typedef struct cavs_word_vectors_report {
  /// Words of the vocabulary (cavs_vocab_size).
  int32_t vocabulary_words;
  /// Of them, those the file has a vector for: the rows that were set.
  int32_t found;
  /// Vector lines in the file (the header excluded).
  int64_t file_vectors;
  /// Of them, lines skipped because their word contains blanks.
  int64_t skipped_lines;
  /// Values per vector (the table's columns).
  int32_t dim;
  /// 1 when the file starts with a word2vec header line, else 0 (GloVe).
  int32_t word2vec_header;
  /// 1 when the file is gzip-compressed.
  int32_t gzipped;
  int32_t reserved;
} cavs_word_vectors_report;

/// Sets row i of matrix parameter `param` of `params` to the vector of word
/// i of `vocab`, for every vocabulary word the file at `path` has (the
/// first vector of a word that appears twice). Reads the whole file and
/// validates it before changing anything; on failure the parameter is
/// untouched. `flags` is 0 or CAVS_WORD_VECTORS_EXTRA_ROWS; `out_report`
/// (may be NULL) receives the counts. Fails with
///   CAVS_ERROR_INVALID_ARGUMENT: an unknown or vector parameter, a row
///     count other than the vocabulary's size, vectors of another
///     dimension than the table's columns (`file:line:`);
///   CAVS_ERROR_IO: a file that cannot be opened or read, or is not a
///     regular file;
///   CAVS_ERROR_PARSE (`file:line:` first): a line with fewer values than
///     the first, a value that is not a number or not finite, a blank line,
///     a header whose count disagrees with the lines, a file without
///     vectors, a corrupt or truncated gzip stream.
CAVS_API cavs_status cavs_load_word_vectors(
    const char *path, const cavs_vocab *vocab, cavs_param_store *params,
    const char *param, uint32_t flags, cavs_word_vectors_report *out_report);

CAVS_EXTERN_C_END

#endif // CAVS_WORD_VECTORS_H
