//===- VocabApi.cpp - C ABI of vocabularies -------------------------------===//
//
// Thin adapters from cavs/vocab.h onto Vocab.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/vocab.h"
#include "support/Guard.h"

#include <memory>

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_vocab_create(cavs_vocab **out_vocab) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_vocab, "out_vocab"));
    *out_vocab = new cavs_vocab();
    return Status();
  });
}

cavs_status cavs_vocab_load(const char *path, cavs_vocab **out_vocab) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_vocab, "out_vocab"));
    auto handle = std::make_unique<cavs_vocab>();
    CAVS_RETURN_IF_ERROR(Vocab::load(path, handle->impl));
    *out_vocab = handle.release();
    return Status();
  });
}

cavs_status cavs_vocab_save(const cavs_vocab *vocab, const char *path) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(vocab, "vocab"));
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    return vocab->impl.save(path);
  });
}

void cavs_vocab_destroy(cavs_vocab *vocab) { delete vocab; }

cavs_status cavs_vocab_add(cavs_vocab *vocab, const char *word,
                           int32_t *out_id) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(vocab, "vocab"));
    CAVS_RETURN_IF_ERROR(requireNonNull(word, "word"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_id, "out_id"));
    return vocab->impl.add(word, *out_id);
  });
}

int32_t cavs_vocab_lookup(const cavs_vocab *vocab, const char *word) {
  return vocab && word ? vocab->impl.lookup(word) : -1;
}

int32_t cavs_vocab_size(const cavs_vocab *vocab) {
  return vocab ? vocab->impl.size() : 0;
}

const char *cavs_vocab_word(const cavs_vocab *vocab, int32_t id) {
  if (id < 0 || id >= cavs_vocab_size(vocab))
    return nullptr;
  return vocab->impl.word(id).c_str();
}

} // extern "C"
