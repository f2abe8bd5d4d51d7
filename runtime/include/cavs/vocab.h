//===- vocab.h - word vocabularies of the cavs C ABI ----------------------===//
//
// A vocabulary maps words (whitespace-free tokens) to dense ids 0..size-1 in
// insertion order. Text loaders use it to turn words into the `word`
// attribute; it is either loaded from a file or built while loading training
// data and then saved for the evaluation sets.
//
// File format: one word per line, the word on line i (1-based) has id i - 1;
// blank lines and duplicates are parse errors.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_VOCAB_H
#define CAVS_VOCAB_H

#include "cavs/status.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// A word → id map; not thread-safe while it is being modified.
typedef struct cavs_vocab cavs_vocab;

/// Creates an empty vocabulary.
CAVS_API cavs_status cavs_vocab_create(cavs_vocab **out_vocab);

/// Loads a vocabulary file (format above).
CAVS_API cavs_status cavs_vocab_load(const char *path, cavs_vocab **out_vocab);

/// Writes the vocabulary to `path` in the format cavs_vocab_load reads.
CAVS_API cavs_status cavs_vocab_save(const cavs_vocab *vocab, const char *path);

/// Destroys a vocabulary; NULL is ignored.
CAVS_API void cavs_vocab_destroy(cavs_vocab *vocab);

/// Returns the id of `word`, adding it first when absent. Fails for an empty
/// word or one containing whitespace.
CAVS_API cavs_status cavs_vocab_add(cavs_vocab *vocab, const char *word,
                                    int32_t *out_id);

/// The id of `word`, or -1 when absent (or on NULL arguments).
CAVS_API int32_t cavs_vocab_lookup(const cavs_vocab *vocab, const char *word);

/// Number of words.
CAVS_API int32_t cavs_vocab_size(const cavs_vocab *vocab);

/// The word with id `id`, or NULL when out of range; valid as long as the
/// vocabulary.
CAVS_API const char *cavs_vocab_word(const cavs_vocab *vocab, int32_t id);

CAVS_EXTERN_C_END

#endif // CAVS_VOCAB_H
